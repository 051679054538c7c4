// Where a value is only looked at (spec/runtime.md, "Value semantics without
// copying"): the positions in which reading a list, map or set neither keeps
// it nor lets it reach anything that outlives the expression. Declared once,
// for the borrow analysis (index.ts) and for the lowering of `var`s that own
// their value (compiler/lower/statements.ts, expressions.ts): a read in one of
// these positions leaves a `var` the only owner of its value.

import type { CBlock, CExpr, CStatement } from "../check/checked.js";
import { libraryScopes } from "../check/declare.js";
import { resolve, type Type } from "../check/types.js";
import { forEachChild, forEachStatementChild } from "./walk.js";

/**
 * Library functions that only look at their arguments: `all` of them, or only
 * the `first` (the list a `map` or `filter` walks; what it is given beside may
 * end up in the result). Each returns a new value or an item, never the list itself.
 */
const LOOKING_LIBRARY: ReadonlyMap<string, "all" | "first"> = new Map<string, "all" | "first">([
  ...(
    [
      "list.length",
      "list.count",
      "list.is_empty",
      "list.get",
      "list.first",
      "list.last",
      "list.contains",
      "list.index_of",
    ] as const
  ).map((n) => [n, "all"] as const),
  ...(["list.sum", "list.average", "list.min", "list.max", "list.any", "list.all", "list.find"] as const).map(
    (n) => [n, "all"] as const,
  ),
  ...(
    [
      "map.get",
      "map.contains",
      "map.length",
      "map.is_empty",
      "sets.contains",
      "sets.length",
      "sets.is_empty",
      "text.join",
      "json.encode",
    ] as const
  ).map((n) => [n, "all"] as const),
  ...(["list.map", "list.filter", "list.flat_map", "list.sort_by", "list.fold"] as const).map(
    (n) => [n, "first"] as const,
  ),
]);

/** Comparisons: they give a Boolean. */
const COMPARING = new Set(["is", "is not", "<", "<=", ">", ">="]);

const isList = (type: Type): boolean => {
  const r = resolve(type);
  return r.kind === "Con" && r.name === "List" && r.decl === undefined;
};

/** A list, map or set: the values a `var` may own and change in place. */
export function holdsInPlace(type: Type): boolean {
  const r = resolve(type);
  return r.kind === "Con" && (r.name === "List" || r.name === "Map" || r.name === "Set") && r.decl === undefined;
}

/** A record with a field that may hold a list, map or set (a type parameter may). */
export function recordHoldsInPlace(type: Type): boolean {
  const r = resolve(type);
  return r.kind === "Con" && r.decl?.shape === "record" && r.decl.fields.some((f) => mayHoldInPlace(f.type));
}

/** A list, map or set, or a type parameter, which may be one. */
export function mayHoldInPlace(type: Type): boolean {
  const r = resolve(type);
  return holdsInPlace(r) || r.kind !== "Con";
}

/**
 * Whether a field read gives a list, map or set (or what may be one): reading any other field copies a plain value or
 * shares a record.
 */
export function fieldHoldsInPlace(e: Extract<CExpr, { kind: "Field" }>): boolean {
  return mayHoldInPlace(e.type);
}

/**
 * The children of `e` that it only looks at. `borrows` says whether a
 * parameter of a function of the program only borrows (the analysis's answer).
 */
export function lookingChildren(
  e: CExpr,
  borrows: (module: string, name: string, index: number) => boolean,
): ReadonlySet<CExpr> {
  const out = new Set<CExpr>();
  // A `set` inside the expression (in an arm of a `match` or an `otherwise`) may change in
  // place a value read earlier in it and used after: nothing in it then only looks.
  if (changesVar(e)) return out;
  const add = (c: CExpr | undefined): void => {
    if (c !== undefined) out.add(c);
  };
  switch (e.kind) {
    case "Call": {
      const callee = e.callee;
      if (callee.kind === "Library") {
        const which = LOOKING_LIBRARY.get(`${callee.module}.${callee.name}`);
        if (which === "all") e.args.forEach(add);
        else if (which === "first") add(e.args[0]);
      } else if (callee.kind === "Function") {
        e.args.forEach((a, i) => {
          if (borrows(callee.module, callee.name, i)) add(a);
        });
      } else if (callee.kind === "Ability" && callee.ability !== "from_json") {
        // to_text and to_json write a new value from it.
        e.args.forEach(add);
      }
      break;
    }
    case "Index":
      add(e.object);
      break;
    case "Text":
      for (const p of e.parts) if (typeof p !== "string") add(p);
      break;
    case "Binary":
      // A comparison gives a Boolean; `a + b` of lists makes a new list.
      if (COMPARING.has(e.op) || (e.op === "+" && isList(e.type))) {
        add(e.left);
        add(e.right);
      }
      break;
    case "Query":
      // A query walks its sources and builds new rows: it never gives a source back.
      for (const c of e.clauses) if (c.kind === "From") add(c.source);
      break;
    default:
      break;
  }
  return out;
}

/**
 * Whether the library function always gives a new list, map or set: one its
 * signature declares as `List<...>`, `Map<...>` or `Set<...>`. One declared to
 * return a type parameter (`optional.or_else`, `database.transaction`) may give
 * back a value an argument holds, so a `var` given it is not its only owner.
 * tests/fresh-library.test.ts calls each of the first kind and checks that its
 * result is no list, map or set its arguments hold.
 */
export function libraryMakesNew(module: string, name: string): boolean {
  const returns = libraryScopes().library.get(module)?.functions.get(name)?.returns;
  return returns !== undefined && holdsInPlace(returns);
}

const changing = new WeakMap<CExpr, boolean>();

/**
 * Whether evaluating the expression may run a `set` (in a block of a `match`
 * arm or an `otherwise` handler; a function value's body is counted too, though
 * it cannot change a `var` around it). Remembered per node: the lowering asks
 * of every expression with looking children.
 */
export function changesVar(e: CExpr): boolean {
  const known = changing.get(e);
  if (known !== undefined) return known;
  let found = false;
  const statement = (s: CStatement): void => {
    if (found) return;
    if (s.kind === "Set") {
      found = true;
      return;
    }
    forEachStatementChild(s, expr, block, statement);
  };
  const block = (b: CBlock): void => b.statements.forEach(statement);
  const expr = (x: CExpr): void => {
    if (found) return;
    if (changesVar(x)) found = true;
  };
  forEachChild(e, expr, block, statement);
  changing.set(e, found);
  return found;
}
