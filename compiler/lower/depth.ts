// The call depth in async code: set back wherever a function resumes (see Lowerer.depth).

import * as t from "./js.js";
import type { Lowerer } from "./context.js";

/** `await x`, and the depth set back to this function's when it resumes (see Lowerer.depth). */
export function awaited(lw: Lowerer, value: t.Expression): t.Expression {
  const wait = t.awaitExpression(value);
  const depthSet = lw.depth === undefined ? wait : t.callExpression(lw.rt("resume"), [wait, lw.depth]);
  // With guards, the function's context is set back too (compiler/lower/decisions.ts).
  return lw.guarded && lw.cx !== undefined ? t.callExpression(lw.g("back"), [depthSet, lw.cx]) : depthSet;
}

/**
 * Around a `try` that catches failures (`otherwise`, `check ... fails`): what goes before it, and what starts its
 * `catch`, so that the code after a caught failure runs at the depth it ran at before. An async function sets back
 * the depth it keeps (`depthBack`); a synchronous one reads the depth before the `try`
 * (`const $d = $S.depth;`) and sets it back in the `catch`, since the calls the failure left gave none back.
 */
export function depthAround(lw: Lowerer): { before: t.Statement[]; back: t.Statement[] } {
  if (lw.async) return { before: [], back: depthBack(lw) };
  if (lw.onlyFuel) return { before: [], back: [] };
  const mark = lw.temp("d");
  const depth = t.memberExpression(lw.rt("S"), t.identifier("depth"));
  return {
    before: [t.variableDeclaration("const", [t.variableDeclarator(mark, depth)])],
    back: [t.expressionStatement(t.assignmentExpression("=", depth, mark))],
  };
}

/**
 * `$S.depth = $depth;` where code resumes other than after an await (a catch, a task's start); nothing in synchronous
 * code.
 */
export function depthBack(lw: Lowerer): t.Statement[] {
  if (!lw.async || lw.depth === undefined) return [];
  const back = t.expressionStatement(
    t.assignmentExpression("=", t.memberExpression(lw.rt("S"), t.identifier("depth")), lw.depth),
  );
  if (!lw.guarded || lw.cx === undefined) return [back];
  return [back, t.expressionStatement(t.callExpression(lw.g("back"), [t.identifier("undefined"), lw.cx]))];
}
