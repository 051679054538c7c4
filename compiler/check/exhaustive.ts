// Exhaustiveness and redundancy of patterns, by the usefulness algorithm of
// Maranget ("Warnings for pattern matching", 2007): a pattern vector is useful
// against the rows above it if some value matches it and none of them. A match
// is exhaustive when a wildcard is not useful after all its arms; an arm is
// unreachable when it is not useful after the arms before it. For a missing
// case the algorithm also builds an example value that no arm covers.
//
// Deciding exhaustiveness is hard in general (arms over many Boolean fields
// can encode a satisfiability problem), so no algorithm is fast on every
// match: the work is counted in steps, one per pattern each recursive call
// copies or looks at (its rows times its columns), and a match that needs more than its budget is refused as too
// complex
// rather than checked for a minute (E-MATCH-TOO-COMPLEX).

import type { CPattern } from "./checked.js";
import { ERROR, fieldsOf, resolve, type FieldInfo, type Type, type TypeDecl } from "./types.js";

/** A constructor of a type: a variant case, true/false, a pair, a record, [] or a non-empty list, or a literal. */
interface Ctor {
  readonly key: string;
  readonly arity: number;
  /** How the example shows it, given its arguments' renderings. */
  readonly show: (args: string[]) => string;
}

type Pat = { kind: "wild" } | { kind: "con"; ctor: Ctor; args: Pat[] };

const WILD: Pat = { kind: "wild" };

/** The constructors of a type, when there are finitely many; undefined for Int, Text and the like. */
function constructors(type: Type): Ctor[] | undefined {
  const t = resolve(type);
  if (t.kind !== "Con") return undefined;
  if (t.decl !== undefined) return declared(t.decl).all;
  switch (t.name) {
    case "Boolean":
      return [literalCtor(true), literalCtor(false)];
    case "Nothing":
      return [literalCtor(null)];
    case "Pair":
      return [PAIR];
    case "List":
      return [NIL, CONS];
    default:
      return undefined;
  }
}

/**
 * A declared type's constructors, made once: a variant of thousands of cases is looked at by every pattern that names
 * one.
 */
const ctorsOfDecl = new WeakMap<
  TypeDecl,
  { readonly all: Ctor[]; readonly fields: ReadonlyMap<string, readonly FieldInfo[]> }
>();

function declared(decl: TypeDecl): {
  readonly all: Ctor[];
  readonly fields: ReadonlyMap<string, readonly FieldInfo[]>;
} {
  let known = ctorsOfDecl.get(decl);
  if (known === undefined) {
    const all =
      decl.shape === "record" ? [recordCtor(decl)] : decl.cases.map((c) => caseCtor(decl, c.name, c.fields.length));
    const fields = new Map<string, readonly FieldInfo[]>(
      decl.shape === "record"
        ? [[all[0]!.key, decl.fields]]
        : decl.cases.map((c) => [`case:${decl.name}.${c.name}`, c.fields]),
    );
    known = { all, fields };
    ctorsOfDecl.set(decl, known);
  }
  return known;
}

/** The types of a constructor's arguments, for a value of `type` (unknown ones where the type is in error). */
function argTypes(ctor: Ctor, type: Type): Type[] {
  const unknown = (): Type[] => Array<Type>(ctor.arity).fill(ERROR);
  const t = resolve(type);
  if (t.kind !== "Con") return unknown();
  if (ctor === PAIR) return t.name === "Pair" ? [t.args[0]!, t.args[1]!] : unknown();
  if (ctor === CONS) return t.name === "List" ? [t.args[0]!, t] : unknown();
  if (t.decl !== undefined) {
    const decl = t.decl;
    const fields = declared(decl).fields.get(ctor.key);
    if (fields === undefined || fields.length !== ctor.arity) return unknown();
    return fieldsOf(decl, t.args, fields).map((f) => f.type);
  }
  return unknown();
}

const PAIR: Ctor = { key: "pair", arity: 2, show: ([a, b]) => `(${a}, ${b})` };
const NIL: Ctor = { key: "nil", arity: 0, show: () => "[]" };
const CONS: Ctor = { key: "cons", arity: 2, show: ([head, tail]) => showCons(head!, tail!) };

function showCons(head: string, tail: string): string {
  if (tail === "[]") return `[${head}]`;
  if (tail === "_") return `[${head}, ..._]`;
  return `[${head}, ${tail.slice(1)}`;
}

function recordCtor(decl: TypeDecl): Ctor {
  return { key: `record:${decl.name}`, arity: decl.fields.length, show: (args) => `${decl.name}(${args.join(", ")})` };
}

function caseCtor(decl: TypeDecl, name: string, arity: number): Ctor {
  // The prelude's Some and None read unqualified, as users write them.
  const written = decl.module === "prelude" && decl.name === "Optional" ? name : `${decl.name}.${name}`;
  return {
    key: `case:${decl.name}.${name}`,
    arity,
    show: (args) => (arity === 0 ? written : `${written}(${args.join(", ")})`),
  };
}

function literalCtor(value: number | string | boolean | null): Ctor {
  const text = value === null ? "nothing" : typeof value === "string" ? JSON.stringify(value) : String(value);
  return { key: `literal:${typeof value}:${String(value)}`, arity: 0, show: () => text };
}

/** Converts a checked pattern; `_` and names are wildcards, list patterns are cons cells. */
function toPat(pattern: CPattern): Pat {
  switch (pattern.kind) {
    case "Wildcard":
    case "Bind":
      return WILD;
    case "Literal":
      return { kind: "con", ctor: literalCtor(pattern.value), args: [] };
    case "Pair":
      return { kind: "con", ctor: PAIR, args: [toPat(pattern.first), toPat(pattern.second)] };
    case "Record":
      return { kind: "con", ctor: recordCtor(pattern.decl), args: pattern.args.map(toPat) };
    case "Case":
      return {
        kind: "con",
        ctor: caseCtor(pattern.decl, pattern.caseName, pattern.args.length),
        args: pattern.args.map(toPat),
      };
    case "List": {
      let tail: Pat = pattern.rest === undefined ? { kind: "con", ctor: NIL, args: [] } : toPat(pattern.rest);
      for (let i = pattern.items.length - 1; i >= 0; i--)
        tail = { kind: "con", ctor: CONS, args: [toPat(pattern.items[i]!), tail] };
      return tail;
    }
  }
}

function specialize(rows: Pat[][], ctor: Ctor): Pat[][] {
  const out: Pat[][] = [];
  for (const row of rows) {
    const head = row[0]!;
    if (head.kind === "wild") out.push([...Array<Pat>(ctor.arity).fill(WILD), ...row.slice(1)]);
    else if (head.ctor.key === ctor.key) out.push([...head.args, ...row.slice(1)]);
  }
  return out;
}

function defaultRows(rows: Pat[][]): Pat[][] {
  return rows.filter((row) => row[0]!.kind === "wild").map((row) => row.slice(1));
}

/**
 * The rows indexed by the constructor at their head: specializing by each of
 * a type's constructors in turn then costs the rows each keeps, not every
 * row for every constructor (a match over a variant of thousands of cases
 * would be quadratic, and most of that work uncounted).
 */
class Heads {
  private readonly under = new Map<string, number[]>();
  private readonly wild: number[] = [];
  private readonly rows: Pat[][] = [];

  constructor(rows: readonly Pat[][] = []) {
    for (const row of rows) this.add(row);
  }

  add(row: Pat[]): void {
    const head = row[0]!;
    const i = this.rows.push(row) - 1;
    if (head.kind === "wild") this.wild.push(i);
    else {
      const list = this.under.get(head.ctor.key);
      if (list === undefined) this.under.set(head.ctor.key, [i]);
      else list.push(i);
    }
  }

  has(key: string): boolean {
    return this.under.has(key);
  }

  /**
   * Every row so far with `key` or a wildcard at its head, in their order: all that specializing by that constructor
   * keeps.
   */
  keptBy(key: string, budget: StepBudget): Pat[][] {
    const named = this.under.get(key) ?? [];
    const wild = this.wild;
    budget.spend(named.length + wild.length);
    const out: Pat[][] = [];
    let a = 0;
    let b = 0;
    while (a < named.length || b < wild.length) {
      const next = b >= wild.length || (a < named.length && named[a]! < wild[b]!) ? named[a++]! : wild[b++]!;
      out.push(this.rows[next]!);
    }
    return out;
  }

  /** Every row so far. */
  all(): Pat[][] {
    return this.rows;
  }
}

/** The steps a match may take; spent by `useful` and `witness`. */
export class StepBudget {
  constructor(public left: number) {}

  spend(steps: number): void {
    this.left -= steps;
    if (this.left < 0) throw TOO_COMPLEX;
  }
}

const TOO_COMPLEX = new Error("the match needs more steps than its budget");

/** Whether every constructor of a type is at the head of some row (a step each). */
function coveredBy(all: readonly Ctor[], seen: Heads, budget: StepBudget): boolean {
  budget.spend(all.length);
  return all.every((c) => seen.has(c.key));
}

/** Whether some value matches `q` and no row of `rows`. */
function useful(rows: Pat[][], q: Pat[], types: Type[], budget: StepBudget): boolean {
  budget.spend(1 + rows.length * q.length);
  if (q.length === 0) return rows.length === 0;
  const head = q[0]!;
  const type = types[0]!;
  if (head.kind === "con") {
    return useful(
      specialize(rows, head.ctor),
      [...head.args, ...q.slice(1)],
      [...argTypes(head.ctor, type), ...types.slice(1)],
      budget,
    );
  }
  const all = constructors(type);
  const seen = new Heads(rows);
  if (all !== undefined && all.length > 0 && coveredBy(all, seen, budget)) {
    return all.some((c) =>
      useful(
        specialize(seen.keptBy(c.key, budget), c),
        [...Array<Pat>(c.arity).fill(WILD), ...q.slice(1)],
        [...argTypes(c, type), ...types.slice(1)],
        budget,
      ),
    );
  }
  return useful(defaultRows(rows), q.slice(1), types.slice(1), budget);
}

/** A vector of example values (rendered) that no row matches, or undefined when the rows cover everything. */
function witness(rows: Pat[][], types: Type[], budget: StepBudget): string[] | undefined {
  budget.spend(1 + rows.length * types.length);
  if (types.length === 0) return rows.length === 0 ? [] : undefined;
  const type = types[0]!;
  const all = constructors(type);
  const seen = new Heads(rows);
  if (all !== undefined && all.length > 0 && coveredBy(all, seen, budget)) {
    for (const c of all) {
      const w = witness(specialize(seen.keptBy(c.key, budget), c), [...argTypes(c, type), ...types.slice(1)], budget);
      if (w !== undefined) return [c.show(w.slice(0, c.arity)), ...w.slice(c.arity)];
    }
    return undefined;
  }
  const rest = witness(defaultRows(rows), types.slice(1), budget);
  if (rest === undefined) return undefined;
  if (all !== undefined && all.length > 0) {
    // Prefer a constructor no row mentions; its arguments may be anything.
    const missing = all.find((c) => !seen.has(c.key)) ?? all[0]!;
    return [missing.show(Array<string>(missing.arity).fill("_")), ...rest];
  }
  return ["_", ...rest];
}

export type MatchAnalysis =
  | {
      readonly tooComplex?: undefined;
      /** An example of a value no arm matches, when the arms are not exhaustive. */
      readonly missing?: string;
      /** Indices of arms that can never be reached. */
      readonly unreachable: number[];
    }
  | { readonly tooComplex: true };

/** Exhaustiveness first (it decides whether the program may run), then each arm's reachability. */
export function analyseMatch(subject: Type, patterns: readonly CPattern[], budget: StepBudget): MatchAnalysis {
  const rows = patterns.map((pattern) => [toPat(pattern)]);
  try {
    const w = witness(rows, [subject], budget);
    const unreachable: number[] = [];
    // Only the arms above with this arm's constructor or a wildcard at their
    // head can cover it: the others are dropped by its first step anyway.
    const above = new Heads();
    rows.forEach((row, i) => {
      const head = row[0]!;
      const candidates = head.kind === "con" ? above.keptBy(head.ctor.key, budget) : above.all();
      if (!useful(candidates, row, [subject], budget)) unreachable.push(i);
      above.add(row);
    });
    return w === undefined ? { unreachable } : { missing: w[0]!, unreachable };
  } catch (e) {
    if (e === TOO_COMPLEX) return { tooComplex: true };
    throw e;
  }
}

/** Whether a pattern matches every value of its type (for `let`, `for each` and parameters): one row, linear work. */
export function isIrrefutable(pattern: CPattern, type: Type): boolean {
  return witness([[toPat(pattern)]], [type], new StepBudget(Infinity)) === undefined;
}
