// Lowering failures: `fail`, and `otherwise` with its handlers.

import { construct } from "./guarded.js";
import * as t from "./js.js";
import type { CExpr, CHandler, CStatement, Wrap } from "../check/checked.js";
import type { Lowerer } from "./context.js";
import { depthBack } from "./depth.js";
import { lowerExpr } from "./expressions.js";
import { chargeStatement, handlerSteps } from "./fuel.js";
import { lowerArms } from "./match.js";
import { classRef } from "./shapes.js";
import { site } from "./site.js";
import { caughtHere } from "./narration.js";
import { lowerStatement } from "./statements.js";

function failure(lw: Lowerer, value: t.Expression, at: t.Expression): t.Expression {
  return t.newExpression(lw.rt("Failure"), [value, at]);
}

function wrapped(lw: Lowerer, wrap: Wrap, value: t.Expression): t.Expression {
  // With guards, the case holds the failure plain and carries its origins.
  return construct(lw, classRef(lw, wrap.decl, wrap.caseName), [value]);
}

export function lowerFail(lw: Lowerer, s: Extract<CStatement, { kind: "Fail" }>): void {
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
    for (const narrated of caughtHere(lw, caught, e.span)) lw.emit(narrated);
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
