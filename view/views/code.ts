// A module's text as the program view shows it: a line each with its number, the highlighting's
// spans (a class per kind of token), the diagnostics' spans marked, and each diagnostic's message,
// notes and suggested edits under the line it ends on. Text only: the spans hold text nodes.

import type { DiagnosticView, EditView, ModuleView } from "../api.js";
import { el } from "../dom.js";

/** A kind of token as a class name: letters only, so no kind the server sends becomes anything else. */
function kindClass(kind: string): string {
  return `t-${kind.replace(/[^A-Za-z]/g, "").slice(0, 20) || "other"}`;
}

interface Mark {
  start: number;
  end: number;
  className: string;
}

/** The marks of one line (0-based offsets into it) from spans given in lines and columns from 1. */
function marksOf(
  spans: readonly { line: number; column: number; endLine: number; endColumn: number; className: string }[],
  lineNumber: number,
  lineLength: number,
): Mark[] {
  const marks: Mark[] = [];
  for (const span of spans) {
    if (span.line > lineNumber || span.endLine < lineNumber) continue;
    const start = span.line === lineNumber ? Math.max(0, span.column - 1) : 0;
    const end = span.endLine === lineNumber ? Math.min(lineLength, span.endColumn - 1) : lineLength;
    // An empty span (a missing token at the end of a line) still marks one place.
    if (end > start) marks.push({ start, end, className: span.className });
    else if (start <= lineLength)
      marks.push({ start, end: Math.min(lineLength, start + 1), className: span.className });
  }
  return marks;
}

/** One line's text cut at every mark's edges, each piece a span with the classes of the marks over it. */
function lineContent(text: string, tokens: readonly Mark[], diagnostics: readonly Mark[]): (Node | string)[] {
  if (tokens.length === 0 && diagnostics.length === 0) return [text];
  const edges = new Set<number>([0, text.length]);
  for (const mark of [...tokens, ...diagnostics]) {
    edges.add(mark.start);
    edges.add(mark.end);
  }
  const sorted = [...edges].filter((edge) => edge >= 0 && edge <= text.length).sort((a, b) => a - b);
  const out: (Node | string)[] = [];
  for (let i = 0; i + 1 < sorted.length; i++) {
    const start = sorted[i]!;
    const end = sorted[i + 1]!;
    const piece = text.slice(start, end);
    const classes: string[] = [];
    for (const mark of tokens) if (mark.start <= start && mark.end >= end) classes.push(mark.className);
    for (const mark of diagnostics) if (mark.start <= start && mark.end >= end) classes.push(mark.className);
    out.push(classes.length === 0 ? piece : el("span", { class: classes.join(" ") }, piece));
  }
  return out;
}

/** "replace lines x-y with ..." for each change of an edit. */
function editWords(edit: EditView): HTMLElement {
  return el(
    "div",
    { class: "edit" },
    el("div", { class: "edit-title" }, `Suggested: ${edit.title}`),
    ...edit.changes.map((change) => {
      const where =
        change.line === change.endLine
          ? `line ${change.line}, columns ${change.column}-${change.endColumn}`
          : `lines ${change.line}-${change.endLine}`;
      const what = change.text === "" ? `delete ${where}` : `replace ${where} with`;
      return el(
        "div",
        { class: "change" },
        change.module !== "" ? `${change.module}: ` : "",
        what,
        change.text === "" ? null : el("pre", { class: "replacement" }, change.text),
      );
    }),
  );
}

/** A diagnostic's message, code, notes and edits, shown under its line. */
function diagnosticBlock(diagnostic: DiagnosticView): HTMLElement {
  return el(
    "div",
    { class: `diagnostic ${diagnostic.severity}`, role: "note", "data-code": diagnostic.code },
    el(
      "div",
      { class: "diagnostic-head" },
      el("span", { class: "severity" }, diagnostic.severity),
      " ",
      el("code", {}, diagnostic.code),
      " ",
      `line ${diagnostic.line}, column ${diagnostic.column}: `,
      diagnostic.message,
    ),
    ...diagnostic.notes.map((note) => el("div", { class: "diagnostic-note" }, `note: ${note}`)),
    ...diagnostic.edits.map(editWords),
  );
}

/** A module's text, highlighted and numbered, with its diagnostics in place. */
export function moduleText(module: ModuleView, diagnostics: readonly DiagnosticView[]): HTMLElement {
  const textLines = module.text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  // Tokens by line: one pass over them (they come in order), so the work is the text's size.
  const tokensByLine = new Map<number, Mark[]>();
  const mark = (line: number, start: number, end: number, className: string) => {
    let marks = tokensByLine.get(line);
    if (marks === undefined) tokensByLine.set(line, (marks = []));
    marks.push({ start, end, className });
  };
  // Tokens do not overlap, so their lines add up to the text's: a bound on the steps all the same.
  let steps = 2 * module.text.length + module.tokens.length;
  for (const token of module.tokens) {
    if (!Number.isInteger(token.line) || token.line < 1 || token.line > textLines.length) continue;
    const className = kindClass(token.kind);
    // A token longer than its line (a text over several lines) goes on over the next ones, its
    // length counting each line's end as one character.
    let line = token.line;
    let start = Math.max(0, token.column - 1);
    let left = Math.max(0, Math.min(token.length, module.text.length));
    while (left > 0 && line <= textLines.length && steps-- > 0) {
      const length = textLines[line - 1]!.length;
      const end = Math.min(length, start + left);
      if (end > start) mark(line, start, end, className);
      left -= Math.max(0, end - start) + 1;
      line++;
      start = 0;
    }
  }
  const spans = diagnostics.map((d) => ({ ...d, className: `mark-${d.severity}` }));
  const after = new Map<number, DiagnosticView[]>();
  for (const diagnostic of diagnostics) {
    const at = Math.min(Math.max(1, diagnostic.endLine), textLines.length);
    let list = after.get(at);
    if (list === undefined) after.set(at, (list = []));
    list.push(diagnostic);
  }
  const rows: HTMLElement[] = [];
  textLines.forEach((text, i) => {
    const number = i + 1;
    const diagnosticMarks = spans.length === 0 ? [] : marksOf(spans, number, text.length);
    rows.push(
      el(
        "div",
        { class: "line", "data-line": String(number) },
        el("span", { class: "ln", "aria-hidden": "true" }, String(number)),
        el("span", { class: "src" }, ...lineContent(text, tokensByLine.get(number) ?? [], diagnosticMarks)),
      ),
    );
    for (const diagnostic of after.get(number) ?? []) rows.push(diagnosticBlock(diagnostic));
  });
  return el("div", { class: "code module", "data-module": module.name }, ...rows);
}
