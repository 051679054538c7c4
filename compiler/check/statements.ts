// Statements and blocks; which paths end (return, fail, crash); how a failure
// passed on with `fail` is wrapped into the function's own failure type.

import type * as S from "../parse/tree.js";
import type { Span } from "../source.js";
import type { CBlock, CExpr, CPattern, CStatement, Local } from "./checked.js";
import type { Context } from "./context.js";
import { resolveType } from "./declare.js";
import { isIrrefutable } from "./exhaustive.js";
import { checkCapture } from "./captures.js";
import { checkCondition, checkExpr, checkMatch } from "./expressions.js";
import { failWith, wrapFailure } from "./failures.js";
import { checkPattern } from "./patterns.js";
import { ERROR, freshMeta, isCon, listOf, pairOf, resolve, TEXT, typeToText, unify, type Type } from "./types.js";
import { localTarget, record } from "./names.js";

export function checkBlock(ctx: Context, block: S.Block): CBlock {
  return ctx.withScope(() => ({ statements: block.statements.map((s) => checkStatement(ctx, s)) }));
}

export function checkStatement(ctx: Context, statement: S.Statement): CStatement {
  const span = statement.span;
  ctx.statementEnd = span.end;
  switch (statement.kind) {
    case "Let": {
      const annotated = statement.type
        ? resolveType(ctx.program, ctx.module, statement.type, ctx.typeParams, ctx.diagnostics)
        : undefined;
      const value = checkExpr(ctx, statement.value, annotated);
      if (annotated !== undefined) ctx.expectType(value.type, annotated, value.span, { of: "value" });
      const pattern = checkBinding(ctx, statement.pattern, annotated ?? value.type, "let");
      return { kind: "Let", pattern, value, span };
    }
    case "Var": {
      const annotated = statement.type
        ? resolveType(ctx.program, ctx.module, statement.type, ctx.typeParams, ctx.diagnostics)
        : undefined;
      const value = checkExpr(ctx, statement.value, annotated);
      if (annotated !== undefined) ctx.expectType(value.type, annotated, value.span, { of: "value" });
      const local = ctx.declare(statement.name.name, annotated ?? value.type, true, statement.name.span);
      return { kind: "Var", local, value, span };
    }
    case "Set":
      return checkSet(ctx, statement);
    case "If": {
      const branches = statement.branches.map((b) => ({
        condition: checkCondition(ctx, b.condition, { of: "condition", statement: "if" }),
        body: checkBlock(ctx, b.body),
      }));
      const elseBody = statement.elseBody ? checkBlock(ctx, statement.elseBody) : undefined;
      return { kind: "If", branches, ...(elseBody ? { elseBody } : {}), span };
    }
    case "ForEach":
      return checkForEach(ctx, statement);
    case "While": {
      const condition = checkCondition(ctx, statement.condition, { of: "condition", statement: "while" });
      const body = inLoop(ctx, () => checkBlock(ctx, statement.body));
      return { kind: "While", condition, body, span };
    }
    case "Stop":
    case "Skip":
      if (leavesTask(ctx, span, statement.kind === "Stop" ? "stop" : "skip")) return { kind: statement.kind, span };
      if (leavesQuery(ctx, span, statement.kind === "Stop" ? "stop" : "skip")) return { kind: statement.kind, span };
      if (ctx.frame.loops === 0) {
        ctx.problem("E-TYPE-LOOP-CONTROL", span, { statement: statement.kind === "Stop" ? "stop" : "skip" });
      }
      return { kind: statement.kind, span };
    case "Return":
      return checkReturn(ctx, statement);
    case "Fail":
      return checkFail(ctx, statement);
    case "Crash": {
      const message = checkExpr(ctx, statement.message, TEXT);
      ctx.expectType(message.type, TEXT, message.span, { of: "crash message" });
      return { kind: "Crash", message, span };
    }
    case "Check": {
      requireTest(ctx, span);
      const condition = checkCondition(ctx, statement.condition, { of: "checked" });
      return { kind: "Check", condition, span };
    }
    case "CheckFails":
      return checkCheckFails(ctx, statement);
    case "RunConcurrently":
      return checkRunConcurrently(ctx, statement);
    case "ExprStatement": {
      const expr =
        statement.expr.kind === "Match" ? checkMatch(ctx, statement.expr, false) : checkExpr(ctx, statement.expr);
      return { kind: "Expr", expr, span };
    }
  }
}

/** A pattern in `let` or `for each` must match every value: there is no arm for the rest. */
function checkBinding(ctx: Context, pattern: S.Pattern, type: Type, binding: "let" | "for each"): CPattern {
  const checked = checkPattern(ctx, pattern, type);
  if (!isIrrefutable(checked, type) && resolve(type).kind !== "Error") {
    ctx.problem("E-MATCH-REFUTABLE", pattern.span, { type: typeToText(type), binding });
  }
  return checked;
}

function checkSet(ctx: Context, statement: S.SetStatement): CStatement {
  const found = ctx.lookupLocal(statement.name.name);
  const value = checkExpr(ctx, statement.value, found?.local.type);
  if (found === undefined) {
    ctx.problem("E-NAME-UNKNOWN", statement.name.span, { problem: "set", name: statement.name.name });
    return { kind: "Expr", expr: value, span: statement.span };
  }
  const local = found.local;
  record(ctx.program.names, statement.name.span, localTarget(local));
  if (!local.mutable) {
    ctx.problem("E-NAME-NOT-VAR", statement.name.span, { name: local.name }, { related: [local.span] });
  } else {
    checkCapture(ctx, local, found.depth, statement.name.span);
  }
  ctx.expectType(value.type, local.type, value.span, { of: "new value", local: local.name });
  return { kind: "Set", local, value, span: statement.span };
}

function inLoop<T>(ctx: Context, read: () => T): T {
  ctx.frame.loops++;
  try {
    return read();
  } finally {
    ctx.frame.loops--;
  }
}

function checkForEach(ctx: Context, statement: S.ForEach): CStatement {
  const iterable = checkExpr(ctx, statement.iterable);
  const type = resolve(iterable.type);
  let item: Type = ERROR;
  if (type.kind === "Con" && (type.name === "List" || type.name === "Set")) item = type.args[0]!;
  else if (type.kind === "Con" && type.name === "Map") item = pairOf(type.args[0]!, type.args[1]!);
  else if (type.kind === "Meta") {
    item = freshMeta();
    unify(type, listOf(item));
  } else if (type.kind !== "Error") {
    ctx.problem("E-TYPE-MISMATCH", iterable.span, {
      problem: "iterate",
      construct: "for each",
      found: typeToText(type),
    });
  }
  return ctx.withScope(() => {
    const pattern = checkBinding(ctx, statement.pattern, item, "for each");
    const body = inLoop(ctx, () => checkBlock(ctx, statement.body));
    return { kind: "ForEach", pattern, iterable, body, span: statement.span };
  });
}

function checkReturn(ctx: Context, statement: S.Return): CStatement {
  const frame = ctx.frame;
  if (!leavesTask(ctx, statement.span, "return")) leavesQuery(ctx, statement.span, "return");
  if (frame.kind === "test") {
    ctx.problem("E-TYPE-RETURN", statement.span, { problem: "in a test" });
  }
  if (statement.value === undefined) {
    if (!isCon(frame.returns, "Nothing") && resolve(frame.returns).kind !== "Meta" && frame.kind !== "test") {
      ctx.problem("E-TYPE-RETURN", statement.span, { problem: "no value", returns: typeToText(frame.returns) });
    }
    unify(frame.returns, { kind: "Con", name: "Nothing", args: [] });
    return { kind: "Return", span: statement.span };
  }
  const value = checkExpr(ctx, statement.value, frame.returns);
  if (isCon(frame.returns, "Nothing") && !isCon(value.type, "Nothing")) {
    ctx.problem("E-TYPE-RETURN", value.span, { problem: "a value", found: typeToText(value.type) });
  } else {
    ctx.expectType(value.type, frame.returns, value.span, { of: "returned value" });
  }
  return { kind: "Return", value, span: statement.span };
}

function checkFail(ctx: Context, statement: S.Fail): CStatement {
  if (statement.value !== undefined) {
    const value = checkExpr(ctx, statement.value, ctx.frame.fails);
    failWith(ctx, value, statement.value.span);
    return { kind: "Fail", value, span: statement.span };
  }
  // A bare `fail` passes on the failure an `otherwise` is handling.
  if (ctx.handling === undefined) {
    ctx.problem("E-FAIL-PASS", statement.span, {});
    return { kind: "Fail", span: statement.span };
  }
  const wrap = wrapFailure(ctx, ctx.handling.failure, statement.span);
  return { kind: "Fail", ...(wrap ? { wrap } : {}), span: statement.span };
}

function requireTest(ctx: Context, span: Span): void {
  if (ctx.definition.kind !== "test") {
    ctx.problem("E-TYPE-CHECK-PLACE", span, {});
  }
}

function checkCheckFails(ctx: Context, statement: S.CheckFails): CStatement {
  requireTest(ctx, statement.span);
  const saved = ctx.collector;
  const collector = { calls: [] as { span: Span; fails: Type }[] };
  ctx.collector = collector;
  let expr: CExpr;
  try {
    expr = checkExpr(ctx, statement.expr);
  } finally {
    ctx.collector = saved;
  }
  if (collector.calls.length !== 1) {
    ctx.problem(collector.calls.length === 0 ? "E-FAIL-NOTHING" : "E-FAIL-TWO", statement.expr.span, {
      problem: "check",
    });
  }
  const failure = collector.calls[0]?.fails ?? ERROR;
  const pattern = ctx.withScope(() => checkPattern(ctx, statement.pattern, failure));
  return { kind: "CheckFails", expr, pattern, span: statement.span };
}

/**
 * Each statement is a task; the names they bind are in scope after `end`, not in
 * each other. Two tasks may not bind one name (which would it be after `end`?),
 * and a task may not leave the block (`return`, or `stop` and `skip` of a loop
 * around it): it runs apart from the code around it.
 */
function checkRunConcurrently(ctx: Context, statement: S.RunConcurrently): CStatement {
  const saved = { taskBase: ctx.taskBase, loops: ctx.frame.loops };
  const bound = new Map<string, Local>();
  const tasks: CStatement[] = [];
  for (const task of statement.body.statements) {
    ctx.scopes.push(new Map());
    ctx.taskBase = ctx.scopes.length - 1;
    ctx.frame.loops = 0;
    try {
      tasks.push(checkStatement(ctx, task));
      for (const [name, local] of ctx.scopes[ctx.scopes.length - 1]!) {
        const first = bound.get(name);
        if (first !== undefined) {
          ctx.problem("E-NAME-SHADOWED", local.span, { name, where: "tasks" }, { related: [first.span] });
          continue;
        }
        bound.set(name, local);
      }
    } finally {
      ctx.scopes.pop();
      ctx.taskBase = saved.taskBase;
      ctx.frame.loops = saved.loops;
    }
  }
  for (const [name, local] of bound) ctx.innermost().set(name, local);
  return { kind: "RunConcurrently", tasks, bound: [...bound.values()], span: statement.span };
}

/** `return`, `stop` or `skip` where it would leave a concurrent task: refused. */
/**
 * `return`, or `stop` and `skip` of a loop around a query, in a query (in an
 * arm of a `match` or an `otherwise` in its clauses): a query makes its list
 * from every row and cannot be left halfway (E-TYPE-QUERY-LEAVE).
 */
function leavesQuery(ctx: Context, span: Span, what: "return" | "stop" | "skip"): boolean {
  if (ctx.frame.queries === 0 || (what !== "return" && ctx.frame.loops > 0)) return false;
  ctx.problem("E-TYPE-QUERY-LEAVE", span, { statement: what });
  return true;
}

function leavesTask(ctx: Context, span: Span, what: "return" | "stop" | "skip"): boolean {
  if (ctx.taskBase === undefined || (what !== "return" && ctx.frame.loops > 0)) return false;
  ctx.problem("E-TYPE-TASK-LEAVE", span, { statement: what });
  return true;
}
