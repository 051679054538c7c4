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
    ctx.problem("E-NAME-VAR-CAPTURED", span, { name: local.name, inside: "function-value" }, { related: [local.span] });
  } else if (ctx.taskBase !== undefined && depth < ctx.taskBase) {
    ctx.problem("E-NAME-VAR-CAPTURED", span, { name: local.name, inside: "tasks" }, { related: [local.span] });
  }
}
