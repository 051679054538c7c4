// Queries (spec/grammar.md, section 9): each clause in order, with the names it
// binds in scope for the clauses after it.

import type * as S from "../parse/tree.js";
import { requireAbility } from "./bounds.js";
import type { CClause, CExpr } from "./checked.js";
import type { Context } from "./context.js";
import { checkCondition, checkExpr } from "./expressions.js";
import { checkPattern } from "./patterns.js";
import { declared, ERROR, freshMeta, INT, listOf, pairOf, resolve, typeToText, unify, type Type } from "./types.js";

/**
 * The `where`, `let`, `sort` and `group` clauses are pure (spec/types.md, section 6, "The rule"):
 * only `select` may call what needs a capability.
 */
function pure<T>(ctx: Context, clause: string, span: S.Query["span"], check: () => T): T {
  const before = ctx.frame.needs.length;
  const result = check();
  const used = ctx.frame.needs.slice(before);
  if (used.length > 0) {
    ctx.problem("E-CAP-QUERY-CLAUSE", span, { clause, capability: used[0]!.path.join(".") });
  }
  return result;
}

export function checkQuery(ctx: Context, query: S.Query): CExpr {
  // Inside a query no loop around it can be left, nor the function: see leavesQuery (statements.ts).
  const frame = ctx.frame;
  const loops = frame.loops;
  frame.queries++;
  frame.loops = 0;
  try {
    return checkQueryClauses(ctx, query);
  } finally {
    frame.queries--;
    frame.loops = loops;
  }
}

function checkQueryClauses(ctx: Context, query: S.Query): CExpr {
  return ctx.withScope(() => {
    const clauses: CClause[] = [];
    // The value each row of the query stands for: the last `from` variable's.
    let row: Type = ERROR;
    for (const clause of query.clauses) {
      switch (clause.kind) {
        case "FromClause": {
          const source = checkExpr(ctx, clause.source);
          row = itemType(ctx, source);
          const pattern = checkPattern(ctx, clause.pattern, row);
          clauses.push({ kind: "From", pattern, source });
          break;
        }
        case "WhereClause":
          clauses.push({ kind: "Where", condition: pure(ctx, "where", clause.span, () => checkCondition(ctx, clause.condition, { of: "condition", statement: "where" })) });
          break;
        case "LetClause": {
          const value = pure(ctx, "let", clause.span, () => checkExpr(ctx, clause.value));
          clauses.push({ kind: "Let", local: ctx.declare(clause.name.name, value.type, false, clause.name.span), value });
          break;
        }
        case "SortClause":
          clauses.push({
            kind: "Sort",
            keys: clause.keys.map((k) => {
              const value = pure(ctx, "sort", clause.span, () => checkExpr(ctx, k.value));
              requireAbility(ctx, value.type, "compare", value.span);
              return { value, descending: k.descending };
            }),
          });
          break;
        case "GroupClause": {
          const key = pure(ctx, "group", clause.span, () => checkExpr(ctx, clause.key));
          requireAbility(ctx, key.type, "hash", key.span);
          // After `group by`, only the group is in scope: the earlier names were per row.
          ctx.scopes[ctx.scopes.length - 1]!.clear();
          const groupType = declared(ctx.program.prelude.types.get("Group")!, [key.type, row]);
          const into = ctx.declare(clause.into.name, groupType, false, clause.into.span);
          row = groupType;
          clauses.push({ kind: "Group", key, into });
          break;
        }
        case "TakeClause":
        case "DropClause": {
          const count = checkExpr(ctx, clause.count, INT);
          ctx.expectType(count.type, INT, count.span, { of: "count", clause: clause.kind === "TakeClause" ? "take" : "drop" });
          clauses.push({ kind: clause.kind === "TakeClause" ? "Take" : "Drop", count });
          break;
        }
      }
    }
    const select = checkExpr(ctx, query.select.value);
    if (query.select.distinct) requireAbility(ctx, select.type, "hash", select.span);
    const concurrently = query.concurrently === undefined ? undefined : query.concurrently.limit === undefined ? {} : { limit: query.concurrently.limit.value };
    if (query.concurrently?.limit !== undefined && query.concurrently.limit.value < 1) {
      ctx.problem("E-TYPE-MISMATCH", query.concurrently.limit.span, { problem: "concurrency limit" });
    }
    return {
      kind: "Query",
      clauses,
      select,
      distinct: query.select.distinct,
      ...(concurrently ? { concurrently } : {}),
      type: listOf(select.type),
      span: query.span,
    } as CExpr;
  });
}

/** What `from x in source` binds `x` to: the items of a list or set, the entries of a map. */
function itemType(ctx: Context, source: CExpr): Type {
  const type = resolve(source.type);
  if (type.kind === "Con" && (type.name === "List" || type.name === "Set")) return type.args[0]!;
  if (type.kind === "Con" && type.name === "Map") return pairOf(type.args[0]!, type.args[1]!);
  if (type.kind === "Meta") {
    const item = freshMeta();
    unify(type, listOf(item));
    return item;
  }
  if (type.kind !== "Error") {
    ctx.problem("E-TYPE-MISMATCH", source.span, { problem: "iterate", construct: "from", found: typeToText(type) });
  }
  return ERROR;
}
