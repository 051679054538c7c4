// Lowering statements, blocks, and the expressions that need statements
// (`otherwise`, `match` as a value, queries, lambdas): one function per kind.

import * as t from "./js.js";
import type { CArm, CBlock, CExpr, CHandler, CPattern, CStatement, Local, Wrap } from "../check/checked.js";
import { isCon, resolve } from "../check/types.js";
import type { Lowerer } from "./context.js";
import { lowerBorrowed, lowerExpr, textOf } from "./expressions.js";
import { blockSteps, chargeExpression, chargeStatement, exprSteps, handlerSteps, statementSteps } from "./fuel.js";
import { allOf, lowerPattern } from "./patterns.js";
import { classRef } from "./shapes.js";
import { needsValue } from "./module.js";

// ---- evaluation order ----

function isConstant(e: t.Expression): boolean {
  return t.isLiteral(e) && !t.isTemplateLiteral(e);
}

/**
 * Lowers expressions that are evaluated left to right. When a later one needs
 * statements, the earlier ones are saved in temporaries before those
 * statements, so that they still run first.
 */
export function spillOrder(lw: Lowerer, exprs: readonly CExpr[], borrowing = false): t.Expression[] {
  const out: t.Expression[] = [];
  const ends: number[] = [];
  let lastWithStatements = -1;
  exprs.forEach((e, i) => {
    const before = lw.sink.length;
    out.push(borrowing ? lowerBorrowed(lw, e) : lowerExpr(lw, e));
    ends.push(lw.sink.length);
    if (lw.sink.length > before) lastWithStatements = i;
  });
  for (let i = lastWithStatements - 1; i >= 0; i--) {
    if (isConstant(out[i]!)) continue;
    const temp = lw.temp();
    lw.sink.splice(ends[i]!, 0, t.variableDeclaration("const", [t.variableDeclarator(temp, out[i]!)]));
    out[i] = temp;
  }
  return out;
}

// ---- blocks ----

/** A block: its steps charged at its entry, then its statements. */
export function lowerBlock(lw: Lowerer, block: CBlock, extraSteps = 0): t.BlockStatement {
  const statements = lw.collect(() => {
    const charge = chargeStatement(lw, blockSteps(block) + extraSteps, block.statements[0]?.span);
    if (charge !== undefined) lw.emit(charge);
    for (const s of block.statements) lowerStatement(lw, s);
  });
  return t.blockStatement(statements);
}

export function lowerStatement(lw: Lowerer, s: CStatement): void {
  const start = lw.sink.length;
  lowerStatementInner(lw, s);
  for (let i = start; i < lw.sink.length; i++) lw.atDeep(lw.sink[i]!, s.span);
}

function lowerStatementInner(lw: Lowerer, s: CStatement): void {
  switch (s.kind) {
    case "Let":
      return lowerLet(lw, s.pattern, s.value);
    case "Var":
      return lowerVar(lw, s.local, s.value);
    case "Set":
      return lowerSet(lw, s.local, s.value);
    case "If":
      return lowerIf(lw, s);
    case "ForEach":
      return lowerForEach(lw, s);
    case "While":
      return lowerWhile(lw, s);
    case "Stop":
      return lw.emit(t.breakStatement());
    case "Skip":
      return lw.emit(t.continueStatement());
    case "Return":
      return lw.emit(t.returnStatement(s.value === undefined ? null : lowerExpr(lw, s.value)));
    case "Fail":
      return lowerFail(lw, s);
    case "Crash": {
      const message = lowerExpr(lw, s.message);
      return lw.emit(t.expressionStatement(t.callExpression(lw.rt("crash"), [message, site(lw, s.span)])));
    }
    case "Check":
      return lowerCheck(lw, s.condition);
    case "CheckFails":
      return lowerCheckFails(lw, s.expr, s.pattern);
    case "RunConcurrently":
      return lowerRunConcurrently(lw, s);
    case "Expr": {
      if (s.expr.kind === "Match") return lowerMatchStatement(lw, s.expr);
      const value = lowerExpr(lw, s.expr);
      return lw.emit(t.expressionStatement(value));
    }
  }
}

/** `file.ry:line:column` of a span, for failure and crash messages. */
export function site(lw: Lowerer, span: { start: number }): t.StringLiteral {
  const at = lw.source.position(span.start);
  return t.stringLiteral(`${lw.source.path}:${at.line}:${at.column}`);
}

// ---- bindings ----

function lowerLet(lw: Lowerer, pattern: CPattern, value: CExpr): void {
  const v = lowerExpr(lw, value);
  if (pattern.kind === "Bind") {
    lw.emit(t.variableDeclaration("const", [t.variableDeclarator(lw.local(pattern.local), v)]));
    return;
  }
  const temp = lw.temp("p");
  lw.emit(t.variableDeclaration("const", [t.variableDeclarator(temp, v)]));
  for (const bind of lowerPattern(lw, pattern, temp).binds) lw.emit(bind);
}

/** Whether a value is made new by the expression, so that a `var` holding it is its only owner. */
function isFresh(value: CExpr): boolean {
  switch (value.kind) {
    case "List":
    case "Map":
      return true;
    case "Binary":
      return value.op === "+";
    case "Call":
      return value.callee.kind === "Library";
    default:
      return false;
  }
}

function ownable(local: Local): boolean {
  const r = resolve(local.type);
  return r.kind === "Con" && (r.name === "List" || r.name === "Map" || r.name === "Set") && r.decl === undefined;
}

function lowerVar(lw: Lowerer, local: Local, value: CExpr): void {
  const v = lowerExpr(lw, value);
  lw.emit(t.variableDeclaration("let", [t.variableDeclarator(lw.local(local), v)]));
  if (ownable(local)) {
    lw.owned.add(local.id);
    lw.emit(t.variableDeclaration("let", [t.variableDeclarator(lw.ownFlag(local), t.booleanLiteral(isFresh(value)))]));
  }
}

/** The library functions that have an in-place twin for a `var` that owns its value. */
const IN_PLACE: Record<string, string> = {
  "list.append": "appendInPlace",
  "map.put": "putInPlace",
  "map.remove": "removeInPlace",
  "sets.add": "addInPlace",
  "sets.remove": "removeInPlace",
};

/**
 * `set v to v + more`, `set m to m.put(k, x)` and the like change the value in
 * place when `v` is its only owner (spec/runtime.md, "Value semantics"), so
 * that building a list in a loop is linear, not quadratic. Otherwise they copy,
 * and `v` owns the copy.
 */
function lowerSet(lw: Lowerer, local: Local, value: CExpr): void {
  const target = lw.local(local);
  if (!lw.owned.has(local.id)) {
    lw.emit(t.expressionStatement(t.assignmentExpression("=", target, lowerExpr(lw, value))));
    return;
  }
  const flag = lw.ownFlag(local);
  const inPlace = inPlaceForm(lw, local, value);
  if (inPlace !== undefined) {
    lw.emit(
      t.ifStatement(
        flag,
        t.expressionStatement(inPlace.inPlace),
        t.blockStatement([t.expressionStatement(t.assignmentExpression("=", target, inPlace.copy)), t.expressionStatement(t.assignmentExpression("=", flag, t.booleanLiteral(true)))]),
      ),
    );
    return;
  }
  lw.emit(t.expressionStatement(t.assignmentExpression("=", target, lowerExpr(lw, value))));
  lw.emit(t.expressionStatement(t.assignmentExpression("=", flag, t.booleanLiteral(isFresh(value)))));
}

function inPlaceForm(lw: Lowerer, local: Local, value: CExpr): { inPlace: t.Expression; copy: t.Expression } | undefined {
  const target = lw.local(local);
  const isSelf = (e: CExpr | undefined) => e !== undefined && e.kind === "Local" && e.local.id === local.id;
  if (value.kind === "Binary" && value.op === "+" && isSelf(value.left) && isCon(value.type, "List") && value.right.kind === "List") {
    // `set v to v + [a, b]`: the items go straight onto the list.
    const items = spillOrder(lw, value.right.items).map((item) => {
      const temp = lw.temp("m");
      lw.emit(t.variableDeclaration("const", [t.variableDeclarator(temp, item)]));
      return temp;
    });
    return {
      inPlace: t.callExpression(lw.rt("pushInPlace"), [target, ...items]),
      copy: t.callExpression(lw.rt("concat"), [target, t.arrayExpression(items)]),
    };
  }
  if (value.kind === "Binary" && value.op === "+" && isSelf(value.left) && isCon(value.type, "List")) {
    const more = lowerExpr(lw, value.right);
    const temp = lw.temp("m");
    lw.emit(t.variableDeclaration("const", [t.variableDeclarator(temp, more)]));
    return {
      inPlace: t.callExpression(lw.rt("appendInPlace"), [target, temp]),
      copy: t.callExpression(lw.rt("concat"), [target, temp]),
    };
  }
  if (value.kind === "Call" && value.callee.kind === "Library" && isSelf(value.args[0])) {
    const key = `${value.callee.module}.${value.callee.name}`;
    const twin = IN_PLACE[key];
    if (twin === undefined) return undefined;
    const rest = spillOrder(lw, value.args.slice(1).filter((a): a is CExpr => a !== undefined));
    const temps = rest.map((r) => {
      const temp = lw.temp("m");
      lw.emit(t.variableDeclaration("const", [t.variableDeclarator(temp, r)]));
      return temp;
    });
    const module = key === "list.append" ? "list" : value.callee.module;
    return {
      inPlace: key === "list.append" ? t.callExpression(lw.rt("appendInPlace"), [target, t.arrayExpression(temps)]) : t.callExpression(lw.lib(module, twin), [target, ...temps]),
      copy: t.callExpression(lw.lib(module, value.callee.name), [target, ...temps]),
    };
  }
  return undefined;
}

// ---- control flow ----

function lowerIf(lw: Lowerer, s: Extract<CStatement, { kind: "If" }>): void {
  // Conditions after the first run (and are charged) only when reached.
  const build = (i: number): t.Statement => {
    const branch = s.branches[i]!;
    const condition = lowerExpr(lw, branch.condition);
    const body = lowerBlock(lw, branch.body);
    let alternate: t.Statement | null = null;
    if (i + 1 < s.branches.length) {
      const next = s.branches[i + 1]!;
      const statements = lw.collect(() => {
        const charge = chargeStatement(lw, exprSteps(next.condition), next.condition.span);
        if (charge !== undefined) lw.emit(charge);
        lw.emit(build(i + 1));
      });
      alternate = t.blockStatement(statements);
    } else if (s.elseBody !== undefined) {
      alternate = lowerBlock(lw, s.elseBody);
    }
    return t.ifStatement(condition, body, alternate);
  };
  lw.emit(build(0));
}

/**
 * `for each i in a to b` counts with a number instead of building the list
 * (when the pattern is a plain name): the same turns, in the same order.
 */
function lowerRangeLoop(lw: Lowerer, s: Extract<CStatement, { kind: "ForEach" }>): boolean {
  const range = s.iterable;
  if (range.kind !== "Binary" || (range.op !== "to" && range.op !== "until") || s.pattern.kind !== "Bind") return false;
  const [from, to] = spillOrder(lw, [range.left, range.right]);
  const end = lw.temp("end");
  const counter = lw.temp("n");
  lw.emit(t.variableDeclaration("const", [t.variableDeclarator(end, to!)]));
  const body = lowerBlock(lw, s.body);
  const bind = t.variableDeclaration("const", [t.variableDeclarator(lw.local(s.pattern.local), counter)]);
  lw.emit(
    t.forStatement(
      t.variableDeclaration("let", [t.variableDeclarator(counter, from!)]),
      t.binaryExpression(range.op === "to" ? "<=" : "<", counter, end),
      t.updateExpression("++", counter),
      t.blockStatement([bind, ...body.body]),
    ),
  );
  return true;
}

function lowerForEach(lw: Lowerer, s: Extract<CStatement, { kind: "ForEach" }>): void {
  if (lowerRangeLoop(lw, s)) return;
  const iterable = lowerExpr(lw, s.iterable);
  const r = resolve(s.iterable.type);
  const source =
    r.kind === "Con" && r.name === "Map"
      ? t.callExpression(t.memberExpression(t.callExpression(t.memberExpression(t.identifier("Array"), t.identifier("from")), [t.callExpression(t.memberExpression(iterable, t.identifier("entries")), [])]), t.identifier("map")), [t.arrowFunctionExpression([t.arrayPattern([t.identifier("k"), t.identifier("v")])], t.newExpression(lw.rt("Pair"), [t.identifier("k"), t.identifier("v")]))])
      : r.kind === "Con" && r.name === "Set"
        ? t.callExpression(t.memberExpression(iterable, t.identifier("values")), [])
        : iterable;
  const item = lw.temp("i");
  const body = lowerBlock(lw, s.body);
  const binds = lowerPattern(lw, s.pattern, item).binds;
  lw.emit(t.forOfStatement(t.variableDeclaration("const", [t.variableDeclarator(item)]), source, t.blockStatement([...binds, ...body.body])));
}

function lowerWhile(lw: Lowerer, s: Extract<CStatement, { kind: "While" }>): void {
  // while (true) { charge the condition; if (!condition) break; body }
  const statements = lw.collect(() => {
    const charge = chargeStatement(lw, exprSteps(s.condition), s.span);
    if (charge !== undefined) lw.emit(charge);
    const condition = lowerExpr(lw, s.condition);
    lw.emit(t.ifStatement(t.unaryExpression("!", condition), t.breakStatement()));
  });
  const body = lowerBlock(lw, s.body);
  lw.emit(t.whileStatement(t.booleanLiteral(true), t.blockStatement([...statements, ...body.body])));
}

// ---- failures ----

function failure(lw: Lowerer, value: t.Expression, at: t.Expression): t.Expression {
  return t.newExpression(lw.rt("Failure"), [value, at]);
}

function wrapped(lw: Lowerer, wrap: Wrap, value: t.Expression): t.Expression {
  return t.newExpression(classRef(lw, wrap.decl, wrap.caseName), [value]);
}

function lowerFail(lw: Lowerer, s: Extract<CStatement, { kind: "Fail" }>): void {
  if (s.value !== undefined) {
    lw.emit(t.throwStatement(failure(lw, lowerExpr(lw, s.value), site(lw, s.span))));
    return;
  }
  // A bare `fail` in `otherwise` arms passes on the failure being handled.
  const handled = lw.handling!;
  lw.emit(passOn(lw, handled, s.wrap));
}

/** Throws the caught failure again, wrapped when the function's failure type asks for it. */
function passOn(lw: Lowerer, caught: t.Identifier, wrap: Wrap | undefined): t.Statement {
  if (wrap === undefined) return t.throwStatement(caught);
  const value = t.memberExpression(caught, t.identifier("value"));
  const at = t.memberExpression(caught, t.identifier("site"));
  return t.throwStatement(failure(lw, wrapped(lw, wrap, value), at));
}

/**
 * `expr otherwise HANDLER` becomes
 *   let $o; try { $o = expr } catch ($e) { if (!($e instanceof $Failure)) throw $e; HANDLER }
 * with `error` bound to the failure's value in the handler.
 */
export function lowerOtherwise(lw: Lowerer, e: Extract<CExpr, { kind: "Otherwise" }>): t.Expression {
  const result = lw.temp("o");
  const caught = lw.temp("e");
  let value: t.Expression | undefined;
  const tryStatements = lw.collect(() => {
    value = lowerExpr(lw, e.expr);
  });
  tryStatements.push(t.expressionStatement(t.assignmentExpression("=", result, value!)));
  const handler = lw.collect(() => {
    for (const back of depthBack(lw)) lw.emit(back);
    lw.emit(t.ifStatement(t.unaryExpression("!", t.binaryExpression("instanceof", caught, lw.rt("Failure"))), t.throwStatement(caught)));
    // The failure is first placed where the call that failed was made.
    lw.emit(t.expressionStatement(t.assignmentExpression("??=", t.memberExpression(caught, t.identifier("site")), site(lw, e.expr.span))));
    const charge = chargeStatement(lw, handlerSteps(e.handler), e.span);
    if (charge !== undefined) lw.emit(charge);
    lw.emit(t.variableDeclaration("const", [t.variableDeclarator(lw.local(e.error), t.memberExpression(caught, t.identifier("value")))]));
    lowerHandler(lw, e.handler, result, caught, e.span);
  });
  lw.emit(t.variableDeclaration("let", [t.variableDeclarator(result)]));
  lw.emit(t.tryStatement(t.blockStatement(tryStatements), t.catchClause(caught, t.blockStatement(handler))));
  return result;
}

function lowerHandler(lw: Lowerer, handler: CHandler, result: t.Identifier, caught: t.Identifier, span: { start: number }): void {
  switch (handler.kind) {
    case "Fail":
      // `otherwise fail with VALUE` is a new failure, raised here; a plain `otherwise fail` keeps where the first one was raised.
      if (handler.value !== undefined) {
        lw.emit(t.throwStatement(failure(lw, lowerExpr(lw, handler.value), site(lw, span))));
      } else {
        lw.emit(passOn(lw, caught, handler.wrap));
      }
      return;
    case "Default":
      lw.emit(t.expressionStatement(t.assignmentExpression("=", result, lowerExpr(lw, handler.value))));
      return;
    case "Leave":
      lowerStatement(lw, handler.statement);
      return;
    case "Arms": {
      const saved = lw.handling;
      lw.handling = caught;
      try {
        const subject = lw.temp("f");
        lw.emit(t.variableDeclaration("const", [t.variableDeclarator(subject, t.memberExpression(caught, t.identifier("value")))]));
        lowerArms(lw, handler.arms, subject, result, () => t.throwStatement(caught));
      } finally {
        lw.handling = saved;
      }
    }
  }
}

// ---- match ----

/**
 * Arms in order: the first whose pattern matches runs. `result`, when given,
 * receives the value of arms that give one. `otherwise` is what happens when no
 * arm matches (only a value outside the checked type, such as Guarded).
 */
function lowerArms(lw: Lowerer, arms: readonly CArm[], subject: t.Identifier, result: t.Identifier | undefined, otherwise: () => t.Statement): void {
  let chain: t.Statement = otherwise();
  for (let i = arms.length - 1; i >= 0; i--) {
    const arm = arms[i]!;
    const code = lowerPattern(lw, arm.pattern, subject);
    const body = lw.collect(() => {
      for (const bind of code.binds) lw.emit(bind);
      const steps = blockSteps(arm.body) + (arm.value === undefined ? 0 : exprSteps(arm.value));
      const charge = chargeStatement(lw, steps, arm.value?.span ?? arm.body.statements[0]?.span);
      if (charge !== undefined) lw.emit(charge);
      for (const s of arm.body.statements) lowerStatement(lw, s);
      if (arm.value !== undefined) lw.emit(t.expressionStatement(t.assignmentExpression("=", result!, lowerExpr(lw, arm.value))));
    });
    chain = code.tests.length === 0 ? t.blockStatement(body) : t.ifStatement(allOf(code.tests), t.blockStatement(body), chain);
  }
  lw.emit(chain);
}

function noArmMatched(lw: Lowerer, span: { start: number }): t.Statement {
  return t.expressionStatement(t.callExpression(lw.rt("crash"), [t.stringLiteral("no arm of the match fits the value"), site(lw, span)]));
}

function lowerMatchStatement(lw: Lowerer, e: Extract<CExpr, { kind: "Match" }>): void {
  const subject = lw.temp("s");
  lw.emit(t.variableDeclaration("const", [t.variableDeclarator(subject, lowerExpr(lw, e.subject))]));
  lowerArms(lw, e.arms, subject, undefined, () => noArmMatched(lw, e.span));
}

export function lowerMatchValue(lw: Lowerer, e: Extract<CExpr, { kind: "Match" }>): t.Expression {
  const subject = lw.temp("s");
  const result = lw.temp("v");
  lw.emit(t.variableDeclaration("const", [t.variableDeclarator(subject, lowerExpr(lw, e.subject))]));
  lw.emit(t.variableDeclaration("let", [t.variableDeclarator(result)]));
  lowerArms(lw, e.arms, subject, result, () => noArmMatched(lw, e.span));
  return result;
}

// ---- tests ----

function lowerCheck(lw: Lowerer, condition: CExpr): void {
  // `check a is b` shows both sides when it fails.
  if (condition.kind === "Binary" && (condition.op === "is" || condition.op === "is not")) {
    const left = lw.temp("l");
    const right = lw.temp("r");
    const [l, r] = spillOrder(lw, [condition.left, condition.right]);
    lw.emit(t.variableDeclaration("const", [t.variableDeclarator(left, l!), t.variableDeclarator(right, r!)]));
    const same = t.callExpression(lw.rt("equals"), [left, right]);
    const holds = condition.op === "is" ? same : t.unaryExpression("!", same);
    lw.emit(
      t.ifStatement(
        t.unaryExpression("!", holds),
        t.expressionStatement(t.callExpression(lw.rt("checkFailed"), [t.stringLiteral(condition.op), textOf(lw, left, condition.left.type), textOf(lw, right, condition.right.type), site(lw, condition.span)])),
      ),
    );
    return;
  }
  const value = lowerExpr(lw, condition);
  lw.emit(t.ifStatement(t.unaryExpression("!", value), t.expressionStatement(t.callExpression(lw.rt("checkFailed"), [t.stringLiteral("holds"), t.stringLiteral(""), t.stringLiteral(""), site(lw, condition.span)]))));
}

function lowerCheckFails(lw: Lowerer, expr: CExpr, pattern: CPattern): void {
  const caught = lw.temp("e");
  const tryStatements = lw.collect(() => lw.emit(t.expressionStatement(lowerExpr(lw, expr))));
  tryStatements.push(t.expressionStatement(t.callExpression(lw.rt("checkFailed"), [t.stringLiteral("fails"), t.stringLiteral(""), t.stringLiteral(""), site(lw, expr.span)])));
  const code = lowerPattern(lw, pattern, t.memberExpression(caught, t.identifier("value")));
  const handler = [
    ...depthBack(lw),
    t.ifStatement(t.unaryExpression("!", t.binaryExpression("instanceof", caught, lw.rt("Failure"))), t.throwStatement(caught)),
    t.ifStatement(
      t.unaryExpression("!", allOf(code.tests)),
      t.expressionStatement(t.callExpression(lw.rt("checkFailed"), [t.stringLiteral("fails with"), t.callExpression(lw.rt("toText"), [t.memberExpression(caught, t.identifier("value"))]), t.stringLiteral(""), site(lw, expr.span)])),
    ),
  ];
  // The check's own failure must not be caught as the expression's: it is a Crash, not a Failure.
  lw.emit(t.tryStatement(t.blockStatement(tryStatements), t.catchClause(caught, t.blockStatement(handler))));
}

// ---- concurrency ----

/**
 * Each statement runs as a task. What the tasks bind at their top level (their
 * locals, with what the lowering adds beside them: ownership flags,
 * temporaries) is declared before the tasks start, and each task assigns it: so
 * every name used after `end` is declared around it, whatever kind of statement
 * bound it (`let`, `var`, a nested `run concurrently`). In a function without
 * needs, the tasks can have no effects and run one after another.
 */
function lowerRunConcurrently(lw: Lowerer, s: Extract<CStatement, { kind: "RunConcurrently" }>): void {
  const hoisted: t.Identifier[] = [];
  const bodies = s.tasks.map((task) => {
    const statements = lw.collect(() => {
      const charge = chargeStatement(lw, statementSteps(task), task.span);
      if (charge !== undefined) lw.emit(charge);
      lowerStatement(lw, task);
    });
    return statements.flatMap((statement) => assignInstead(statement, hoisted));
  });
  const declared = new Set(hoisted.map((id) => id.name));
  for (const local of s.bound) {
    // The checker's list and the declarations found must agree: a local it puts in scope after `end` is declared here.
    if (!declared.has(lw.local(local).name)) throw new Error(`internal: \`${local.name}\` is bound by a task but not declared by its lowering`);
  }
  if (hoisted.length > 0) lw.emit(t.variableDeclaration("let", hoisted.map((id) => t.variableDeclarator(id))));
  if (!lw.async) {
    for (const body of bodies) lw.emit(t.blockStatement(body));
    return;
  }
  const tasks = bodies.map((body) => t.callExpression(t.arrowFunctionExpression([], t.blockStatement([...depthBack(lw), ...body]), true), []));
  lw.emit(t.expressionStatement(awaited(lw, t.callExpression(t.memberExpression(t.identifier("Promise"), t.identifier("all")), [t.arrayExpression(tasks)]))));
}

/** A task's top-level declaration as assignments to names declared before the tasks (collected into `hoisted`). */
function assignInstead(statement: t.Statement, hoisted: t.Identifier[]): t.Statement[] {
  if (statement.type !== "VariableDeclaration") return [statement];
  const out: t.Statement[] = [];
  for (const declarator of statement.declarations) {
    if (declarator.id.type !== "Identifier") throw new Error("internal: a task declares a pattern");
    hoisted.push(t.identifier(declarator.id.name));
    if (declarator.init == null) continue;
    const assignment = t.expressionStatement(t.assignmentExpression("=", t.identifier(declarator.id.name), declarator.init));
    assignment.loc = statement.loc ?? null;
    out.push(assignment);
  }
  return out;
}

function collectLocals(pattern: CPattern, out: Local[]): void {
  switch (pattern.kind) {
    case "Bind":
      out.push(pattern.local);
      return;
    case "Pair":
      collectLocals(pattern.first, out);
      collectLocals(pattern.second, out);
      return;
    case "Record":
    case "Case":
      pattern.args.forEach((a) => collectLocals(a, out));
      return;
    case "List":
      pattern.items.forEach((a) => collectLocals(a, out));
      if (pattern.rest) collectLocals(pattern.rest, out);
      return;
    default:
      return;
  }
}

// ---- functions as values ----

export function lowerLambda(lw: Lowerer, e: Extract<CExpr, { kind: "Lambda" }>): t.Expression {
  const isAsync = e.needs.length > 0;
  const savedAsync = lw.async;
  const savedGrant = lw.grant;
  const savedOwned = new Set(lw.owned);
  lw.async = isAsync;
  lw.owned.clear();
  try {
    // A function value with a needs line of its own narrows the grant it was made in.
    const outer = lw.grant;
    const narrowed = e.declaresNeeds && isAsync ? lw.temp("grant") : undefined;
    if (narrowed !== undefined) lw.grant = narrowed;
    const body = functionBody(lw, e.body, e.span);
    if (narrowed !== undefined) {
      body.body.unshift(t.variableDeclaration("const", [t.variableDeclarator(narrowed, t.callExpression(lw.rt("narrow"), [outer ?? t.identifier("undefined"), needsValue(e.needs), t.stringLiteral("this function")]))]));
    }
    return t.arrowFunctionExpression(e.params.map((p) => lw.local(p)), body, isAsync);
  } finally {
    lw.grant = savedGrant;
    lw.async = savedAsync;
    lw.owned.clear();
    for (const id of savedOwned) lw.owned.add(id);
  }
}

/**
 * A function's body: the depth check on entry, the block, and the depth given
 * back however the function ends (a return, a failure, a crash).
 */
export function functionBody(lw: Lowerer, body: CBlock, span?: { file: string; start: number; end: number }): t.BlockStatement {
  const depth = t.memberExpression(lw.rt("S"), t.identifier("depth"));
  const maxDepth = t.memberExpression(lw.rt("S"), t.identifier("maxDepth"));
  const tooDeep = t.expressionStatement(t.callExpression(lw.rt("tooDeep"), []));
  if (!lw.async) {
    // Synchronous code runs to its end with no other task in between: a counter will do.
    const enter = lw.at(t.ifStatement(t.binaryExpression(">", t.updateExpression("++", depth, true), maxDepth), tooDeep), span);
    const block = lowerBlock(lw, body);
    return t.blockStatement([enter, t.tryStatement(block, null, t.blockStatement([t.expressionStatement(t.updateExpression("--", depth))]))]);
  }
  // An async function keeps the depth it runs at, sets it back wherever it resumes, and
  // leaves the depth it was called at: concurrent tasks each count their own calls.
  const own = lw.temp("depth");
  const saved = lw.depth;
  lw.depth = own;
  try {
    const declare = lw.at(t.variableDeclaration("const", [t.variableDeclarator(own, t.updateExpression("++", depth, true))]), span);
    const enter = lw.at(t.ifStatement(t.binaryExpression(">", own, maxDepth), tooDeep), span);
    const block = lowerBlock(lw, body);
    const leave = t.expressionStatement(t.assignmentExpression("=", depth, t.binaryExpression("-", own, t.numericLiteral(1))));
    return t.blockStatement([declare, enter, t.tryStatement(block, null, t.blockStatement([leave]))]);
  } finally {
    lw.depth = saved;
  }
}

/** `await x`, and the depth set back to this function's when it resumes (see Lowerer.depth). */
export function awaited(lw: Lowerer, value: t.Expression): t.Expression {
  const wait = t.awaitExpression(value);
  return lw.depth === undefined ? wait : t.callExpression(lw.rt("resume"), [wait, lw.depth]);
}

/** `$S.depth = $depth;` where code resumes other than after an await (a catch, a task's start); nothing in synchronous code. */
export function depthBack(lw: Lowerer): t.Statement[] {
  if (!lw.async || lw.depth === undefined) return [];
  return [t.expressionStatement(t.assignmentExpression("=", t.memberExpression(lw.rt("S"), t.identifier("depth")), lw.depth))];
}

// ---- queries ----

/**
 * A query runs clause by clause over rows; a row holds the names bound so far
 * (the value itself when there is one name, an array otherwise). Runs of
 * `from`, `where` and `let` become nested loops; `sort`, `group`, `take` and
 * `drop` work on the rows gathered so far; `select` is done inside the last
 * run's loops when nothing comes between, so that rows are built only when a
 * later clause needs them all.
 */
export function lowerQuery(lw: Lowerer, e: Extract<CExpr, { kind: "Query" }>): t.Expression {
  let names: Local[] = [];
  let rows: t.Identifier | undefined;
  const clauses = e.clauses;
  const result = lw.temp("q");
  let i = 0;
  let selected = false;
  while (i < clauses.length) {
    const clause = clauses[i]!;
    if (clause.kind === "From" || clause.kind === "Where" || clause.kind === "Let") {
      const run: typeof clauses = [];
      while (i < clauses.length && ["From", "Where", "Let"].includes(clauses[i]!.kind)) run.push(clauses[i++]!);
      const last = i === clauses.length && e.concurrently === undefined;
      const out = last ? result : lw.temp("rows");
      const before = names;
      const after = [...names];
      for (const c of run) if (c.kind === "From") collectLocals(c.pattern, after);
      for (const c of run) if (c.kind === "Let") after.push(c.local);
      const innermost = () =>
        last ? selectInto(lw, e, result) : lw.emit(t.expressionStatement(t.callExpression(lw.rt("pushRow"), [out, rowOf(lw, after)])));
      const body = lw.collect(() => {
        const nested = lw.collect(() => nestRun(lw, run, 0, innermost));
        if (rows === undefined) {
          for (const s of nested) lw.emit(s);
        } else {
          const row = lw.temp("row");
          lw.emit(t.forOfStatement(t.variableDeclaration("const", [t.variableDeclarator(row)]), rows, t.blockStatement([...unpackRow(lw, row, before), ...nested])));
        }
      });
      lw.emit(t.variableDeclaration(last ? "let" : "const", [t.variableDeclarator(out, t.arrayExpression([]))]));
      for (const s of body) lw.emit(s);
      names = after;
      rows = out;
      selected = last;
      continue;
    }
    i++;
    const source: t.Expression = rows ?? t.arrayExpression([t.arrayExpression([])]);
    const next = lw.temp("rows");
    if (clause.kind === "Sort") {
      lw.emit(t.variableDeclaration("const", [t.variableDeclarator(next, sortRowsCode(lw, source, names, clause.keys))]));
    } else if (clause.kind === "Group") {
      const row = lw.temp("row");
      const keyBody = lw.synchronous(() =>
        lw.collect(() => {
          for (const s of unpackRow(lw, row, names)) lw.emit(s);
          const charge = chargeStatement(lw, exprSteps(clause.key), clause.key.span);
          if (charge) lw.emit(charge);
          lw.emit(t.returnStatement(lowerExpr(lw, clause.key)));
        }),
      );
      // A group's items are the values of the latest `from`.
      const itemIndex = lastFromIndex(e.clauses.slice(0, i), names);
      const item =
        names.length === 1 ? row : itemIndex.length === 1 ? t.memberExpression(row, t.numericLiteral(itemIndex[0]!), true) : t.newExpression(lw.rt("Pair"), itemIndex.map((j) => t.memberExpression(row, t.numericLiteral(j), true)));
      lw.emit(
        t.variableDeclaration("const", [
          t.variableDeclarator(next, t.callExpression(lw.rt("groupBy"), [source, t.arrowFunctionExpression([row], t.blockStatement(keyBody)), t.arrowFunctionExpression([row], item)])),
        ]),
      );
      names = [clause.into];
    } else if (clause.kind === "Take" || clause.kind === "Drop") {
      const count = t.callExpression(t.memberExpression(t.identifier("Math"), t.identifier("max")), [t.numericLiteral(0), lowerExpr(lw, clause.count)]);
      const args = clause.kind === "Take" ? [t.numericLiteral(0), count] : [count];
      lw.emit(t.variableDeclaration("const", [t.variableDeclarator(next, t.callExpression(t.memberExpression(source, t.identifier("slice")), args))]));
    }
    rows = next;
  }
  if (!selected) lowerSelect(lw, e, rows!, names, result);
  if (e.distinct) lw.emit(t.expressionStatement(t.assignmentExpression("=", result, t.callExpression(lw.rt("distinct"), [result]))));
  return result;
}

/** A row of the given names: the value itself for one name, an array for several. */
function rowOf(lw: Lowerer, names: Local[]): t.Expression {
  return names.length === 1 ? lw.local(names[0]!) : t.arrayExpression(names.map((l) => lw.local(l)));
}

function unpackRow(lw: Lowerer, row: t.Expression, names: Local[]): t.Statement[] {
  if (names.length === 0) return [];
  if (names.length === 1) return [t.variableDeclaration("const", [t.variableDeclarator(lw.local(names[0]!), row)])];
  return [t.variableDeclaration("const", names.map((l, k) => t.variableDeclarator(lw.local(l), t.memberExpression(row, t.numericLiteral(k), true))))];
}

/** Nested loops for a run of `from`, `where` and `let`; `innermost` emits what each row does. */
function nestRun(lw: Lowerer, run: Extract<CExpr, { kind: "Query" }>["clauses"], k: number, innermost: () => void): void {
  if (k === run.length) return innermost();
  const c = run[k]!;
  if (c.kind === "From") {
    const source = lowerExpr(lw, c.source);
    const item = lw.temp("i");
    const code = lowerPattern(lw, c.pattern, item);
    const inner = lw.collect(() => {
      const charge = chargeStatement(lw, 1, c.source.span);
      if (charge) lw.emit(charge);
      for (const b of code.binds) lw.emit(b);
      nestRun(lw, run, k + 1, innermost);
    });
    lw.emit(t.forOfStatement(t.variableDeclaration("const", [t.variableDeclarator(item)]), iterableOf(lw, source, c.source), t.blockStatement(inner)));
  } else if (c.kind === "Where") {
    const charge = chargeStatement(lw, exprSteps(c.condition), c.condition.span);
    if (charge) lw.emit(charge);
    const condition = lowerExpr(lw, c.condition);
    lw.emit(t.ifStatement(condition, t.blockStatement(lw.collect(() => nestRun(lw, run, k + 1, innermost)))));
  } else if (c.kind === "Let") {
    const charge = chargeStatement(lw, exprSteps(c.value), c.value.span);
    if (charge) lw.emit(charge);
    lw.emit(t.variableDeclaration("const", [t.variableDeclarator(lw.local(c.local), lowerExpr(lw, c.value))]));
    nestRun(lw, run, k + 1, innermost);
  }
}

/**
 * `sort by k1, k2 descending`: each row paired with its keys, sorted by a
 * comparison written for the keys' types (stable: Array.prototype.sort is),
 * then the rows taken back out.
 */
function sortRowsCode(lw: Lowerer, source: t.Expression, names: Local[], keys: { value: CExpr; descending: boolean }[]): t.Expression {
  if (names.length === 1 && keys.every((k) => isFieldPathOf(k.value, names[0]!) && isPrimitive(k.value))) return sortByFieldsCode(lw, source, names[0]!, keys);
  const row = lw.temp("row");
  const keyBody = lw.synchronous(() => lw.collect(() => {
    for (const s of unpackRow(lw, row, names)) lw.emit(s);
    const charge = chargeStatement(lw, keySteps(keys), keys[0]?.value.span);
    if (charge) lw.emit(charge);
    lw.emit(t.returnStatement(t.arrayExpression([...keys.map((k) => lowerExpr(lw, k.value)), row])));
  }));
  const comparator = comparatorCode(lw, keys, (index, keyed) => t.memberExpression(keyed, t.numericLiteral(index), true));
  const keyed = t.callExpression(t.memberExpression(source, t.identifier("map")), [t.arrowFunctionExpression([row], t.blockStatement(keyBody))]);
  const sorted = t.callExpression(t.memberExpression(keyed, t.identifier("sort")), [comparator]);
  return t.callExpression(t.memberExpression(sorted, t.identifier("map")), [t.arrowFunctionExpression([row], t.memberExpression(row, t.numericLiteral(keys.length), true))]);
}

/**
 * `sort by o.amount descending, o.id` over rows of one name, where every key
 * is a chain of fields of the row and of a primitive type: the rows are sorted
 * by reading the keys in the comparison, with no array of keys built per row.
 * Reading a field cannot fail or touch the world, so reading it again is
 * unobservable; the steps the keys would take, once per row, are charged
 * before the sort, so fuel counts the same as for the keyed sort.
 */
function sortByFieldsCode(lw: Lowerer, source: t.Expression, name: Local, keys: { value: CExpr; descending: boolean }[]): t.Expression {
  const keyFunctions = keys.map((k) => {
    const key = lw.temp("key");
    lw.emit(t.variableDeclaration("const", [t.variableDeclarator(key, t.arrowFunctionExpression([lw.local(name)], lowerExpr(lw, k.value)))]));
    return key;
  });
  // The rows are an array the query itself built, never the program's list, so sorting them in place is unobservable.
  const rows = lw.temp("rows");
  lw.emit(t.variableDeclaration("const", [t.variableDeclarator(rows, source)]));
  const charge = chargeStatement(lw, keySteps(keys), keys[0]?.value.span, t.memberExpression(rows, t.identifier("length")));
  if (charge) lw.emit(charge);
  const comparator = comparatorCode(lw, keys, (index, row) => t.callExpression(keyFunctions[index]!, [row]));
  return t.callExpression(t.memberExpression(rows, t.identifier("sort")), [comparator]);
}

function keySteps(keys: { value: CExpr }[]): number {
  return keys.reduce((n, k) => n + exprSteps(k.value), 0);
}

/** `($a, $b) => cmp(key0 of $a, key0 of $b) || ...`, each key read by `read`, a descending key compared the other way round. */
function comparatorCode(lw: Lowerer, keys: { value: CExpr; descending: boolean }[], read: (index: number, row: t.Identifier) => t.Expression): t.Expression {
  const a = t.identifier("$a");
  const b = t.identifier("$b");
  const comparisons = keys.map((k, index) => {
    const [x, y] = k.descending ? [b, a] : [a, b];
    return compareCode(lw, k.value, read(index, x), read(index, y));
  });
  const [first, ...rest] = comparisons;
  return t.arrowFunctionExpression([a, b], rest.reduce<t.Expression>((acc, c) => t.logicalExpression("||", acc, c), first!));
}

/** `o`, `o.amount`, `o.customer.name`: fields of the row, which cannot fail. */
function isFieldPathOf(e: CExpr, name: Local): boolean {
  if (e.kind === "Local") return e.local === name;
  return e.kind === "Field" && isFieldPathOf(e.object, name);
}

function isPrimitive(e: CExpr): boolean {
  const r = resolve(e.type);
  return r.kind === "Con" && r.decl === undefined && ["Int", "Float", "Text", "Boolean"].includes(r.name);
}

/** A comparison of two keys: the engine's `<` for primitives (whose order it is), the runtime's `compare` for the rest. */
function compareCode(lw: Lowerer, key: CExpr, left: t.Expression, right: t.Expression): t.Expression {
  return isPrimitive(key)
    ? t.conditionalExpression(t.binaryExpression("<", left, right), t.numericLiteral(-1), t.conditionalExpression(t.binaryExpression(">", left, right), t.numericLiteral(1), t.numericLiteral(0)))
    : t.callExpression(lw.rt("compare"), [left, right]);
}

/** Which row positions hold the latest `from`'s bound names (its item, for groups). */
function lastFromIndex(clauses: Extract<CExpr, { kind: "Query" }>["clauses"], names: Local[]): number[] {
  for (let i = clauses.length - 1; i >= 0; i--) {
    const c = clauses[i]!;
    if (c.kind === "From") {
      const locals: Local[] = [];
      collectLocals(c.pattern, locals);
      const idx = locals.map((l) => names.indexOf(l)).filter((j) => j >= 0);
      return idx.length === 0 ? [0] : idx;
    }
  }
  return [0];
}

function iterableOf(lw: Lowerer, source: t.Expression, syntax: CExpr): t.Expression {
  const r = resolve(syntax.type);
  if (r.kind === "Con" && r.name === "Set") return t.callExpression(t.memberExpression(source, t.identifier("values")), []);
  if (r.kind === "Con" && r.name === "Map") {
    return t.callExpression(t.memberExpression(t.callExpression(t.memberExpression(t.identifier("Array"), t.identifier("from")), [t.callExpression(t.memberExpression(source, t.identifier("entries")), [])]), t.identifier("map")), [t.arrowFunctionExpression([t.arrayPattern([t.identifier("k"), t.identifier("v")])], t.newExpression(lw.rt("Pair"), [t.identifier("k"), t.identifier("v")]))]);
  }
  return source;
}

/** The select of one row, pushed onto the result. */
function selectInto(lw: Lowerer, e: Extract<CExpr, { kind: "Query" }>, result: t.Identifier): void {
  const charge = chargeStatement(lw, exprSteps(e.select), e.select.span);
  if (charge) lw.emit(charge);
  const value = lowerExpr(lw, e.select);
  // A join can make more rows than a list may hold: each row is counted as it is added.
  lw.emit(t.expressionStatement(t.callExpression(lw.rt("pushRow"), [result, value])));
}

/** The select over gathered rows: a loop, or tasks when `concurrently`. */
function lowerSelect(lw: Lowerer, e: Extract<CExpr, { kind: "Query" }>, rows: t.Identifier, names: Local[], result: t.Identifier): void {
  const row = lw.temp("row");
  if (e.concurrently !== undefined && lw.async) {
    const body = lw.collect(() => {
      // A task starts when another has finished: at that task's depth, not this function's.
      for (const back of depthBack(lw)) lw.emit(back);
      for (const s of unpackRow(lw, row, names)) lw.emit(s);
      const charge = chargeStatement(lw, exprSteps(e.select), e.select.span);
      if (charge) lw.emit(charge);
      lw.emit(t.returnStatement(lowerExpr(lw, e.select)));
    });
    const limit = t.numericLiteral(e.concurrently.limit ?? 1_000_000);
    lw.emit(t.variableDeclaration("let", [t.variableDeclarator(result, awaited(lw, t.callExpression(lw.rt("mapConcurrent"), [rows, limit, t.arrowFunctionExpression([row], t.blockStatement(body), true)])))]));
    return;
  }
  const body = lw.collect(() => {
    for (const s of unpackRow(lw, row, names)) lw.emit(s);
    selectInto(lw, e, result);
  });
  lw.emit(t.variableDeclaration("let", [t.variableDeclarator(result, t.arrayExpression([]))]));
  lw.emit(t.forOfStatement(t.variableDeclaration("const", [t.variableDeclarator(row)]), rows, t.blockStatement(body)));
}

export { chargeExpression };
