// The checker's types: what every checked expression carries.
//
// Built-in types and declared records and variants are all constructors with
// arguments (`List<Text>` is Con("List", [Text])). Type parameters of a generic
// definition are rigid `Param`s inside it; inference works with `Meta`
// variables that unification fills in.

import type { Span } from "../source.js";
import { needText, type Need as CapabilityNeed } from "../../vocabulary/needs.js";
import { spendTypeSteps, withoutTypeBudget } from "./work.js";

export type Type = Con | FunctionType | Param | Meta | ErrorType;

/** A named type: built-in (`Int`, `List`) or declared (a record, a variant). */
export interface Con {
  readonly kind: "Con";
  readonly name: string;
  readonly args: readonly Type[];
  /** Present for records and variants; built-ins have none. */
  readonly decl?: TypeDecl;
}

/** `function(A, B) returns C or fails with E needs ...` */
export interface FunctionType {
  readonly kind: "Function";
  readonly params: readonly Type[];
  readonly returns: Type;
  readonly fails?: Type;
  readonly needs: readonly Need[];
  /**
   * Library higher-order functions accept functions with any needs; the call
   * then needs what its function arguments need (see spec/types.md).
   */
  readonly anyNeeds?: boolean;
}

/** A type parameter of the definition being checked (`T` in `first<T>`). */
export interface Param {
  readonly kind: "Param";
  readonly name: string;
  readonly id: number;
}

/** An inference variable; `solution` is set once unification learns it. */
export interface Meta {
  readonly kind: "Meta";
  readonly id: number;
  solution?: Type;
}

/** Stands for a type that could not be worked out; it unifies with anything, so one mistake gives one error. */
export interface ErrorType {
  readonly kind: "Error";
}

/** A capability the code needs (the vocabulary's Need), with where it was declared or arose, for messages. */
export interface Need extends CapabilityNeed {
  readonly span?: Span;
}

export interface FieldInfo {
  readonly name: string;
  readonly type: Type;
  readonly jsonKey: string;
}

export interface CaseInfo {
  readonly name: string;
  readonly fields: readonly FieldInfo[];
}

/** A declared record or variant, in terms of its type parameters. */
export interface TypeDecl {
  readonly name: string;
  /** The module that declares it (`prelude` for the library's). */
  readonly module: string;
  readonly params: readonly Param[];
  readonly shape: "record" | "variant";
  /** Records: their fields. Filled in after every type of the program is known. */
  fields: FieldInfo[];
  /** Variants: their cases, in declaration order. */
  cases: CaseInfo[];
  readonly public: boolean;
  readonly purpose?: string;
  readonly span?: Span;
}

// ---- construction ----

const con = (name: string, args: readonly Type[] = []): Con => ({ kind: "Con", name, args });

export const INT = con("Int");
export const FLOAT = con("Float");
export const TEXT = con("Text");
export const BOOLEAN = con("Boolean");
export const NOTHING = con("Nothing");
export const JSON_TYPE = con("Json");
export const ERROR: ErrorType = { kind: "Error" };

export const listOf = (item: Type): Con => con("List", [item]);
export const mapOf = (key: Type, value: Type): Con => con("Map", [key, value]);
export const pairOf = (first: Type, second: Type): Con => con("Pair", [first, second]);

export function declared(decl: TypeDecl, args: readonly Type[]): Con {
  return { kind: "Con", name: decl.name, args, decl };
}

/** The built-in type constructors and how many arguments each takes. */
export const BUILTIN_ARITY: ReadonlyMap<string, number> = new Map([
  ["Int", 0],
  ["Float", 0],
  ["Text", 0],
  ["Boolean", 0],
  ["Nothing", 0],
  ["Bytes", 0],
  ["Json", 0],
  ["List", 1],
  ["Set", 1],
  ["Map", 2],
  ["Pair", 2],
]);

export function builtin(name: string, args: readonly Type[]): Con {
  return con(name, args);
}

// Ids of type variables. Each compilation numbers its own from the same start
// (`numberedFromStart`), so that no id of one compilation leaks into the next
// and compiling a program twice gives the same tree. The library's are
// negative (`asLibrary`): a library module is declared when it is first looked
// up (declare.ts keeps it), which may be in the middle of a compilation, so its
// ids must be none of the compilation's; and each module counts down from a
// start of its own, so that its ids do not depend on which module a process
// happened to declare first.
let nextId = 1;
let nextLibraryId = 0;
let declaringLibrary = false;

/** Runs a declaration of the library's, its type variables numbered down from `first` (negative). */
export function asLibrary<T>(first: number, declare: () => T): T {
  const was = { declaringLibrary, nextLibraryId };
  declaringLibrary = true;
  nextLibraryId = first;
  try {
    return withoutTypeBudget(declare);
  } finally {
    ({ declaringLibrary, nextLibraryId } = was);
  }
}

/**
 * Runs one compilation's checking with type-variable ids counted from where the library's end. Checking is synchronous,
 * so no other compilation runs in between.
 */
export function numberedFromStart<T>(check: () => T): T {
  const start = nextId;
  try {
    return check();
  } finally {
    nextId = start;
  }
}

export function freshMeta(): Meta {
  return { kind: "Meta", id: declaringLibrary ? nextLibraryId-- : nextId++ };
}

export function freshParam(name: string): Param {
  return { kind: "Param", name, id: declaringLibrary ? nextLibraryId-- : nextId++ };
}

// ---- looking through solved variables ----

/** The type with solved inference variables at its top replaced by their solutions. */
export function resolve(type: Type): Type {
  let t = type;
  while (t.kind === "Meta" && t.solution !== undefined) t = t.solution;
  return t;
}

// Every walk below visits each distinct part of a type once: types are
// shared (`(a, a)` holds the same object twice), so a walk that followed every
// path would take time exponential in the program's length. A walk remembers
// the parts it has seen by identity, and counts each visit against the
// compilation's steps (work.ts).

/** Whether a type has parts below it: the only ones a walk needs to remember. */
function composite(t: Type): t is Con | FunctionType {
  return (t.kind === "Con" && t.args.length > 0) || t.kind === "Function";
}

/** The type with every solved inference variable replaced, all the way down. */
export function zonk(type: Type): Type {
  const t = resolve(type);
  return composite(t) ? zonkIn(t, new Map()) : t;
}

function zonkIn(type: Type, done: Map<Type, Type>): Type {
  const t = resolve(type);
  if (!composite(t)) return t;
  const known = done.get(t);
  if (known !== undefined) return known;
  spendTypeSteps();
  const out = rebuild(t, (part) => zonkIn(part, done));
  done.set(t, out);
  return out;
}

/** The type with each part below its top replaced by `map` of it; the same object when no part changed. */
function rebuild(t: Con | FunctionType, map: (part: Type) => Type): Type {
  if (t.kind === "Con") {
    const args = t.args.map(map);
    return args.every((a, i) => a === t.args[i]) ? t : { ...t, args };
  }
  const params = t.params.map(map);
  const returns = map(t.returns);
  const fails = t.fails === undefined ? undefined : map(t.fails);
  if (returns === t.returns && fails === t.fails && params.every((p, i) => p === t.params[i])) return t;
  return { ...t, params, returns, ...(fails !== undefined ? { fails } : {}) };
}

/** Replaces type parameters by the given types (instantiating a generic). */
export function substitute(type: Type, map: ReadonlyMap<number, Type>): Type {
  if (map.size === 0) return type;
  const t = resolve(type);
  if (t.kind === "Param") return map.get(t.id) ?? t;
  return composite(t) ? substituteIn(t, map, new Map()) : t;
}

function substituteIn(type: Type, map: ReadonlyMap<number, Type>, done: Map<Type, Type>): Type {
  const t = resolve(type);
  if (t.kind === "Param") return map.get(t.id) ?? t;
  if (!composite(t)) return t;
  const known = done.get(t);
  if (known !== undefined) return known;
  spendTypeSteps();
  const out = rebuild(t, (part) => substituteIn(part, map, done));
  done.set(t, out);
  return out;
}

// ---- unification ----

/** Pairs of parts a walk over two types has already met (and, types being acyclic, made or found the same). */
type Pairs = Map<Type, Set<Type>>;

/** Whether the pair was met before; records it when not. */
function metBefore(pairs: Pairs, x: Type, y: Type): boolean {
  let with_ = pairs.get(x);
  if (with_ === undefined) pairs.set(x, (with_ = new Set()));
  if (with_.has(y)) return true;
  with_.add(y);
  spendTypeSteps();
  return false;
}

/**
 * Makes `a` and `b` the same type, solving inference variables on the way.
 * Returns false when they cannot be; the caller reports it with both types.
 */
export function unify(a: Type, b: Type): boolean {
  return unifyIn(a, b, undefined);
}

function unifyIn(a: Type, b: Type, pairs: Pairs | undefined): boolean {
  const x = resolve(a);
  const y = resolve(b);
  if (x === y) return true;
  if (x.kind === "Error" || y.kind === "Error") return true;
  if (x.kind === "Meta") return bind(x, y);
  if (y.kind === "Meta") return bind(y, x);
  if (x.kind === "Param" || y.kind === "Param") return x.kind === "Param" && y.kind === "Param" && x.id === y.id;
  if (composite(x) && composite(y)) {
    // A pair met before was made the same then (a failure would have ended the walk).
    const met = pairs ?? new Map();
    if (metBefore(met, x, y)) return true;
    pairs = met;
  }
  if (x.kind === "Con" && y.kind === "Con") {
    if (x.name !== y.name || x.args.length !== y.args.length) return false;
    if (x.decl !== undefined && y.decl !== undefined && x.decl !== y.decl) return false;
    return x.args.every((arg, i) => unifyIn(arg, y.args[i]!, pairs));
  }
  if (x.kind === "Function" && y.kind === "Function") {
    if (x.params.length !== y.params.length) return false;
    if (!x.params.every((p, i) => unifyIn(p, y.params[i]!, pairs))) return false;
    if (!unifyIn(x.returns, y.returns, pairs)) return false;
    if ((x.fails === undefined) !== (y.fails === undefined)) return false;
    return x.fails === undefined || unifyIn(x.fails, y.fails!, pairs);
  }
  return false;
}

function bind(meta: Meta, type: Type): boolean {
  if (type.kind === "Meta" && type.id === meta.id) return true;
  if (occurs(meta, type)) return false;
  meta.solution = type;
  return true;
}

function occurs(meta: Meta, type: Type): boolean {
  return someMeta(type, (m) => m.id === meta.id);
}

/**
 * Parts known to hold no unsolved inference variable. A variable, once
 * solved, stays solved, so a part found ground stays ground: remembering it
 * for the whole compilation keeps a chain of `let b be [a]` lines, each
 * checked against the type of the line before, linear rather than quadratic.
 */
const ground = new WeakSet<Type>();

/** Whether some unsolved inference variable in `type` satisfies `test`; each distinct part looked at once. */
function someMeta(type: Type, test: (meta: Meta) => boolean): boolean {
  const t = resolve(type);
  if (t.kind === "Meta") return test(t);
  if (!composite(t) || ground.has(t)) return false;
  const seen = new Set<Type>();
  const visit = (part: Type): boolean => {
    const p = resolve(part);
    if (p.kind === "Meta") return test(p);
    if (!composite(p) || seen.has(p) || ground.has(p)) return false;
    seen.add(p);
    spendTypeSteps();
    const found =
      p.kind === "Con"
        ? p.args.some(visit)
        : p.params.some(visit) || visit(p.returns) || (p.fails !== undefined && visit(p.fails));
    // Every part below was looked at and held none (a part seen earlier in
    // this walk held none either, or the walk would have ended there).
    if (!found) ground.add(p);
    return found;
  };
  return visit(t);
}

/** Whether two types are the same, without solving anything. */
export function sameType(a: Type, b: Type): boolean {
  return sameIn(a, b, undefined);
}

function sameIn(a: Type, b: Type, pairs: Pairs | undefined): boolean {
  const x = resolve(a);
  const y = resolve(b);
  if (x === y) return true;
  if (composite(x) && composite(y)) {
    const met = pairs ?? new Map();
    if (metBefore(met, x, y)) return true;
    pairs = met;
  }
  if (x.kind === "Con" && y.kind === "Con") {
    return (
      x.name === y.name &&
      x.decl === y.decl &&
      x.args.length === y.args.length &&
      x.args.every((arg, i) => sameIn(arg, y.args[i]!, pairs))
    );
  }
  if (x.kind === "Param" && y.kind === "Param") return x.id === y.id;
  if (x.kind === "Meta" && y.kind === "Meta") return x.id === y.id;
  if (x.kind === "Function" && y.kind === "Function") {
    return (
      x.params.length === y.params.length &&
      x.params.every((p, i) => sameIn(p, y.params[i]!, pairs)) &&
      sameIn(x.returns, y.returns, pairs) &&
      (x.fails === undefined ? y.fails === undefined : y.fails !== undefined && sameIn(x.fails, y.fails, pairs))
    );
  }
  return false;
}

/** Whether the type still holds an unsolved inference variable. */
export function hasMeta(type: Type): boolean {
  return someMeta(type, () => true);
}

// ---- printing, the way a user writes types ----

/**
 * How many characters of a type's text are written before the rest is cut:
 * a type of a few dozen lines can be too large to print (its text doubles
 * with each `(a, a)`), and a message must stay readable (spec/types.md).
 */
export const TYPE_TEXT_LIMIT = 200;

/**
 * The type as a user writes it. Past `limit` characters each part not yet
 * written is shown as `...`, and the text ends with how many types were left
 * out: `((Int, Int), ...) (3 more types not shown)`.
 */
export function typeToText(type: Type, limit = TYPE_TEXT_LIMIT): string {
  const writer = new TypeWriter(limit);
  writer.write(type);
  return writer.finish();
}

class TypeWriter {
  private readonly parts: string[] = [];
  private length = 0;
  private cut = 0;
  /** How many types each part holds read as a tree (itself included), counted once per distinct part. */
  private readonly sizes = new Map<Type, number>();

  constructor(private readonly limit: number) {}

  write(type: Type): void {
    const t = resolve(type);
    if (this.length >= this.limit) {
      this.put("...");
      this.cut = Math.min(Number.MAX_SAFE_INTEGER, this.cut + this.size(t));
      return;
    }
    switch (t.kind) {
      case "Con":
        if (t.name === "Pair" && t.args.length === 2) return this.list("(", t.args, ")");
        this.put(t.name.length > this.limit ? `${t.name.slice(0, this.limit)}...` : t.name);
        if (t.args.length > 0) this.list("<", t.args, ">");
        return;
      case "Function":
        this.list("function(", t.params, ")");
        if (!isNothing(t.returns)) {
          this.put(" returns ");
          this.write(t.returns);
        }
        if (t.fails !== undefined) {
          this.put(" or fails with ");
          this.write(t.fails);
        }
        if (t.needs.length > 0) this.put(` needs ${t.needs.map(needText).join(", ")}`);
        return;
      case "Param":
        this.put(t.name);
        return;
      case "Meta":
        this.put("_");
        return;
      case "Error":
        this.put("?");
        return;
    }
  }

  finish(): string {
    let text = this.parts.join("");
    if (this.cut === 0) return text;
    // A type nested deeper than the limit still closes each bracket it opened: past that many again, those go too.
    const most = this.limit + Math.max(this.limit, 100);
    if (text.length > most) text = `${text.slice(0, most)}...`;
    if (this.cut === Number.MAX_SAFE_INTEGER) return `${text} (more than ${this.cut} types not shown)`;
    return `${text} (${this.cut} more ${this.cut === 1 ? "type" : "types"} not shown)`;
  }

  private list(open: string, items: readonly Type[], close: string): void {
    this.put(open);
    items.forEach((item, i) => {
      if (i > 0) this.put(", ");
      this.write(item);
    });
    this.put(close);
  }

  private put(text: string): void {
    this.parts.push(text);
    this.length += text.length;
  }

  /** Counted without recursion: a type may nest deeper than the stack. */
  private size(type: Type): number {
    const below = (t: Con | FunctionType): readonly Type[] =>
      t.kind === "Con" ? t.args : [...t.params, t.returns, ...(t.fails === undefined ? [] : [t.fails])];
    const root = resolve(type);
    if (!composite(root)) return 1;
    const stack: (Con | FunctionType)[] = [root];
    while (stack.length > 0) {
      const t = stack[stack.length - 1]!;
      if (this.sizes.has(t)) {
        stack.pop();
        continue;
      }
      const waiting = below(t)
        .map(resolve)
        .filter((p): p is Con | FunctionType => composite(p) && !this.sizes.has(p));
      if (waiting.length > 0) {
        stack.push(...waiting);
        continue;
      }
      const size = below(t).reduce((sum, part) => sum + (this.sizes.get(resolve(part)) ?? 1), 1);
      this.sizes.set(t, Math.min(Number.MAX_SAFE_INTEGER, size));
      stack.pop();
    }
    return this.sizes.get(root)!;
  }
}

function isNothing(type: Type): boolean {
  const t = resolve(type);
  return t.kind === "Con" && t.name === "Nothing";
}

export function isCon(type: Type, name: string): type is Con {
  const t = resolve(type);
  return t.kind === "Con" && t.name === name;
}

/** A record or variant's fields for the given type arguments. */
export function fieldsOf(
  decl: TypeDecl,
  args: readonly Type[],
  fields: readonly FieldInfo[] = decl.fields,
): readonly FieldInfo[] {
  // A type without parameters has its fields as declared: no copies (a copy of each at every field read was much of
  // checking's garbage).
  if (decl.params.length === 0) return fields;
  const map = new Map(decl.params.map((p, i) => [p.id, args[i]!] as const));
  return fields.map((f) => ({ ...f, type: substitute(f.type, map) }));
}

/** The field `name` of a record for the given type arguments (the first of that name): fieldsOf's, found first. */
export function fieldNamed(decl: TypeDecl, args: readonly Type[], name: string): FieldInfo | undefined {
  const field = decl.fields.find((f) => f.name === name);
  if (field === undefined || decl.params.length === 0) return field;
  return fieldsOf(decl, args, [field])[0];
}

// ---- looking up a case or a field by its name ----

/**
 * Each list's names to their first index, made once per list (and again if it grew): a variant of thousands of cases is
 * looked up by every pattern and constructor that names one.
 */
const namesIndexed = new WeakMap<
  readonly { readonly name: string }[],
  { readonly length: number; readonly index: Map<string, number> }
>();

/**
 * The index of the first item named `name` (a case, a field, a parameter), or -1: what `findIndex` by name gives,
 * without a walk of the list.
 */
export function indexByName(items: readonly { readonly name: string }[], name: string): number {
  let known = namesIndexed.get(items);
  if (known === undefined || known.length !== items.length) {
    const index = new Map<string, number>();
    items.forEach((item, i) => {
      if (!index.has(item.name)) index.set(item.name, i);
    });
    known = { length: items.length, index };
    namesIndexed.set(items, known);
  }
  return known.index.get(name) ?? -1;
}

/** The case of a variant named `name`, if it has one. */
export function caseNamed(decl: TypeDecl, name: string): CaseInfo | undefined {
  return decl.cases[indexByName(decl.cases, name)];
}
