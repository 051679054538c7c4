// Fuel (spec/runtime.md, section 3): one step per statement and per expression node evaluated.
// A straight-line block's steps are charged once, at its entry; the parts that
// run only sometimes (a branch, a loop turn, the right side of `and`, a lambda's
// body, a query's per-row clauses) are charged where and when they run.

import * as t from "./js.js";
import type { CBlock, CExpr, CHandler, CStatement } from "../check/checked.js";
import type { Lowerer } from "./context.js";
import type { Span } from "../source.js";

/** Steps of an expression that are taken whenever it is evaluated (not its conditional parts). */
export function exprSteps(e: CExpr | undefined): number {
  if (e === undefined) return 0;
  switch (e.kind) {
    case "Text":
      return 1 + e.parts.reduce((n, p) => n + (typeof p === "string" ? 0 : exprSteps(p)), 0);
    case "Call":
      return (
        1 + (e.callee.kind === "Value" ? exprSteps(e.callee.expr) : 0) + e.args.reduce((n, a) => n + exprSteps(a), 0)
      );
    case "Field":
      return 1 + exprSteps(e.object);
    case "Index":
      return 1 + exprSteps(e.object) + exprSteps(e.index);
    case "With":
      return 1 + exprSteps(e.record) + e.updates.reduce((n, u) => n + exprSteps(u.value), 0);
    case "Unary":
      return 1 + exprSteps(e.operand);
    case "Binary":
      // The right side of `and` and `or` is charged when it runs.
      return 1 + exprSteps(e.left) + (e.op === "and" || e.op === "or" ? 0 : exprSteps(e.right));
    case "Otherwise":
      // The handler is charged when a failure reaches it.
      return 1 + exprSteps(e.expr);
    case "List":
      return 1 + e.items.reduce((n, i) => n + exprSteps(i), 0);
    case "Map":
      return 1 + e.entries.reduce((n, x) => n + exprSteps(x.key) + exprSteps(x.value), 0);
    case "Pair":
      return 1 + exprSteps(e.first) + exprSteps(e.second);
    case "If":
      return 1 + exprSteps(e.condition);
    case "Match":
      return 1 + exprSteps(e.subject);
    case "Query":
      // Each clause is charged per row, where it runs.
      return 1;
    default:
      return 1;
  }
}

/** Steps of a statement taken when it runs, not counting the blocks inside it. */
export function statementSteps(s: CStatement): number {
  switch (s.kind) {
    case "Let":
    case "Var":
    case "Set":
      return 1 + exprSteps(s.value);
    case "If":
      // The first condition always runs; later ones are charged as they are reached.
      return 1 + exprSteps(s.branches[0]!.condition);
    case "ForEach":
      return 1 + exprSteps(s.iterable);
    case "While":
      // The condition is charged each time it is evaluated.
      return 1;
    case "Return":
      return 1 + exprSteps(s.value);
    case "Fail":
      return 1 + exprSteps(s.value);
    case "Crash":
      return 1 + exprSteps(s.message);
    case "Check":
      return 1 + exprSteps(s.condition);
    case "CheckFails":
      return 1 + exprSteps(s.expr);
    case "RunConcurrently":
      return 1;
    case "Expr":
      return 1 + exprSteps(s.expr);
    default:
      return 1;
  }
}

export function blockSteps(block: CBlock): number {
  return block.statements.reduce((n, s) => n + statementSteps(s), 0);
}

export function handlerSteps(handler: CHandler): number {
  switch (handler.kind) {
    case "Default":
      return exprSteps(handler.value);
    case "Fail":
      return 1 + exprSteps(handler.value);
    case "Leave":
      return statementSteps(handler.statement);
    case "Arms":
      return 1;
  }
}

/**
 * `if (($S.room -= n) < 0) $slow();`, or `n * times` when the steps are
 * taken once for each of `times` (a sort's keys, for every row), at `span`: a
 * run out of fuel here is reported at the code about to run.
 */
export function chargeStatement(
  lw: Lowerer,
  steps: number,
  span?: Span,
  times?: t.Expression,
): t.Statement | undefined {
  if (steps <= 0) return undefined;
  return lw.at(
    t.ifStatement(chargeTest(lw, steps, times), t.expressionStatement(t.callExpression(lw.rt("slow"), []))),
    span,
  );
}

/** `($S.room -= n) < 0 && $slow()`, for inside an expression. */
export function chargeExpression(lw: Lowerer, steps: number): t.Expression {
  return t.logicalExpression("&&", chargeTest(lw, steps), t.callExpression(lw.rt("slow"), []));
}

// The room, steps left before the slow path, is a small integer (rtlib/limits.ts): one field read and written, and
// compared with 0, where the fuel left and its threshold, billions, were two floats read at every charge.
function chargeTest(lw: Lowerer, steps: number, times?: t.Expression): t.Expression {
  const room = t.memberExpression(lw.rt("S"), t.identifier("room"));
  const amount =
    times === undefined ? t.numericLiteral(steps) : t.binaryExpression("*", t.numericLiteral(steps), times);
  return t.binaryExpression("<", t.assignmentExpression("-=", room, amount), t.numericLiteral(0));
}

/** What `chargeStatement` or `chargeExpression` made `node` from, if it is a charge. */
export function isCharge(node: t.Node): { form: "statement" | "expression"; amount: t.Expression } | undefined {
  if (node.type === "IfStatement") {
    if (
      node.alternate !== null ||
      node.consequent.type !== "ExpressionStatement" ||
      !isSlowCall(node.consequent.expression)
    )
      return undefined;
    const amount = amountOf(node.test);
    return amount === undefined ? undefined : { form: "statement", amount };
  }
  if (node.type === "LogicalExpression") {
    if (node.operator !== "&&" || !isSlowCall(node.right)) return undefined;
    const amount = amountOf(node.left);
    return amount === undefined ? undefined : { form: "expression", amount };
  }
  return undefined;
}

const isSlowCall = (n: t.Node): boolean =>
  n.type === "CallExpression" &&
  n.callee.type === "Identifier" &&
  n.callee.name === "$slow" &&
  n.arguments.length === 0;

/** The `n` of `($S.room -= n) < 0`. */
function amountOf(test: t.Node): t.Expression | undefined {
  if (
    test.type !== "BinaryExpression" ||
    test.operator !== "<" ||
    test.right.type !== "NumericLiteral" ||
    test.right.value !== 0
  )
    return undefined;
  const spend = test.left;
  return spend.type === "AssignmentExpression" && spend.operator === "-=" && counter(spend.left, "room")
    ? spend.right
    : undefined;
}

const COUNTERS: ReadonlySet<string> = new Set(["fuel", "room", "check"]);

/** `$S.fuel`, `$S.room` or `$S.check` (`name`: that one), the counters a charge reads. */
export function counter(n: t.Node, name?: "fuel" | "room" | "check"): boolean {
  return (
    n.type === "MemberExpression" &&
    n.object.type === "Identifier" &&
    n.object.name === "$S" &&
    n.property.type === "Identifier" &&
    (name === undefined ? COUNTERS.has(n.property.name) : n.property.name === name)
  );
}
