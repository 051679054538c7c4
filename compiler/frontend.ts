// The front end alone: text to syntax tree, and the modules a syntax tree
// brings in, and the modules of a program found through a reader. Light enough to load when a compiled program is about
// to run.

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

/**
 * The modules a module brings in with `use`, by identity (its path from the entry's folder), with the span of each
 * `use`.
 */
export function importsOf(module: { name: string; syntax: Module }): { name: string; span: Use["span"] }[] {
  const folder = module.name.includes("/") ? module.name.slice(0, module.name.lastIndexOf("/") + 1) : "";
  return module.syntax.items
    .filter((item): item is Use => item.kind === "Use")
    .map((use) => ({ name: folder + use.path.map((p) => p.name).join("/"), span: use.span }));
}

// ---- finding a program's modules, through a reader the caller gives ----

/**
 * Reads a module by its identity (its path from the entry's folder, without `.ry`); undefined when there is no such
 * module.
 */
export type ReadModule = (name: string) => { file: string; text: string } | undefined;

export interface ProgramInput {
  /** The entry module's identity, as `moduleNameOf` gives it for a file. */
  readonly entry: string;
  readonly read: ReadModule;
}

/** A module found and parsed: its text, its syntax tree and the problems of its syntax. */
export interface ParsedModule {
  readonly name: string;
  readonly file: string;
  readonly text: string;
  readonly syntax: Module;
  readonly syntaxDiagnostics: Diagnostic[];
}

/**
 * The entry, then every module its `use` lines bring in, each read and parsed once. A module `read` does not find is
 * the checker's to report, at its `use`.
 */
export function findModules(input: ProgramInput): ParsedModule[] {
  const modules: ParsedModule[] = [];
  const queue = [input.entry];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const name = queue.shift()!;
    const found = input.read(name);
    if (found === undefined) continue;
    const syntax = parseSource(found.file, found.text);
    modules.push({
      name,
      file: found.file,
      text: found.text,
      syntax: syntax.module,
      syntaxDiagnostics: syntax.diagnostics,
    });
    for (const { name: imported } of importsOf({ name, syntax: syntax.module })) {
      if (!seen.has(imported)) {
        seen.add(imported);
        queue.push(imported);
      }
    }
  }
  return modules;
}

/** `examples/weather.ry` is the module `weather`. */
export function moduleNameOf(file: string): string {
  const base = file.slice(file.lastIndexOf("/") + 1);
  return base.endsWith(".ry") ? base.slice(0, -3) : base;
}

export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.sort((a, b) =>
    a.span.file === b.span.file ? a.span.start - b.span.start : a.span.file < b.span.file ? -1 : 1,
  );
}
