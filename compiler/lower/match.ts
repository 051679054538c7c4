// Lowering `match`, as a statement and as a value, and the arms an `otherwise` handler has.

import * as t from "./js.js";
import type { CArm, CExpr } from "../check/checked.js";
import type { Lowerer } from "./context.js";
import { lowerExpr } from "./expressions.js";
import { blockSteps, chargeStatement, exprSteps } from "./fuel.js";
import { allOf, lowerPattern } from "./patterns.js";
import { site } from "./site.js";
import { lowerStatement } from "./statements.js";
import { decide, joinDecision, saveContext, type Parts } from "./decisions.js";

/**
 * Arms in order: the first whose pattern matches runs. `result`, when given,
 * receives the value of arms that give one. `otherwise` is what happens when no
 * arm matches (only a value outside the checked type, such as Guarded).
 */
export function lowerArms(
  lw: Lowerer,
  arms: readonly CArm[],
  subject: t.Identifier,
  result: t.Identifier | undefined,
  otherwise: () => t.Statement,
): void {
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
      if (arm.value !== undefined)
        lw.emit(t.expressionStatement(t.assignmentExpression("=", result!, lowerExpr(lw, arm.value))));
    });
    chain =
      code.tests.length === 0
        ? t.blockStatement(body)
        : t.ifStatement(allOf(code.tests), t.blockStatement(body), chain);
  }
  lw.emit(chain);
}

function noArmMatched(lw: Lowerer, span: { start: number }): t.Statement {
  return t.expressionStatement(t.callExpression(lw.rt("noArmFits"), [site(lw, span)]));
}

export function lowerMatchStatement(lw: Lowerer, e: Extract<CExpr, { kind: "Match" }>): void {
  const subject = lw.temp("s");
  lw.emit(t.variableDeclaration("const", [t.variableDeclarator(subject, lowerExpr(lw, e.subject))]));
  const join = decideOnSubject(lw, subject, e);
  lowerArms(lw, e.arms, subject, undefined, () => noArmMatched(lw, e.span));
  join?.([]);
}

export function lowerMatchValue(lw: Lowerer, e: Extract<CExpr, { kind: "Match" }>): t.Expression {
  const subject = lw.temp("s");
  const result = lw.temp("v");
  lw.emit(t.variableDeclaration("const", [t.variableDeclarator(subject, lowerExpr(lw, e.subject))]));
  lw.emit(t.variableDeclaration("let", [t.variableDeclarator(result)]));
  const join = decideOnSubject(lw, subject, e);
  lowerArms(lw, e.arms, subject, result, () => noArmMatched(lw, e.span));
  join?.([result]);
  return result;
}

/** With guards, the arms run under the subject's origins; the returned function emits the join after them. */
function decideOnSubject(
  lw: Lowerer,
  subject: t.Identifier,
  e: Extract<CExpr, { kind: "Match" }>,
): ((values: t.Identifier[]) => void) | undefined {
  if (!lw.guarded || lw.cx === undefined) return undefined;
  const context = saveContext(lw);
  lw.emit(context.statement);
  lw.emit(decide(lw, subject));
  const parts: Parts = e.arms.flatMap((arm) => [arm.body, arm.value]);
  return (values) => lw.emit(joinDecision(lw, context.saved, parts, values));
}
