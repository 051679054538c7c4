// The compiler's pipeline, phase by phase. Pure: text in, data out; only cli/
// reads files or writes to the terminal.
//
//   text --lex--> tokens --parse--> syntax tree --check--> checked tree
//
// A program is several modules (`use`); cli/ finds their files with
// `importsOf` and hands every module's text to `checkProgramSources`.

import { checkProgram, type CheckResult } from "./check/checker.js";
import type { Program } from "./check/checked.js";
import type { SourceModule } from "./check/declare.js";
import { hasErrors, type Diagnostic } from "./diagnostics.js";
import { importsOf, moduleNameOf, parseSource, sortDiagnostics } from "./frontend.js";
import type { Module } from "./parse/tree.js";

export { importsOf, moduleNameOf, parseSource, sortDiagnostics };
export type { SyntaxResult } from "./frontend.js";

export interface ModuleText {
  /** The module's identity: its path from the entry's folder, without `.ry`. */
  readonly name: string;
  readonly file: string;
  readonly text: string;
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


export { hasErrors };
export type { Diagnostic };

