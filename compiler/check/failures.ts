// Where a failure goes: the failure type of the function it happens in, which a
// failure passed on may have to be wrapped into (spec/types.md, section 4).

import type { Span } from "../source.js";
import type { CExpr, Wrap } from "./checked.js";
import type { Context } from "./context.js";
import { fieldsOf, resolve, sameType, typeToText, unify, type Type } from "./types.js";

/** `fail with value` and `otherwise fail with value`: the value is the function's failure type. */
export function failWith(ctx: Context, value: CExpr, span: Span): void {
  const frame = ctx.frame;
  if (frame.kind === "test") return;
  if (frame.fails === undefined && !frame.failsDeclared && frame.kind === "lambda") {
    frame.fails = value.type;
    return;
  }
  if (frame.fails === undefined) {
    ctx.problem("E-FAIL-CANNOT", span, { problem: "fail with", owner: frame.owner, failure: typeToText(value.type) });
    return;
  }
  ctx.expectType(value.type, frame.fails, span, { of: "failure" });
}

/**
 * Passing a failure on (spec/types.md, section 4): it goes out as it is when the
 * function fails with the same type; otherwise that type must have exactly one
 * case holding the failing type as its single field, and it is wrapped in it.
 */
export function wrapFailure(ctx: Context, failure: Type, span: Span): Wrap | undefined {
  const frame = ctx.frame;
  if (frame.kind === "test" || resolve(failure).kind === "Error") return undefined;
  if (frame.fails === undefined) {
    if (frame.kind === "lambda" && !frame.failsDeclared) {
      frame.fails = failure;
      return undefined;
    }
    ctx.problem("E-FAIL-CANNOT", span, { problem: "pass on", owner: frame.owner, failure: typeToText(failure) });
    return undefined;
  }
  if (unify(failure, frame.fails)) return undefined;
  const holders = holdersOf(frame.fails, failure);
  const target = resolve(frame.fails);
  if (holders.length === 1 && target.kind === "Con" && target.decl !== undefined) {
    return { decl: target.decl, caseName: holders[0]! };
  }
  ctx.problem("E-FAIL-WRAP", span, {
    failing: typeToText(failure),
    own: typeToText(frame.fails),
    owner: frame.owner,
    holders,
  });
  return undefined;
}

/** The cases of the variant `target` whose single field has the type `failure`. */
export function holdersOf(target: Type, failure: Type): string[] {
  const t = resolve(target);
  if (t.kind !== "Con" || t.decl?.shape !== "variant") return [];
  const decl = t.decl;
  return decl.cases
    .filter((c) => {
      const fields = fieldsOf(decl, t.args, c.fields);
      return fields.length === 1 && sameType(fields[0]!.type, failure);
    })
    .map((c) => c.name);
}

/**
 * Whether `otherwise fail` could pass `failure` on from where the checker
 * stands (nothing is unified or reported): a test, a function value whose
 * failure is found from its body, or a function whose failure type is that
 * type or has one case to wrap it in. For the suggested edit of E-FAIL-UNHANDLED.
 */
export function canPassOn(ctx: Context, failure: Type): boolean {
  const frame = ctx.frame;
  if (frame.kind === "test") return true;
  if (frame.fails === undefined) return frame.kind === "lambda" && !frame.failsDeclared;
  return sameType(frame.fails, failure) || holdersOf(frame.fails, failure).length === 1;
}
