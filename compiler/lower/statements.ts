// Lowering blocks and statements: one function per kind. The kinds with more
// to them have files of their own: failures, match, checks, concurrency.

import { plainOf } from "./guarded.js";
import * as t from "./js.js";
import type { CBlock, CExpr, CPattern, CStatement, Local } from "../check/checked.js";
import { isCon, resolve } from "../check/types.js";
import { libraryMakesNew } from "../borrow/index.js";
import type { Lowerer } from "./context.js";
import { lowerCheck, lowerCheckFails } from "./checks.js";
import { lowerRunConcurrently } from "./concurrency.js";
import { lowerExpr, spillOrder } from "./expressions.js";
import { lowerFail } from "./failures.js";
import { blockSteps, chargeStatement, exprSteps } from "./fuel.js";
import { iterableOf } from "./iterables.js";
import { lowerMatchStatement } from "./match.js";
import { lowerPattern } from "./patterns.js";
import { site } from "./site.js";

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
      return lowerCheckFails(lw, s.expr, s.pattern, s.span);
    case "RunConcurrently":
      return lowerRunConcurrently(lw, s);
    case "Expr": {
      if (s.expr.kind === "Match") return lowerMatchStatement(lw, s.expr);
      const value = lowerExpr(lw, s.expr);
      return lw.emit(t.expressionStatement(value));
    }
  }
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
      return value.callee.kind === "Library" && libraryMakesNew(value.callee.module, value.callee.name);
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
  const form = inPlaceCalls(lw, local, value);
  if (form === undefined || !lw.guarded) return form === undefined ? undefined : { inPlace: t.callExpression(form.inPlace.fn, form.inPlace.args), copy: t.callExpression(form.copy.fn, form.copy.args) };
  // With guards, what is added may carry origins the list did not: the var takes the list back, carrying them.
  const target = lw.local(local);
  // One item pushed (`set v to v + [x]`): no array of arguments made when nothing carries origins.
  const pushed = form.pushesOne === true;
  return {
    inPlace: t.assignmentExpression("=", target, pushed ? t.callExpression(lw.g("pushOne"), form.inPlace.args) : t.callExpression(lw.g("inPlace"), [form.inPlace.fn, t.arrayExpression(form.inPlace.args)])),
    copy: t.callExpression(lw.g("pure"), [form.copy.fn, t.arrayExpression(form.copy.args)]),
  };
}

/** A list of the given items, as a list literal is built: with guards, its items plain and the list carrying their origins. */
function listOf(lw: Lowerer, items: t.Expression[]): t.Expression {
  return lw.guarded ? t.callExpression(lw.g("list"), [t.arrayExpression(items)]) : t.arrayExpression(items);
}

interface Call {
  readonly fn: t.Expression;
  readonly args: t.Expression[];
}

function inPlaceCalls(lw: Lowerer, local: Local, value: CExpr): { inPlace: Call; copy: Call; pushesOne?: true } | undefined {
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
      inPlace: { fn: lw.rt("pushInPlace"), args: [target, ...items] },
      copy: { fn: lw.rt("concat"), args: [target, listOf(lw, items)] },
      ...(items.length === 1 ? { pushesOne: true as const } : {}),
    };
  }
  if (value.kind === "Binary" && value.op === "+" && isSelf(value.left) && isCon(value.type, "List")) {
    const more = lowerExpr(lw, value.right);
    const temp = lw.temp("m");
    lw.emit(t.variableDeclaration("const", [t.variableDeclarator(temp, more)]));
    return {
      inPlace: { fn: lw.rt("appendInPlace"), args: [target, temp] },
      copy: { fn: lw.rt("concat"), args: [target, temp] },
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
      inPlace: key === "list.append" ? { fn: lw.rt("appendInPlace"), args: [target, listOf(lw, temps)] } : { fn: lw.lib(module, twin), args: [target, ...temps] },
      copy: { fn: lw.lib(module, value.callee.name), args: [target, ...temps] },
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
  let [from, to] = spillOrder(lw, [range.left, range.right]);
  const end = lw.temp("end");
  const counter = lw.temp("n");
  // With guards, the counter counts plain numbers, and each number carries the bounds' origins.
  let origins: t.Identifier | undefined;
  if (lw.guarded) {
    const [first, last] = [lw.temp("from"), lw.temp("to")];
    origins = lw.temp("o");
    lw.emit(t.variableDeclaration("const", [t.variableDeclarator(first, from!), t.variableDeclarator(last, to!)]));
    lw.emit(t.variableDeclaration("const", [t.variableDeclarator(origins, t.callExpression(lw.g("joined"), [first, last]))]));
    [from, to] = [plainOf(lw, first), plainOf(lw, last)];
  }
  lw.emit(t.variableDeclaration("const", [t.variableDeclarator(end, to!)]));
  const body = lowerBlock(lw, s.body);
  const bind = t.variableDeclaration("const", [t.variableDeclarator(lw.local(s.pattern.local), origins === undefined ? counter : t.callExpression(lw.g("tag"), [counter, origins]))]);
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
  const source = iterableOf(lw, lowerExpr(lw, s.iterable), s.iterable);
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
