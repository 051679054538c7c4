// The front end alone: text to syntax tree, and the modules a syntax tree
// brings in. Light enough to load when a compiled program is about to run.

import type { Diagnostic } from "./diagnostics.js";
import { lex } from "./lex/lexer.js";
import { parse } from "./parse/parser.js";
import type { Module, Use } from "./parse/tree.js";

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

/** The modules a module brings in with `use`, by identity (its path from the entry's folder), with the span of each `use`. */
export function importsOf(module: { name: string; syntax: Module }): { name: string; span: Use["span"] }[] {
  const folder = module.name.includes("/") ? module.name.slice(0, module.name.lastIndexOf("/") + 1) : "";
  return module.syntax.items
    .filter((item): item is Use => item.kind === "Use")
    .map((use) => ({ name: folder + use.path.map((p) => p.name).join("/"), span: use.span }));
}

/** `examples/weather.ry` is the module `weather`. */
export function moduleNameOf(file: string): string {
  const base = file.slice(file.lastIndexOf("/") + 1);
  return base.endsWith(".ry") ? base.slice(0, -3) : base;
}

export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.sort((a, b) => (a.span.file === b.span.file ? a.span.start - b.span.start : a.span.file < b.span.file ? -1 : 1));
}
