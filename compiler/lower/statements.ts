// Lowering blocks and statements: one function per kind. The kinds with more
// to them have files of their own: failures, match, checks, concurrency.

import { fieldOf, plainOf } from "./guarded.js";
import { propertyName } from "./names.js";
import * as t from "./js.js";
import type { CBlock, CExpr, CPattern, CStatement, Local } from "../check/checked.js";
import { isCon } from "../check/types.js";
import {
  changesVar,
  fieldHoldsInPlace,
  forEachLocalRead,
  holdsInPlace,
  libraryMakesNew,
  mayHoldInPlace,
  recordHoldsInPlace,
} from "../borrow/index.js";
import type { Lowerer } from "./context.js";
import { lowerCheck, lowerCheckFails } from "./checks.js";
import { lowerRunConcurrently } from "./concurrency.js";
import { lowerExpr, spillOrder } from "./expressions.js";
import { lowerFail } from "./failures.js";
import { blockSteps, chargeStatement, exprSteps } from "./fuel.js";
import { iterableOf } from "./iterables.js";
import { lowerMatchStatement } from "./match.js";
import { hasPrimitiveKeys, lowerPattern } from "./patterns.js";
import { site } from "./site.js";
import { crashMessage, decideOn, heldDecision, joinDecision, saveContext, truth, withContext } from "./decisions.js";

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
    case "Return": {
      // With guards, what is returned carries the decisions it was returned under.
      const value = s.value === undefined ? undefined : withContext(lw, lowerExpr(lw, s.value));
      // A synchronous function gives its depth back as it returns, once the value is made (functions.ts).
      if (lw.leavesDepth)
        return lw.emit(t.returnStatement(t.callExpression(lw.rt("leave"), value === undefined ? [] : [value])));
      return lw.emit(t.returnStatement(value ?? null));
    }
    case "Fail":
      return lowerFail(lw, s);
    case "Crash": {
      const message = crashMessage(lw, lowerExpr(lw, s.message));
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

/**
 * A `var` that may own its value: a list, map or set, or a record with a field
 * that may hold one (the record and those fields owned together).
 */
function ownable(local: Local): boolean {
  return holdsInPlace(local.type) || recordHoldsInPlace(local.type);
}

/** Whether the value is new, and, for a record, every list, map or set it holds is new too. */
function isFreshFor(local: Local, value: CExpr): boolean {
  if (holdsInPlace(local.type)) return isFresh(value);
  if (value.kind !== "Call" || value.callee.kind !== "Record") return false;
  const fields = value.callee.decl.fields;
  // A field left out takes its default, which other records may share.
  return value.args.every((arg, i) => !mayHoldInPlace(fields[i]!.type) || (arg !== undefined && isFresh(arg)));
}

function lowerVar(lw: Lowerer, local: Local, value: CExpr): void {
  const v = lowerExpr(lw, value);
  lw.emit(t.variableDeclaration("let", [t.variableDeclarator(lw.local(local), v)]));
  if (ownable(local)) {
    lw.owned.add(local.id);
    lw.emit(
      t.variableDeclaration("let", [
        t.variableDeclarator(lw.ownFlag(local), t.booleanLiteral(isFreshFor(local, value))),
      ]),
    );
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
  const record = recordInPlace(lw, local, value);
  if (record !== undefined) {
    lw.emit(
      t.ifStatement(
        flag,
        t.blockStatement(record),
        t.blockStatement(
          lw.collect(() => {
            lw.emit(t.expressionStatement(t.assignmentExpression("=", target, lowerExpr(lw, value))));
            lw.emit(
              t.expressionStatement(
                t.assignmentExpression(
                  "=",
                  flag,
                  t.booleanLiteral(withMakesOwned(value as Extract<CExpr, { kind: "With" }>)),
                ),
              ),
            );
          }),
        ),
      ),
    );
    return;
  }
  const inPlace = inPlaceForm(lw, local, value);
  if (inPlace !== undefined) {
    lw.emit(
      t.ifStatement(
        flag,
        t.expressionStatement(inPlace.inPlace),
        t.blockStatement([
          t.expressionStatement(t.assignmentExpression("=", target, inPlace.copy)),
          t.expressionStatement(t.assignmentExpression("=", flag, t.booleanLiteral(true))),
        ]),
      ),
    );
    return;
  }
  lw.emit(t.expressionStatement(t.assignmentExpression("=", target, lowerExpr(lw, value))));
  lw.emit(t.expressionStatement(t.assignmentExpression("=", flag, t.booleanLiteral(isFreshFor(local, value)))));
}

/**
 * Whether `r with ...` makes a record that owns what it holds: every field that may hold a list, map or set is given a
 * new one.
 */
function withMakesOwned(value: Extract<CExpr, { kind: "With" }>): boolean {
  return value.decl.fields.every(
    (f) => !mayHoldInPlace(f.type) || value.updates.some((u) => u.name === f.name && isFresh(u.value)),
  );
}

/**
 * `set acc to acc with items: acc.items + [x], count: acc.count + 1`, when `acc`
 * owns its record (spec/runtime.md, "Value semantics without copying"): each
 * list, map or set field updated by one of the in-place forms (`acc.f + ...`,
 * `list.append(acc.f, x)`, `acc.f.put(k, v)`, ...) changes in place, and the
 * other fields updated are set in the record itself, which `acc` alone holds,
 * so a list kept in a record grows in linear time, with no allocation a turn.
 * Only when every such field is updated in place or given a new
 * value, and `acc` is read nowhere else but through its plain fields (a read
 * of what changes in place would see it changed, since the changes are made
 * once every value is computed). Undefined when the statement has not this form.
 */
function recordInPlace(lw: Lowerer, local: Local, value: CExpr): t.Statement[] | undefined {
  // A `set` inside the update (in an arm) could change in place what the update reads: it copies.
  if (lw.guarded || value.kind !== "With" || !isSelf(value.record, local) || changesVar(value)) return undefined;
  const decl = value.decl;
  const holding = (name: string): boolean => mayHoldInPlace(decl.fields.find((f) => f.name === name)!.type);
  const targets = new Map<string, CExpr>();
  for (const u of value.updates) {
    if (!holding(u.name)) continue;
    const target = inPlaceTarget(u.value);
    if (target !== undefined && target.kind === "Field" && target.name === u.name && isSelf(target.object, local))
      targets.set(u.name, target);
    else if (!isFresh(u.value)) return undefined;
  }
  for (const u of value.updates) {
    let elsewhere = false;
    forEachLocalRead(u.value, (read, parent) => {
      if (read.id !== local.id) return;
      const plainField = parent?.kind === "Field" && !fieldHoldsInPlace(parent);
      if (!plainField && parent !== targets.get(u.name)) elsewhere = true;
    });
    if (elsewhere) return undefined;
  }
  return lw.collect(() => {
    const record = lw.temp("r");
    lw.emit(t.variableDeclaration("const", [t.variableDeclarator(record, lw.local(local))]));
    const fields = new Map<string, t.Expression>();
    const changes: t.Statement[] = [];
    for (const u of value.updates) {
      const target = targets.get(u.name);
      if (target !== undefined) {
        const inPlace = inPlaceCalls(lw, fieldOf(lw, record, u.name), (e) => e === target, u.value)!.inPlace;
        // At the field's new value: a change that crashes (a list past its limit) is shown there.
        changes.push(lw.at(t.expressionStatement(t.callExpression(inPlace.fn, inPlace.args)), u.value.span));
      } else {
        const temp = lw.temp("m");
        lw.emit(t.variableDeclaration("const", [t.variableDeclarator(temp, lowerExpr(lw, u.value))]));
        fields.set(u.name, temp);
      }
    }
    for (const change of changes) lw.emit(change);
    // The var is the only holder of the record too: its other fields are set in place, where a
    // new record made around them cost an allocation a turn (bench/RESULTS.md).
    for (const u of value.updates) {
      if (targets.has(u.name)) continue;
      lw.emit(
        t.expressionStatement(
          t.assignmentExpression(
            "=",
            t.memberExpression(record, t.identifier(propertyName(u.name))),
            fields.get(u.name)!,
          ),
        ),
      );
    }
  });
}

const isSelf = (e: CExpr | undefined, local: Local): boolean =>
  e !== undefined && e.kind === "Local" && e.local.id === local.id;

/** The value an in-place form changes (`v` in `v + more`, `list.append(v, x)`, `v.put(k, x)`), or undefined. */
function inPlaceTarget(value: CExpr): CExpr | undefined {
  if (value.kind === "Binary" && value.op === "+" && isCon(value.type, "List")) return value.left;
  if (
    value.kind === "Call" &&
    value.callee.kind === "Library" &&
    IN_PLACE[`${value.callee.module}.${value.callee.name}`] !== undefined
  )
    return value.args[0];
  return undefined;
}

function inPlaceForm(
  lw: Lowerer,
  local: Local,
  value: CExpr,
): { inPlace: t.Expression; copy: t.Expression } | undefined {
  // `set v to v + [x]` where computing x runs a `set` (in an arm) of v: v is read before x, so it copies.
  if (changesVar(value)) return undefined;
  const form = inPlaceCalls(lw, lw.local(local), (e) => isSelf(e, local), value);
  if (form === undefined || !lw.guarded)
    return form === undefined
      ? undefined
      : {
          inPlace: t.callExpression(form.inPlace.fn, form.inPlace.args),
          copy: t.callExpression(form.copy.fn, form.copy.args),
        };
  // With guards, what is added may carry origins the list did not: the var takes the list back, carrying them.
  const target = lw.local(local);
  // One item pushed (`set v to v + [x]`): no array of arguments made when nothing carries origins.
  const pushed = form.pushesOne === true;
  return {
    inPlace: t.assignmentExpression(
      "=",
      target,
      pushed
        ? t.callExpression(lw.g("pushOne"), form.inPlace.args)
        : t.callExpression(lw.g("inPlace"), [form.inPlace.fn, t.arrayExpression(form.inPlace.args)]),
    ),
    copy: t.callExpression(lw.g("pure"), [form.copy.fn, t.arrayExpression(form.copy.args)]),
  };
}

/**
 * A list of the given items, as a list literal is built: with guards, its items plain and the list carrying their
 * origins.
 */
function listOf(lw: Lowerer, items: t.Expression[]): t.Expression {
  return lw.guarded ? t.callExpression(lw.g("list"), [t.arrayExpression(items)]) : t.arrayExpression(items);
}

interface Call {
  readonly fn: t.Expression;
  readonly args: t.Expression[];
}

/**
 * The in-place and the copying call for `value`, an in-place form of the value `isTarget` recognises, which `target`
 * reads.
 */
function inPlaceCalls(
  lw: Lowerer,
  target: t.Expression,
  isTarget: (e: CExpr) => boolean,
  value: CExpr,
): { inPlace: Call; copy: Call; pushesOne?: true } | undefined {
  const isSelf = (e: CExpr | undefined): boolean => e !== undefined && isTarget(e);
  if (
    value.kind === "Binary" &&
    value.op === "+" &&
    isSelf(value.left) &&
    isCon(value.type, "List") &&
    value.right.kind === "List"
  ) {
    // `set v to v + [a, b]`: the items go straight onto the list.
    const items = spillOrder(lw, value.right.items).map((item) => {
      const temp = lw.temp("m");
      lw.emit(t.variableDeclaration("const", [t.variableDeclarator(temp, item)]));
      return temp;
    });
    return {
      inPlace: {
        fn: lw.rt(items.length === 1 && !lw.guarded ? "pushOneInPlace" : "pushInPlace"),
        args: [target, ...items],
      },
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
    const rest = spillOrder(
      lw,
      value.args.slice(1).filter((a): a is CExpr => a !== undefined),
    );
    const temps = rest.map((r) => {
      const temp = lw.temp("m");
      lw.emit(t.variableDeclaration("const", [t.variableDeclarator(temp, r)]));
      return temp;
    });
    const module = key === "list.append" ? "list" : value.callee.module;
    return {
      inPlace:
        key === "list.append"
          ? { fn: lw.rt("appendInPlace"), args: [target, listOf(lw, temps)] }
          : { fn: inPlaceFn(lw, key, twin, value.args[0]!), args: [target, ...temps] },
      copy: { fn: lw.lib(module, value.callee.name), args: [target, ...temps] },
    };
  }
  return undefined;
}

/**
 * The function that changes a value in place: the library's twin, or for a map of primitive keys (without guards) the
 * runtime's own put.
 */
function inPlaceFn(lw: Lowerer, key: string, twin: string, target: CExpr): t.Expression {
  if (key === "map.put" && !lw.guarded && hasPrimitiveKeys(target.type)) return lw.rt("mapPutPrimitive");
  return lw.lib(key.slice(0, key.indexOf(".")), twin);
}

// ---- control flow ----

function lowerIf(lw: Lowerer, s: Extract<CStatement, { kind: "If" }>): void {
  const context = lw.guarded && lw.cx !== undefined ? saveContext(lw) : undefined;
  if (context !== undefined) lw.emit(context.statement);
  // Conditions after the first run (and are charged) only when reached.
  const build = (i: number): t.Statement => {
    const branch = s.branches[i]!;
    let condition = lowerExpr(lw, branch.condition);
    // With guards, the arms run under the condition's origins (compiler/lower/decisions.ts).
    condition = truth(lw, context !== undefined ? heldDecision(lw, condition, "c") : condition);
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
  if (s.branches.length > NESTED_BRANCHES) lowerLongChain(lw, s, context !== undefined);
  else lw.emit(build(0));
  if (context !== undefined)
    lw.emit(joinDecision(lw, context.saved, [...s.branches.flatMap((b) => [b.condition, b.body]), s.elseBody]));
}

/** Past this many branches an `else if` chain is lowered flat (lowerLongChain), not as an `if` in each `else`. */
const NESTED_BRANCHES = 16;

/**
 * A long `else if` chain, flat: each branch after the first is tried only
 * while none has been taken, which a flag says. Written as an `if` inside each
 * `else`, a chain of n branches would be code nested n deep: n² characters of
 * indentation, and a stack overflow in every pass over the code past some
 * thousands. The same conditions run in the same order, charged the same.
 *
 *   let $open = true;
 *   if (c0) { $open = false; ... }
 *   if ($open) { charge; if (c1) { $open = false; ... } }
 *   if ($open) { ...else... }
 */
function lowerLongChain(lw: Lowerer, s: Extract<CStatement, { kind: "If" }>, guarded: boolean): void {
  const open = lw.temp("open");
  lw.emit(t.variableDeclaration("let", [t.variableDeclarator(open, t.booleanLiteral(true))]));
  const taken = () =>
    t.expressionStatement(t.assignmentExpression("=", t.identifier(open.name), t.booleanLiteral(false)));
  s.branches.forEach((branch, i) => {
    const statements = lw.collect(() => {
      if (i > 0) {
        const charge = chargeStatement(lw, exprSteps(branch.condition), branch.condition.span);
        if (charge !== undefined) lw.emit(charge);
      }
      let condition = lowerExpr(lw, branch.condition);
      condition = truth(lw, guarded ? heldDecision(lw, condition, "c") : condition);
      const body = lowerBlock(lw, branch.body);
      lw.emit(t.ifStatement(condition, t.blockStatement([taken(), ...body.body]), null));
    });
    // The first branch's statements were emitted once already (a loop among them is known to lw.loops): they are only
    // moved.
    if (i === 0) lw.sink.push(...statements);
    else lw.emit(t.ifStatement(t.identifier(open.name), t.blockStatement(statements), null));
  });
  if (s.elseBody !== undefined) lw.emit(t.ifStatement(t.identifier(open.name), lowerBlock(lw, s.elseBody), null));
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
    lw.emit(
      t.variableDeclaration("const", [t.variableDeclarator(origins, t.callExpression(lw.g("joined"), [first, last]))]),
    );
    [from, to] = [plainOf(lw, first), plainOf(lw, last)];
  }
  // With guards, how many turns the loop makes is a decision on its bounds.
  const context = lw.guarded && lw.cx !== undefined ? saveContext(lw) : undefined;
  if (context !== undefined) {
    lw.emit(context.statement);
    lw.emit(decideOn(lw, origins!));
  }
  lw.emit(t.variableDeclaration("const", [t.variableDeclarator(end, to!)]));
  const body = lowerBlock(lw, s.body);
  const bind = t.variableDeclaration("const", [
    t.variableDeclarator(
      lw.local(s.pattern.local),
      origins === undefined ? counter : t.callExpression(lw.g("tag"), [counter, origins]),
    ),
  ]);
  lw.emit(
    t.forStatement(
      t.variableDeclaration("let", [t.variableDeclarator(counter, from!)]),
      t.binaryExpression(range.op === "to" ? "<=" : "<", counter, end),
      t.updateExpression("++", counter),
      t.blockStatement([bind, ...body.body]),
    ),
  );
  if (context !== undefined) lw.emit(joinDecision(lw, context.saved, [s.body], [], true));
  return true;
}

function lowerForEach(lw: Lowerer, s: Extract<CStatement, { kind: "ForEach" }>): void {
  if (lowerRangeLoop(lw, s)) return;
  let walked = lowerExpr(lw, s.iterable);
  // With guards, how many turns the loop makes is a decision on what it walks.
  const context = lw.guarded && lw.cx !== undefined ? saveContext(lw) : undefined;
  if (context !== undefined) {
    lw.emit(context.statement);
    walked = heldDecision(lw, walked, "w");
  }
  const source = iterableOf(lw, walked, s.iterable);
  const item = lw.temp("i");
  const body = lowerBlock(lw, s.body);
  const binds = lowerPattern(lw, s.pattern, item).binds;
  lw.emit(
    t.forOfStatement(
      t.variableDeclaration("const", [t.variableDeclarator(item)]),
      source,
      t.blockStatement([...binds, ...body.body]),
    ),
  );
  if (context !== undefined) lw.emit(joinDecision(lw, context.saved, [s.body], [], true));
}

/**
 * `while (true) { if (!condition) { charge the condition; break; } charge the condition and the body; body }`:
 * one fuel charge a turn (spec/runtime.md, "Fuel"), the condition's steps
 * taken with the body's when it holds, alone when it ends the loop.
 */
function lowerWhile(lw: Lowerer, s: Extract<CStatement, { kind: "While" }>): void {
  const conditionSteps = exprSteps(s.condition);
  // With guards, each turn is a decision on the condition: the rest of the loop, and what it sets, depends on them all.
  const context = lw.guarded && lw.cx !== undefined ? saveContext(lw) : undefined;
  if (context !== undefined) lw.emit(context.statement);
  const statements = lw.collect(() => {
    const lowered = lowerExpr(lw, s.condition);
    const condition = context !== undefined ? heldDecision(lw, lowered, "c") : lowered;
    const charge = chargeStatement(lw, conditionSteps, s.span);
    lw.emit(
      t.ifStatement(
        t.unaryExpression("!", truth(lw, condition)),
        charge === undefined ? t.breakStatement() : t.blockStatement([charge, t.breakStatement()]),
      ),
    );
  });
  const body = lowerBlock(lw, s.body, conditionSteps);
  lw.emit(t.whileStatement(t.booleanLiteral(true), t.blockStatement([...statements, ...body.body])));
  if (context !== undefined) lw.emit(joinDecision(lw, context.saved, [s.condition, s.body], [], true));
}
