// The parser's entry: tokens in, a syntax tree and diagnostics out. It never
// throws: every input ends in a tree, diagnostics, or both.

import type { Diagnostic } from "../diagnostics.js";
import type { TokenList } from "../lex/tokens.js";
import { Cursor } from "./cursor.js";
import { parseModule } from "./definitions.js";
import type { Module } from "./tree.js";

export interface ParseResult {
  module: Module;
  diagnostics: Diagnostic[];
}

/** `lexErrors`: the lexer's diagnostics; the parser stays quiet on their lines. */
export function parse(file: string, tokens: TokenList, lexErrors: readonly Diagnostic[] = []): ParseResult {
  const quietLines = new Set(lexErrors.map((d) => lineAt(tokens, d.span.start)));
  const cursor = new Cursor(file, tokens, quietLines);
  const module = parseModule(cursor);
  return { module, diagnostics: cursor.diagnostics };
}

function lineAt(tokens: TokenList, offset: number): number {
  let line = 1;
  for (let i = 0; i < tokens.count && tokens.offsets[i]! <= offset; i++) line = tokens.lines[i]!;
  return line;
}
