// Lowering failures: `fail`, and `otherwise` with its handlers.

import { construct } from "./guarded.js";
import * as t from "./js.js";
import type { CExpr, CHandler, CStatement, Wrap } from "../check/checked.js";
import type { Lowerer } from "./context.js";
import { depthAround } from "./depth.js";
import { lowerExpr } from "./expressions.js";
import { chargeStatement, handlerSteps } from "./fuel.js";
import { lowerArms } from "./match.js";
import { classRef } from "./shapes.js";
import { site } from "./site.js";
import { caughtHere } from "./narration.js";
import { lowerStatement } from "./statements.js";
import { assignedIn, decide, exitsOf, withContext, type Parts } from "./decisions.js";

function failure(lw: Lowerer, value: t.Expression, at: t.Expression): t.Expression {
  return t.newExpression(lw.rt("Failure"), [value, at]);
}

function wrapped(lw: Lowerer, wrap: Wrap, value: t.Expression): t.Expression {
  // With guards, the case holds the failure plain and carries its origins.
  return construct(lw, classRef(lw, wrap.decl, wrap.caseName), [value]);
}

export function lowerFail(lw: Lowerer, s: Extract<CStatement, { kind: "Fail" }>): void {
  if (s.value !== undefined) {
    // With guards, a failure carries the decisions it was raised under.
    lw.emit(t.throwStatement(failure(lw, withContext(lw, lowerExpr(lw, s.value)), site(lw, s.span))));
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
  // With guards, an `otherwise` that goes on after a failure gathers what decided whether it happened.
  const goesOn = e.handler.kind !== "Fail" && !(e.handler.kind === "Leave" && e.handler.statement.kind === "Crash");
  const scope = lw.guarded && lw.cx !== undefined && goesOn ? lw.temp("k") : undefined;
  if (scope !== undefined) {
    lw.emit(t.variableDeclaration("const", [t.variableDeclarator(scope, lw.cx!)]));
    lw.emit(t.expressionStatement(t.assignmentExpression("=", lw.cx!, t.callExpression(lw.g("scope"), [lw.cx!]))));
  }
  let value: t.Expression | undefined;
  const tryStatements = lw.collect(() => {
    value = lowerExpr(lw, e.expr);
  });
  tryStatements.push(t.expressionStatement(t.assignmentExpression("=", result, value!)));
  const depth = depthAround(lw);
  const handler = lw.collect(() => {
    for (const back of depth.back) lw.emit(back);
    lw.emit(
      t.ifStatement(
        t.unaryExpression("!", t.binaryExpression("instanceof", caught, lw.rt("Failure"))),
        t.throwStatement(caught),
      ),
    );
    for (const narrated of caughtHere(lw, caught, e.span)) lw.emit(narrated);
    // The failure is first placed where the call that failed was made.
    lw.emit(
      t.expressionStatement(
        t.assignmentExpression("??=", t.memberExpression(caught, t.identifier("site")), site(lw, e.expr.span)),
      ),
    );
    // The handler runs under what decided that the failure happened.
    if (scope !== undefined)
      lw.emit(t.expressionStatement(t.assignmentExpression("=", lw.cx!, t.callExpression(lw.g("caught"), [lw.cx!]))));
    const charge = chargeStatement(lw, handlerSteps(e.handler), e.span);
    if (charge !== undefined) lw.emit(charge);
    lw.emit(
      t.variableDeclaration("const", [
        t.variableDeclarator(lw.local(e.error), t.memberExpression(caught, t.identifier("value"))),
      ]),
    );
    lowerHandler(lw, e.handler, result, caught, e.span);
  });
  lw.emit(t.variableDeclaration("let", [t.variableDeclarator(result)]));
  for (const before of depth.before) lw.emit(before);
  lw.emit(t.tryStatement(t.blockStatement(tryStatements), t.catchClause(caught, t.blockStatement(handler))));
  if (scope !== undefined) settle(lw, scope, e, result);
  return result;
}

/**
 * After an `otherwise` that went on: its value, and every var its handler may set,
 * carry what decided whether the failure happened, whichever way it went; then the
 * context from before it (a handler that left early keeps the raised one).
 */
function settle(
  lw: Lowerer,
  scope: t.Identifier,
  e: Extract<CExpr, { kind: "Otherwise" }>,
  result: t.Identifier,
): void {
  const handler: Parts =
    e.handler.kind === "Default"
      ? [e.handler.value]
      : e.handler.kind === "Arms"
        ? e.handler.arms.flatMap((arm) => [arm.body, arm.value])
        : e.handler.kind === "Leave"
          ? [{ statements: [e.handler.statement] }]
          : [];
  for (const target of [result, ...assignedIn(handler).map((l) => lw.local(l))]) {
    lw.emit(
      t.expressionStatement(t.assignmentExpression("=", target, t.callExpression(lw.g("settled"), [target, lw.cx!]))),
    );
  }
  lw.emit(
    t.expressionStatement(
      t.assignmentExpression(
        "=",
        lw.cx!,
        t.callExpression(lw.g("settle"), [scope, lw.cx!, t.numericLiteral(exitsOf(handler))]),
      ),
    ),
  );
}
function lowerHandler(
  lw: Lowerer,
  handler: CHandler,
  result: t.Identifier,
  caught: t.Identifier,
  span: { start: number },
): void {
  switch (handler.kind) {
    case "Fail":
      // `otherwise fail with VALUE` is a new failure, raised here; a plain `otherwise fail` keeps where the first one
      // was raised.
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
        lw.emit(
          t.variableDeclaration("const", [
            t.variableDeclarator(subject, t.memberExpression(caught, t.identifier("value"))),
          ]),
        );
        // With guards, arms that tell failures apart decide on the failure's value (its end is the otherwise's,
        // settle).
        if (
          lw.guarded &&
          lw.cx !== undefined &&
          handler.arms.some((arm) => arm.pattern.kind !== "Wildcard" && arm.pattern.kind !== "Bind")
        )
          lw.emit(decide(lw, subject));
        lowerArms(lw, handler.arms, subject, result, () => t.throwStatement(caught));
      } finally {
        lw.handling = saved;
      }
    }
  }
}
