// The formatter, `renyi fmt`'s and the language server's: text in, text out.
// It prints the syntax tree in the one layout spec/editor.md section 8 lays
// down and puts the comments back where they were written. A file that does not
// parse is not formatted: its syntax diagnostics come back instead.

import { hasErrors, type Diagnostic } from "../diagnostics.js";
import { sortDiagnostics } from "../frontend.js";
import { lex } from "../lex/lexer.js";
import { parse } from "../parse/parser.js";
import { item } from "./items.js";
import { Lines } from "./lines.js";
import { lineEndOf, lineStartOf } from "./source-text.js";
import { weave, type Woven } from "./weave.js";

export interface Formatted {
  /** The formatted text; absent when the file does not parse. */
  readonly text?: string;
  readonly diagnostics: Diagnostic[];
}

/** A replacement of the source's `[start, end)` (UTF-16 offsets) by `text`. */
export interface FormatEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export function formatSource(file: string, text: string): Formatted {
  const done = formatted(file, text, false);
  return done.woven === undefined
    ? { diagnostics: done.diagnostics }
    : { text: done.woven.text, diagnostics: done.diagnostics };
}

/**
 * The edit that formats the top-level items `[start, end)` touches, from the start of the first one's line to the
 * end of the last one's; no edit when the range touches no item or they are formatted already.
 */
export function formatRange(
  file: string,
  text: string,
  start: number,
  end: number,
): { edit?: FormatEdit; diagnostics: Diagnostic[] } {
  const done = formatted(file, text, true);
  if (done.woven === undefined) return { diagnostics: done.diagnostics };
  const touched = done.items.flatMap((it, i) =>
    it.span.start <= Math.max(end, start + 1) - 1 && it.span.end >= start ? [i] : [],
  );
  if (touched.length === 0) return { diagnostics: done.diagnostics };
  const first = touched[0]!;
  const last = touched.at(-1)!;
  const from = lineStartOf(text, done.items[first]!.span.start);
  const to = lineEndOf(text, done.items[last]!.span.end);
  const replacement = done.woven.text.slice(done.woven.items[first]!.start, done.woven.items[last]!.end);
  if (replacement === text.slice(from, to)) return { diagnostics: done.diagnostics };
  return { edit: { start: from, end: to, text: replacement }, diagnostics: done.diagnostics };
}

function formatted(
  file: string,
  text: string,
  withItems: boolean,
): { woven?: Woven; items: { span: { start: number; end: number } }[]; diagnostics: Diagnostic[] } {
  const lexed = lex(file, text);
  const parsed = parse(file, lexed.tokens, lexed.diagnostics);
  const diagnostics = sortDiagnostics([...lexed.diagnostics, ...parsed.diagnostics]);
  if (hasErrors(diagnostics)) return { items: [], diagnostics };
  const lines = new Lines(text);
  parsed.module.items.forEach((it, i) => {
    lines.item = i;
    item(lines, it);
  });
  lines.finish();
  return {
    woven: weave(text, lines, lexed.comments, withItems),
    items: parsed.module.items,
    diagnostics,
  };
}
