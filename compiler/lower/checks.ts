// Lowering a test's `check` and `check ... fails`.

import * as t from "./js.js";
import type { CExpr, CPattern } from "../check/checked.js";
import type { Lowerer } from "./context.js";
import { depthAround } from "./depth.js";
import { lowerExpr, spillOrder, textOf } from "./expressions.js";
import { allOf, lowerPattern } from "./patterns.js";
import { site } from "./site.js";

/**
 * The check as written in the source, on one line: a failed check shows it
 * beside both values (`check double(2) is 5` fails with `4 is not 5`).
 */
function writtenText(lw: Lowerer, span: { start: number; end: number }): t.StringLiteral {
  return t.stringLiteral(
    lw.source.text
      .slice(span.start, span.end)
      .replace(/\s*\n\s*/g, " ")
      .trim(),
  );
}

export function lowerCheck(lw: Lowerer, condition: CExpr): void {
  // `check a is b` shows both sides when it fails.
  if (condition.kind === "Binary" && (condition.op === "is" || condition.op === "is not")) {
    const left = lw.temp("l");
    const right = lw.temp("r");
    const [l, r] = spillOrder(lw, [condition.left, condition.right]);
    lw.emit(t.variableDeclaration("const", [t.variableDeclarator(left, l!), t.variableDeclarator(right, r!)]));
    // With guards, the verdict is a decision on what it compares: a test's outcome tells of it (rtlib/origin-ops.ts,
    // verdict).
    const same = lw.guarded
      ? t.callExpression(lw.g("verdict"), [t.callExpression(lw.g("isEqual"), [left, right])])
      : t.callExpression(lw.rt("equals"), [left, right]);
    const holds = condition.op === "is" ? same : t.unaryExpression("!", same);
    lw.emit(
      t.ifStatement(
        t.unaryExpression("!", holds),
        t.expressionStatement(
          t.callExpression(lw.rt("checkFailed"), [
            t.stringLiteral(condition.op),
            textOf(lw, left, condition.left.type),
            textOf(lw, right, condition.right.type),
            site(lw, condition.span),
            writtenText(lw, condition.span),
          ]),
        ),
      ),
    );
    return;
  }
  const value = lw.guarded ? t.callExpression(lw.g("verdict"), [lowerExpr(lw, condition)]) : lowerExpr(lw, condition);
  lw.emit(
    t.ifStatement(
      t.unaryExpression("!", value),
      t.expressionStatement(
        t.callExpression(lw.rt("checkFailed"), [
          t.stringLiteral("holds"),
          t.stringLiteral(""),
          t.stringLiteral(""),
          site(lw, condition.span),
          writtenText(lw, condition.span),
        ]),
      ),
    ),
  );
}

/** `check EXPR fails [with PATTERN]`; `statement` is the whole statement's span, shown from EXPR on. */
export function lowerCheckFails(lw: Lowerer, expr: CExpr, pattern: CPattern, statement: { end: number }): void {
  const caught = lw.temp("e");
  const written = writtenText(lw, { start: expr.span.start, end: statement.end });
  const tryStatements = lw.collect(() => lw.emit(t.expressionStatement(lowerExpr(lw, expr))));
  tryStatements.push(
    t.expressionStatement(
      t.callExpression(lw.rt("checkFailed"), [
        t.stringLiteral("fails"),
        t.stringLiteral(""),
        t.stringLiteral(""),
        site(lw, expr.span),
        written,
      ]),
    ),
  );
  const code = lowerPattern(lw, pattern, t.memberExpression(caught, t.identifier("value")));
  const depth = depthAround(lw);
  const handler = [
    ...depth.back,
    t.ifStatement(
      t.unaryExpression("!", t.binaryExpression("instanceof", caught, lw.rt("Failure"))),
      t.throwStatement(caught),
    ),
    t.ifStatement(
      t.unaryExpression("!", allOf(code.tests)),
      t.expressionStatement(
        t.callExpression(lw.rt("checkFailed"), [
          t.stringLiteral("fails with"),
          t.callExpression(lw.guarded ? lw.g("toText") : lw.rt("toText"), [
            t.memberExpression(caught, t.identifier("value")),
          ]),
          t.stringLiteral(""),
          site(lw, expr.span),
          written,
        ]),
      ),
    ),
  ];
  // The check's own failure must not be caught as the expression's: it is a Crash, not a Failure.
  for (const before of depth.before) lw.emit(before);
  lw.emit(t.tryStatement(t.blockStatement(tryStatements), t.catchClause(caught, t.blockStatement(handler))));
}
