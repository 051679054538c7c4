// The narrated lowering (`renyi run --explain`, spec/runtime.md, "Narrated
// runs"): only when the bundle is compiled with `narrate`. A named function's
// body is wrapped so that the runtime's narrator hears of the call (its
// purpose or name, its arguments), of its result, and of what it threw; an
// `otherwise` tells it where a failure was caught. Without `narrate` none of
// this is emitted, and the compiled code is what it always was.

import * as t from "./js.js";
import type { CFunction } from "../check/checked.js";
import type { Lowerer } from "./context.js";
import type { Span } from "../source.js";

function narrationCall(lw: Lowerer, method: string, args: t.Expression[]): t.Expression {
  return t.callExpression(t.memberExpression(lw.rt("narration"), t.identifier(method)), args);
}

/** `file.ry:LINE` of a span, as a failure's narration names the `otherwise` that caught it. */
function lineOf(lw: Lowerer, span: Span): string {
  return `${lw.source.path}:${lw.source.position(span.start).line}`;
}

/** `$narration.caught($e, "file.ry:LINE")`: where an `otherwise` caught a failure, in a narrated program only. */
export function caughtHere(lw: Lowerer, caught: t.Identifier, span: Span): t.Statement[] {
  if (!lw.narrate) return [];
  return [t.expressionStatement(narrationCall(lw, "caught", [caught, t.stringLiteral(lineOf(lw, span))]))];
}

/**
 * The body of a narrated function: its own statements run in an inner function
 * (returns and all), between the narrator's `enter` and its `leave` or `fail`:
 *
 *   const $n = $narration.enter(PURPOSE, NAME, [names], [values]);
 *   try { const $r = await $narration.within($n, async () => { BODY }); $narration.leave($n, $r); return $r; }
 *   catch ($x) { $narration.fail($n, $x); throw $x; }
 */
export function narratedBody(lw: Lowerer, f: CFunction, shown: string, body: t.Statement[]): t.Statement[] {
  const handle = lw.temp("n");
  const result = lw.temp("r");
  const thrown = lw.temp("x");
  const names = t.arrayExpression(f.params.map((p) => t.stringLiteral(p.local.name)));
  const values = t.arrayExpression(f.params.map((p) => lw.local(p.local)));
  const purpose = f.purpose === undefined ? t.nullLiteral() : t.stringLiteral(f.purpose);
  // `within` runs the body inside the call's span in a traced run (`--trace`), and just runs it otherwise.
  const inner = narrationCall(lw, "within", [handle, t.arrowFunctionExpression([], t.blockStatement(body), lw.async)]);
  return [
    t.variableDeclaration("const", [
      t.variableDeclarator(handle, narrationCall(lw, "enter", [purpose, t.stringLiteral(shown), names, values])),
    ]),
    t.tryStatement(
      t.blockStatement([
        t.variableDeclaration("const", [t.variableDeclarator(result, lw.async ? t.awaitExpression(inner) : inner)]),
        t.expressionStatement(narrationCall(lw, "leave", [handle, result])),
        t.returnStatement(result),
      ]),
      t.catchClause(
        thrown,
        t.blockStatement([
          t.expressionStatement(narrationCall(lw, "fail", [handle, thrown])),
          t.throwStatement(thrown),
        ]),
      ),
    ),
  ];
}
