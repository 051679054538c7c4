// Diagnostics are data. Every phase returns them; only this file turns them
// into text for people or JSON for tools, so both always say the same thing.
// They are built from the catalogue of problems in compiler/diagnose.ts, which
// this file does not import: a command that only shows a run's outcome loads no
// catalogue. It lives in report/ because a run's outcome is shown through it
// both by `renyi run` and by a bundle run as `node DIR/NAME.mjs`.

import type { Code } from "../vocabulary/problems/index.js";
import type { SourceFile, Span } from "./source.js";

type Severity = "error" | "warning";

interface Label {
  readonly span: Span;
  readonly message: string;
}

export interface Diagnostic {
  /**
   * A code of the catalogue (vocabulary/problems/): a compile-time code, or a
   * run-time one where a command reports a run's refusal as a diagnostic.
   */
  readonly code: Code;
  readonly severity: Severity;
  /** One sentence: what was found. */
  readonly message: string;
  readonly span: Span;
  /** What the caret under the span says (what was expected there). */
  readonly label?: string;
  /** Other places worth showing, such as where an unclosed bracket opened. */
  readonly related?: readonly Label[];
  /** Further facts, one sentence each. */
  readonly notes: readonly string[];
  /** What to write instead, often with an example. */
  readonly hint?: string;
  /** The facts the message was made from (the catalogue names them per code). */
  readonly facts?: object;
  /** Fixes an editor can offer: replace a span's text. */
  readonly edits?: readonly SuggestedEdit[];
}

/** A fix as data: what to put in place of a span (an empty span inserts). */
export interface SuggestedEdit {
  /** What the edit does, as an editor would title it: `Add console to the needs line`. */
  readonly title: string;
  readonly span: Span;
  readonly replacement: string;
}

/** What a call site gives beside the facts: places, not words. */
export interface Places {
  /** Other places worth showing; their labels come from the catalogue's `related`. */
  readonly related?: readonly Span[];
  readonly edits?: readonly SuggestedEdit[];
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/** Sources by path, so that rendering can show the offending line. */
export type Sources = ReadonlyMap<string, SourceFile>;

// A source line is shown in a window this wide around the span, so that a
// 10 MB line still renders as one readable line.
const WINDOW = 100;

// At most this many diagnostics are rendered at once, then one line says how many more there are: a file of a
// million stray characters has a million syntax errors, which nobody reads and whose text would not fit in a string.
const MAX_RENDERED = 200;

/**
 * Renders diagnostics for a terminal, in the style of Rust's and Gleam's reports: the first MAX_RENDERED, then a line
 * with the count of the rest.
 */
export function renderText(diagnostics: readonly Diagnostic[], sources: Sources): string {
  const shown = diagnostics.slice(0, MAX_RENDERED).map((d) => renderOne(d, sources));
  const more = diagnostics.length - shown.length;
  if (more > 0) shown.push(`... and ${more.toLocaleString("en")} more not shown\n`);
  return shown.join("\n");
}

/**
 * `text` with every character that a terminal would act on instead of showing replaced by a visible one, one
 * character for one so that a caret under a quoted line stays aligned: C0 controls but tab become their control
 * pictures (U+2400 + code, DEL U+2421), C1 controls and the bidirectional marks become U+FFFD. Source lines, file
 * names and messages are the adversary's text; an ESC in them could retitle or clear the terminal, a direction mark
 * could reorder the line it is on.
 */
export function showable(text: string): string {
  return text.replace(UNSHOWABLE, (c) => {
    const code = c.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    return code === 0x7f ? "\u2421" : "\uFFFD";
  });
}

/** `showable` line by line: a message or a note of several lines keeps its line breaks. */
export function showableLines(text: string): string {
  return text.includes("\n") ? text.split("\n").map(showable).join("\n") : showable(text);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is to be replaced
const UNSHOWABLE = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

function renderOne(d: Diagnostic, sources: Sources): string {
  const out: string[] = [];
  out.push(`${d.severity}[${d.code}]: ${showableLines(d.message)}`);
  const source = sources.get(d.span.file);
  if (source === undefined) {
    out.push(`  --> ${showable(d.span.file)}`);
  } else {
    const at = source.position(d.span.start);
    out.push(`  --> ${showable(d.span.file)}:${at.line}:${at.column}`);
    const snippets: Label[] = [{ span: d.span, message: d.label ?? "" }, ...(d.related ?? [])];
    const lines = snippets.map((s) => source.position(s.span.start).line);
    const gutter = String(Math.max(...lines)).length;
    const pad = " ".repeat(gutter);
    out.push(`${pad} |`);
    for (const snippet of snippets) {
      if (snippet.span.file !== d.span.file) continue;
      out.push(...renderSnippet(source, snippet, gutter));
    }
    out.push(`${pad} |`);
  }
  const pad = " ".repeat(source === undefined ? 1 : String(source.position(d.span.start).line).length);
  for (const note of d.notes) out.push(`${pad} = note: ${showableLines(note)}`);
  if (d.hint !== undefined) out.push(`${pad} = hint: ${indentContinuation(d.hint, pad.length + 9)}`);
  return `${out.join("\n")}\n`;
}

function indentContinuation(text: string, width: number): string {
  return text
    .split("\n")
    .map(showable)
    .join(`\n${" ".repeat(width)}`);
}

function renderSnippet(source: SourceFile, label: Label, gutter: number): string[] {
  const start = source.position(label.span.start);
  const end = source.position(Math.max(label.span.start, label.span.end));
  // The line may be megabytes long: only the window shown is copied and cleaned, once per snippet.
  const full = source.lineText(start.line);
  // The caret covers the span on its first line, and at least one column.
  const caretStart = start.column - 1;
  const caretEnd =
    end.line === start.line ? Math.max(end.column - 1, caretStart + 1) : Math.max(full.length, caretStart + 1);
  let from = 0;
  let prefix = "";
  if (full.length > WINDOW) {
    from = Math.max(0, Math.min(caretStart - WINDOW / 2, full.length - WINDOW));
    prefix = from > 0 ? "..." : "";
  }
  const shown =
    showable(full.slice(from, from + WINDOW).replace(/\t/g, " ")) + (from + WINDOW < full.length ? "..." : "");
  const caretWidth = Math.max(1, Math.min(caretEnd, from + WINDOW) - caretStart);
  const lineNo = String(start.line).padStart(gutter);
  const pad = " ".repeat(gutter);
  const carets = " ".repeat(prefix.length + caretStart - from) + "^".repeat(caretWidth);
  return [
    `${lineNo} | ${prefix}${shown}`.trimEnd(),
    `${pad} | ${carets}${label.message === "" ? "" : ` ${showableLines(label.message)}`}`,
  ];
}

export interface JsonDiagnostic {
  code: string;
  severity: Severity;
  message: string;
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  notes: string[];
  hint?: string;
  facts?: object;
  edits?: { title: string; replacement: string; line: number; column: number; endLine: number; endColumn: number }[];
}

/** The machine-readable form printed by `renyi check --json`. */
export function toJson(diagnostics: readonly Diagnostic[], sources: Sources): { diagnostics: JsonDiagnostic[] } {
  return {
    diagnostics: diagnostics.map((d) => {
      const source = sources.get(d.span.file);
      const start = source?.position(d.span.start) ?? { line: 1, column: 1 };
      const end = source?.position(d.span.end) ?? start;
      const item: JsonDiagnostic = {
        code: d.code,
        severity: d.severity,
        message: d.message,
        file: d.span.file,
        line: start.line,
        column: start.column,
        endLine: end.line,
        endColumn: end.column,
        notes: [...d.notes],
      };
      if (d.hint !== undefined) item.hint = d.hint;
      if (d.facts !== undefined) item.facts = d.facts;
      if (d.edits !== undefined) {
        item.edits = d.edits.map((e) => {
          const from = source?.position(e.span.start) ?? start;
          const to = source?.position(e.span.end) ?? from;
          return {
            title: e.title,
            replacement: e.replacement,
            line: from.line,
            column: from.column,
            endLine: to.line,
            endColumn: to.column,
          };
        });
      }
      return item;
    }),
  };
}
