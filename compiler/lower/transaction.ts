// `database.transaction` is given, after its work, how a DbError of its own (BEGIN, COMMIT, a refusal) becomes its
// failure type E: wrapped into E's one case holding a DbError, as `otherwise fail` would wrap it, or nothing when E
// is DbError (compiler/check/transaction.ts proved that E is one of the two).

import type { Type } from "../check/types.js";
import { fieldsOf, resolve } from "../check/types.js";
import type { Lowerer } from "./context.js";
import { construct } from "./guarded.js";
import * as t from "./js.js";
import { classRef } from "./shapes.js";

/** The function that makes a DbError a failure of type `fails`, or undefined when it is one already. */
export function dbErrorInto(lw: Lowerer, fails: Type | undefined): t.Expression | undefined {
  const e = fails === undefined ? undefined : resolve(fails);
  if (e === undefined || e.kind !== "Con" || e.decl === undefined || e.decl.shape !== "variant") return undefined;
  if (e.decl.module === "prelude" && e.decl.name === "DbError") return undefined;
  const decl = e.decl;
  const holder = decl.cases.find((c) => {
    const fields = fieldsOf(decl, e.args, c.fields);
    const only = fields.length === 1 ? resolve(fields[0]!.type) : undefined;
    return only?.kind === "Con" && only.decl?.module === "prelude" && only.name === "DbError";
  });
  if (holder === undefined) return undefined;
  const error = lw.temp("db");
  return t.arrowFunctionExpression([error], construct(lw, classRef(lw, decl, holder.name), [error]));
}
