// Which locals a function value or a concurrent task may use.

import type { Span } from "../source.js";
import type { Local } from "./checked.js";
import type { Context } from "./context.js";

/**
 * A `var` belongs to its function: a lambda, a function value or a concurrent
 * task that reads or changes it would share mutable state (spec/types.md, section 2).
 */
export function checkCapture(ctx: Context, local: Local, depth: number, span: Span): void {
  if (!local.mutable) return;
  if (depth < ctx.frame.scopeBase) {
    ctx.error("E-NAME-VAR-CAPTURED", span, `The \`var\` \`${local.name}\` cannot be used inside a function value`, {
      label: "a var of the enclosing function",
      related: [{ span: local.span, message: "declared here" }],
      notes: ["A `var` is local to its function; functions and tasks share no mutable state."],
      hint: `Pass the value in as an argument, or bind it first: \`let ${local.name}_now be ${local.name}\`.`,
    });
  } else if (ctx.taskBase !== undefined && depth < ctx.taskBase) {
    ctx.error("E-NAME-VAR-CAPTURED", span, `The \`var\` \`${local.name}\` cannot be used inside \`run concurrently\``, {
      label: "a var shared between tasks",
      related: [{ span: local.span, message: "declared here" }],
      notes: ["Concurrent tasks share no mutable state."],
      hint: `Bind its value before the tasks start: \`let ${local.name}_now be ${local.name}\`.`,
    });
  }
}
