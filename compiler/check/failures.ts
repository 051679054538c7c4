// Where a failure goes: the failure type of the function it happens in, which a
// failure passed on may have to be wrapped into (spec/types.md, section 4).

import type { Span } from "../source.js";
import type { CExpr, Wrap } from "./checked.js";
import { article, type Context } from "./context.js";
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
    ctx.error("E-FAIL-CANNOT", span, `${capitalised(frame.owner)} cannot fail: it has no \`or fails with\``, {
      label: "a failure with nowhere to go",
      hint: `Declare the failure in the signature: \`... or fails with ${typeToText(value.type)}\`, or handle it here.`,
    });
    return;
  }
  ctx.expectType(value.type, frame.fails, span, "The failure");
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
    ctx.error("E-FAIL-CANNOT", span, `${frame.owner.charAt(0).toUpperCase() + frame.owner.slice(1)} cannot fail, so it cannot pass on this ${typeToText(failure)}`, {
      label: `a ${typeToText(failure)} with nowhere to go`,
      hint: `Declare the failure in the signature: \`... or fails with ${typeToText(failure)}\`, or handle it here with a default value or \`when\` arms.`,
    });
    return undefined;
  }
  if (unify(failure, frame.fails)) return undefined;
  const target = resolve(frame.fails);
  const holders = target.kind === "Con" && target.decl?.shape === "variant"
    ? target.decl.cases.filter((c) => {
        const fields = fieldsOf(target.decl!, target.args, c.fields);
        return fields.length === 1 && sameType(fields[0]!.type, failure);
      })
    : [];
  if (holders.length === 1 && target.kind === "Con" && target.decl !== undefined) {
    return { decl: target.decl, caseName: holders[0]!.name };
  }
  const failing = typeToText(failure);
  const own = typeToText(frame.fails);
  ctx.error("E-FAIL-WRAP", span, holders.length === 0 ? `This passes on ${article(failing)}, but ${frame.owner} fails with ${own}, which has no case holding ${article(failing)}` : `${own} has ${holders.length} cases holding ${article(failing)}, so it is unclear which one to wrap it in`, {
    label: `${failing} cannot become ${own}`,
    notes: ["`otherwise fail` wraps a failure into the one case of the function's failure type whose single field has the failing type."],
    hint: holders.length === 0
      ? `Add a case to ${own}: \`${failing.replace(/Error$/, "") || "Wrapped"}(error: ${failing})\`, or say which value to fail with: \`otherwise fail with ${own}.Case(...)\`.`
      : `Say which: \`otherwise fail with ${own}.${holders[0]!.name}(error)\`.`,
  });
  return undefined;
}

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
