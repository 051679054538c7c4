// The compiler's pipeline, phase by phase. Pure: text in, data out; only cli/
// reads files or writes to the terminal.

import { hasErrors, type Diagnostic } from "./diagnostics.js";
import { lex } from "./lex/lexer.js";
import { parse } from "./parse/parser.js";
import type { Module } from "./parse/tree.js";

export interface SyntaxResult {
  module: Module;
  diagnostics: Diagnostic[];
}

/** Text to syntax tree: lex, then parse. */
export function parseSource(file: string, text: string): SyntaxResult {
  const lexed = lex(file, text);
  const parsed = parse(file, lexed.tokens, lexed.diagnostics);
  return { module: parsed.module, diagnostics: sortDiagnostics([...lexed.diagnostics, ...parsed.diagnostics]) };
}

/** Everything `renyi check` runs on one file. For now: lex and parse. */
export function checkSource(file: string, text: string): { diagnostics: Diagnostic[] } {
  const syntax = parseSource(file, text);
  return { diagnostics: syntax.diagnostics };
}

export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.sort((a, b) => (a.span.file === b.span.file ? a.span.start - b.span.start : a.span.file < b.span.file ? -1 : 1));
}

export { hasErrors };
export type { Diagnostic };
