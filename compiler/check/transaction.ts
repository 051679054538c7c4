// `database.transaction<T, E>(db, work: function(Database) returns T or fails with E) returns T or fails with E`
// (spec/effects.md, the database): the transaction fails with what its work failed with, and a DbError of its own
// (BEGIN, COMMIT, a refusal) is passed on into E as `otherwise fail` would pass it: E is DbError, or has exactly one
// case whose single field is a DbError. A work that cannot fail is a work of E = DbError.

import type { Span } from "../source.js";
import type { Context } from "./context.js";
import { holdersOf } from "./failures.js";
import { declared, resolve, sameType, typeToText, unify, type Type } from "./types.js";

export const TRANSACTION = "database.transaction";

/**
 * The type the work argument is held to: the parameter's, or, for a function that cannot fail, the parameter's
 * without its failure, E being then DbError.
 */
export function workSlot(ctx: Context, slot: Type, given: Type): Type {
  const s = resolve(slot);
  const g = resolve(given);
  if (s.kind !== "Function" || s.fails === undefined || g.kind !== "Function" || g.fails !== undefined) return slot;
  unify(s.fails, dbError(ctx));
  const { fails: _, ...cannotFail } = s;
  return cannotFail;
}

/** E must take a DbError as `otherwise fail` takes one; one the work never decided on is DbError. */
export function checkTransactionFailure(ctx: Context, fails: Type, span: Span): void {
  const db = dbError(ctx);
  const e = resolve(fails);
  if (e.kind === "Meta") unify(e, db);
  if (e.kind === "Error" || e.kind === "Meta" || sameType(e, db)) return;
  const holders = holdersOf(e, db);
  if (holders.length === 1) return;
  ctx.problem("E-FAIL-WRAP", span, {
    failing: "DbError",
    own: typeToText(e),
    owner: { kind: "function value" },
    holders,
    call: TRANSACTION,
  });
}

function dbError(ctx: Context): Type {
  return declared(ctx.program.prelude.types.get("DbError")!, []);
}
