// Where a failure, a crash or a failed check happened, as the program's own position.

import * as t from "./js.js";
import type { Lowerer } from "./context.js";

/** `file.ry:line:column` of a span, for failure and crash messages. */
export function site(lw: Lowerer, span: { start: number }): t.StringLiteral {
  const at = lw.source.position(span.start);
  return t.stringLiteral(`${lw.source.path}:${at.line}:${at.column}`);
}
