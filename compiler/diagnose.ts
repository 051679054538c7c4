// A compile-time problem becomes a diagnostic here, from its code and facts:
// the words come from the catalogue's row (vocabulary/problems/), never from
// the caller.

import { COMPILE_PROBLEMS, severityOf, type CompileCode, type CompileFacts } from "../vocabulary/problems/compile.js";
import type { Rendered } from "../vocabulary/problems/entry.js";
import type { Diagnostic, Places } from "./diagnostics.js";
import type { Span } from "./source.js";

/**
 * A compile-time problem: its code, where, and its facts. The words come from
 * the catalogue's row for the code (vocabulary/problems/), never from the caller.
 */
export function diagnose<C extends CompileCode>(
  code: C,
  span: Span,
  facts: CompileFacts<C>,
  places: Places = {},
): Diagnostic {
  const render = COMPILE_PROBLEMS[code].render as (f: CompileFacts<C>) => Rendered;
  const words = render(facts);
  const labels = words.related ?? [];
  return {
    code,
    severity: severityOf(code),
    message: words.message,
    span,
    ...(words.label === undefined ? {} : { label: words.label }),
    ...(places.related === undefined
      ? {}
      : { related: places.related.map((s, i) => ({ span: s, message: labels[i] ?? "" })) }),
    notes: words.notes ?? [],
    ...(words.hint === undefined ? {} : { hint: words.hint }),
    facts,
    ...(places.edits === undefined ? {} : { edits: places.edits }),
  };
}
