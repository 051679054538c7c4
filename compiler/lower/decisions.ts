// Decisions on guarded data, in a program with guards (spec/runtime.md, "Decisions
// on guarded data"): what a decision's code carries besides its own values. Each
// function keeps its context (the origins of the decisions it runs under, and where
// an `otherwise` gathers what decided a failure) in a local, `$cx`; a decision on a
// value with origins raises it for its arms; at its end every var an arm may set
// carries them, whichever arm ran, and the context goes back to what it was, unless
// an arm may leave the decision early (then what follows depends on it too).

import * as t from "./js.js";
import type { CBlock, CExpr, CStatement, Local } from "../check/checked.js";
import { forEachChild, forEachStatementChild } from "../borrow/walk.js";
import type { Lowerer } from "./context.js";

/** The runtime's constants for how arms may leave (rtlib/origin-ops.ts, EXITS_*). */
const EXITS = { none: 0, local: 1, failing: 2 } as const;

/** The parts of a decision: blocks, and expressions (a condition, an arm's value). */
export type Parts = readonly (CBlock | CExpr | undefined)[];

/** `if (typeof value === "object") $cx = $decide($cx, value)`: the code after runs under the value's origins. */
export function decide(lw: Lowerer, value: t.Identifier): t.Statement {
  // Nothing (null) is an object to `typeof` too: decide() tells it from a Guarded.
  return t.ifStatement(
    t.binaryExpression("===", t.unaryExpression("typeof", value), t.stringLiteral("object")),
    t.expressionStatement(t.assignmentExpression("=", lw.cx!, t.callExpression(lw.g("decide"), [lw.cx!, value]))),
  );
}

/** `const $c = value;` and a decision on it (`decide`): the name that holds it, for the test of its truth. */
export function heldDecision(lw: Lowerer, value: t.Expression, prefix: string): t.Identifier {
  const held = lw.temp(prefix);
  lw.emit(t.variableDeclaration("const", [t.variableDeclarator(held, value)]));
  lw.emit(decide(lw, held));
  return held;
}

/** `$cx = $decideOn($cx, origins)`: a decision on a set of origins (a counted loop's bounds). */
export function decideOn(lw: Lowerer, origins: t.Expression): t.Statement {
  return t.expressionStatement(
    t.assignmentExpression("=", lw.cx!, t.callExpression(lw.g("decideOn"), [lw.cx!, origins])),
  );
}

/**
 * Whether a condition holds, as a JavaScript Boolean: `c === true || (typeof c === "object" && c.value === true)` for a
 * name.
 */
export function truth(lw: Lowerer, condition: t.Expression): t.Expression {
  if (!lw.guarded) return condition;
  if (condition.type !== "Identifier") return t.callExpression(lw.g("truth"), [condition]);
  const guardedTrue = t.logicalExpression(
    "&&",
    t.binaryExpression("===", t.unaryExpression("typeof", condition), t.stringLiteral("object")),
    t.binaryExpression("===", t.memberExpression(condition, t.identifier("value")), t.booleanLiteral(true)),
  );
  return t.logicalExpression("||", t.binaryExpression("===", condition, t.booleanLiteral(true)), guardedTrue);
}

/** `const $k = $cx;` before a decision: the context it goes back to. */
export function saveContext(lw: Lowerer): { saved: t.Identifier; statement: t.Statement } {
  const saved = lw.temp("k");
  return { saved, statement: t.variableDeclaration("const", [t.variableDeclarator(saved, lw.cx!)]) };
}

/**
 * The end of a decision made since `saved`: when it raised the context, each var an
 * arm may set (and each of `values`, the temporaries holding what its arms gave)
 * carries the raised origins, and the context goes back, or stays raised when an arm
 * may leave early.
 */
export function joinDecision(
  lw: Lowerer,
  saved: t.Identifier,
  parts: Parts,
  values: readonly t.Identifier[] = [],
  loopBody = false,
): t.Statement {
  const targets = [...values, ...assignedIn(parts).map((l) => lw.local(l))];
  const body: t.Statement[] = targets.map((target) =>
    t.expressionStatement(t.assignmentExpression("=", target, t.callExpression(lw.g("withPc"), [target, lw.cx!]))),
  );
  body.push(
    t.expressionStatement(
      t.assignmentExpression(
        "=",
        lw.cx!,
        t.callExpression(lw.g("leave"), [saved, lw.cx!, t.numericLiteral(exitsOf(parts, loopBody))]),
      ),
    ),
  );
  return t.ifStatement(t.binaryExpression("!==", lw.cx!, saved), t.blockStatement(body));
}

/**
 * What a return or a failure gives out, carrying the origins of the decisions this
 * function made since it was called. Those it was called under need not be added:
 * its caller carries them where the value goes (a var an arm sets, its own return).
 */
export function withContext(lw: Lowerer, value: t.Expression): t.Expression {
  if (!lw.guarded || lw.cx === undefined || lw.cx === lw.cxEntry) return value;
  return t.callExpression(lw.g("returned"), [value, lw.cx, lw.cxEntry!]);
}

/** A crash's message, carrying every decision it was made under: which crash ends the run is data. */
export function crashMessage(lw: Lowerer, message: t.Expression): t.Expression {
  if (!lw.guarded) return message;
  return t.callExpression(lw.g("withPc"), [message, lw.cx ?? t.callExpression(lw.g("enter"), [])]);
}

/** Whether a function's body makes a decision (its function values, compiled on their own, aside). */
export function makesDecisions(body: CBlock): boolean {
  let found = false;
  const onStatement = (s: CStatement): void => {
    if (s.kind === "If" || s.kind === "While" || s.kind === "ForEach") found = true;
    if (!found) forEachStatementChild(s, onExpr, onBlock, onStatement);
  };
  const onBlock = (b: CBlock): void => {
    for (const s of b.statements) if (!found) onStatement(s);
  };
  const onExpr = (e: CExpr): void => {
    if (found || e.kind === "Lambda") return;
    if (
      e.kind === "If" ||
      e.kind === "Match" ||
      e.kind === "Otherwise" ||
      (e.kind === "Binary" && (e.op === "and" || e.op === "or"))
    )
      found = true;
    else forEachChild(e, onExpr, onBlock, onStatement);
  };
  onBlock(body);
  return found;
}

// ---- what the arms of a decision may do ----

/**
 * The vars declared outside the parts that a `set` in them may change (not in a
 * function value: a var is never captured), each once.
 */
export function assignedIn(parts: Parts): Local[] {
  const declared = new Set<number>();
  const set = new Map<number, Local>();
  const onStatement = (s: CStatement): void => {
    if (s.kind === "Var") declared.add(s.local.id);
    if (s.kind === "Set") set.set(s.local.id, s.local);
    if (s.kind === "RunConcurrently") for (const local of s.bound) declared.add(local.id);
    forEachStatementChild(s, onExpr, onBlock, onStatement);
  };
  const onBlock = (b: CBlock): void => {
    for (const s of b.statements) onStatement(s);
  };
  const onExpr = (e: CExpr): void => {
    if (e.kind === "Lambda") return;
    forEachChild(e, onExpr, onBlock, onStatement);
  };
  walkParts(parts, onExpr, onBlock);
  return [...set.values()].filter((l) => !declared.has(l.id));
}

/**
 * How the parts may leave the decision other than at its end: a `return`, or a
 * `skip` or `stop` not inside a loop of their own (local), or only by failing (a
 * `fail`, an `otherwise` that fails or has arms), or not at all.
 */
export function exitsOf(parts: Parts, loopBody = false): number {
  let local = false;
  let failing = false;
  // In a loop's body, its own `skip` and `stop` stay inside the loop.
  let loops = loopBody ? 1 : 0;
  const onStatement = (s: CStatement): void => {
    if (s.kind === "Return") local = true;
    if ((s.kind === "Skip" || s.kind === "Stop") && loops === 0) local = true;
    if (s.kind === "Fail") failing = true;
    const loop = s.kind === "ForEach" || s.kind === "While";
    if (loop) loops++;
    forEachStatementChild(s, onExpr, onBlock, onStatement);
    if (loop) loops--;
  };
  const onBlock = (b: CBlock): void => {
    for (const s of b.statements) onStatement(s);
  };
  const onExpr = (e: CExpr): void => {
    if (e.kind === "Lambda") return;
    if (e.kind === "Otherwise" && (e.handler.kind === "Fail" || e.handler.kind === "Arms")) failing = true;
    forEachChild(e, onExpr, onBlock, onStatement);
  };
  walkParts(parts, onExpr, onBlock);
  return local ? EXITS.local : failing ? EXITS.failing : EXITS.none;
}

function walkParts(parts: Parts, onExpr: (e: CExpr) => void, onBlock: (b: CBlock) => void): void {
  for (const part of parts) {
    if (part === undefined) continue;
    if ("statements" in part && !("kind" in part)) onBlock(part as CBlock);
    else onExpr(part as CExpr);
  }
}
