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

/**
 * The most `from` clauses one query may have, and the most keys one `sort by`: the compiled
 * query nests with each (each `from` a loop inside the one before), and the bundle validator
 * follows compiled code to a depth of some seven hundred joins; far above what people write.
 */
const MOST_QUERY_FROMS = 200;
const MOST_SORT_KEYS = 200;

/**
 * A query past those bounds, refused at the query by check as by run (spec/security.md, "Bounded work on hostile
 * input").
 */
function tooLong(ctx: Context, query: S.Query): boolean {
  const froms = query.clauses.filter((c) => c.kind === "FromClause").length;
  if (froms > MOST_QUERY_FROMS) {
    ctx.problem("E-CHECK-TOO-COMPLEX", query.span, { clause: "join", found: froms, most: MOST_QUERY_FROMS });
    return true;
  }
  const sort = query.clauses.find((c): c is S.SortClause => c.kind === "SortClause" && c.keys.length > MOST_SORT_KEYS);
  if (sort !== undefined) {
    ctx.problem("E-CHECK-TOO-COMPLEX", query.span, {
      clause: "sort key",
      found: sort.keys.length,
      most: MOST_SORT_KEYS,
    });
    return true;
  }
  return false;
}

function checkQueryClauses(ctx: Context, query: S.Query): CExpr {
  if (tooLong(ctx, query)) return { kind: "Invalid", type: ERROR, span: query.span };
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
          clauses.push({
            kind: "Where",
            condition: pure(ctx, "where", clause.span, () =>
              checkCondition(ctx, clause.condition, { of: "condition", statement: "where" }),
            ),
          });
          break;
        case "LetClause": {
          const value = pure(ctx, "let", clause.span, () => checkExpr(ctx, clause.value));
          clauses.push({
            kind: "Let",
            local: ctx.declare(clause.name.name, value.type, false, clause.name.span),
            value,
          });
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
          ctx.innermost().clear();
          const groupType = declared(ctx.program.prelude.types.get("Group")!, [key.type, row]);
          const into = ctx.declare(clause.into.name, groupType, false, clause.into.span);
          row = groupType;
          clauses.push({ kind: "Group", key, into });
          break;
        }
        case "TakeClause":
        case "DropClause": {
          const count = checkExpr(ctx, clause.count, INT);
          ctx.expectType(count.type, INT, count.span, {
            of: "count",
            clause: clause.kind === "TakeClause" ? "take" : "drop",
          });
          clauses.push({ kind: clause.kind === "TakeClause" ? "Take" : "Drop", count });
          break;
        }
      }
    }
    const select = checkExpr(ctx, query.select.value);
    if (query.select.distinct) requireAbility(ctx, select.type, "hash", select.span);
    const concurrently =
      query.concurrently === undefined
        ? undefined
        : query.concurrently.limit === undefined
          ? {}
          : { limit: query.concurrently.limit.value };
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
