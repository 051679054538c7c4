// The compiler's pipeline, phase by phase. Pure: text in, data out; only cli/
// reads files or writes to the terminal.
//
//   text --lex--> tokens --parse--> syntax tree --check--> checked tree
//
// A program is several modules (`use`); `checkProgramFrom` (program.ts)
// finds them through a reader the caller gives, so that only cli/ reads files.

import type { CModule, Program } from "./check/checked.js";
import { hasErrors, type Diagnostic } from "./diagnostics.js";
import { importsOf, moduleNameOf, parseSource, sortDiagnostics } from "./frontend.js";
import type { Module } from "./parse/tree.js";
import { checkModules, checkProgramFrom, checkRecovered, findModules, oneFile } from "./program.js";

export { importsOf, moduleNameOf, parseSource, sortDiagnostics };
export { checkModules, checkProgramFrom, checkRecovered, findModules, oneFile };
export type { CheckedProgram, ParsedModule, ProgramInput, ReadModule } from "./program.js";
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
  /** The checked tree of every module without a syntax error, even when the program has errors. */
  modules: CModule[];
  diagnostics: Diagnostic[];
}

/** Every phase up to the checked tree, for a program's parsed modules (see program.ts). */
/** `stop`: called now and then while checking, for a caller that ends a long check by throwing from it. */
export function checkProgramSources(
  modules: readonly { name: string; file: string; syntax: Module; syntaxDiagnostics: Diagnostic[] }[],
  entry: string,
  stop?: () => void,
): ProgramResult {
  return checkModules(modules, entry, stop);
}

/** A program of one file: parse and check. */
export function checkSource(file: string, text: string): ProgramResult {
  const { sources: _, ...checked } = checkProgramFrom(oneFile(file, text));
  return checked;
}

export { hasErrors };
export type { Diagnostic };
