// The parser's entry: tokens in, a syntax tree and diagnostics out. It never
// throws: every input ends in a tree, diagnostics, or both.

import type { Diagnostic } from "../diagnostics.js";
import type { Token } from "../lex/tokens.js";
import { Cursor } from "./cursor.js";
import { parseModule } from "./definitions.js";
import type { Module } from "./tree.js";

export interface ParseResult {
  module: Module;
  diagnostics: Diagnostic[];
}

export function parse(file: string, tokens: Token[]): ParseResult {
  const cursor = new Cursor(file, tokens);
  const module = parseModule(cursor);
  return { module, diagnostics: cursor.diagnostics };
}
