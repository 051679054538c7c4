// Lowering functions: a function value (a lambda) and the body every function
// has, with its call depth counted on entry and given back on exit.

import * as t from "./js.js";
import type { CBlock, CExpr } from "../check/checked.js";
import type { Lowerer } from "./context.js";
import { needsValue } from "./grants.js";
import { lowerBlock } from "./statements.js";
import { localizeFuel } from "./fuel-regions.js";
import { makesDecisions } from "./decisions.js";

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
      body.body.unshift(
        t.variableDeclaration("const", [
          t.variableDeclarator(
            narrowed,
            t.callExpression(lw.rt("narrow"), [
              outer ?? t.identifier("undefined"),
              needsValue(e.needs),
              t.stringLiteral("this function"),
            ]),
          ),
        ]),
      );
    }
    return t.arrowFunctionExpression(
      e.params.map((p) => lw.local(p)),
      body,
      isAsync,
    );
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
export function functionBody(
  lw: Lowerer,
  body: CBlock,
  span?: { file: string; start: number; end: number },
): t.BlockStatement {
  if (!lw.guarded) return depthCounted(lw, body, span);
  // With guards, a function runs in the context it was called in (compiler/lower/decisions.ts). One
  // that decides keeps it in a local and leaves the caller's behind however it ends; one that does
  // not only sets it back where it resumes; a synchronous one that does not leaves it as it is.
  const decides = makesDecisions(body);
  if (!decides && !lw.async) return depthCounted(lw, body, span);
  const saved = { cx: lw.cx, entry: lw.cxEntry };
  const entry = lw.temp("cx");
  lw.cxEntry = entry;
  lw.cx = decides ? lw.temp("cx") : entry;
  try {
    const prologue: t.Statement[] = [
      t.variableDeclaration("const", [t.variableDeclarator(entry, t.callExpression(lw.g("enter"), []))]),
    ];
    if (!decides) return depthCounted(lw, body, span, { prologue, epilogue: [] });
    prologue.push(t.variableDeclaration("let", [t.variableDeclarator(lw.cx, entry)]));
    const epilogue = [t.expressionStatement(t.callExpression(lw.g("back"), [t.identifier("undefined"), entry]))];
    return depthCounted(lw, body, span, { prologue, epilogue });
  } finally {
    lw.cx = saved.cx;
    lw.cxEntry = saved.entry;
  }
}

/** Statements before a function's body, and in the `finally` after it. */
interface Frame {
  readonly prologue: readonly t.Statement[];
  readonly epilogue: readonly t.Statement[];
}

function depthCounted(
  lw: Lowerer,
  body: CBlock,
  span?: { file: string; start: number; end: number },
  frame: Frame = { prologue: [], epilogue: [] },
): t.BlockStatement {
  const depth = t.memberExpression(lw.rt("S"), t.identifier("depth"));
  const maxDepth = t.memberExpression(lw.rt("S"), t.identifier("maxDepth"));
  const tooDeep = t.expressionStatement(t.callExpression(lw.rt("tooDeep"), []));
  if (!lw.async) {
    if (lw.onlyFuel) {
      const block = lowerBodyLeaving(lw, body, false);
      return t.blockStatement([
        ...frame.prologue,
        ...(frame.epilogue.length === 0
          ? block.body
          : [t.tryStatement(block, null, t.blockStatement([...frame.epilogue]))]),
      ]);
    }
    // Synchronous code runs to its end with no other task in between: a counter will do.
    const enter = lw.at(
      t.ifStatement(t.binaryExpression(">", t.updateExpression("++", depth, true), maxDepth), tooDeep),
      span,
    );
    if (frame.epilogue.length > 0) {
      const block = lowerBodyLeaving(lw, body, false);
      return t.blockStatement([
        ...frame.prologue,
        enter,
        t.tryStatement(
          block,
          null,
          t.blockStatement([t.expressionStatement(t.updateExpression("--", depth)), ...frame.epilogue]),
        ),
      ]);
    }
    // No `finally` (one on every call cost fib(32) a fifth of its time): the depth is given back by each
    // `return` and at the end, and a failure or crash that leaves the function leaves it raised, to be set
    // back where it is caught (an `otherwise`, a `check ... fails`: failures.ts, checks.ts) or where the run,
    // a test or a task ends; an async caller sets its own back however the call ends.
    const block = lowerBodyLeaving(lw, body, true);
    const last = block.body[block.body.length - 1];
    const ends = last !== undefined && (last.type === "ReturnStatement" || last.type === "ThrowStatement");
    return t.blockStatement([
      ...frame.prologue,
      enter,
      ...block.body,
      ...(ends ? [] : [t.expressionStatement(t.updateExpression("--", depth))]),
    ]);
  }
  // An async function keeps the depth it runs at, sets it back wherever it resumes, and
  // leaves the depth it was called at: concurrent tasks each count their own calls.
  const own = lw.temp("depth");
  const saved = lw.depth;
  lw.depth = own;
  try {
    const declare = lw.at(
      t.variableDeclaration("const", [t.variableDeclarator(own, t.updateExpression("++", depth, true))]),
      span,
    );
    const enter = lw.at(t.ifStatement(t.binaryExpression(">", own, maxDepth), tooDeep), span);
    const block = lowerBodyLeaving(lw, body, false);
    const leave = t.expressionStatement(
      t.assignmentExpression("=", depth, t.binaryExpression("-", own, t.numericLiteral(1))),
    );
    return t.blockStatement([
      ...frame.prologue,
      declare,
      enter,
      t.tryStatement(block, null, t.blockStatement([leave, ...frame.epilogue])),
    ]);
  } finally {
    lw.depth = saved;
  }
}

/** `lowerBody`, its `return`s giving the depth back (`leaves`) or not. */
function lowerBodyLeaving(lw: Lowerer, body: CBlock, leaves: boolean): t.BlockStatement {
  const outer = lw.leavesDepth;
  lw.leavesDepth = leaves;
  try {
    return lowerBody(lw, body);
  } finally {
    lw.leavesDepth = outer;
  }
}

/** A function's block, its loops keeping their fuel in locals where they can (fuel-regions.ts). */
function lowerBody(lw: Lowerer, body: CBlock): t.BlockStatement {
  const outer = lw.loops;
  lw.loops = [];
  try {
    return localizeFuel(lw, lowerBlock(lw, body));
  } finally {
    lw.loops = outer;
  }
}
