// What a `for each` or a query's `from` walks over: a list as it is, a set's
// values, a map's entries as pairs.

import * as t from "./js.js";
import type { CExpr } from "../check/checked.js";
import { resolve } from "../check/types.js";
import type { Lowerer } from "./context.js";

/** The JavaScript iterable for `source`, the lowered value of `syntax`. */
export function iterableOf(lw: Lowerer, source: t.Expression, syntax: CExpr): t.Expression {
  // With guards, each item carries the container's origins (rtlib/origin-ops.ts).
  if (lw.guarded) return t.callExpression(lw.g("items"), [source]);
  const r = resolve(syntax.type);
  if (r.kind === "Con" && r.name === "Set")
    return t.callExpression(t.memberExpression(source, t.identifier("values")), []);
  if (r.kind === "Con" && r.name === "Map") {
    // Array.from(m.entries()).map(([k, v]) => new $Pair(k, v))
    const entries = t.callExpression(t.memberExpression(source, t.identifier("entries")), []);
    const array = t.callExpression(t.memberExpression(t.identifier("Array"), t.identifier("from")), [entries]);
    const toPair = t.arrowFunctionExpression(
      [t.arrayPattern([t.identifier("k"), t.identifier("v")])],
      t.newExpression(lw.rt("Pair"), [t.identifier("k"), t.identifier("v")]),
    );
    return t.callExpression(t.memberExpression(array, t.identifier("map")), [toPair]);
  }
  return source;
}
