// Whether a block always ends with `return`, `fail` or `crash`, read from the syntax.

import type * as S from "../parse/tree.js";
import type { Context } from "./context.js";

/**
 * Whether every path through a block ends with `return`, `fail` or `crash`
 * (spec/types.md, section 2): an `if` with an `else` ends when all its branches
 * do; a `match` when all its arms do (a match missing a case is reported as
 * such, not as a missing return).
 */
export function blockEnds(ctx: Context, block: S.Block): boolean {
  return block.statements.some((s) => statementEnds(ctx, s));
}

function statementEnds(ctx: Context, statement: S.Statement): boolean {
  switch (statement.kind) {
    case "Return":
    case "Fail":
    case "Crash":
    case "Stop":
    case "Skip":
      return true;
    case "If":
      return (
        statement.elseBody !== undefined &&
        blockEnds(ctx, statement.elseBody) &&
        statement.branches.every((b) => blockEnds(ctx, b.body))
      );
    case "ExprStatement":
      return (
        statement.expr.kind === "Match" &&
        statement.expr.arms.length > 0 &&
        statement.expr.arms.every((a) => blockEnds(ctx, a.body))
      );
    default:
      return false;
  }
}
