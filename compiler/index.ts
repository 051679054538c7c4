// The compiler's pipeline, phase by phase. Pure: text in, data out; only cli/
// reads files or writes to the terminal.
//
//   text --lex--> tokens --parse--> syntax tree --check--> checked tree
//
// A program is several modules (`use`); cli/ finds their files with
// `importsOf` and hands every module's text to `checkProgramSources`.

import { checkProgram, type CheckResult } from "./check/checker.js";
import type { Program } from "./check/checked.js";
import { importsOf, type SourceModule } from "./check/declare.js";
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

export interface ModuleText {
  /** The module's identity: its path from the entry's folder, without `.ry`. */
  readonly name: string;
  readonly file: string;
  readonly text: string;
}

/** The identities of the modules a module's text brings in with `use`. */
export function importedModules(module: ModuleText, syntax: Module): string[] {
  return importsOf({ name: module.name, file: module.file, syntax }).map((i) => i.name);
}

export interface ProgramResult {
  /** Present when the program has no errors. */
  program?: Program;
  diagnostics: Diagnostic[];
}

/**
 * Every phase up to the checked tree, for a program's modules. Syntax errors
 * stop the pipeline before checking: a tree with holes would only add noise.
 */
export function checkProgramSources(modules: readonly { name: string; file: string; syntax: Module; syntaxDiagnostics: Diagnostic[] }[], entry: string): ProgramResult {
  const syntaxDiagnostics = modules.flatMap((m) => m.syntaxDiagnostics);
  if (hasErrors(syntaxDiagnostics)) return { diagnostics: sortDiagnostics(syntaxDiagnostics) };
  const sources: SourceModule[] = modules.map((m) => ({ name: m.name, file: m.file, syntax: m.syntax }));
  const checked: CheckResult = checkProgram(sources, entry);
  const diagnostics = sortDiagnostics([...syntaxDiagnostics, ...checked.diagnostics]);
  return hasErrors(diagnostics) ? { diagnostics } : { program: checked.program, diagnostics };
}

/** A program of one file: parse and check. */
export function checkSource(file: string, text: string): ProgramResult {
  const syntax = parseSource(file, text);
  const name = moduleNameOf(file);
  return checkProgramSources([{ name, file, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics }], name);
}

/** `examples/weather.ry` is the module `weather`. */
export function moduleNameOf(file: string): string {
  const base = file.slice(file.lastIndexOf("/") + 1);
  return base.endsWith(".ry") ? base.slice(0, -3) : base;
}

export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.sort((a, b) => (a.span.file === b.span.file ? a.span.start - b.span.start : a.span.file < b.span.file ? -1 : 1));
}

export { hasErrors };
export type { Diagnostic };

// ---- code generation ----

import { bundleProgram, type BundleOptions, type BundleResult } from "./emit/bundle.js";
import { SourceFile } from "./source.js";

export interface CompileResult {
  bundle?: BundleResult;
  diagnostics: Diagnostic[];
}

/** Every phase: parse, check, lower and bundle a program's modules into one ES module and its source map. */
export function compileProgram(
  modules: readonly { name: string; file: string; text: string; syntax: Module; syntaxDiagnostics: Diagnostic[] }[],
  options: BundleOptions,
): CompileResult {
  const checked = checkProgramSources(modules, options.entry);
  if (checked.program === undefined) return { diagnostics: checked.diagnostics };
  const sources = new Map(modules.map((m) => [m.name, new SourceFile(m.file, m.text)]));
  const bundle = bundleProgram(checked.program, sources, options);
  return { bundle, diagnostics: checked.diagnostics };
}
