// The compiler's entry for a whole program, as a command line or a language
// server calls it. It never touches the file system: the caller says how to
// read a module by its name, and gets back the checked tree of every module
// that could be checked beside the diagnostics, so that an editor can answer
// in one file while another has an error.

import { checkProgram, type CheckOptions } from "./check/checker.js";
import type { CModule, Program } from "./check/checked.js";
import type { SourceModule } from "./check/declare.js";
import { hasErrors, type Diagnostic } from "./diagnostics.js";
import { findModules, moduleNameOf, sortDiagnostics, type ParsedModule, type ProgramInput } from "./frontend.js";

export { findModules };
export type { ParsedModule, ProgramInput, ReadModule } from "./frontend.js";

export interface CheckedProgram {
  /** The checked tree of every module without a syntax error, even when the program has errors. */
  modules: CModule[];
  /** The whole program, ready to lower, when it has no errors. */
  program?: Program;
  diagnostics: Diagnostic[];
}

/**
 * Checks the modules that parsed cleanly. When any module has a syntax error
 * the diagnostics are the syntax errors alone (a tree with holes would only
 * add noise), but the other modules are still checked, for their trees.
 */
export function checkModules(
  modules: readonly Omit<ParsedModule, "text">[],
  entry: string,
  stop?: () => void,
): CheckedProgram {
  const syntaxDiagnostics = modules.flatMap((m) => m.syntaxDiagnostics);
  const broken = hasErrors(syntaxDiagnostics);
  const sources: SourceModule[] = modules
    .filter((m) => !hasErrors(m.syntaxDiagnostics))
    .map((m) => ({ name: m.name, file: m.file, syntax: m.syntax }));
  const checked = checkProgram(sources, entry, { ...(stop ? { stop } : {}) });
  if (broken) return { modules: checked.program.modules, diagnostics: sortDiagnostics(syntaxDiagnostics) };
  const diagnostics = sortDiagnostics([...syntaxDiagnostics, ...checked.diagnostics]);
  return hasErrors(diagnostics)
    ? { modules: checked.program.modules, diagnostics }
    : { modules: checked.program.modules, program: checked.program, diagnostics };
}

/**
 * Checks every module, one with syntax errors through the tree the parser recovered, for an editor, which decides
 * which of the checker's diagnostics to show beside the syntax errors (editor/analysis.ts). `options.bodies` names the
 * modules whose bodies are checked; the others are declared alone.
 */
export function checkRecovered(
  modules: readonly Omit<ParsedModule, "text">[],
  entry: string,
  options: CheckOptions = {},
): { modules: CModule[]; diagnostics: Diagnostic[] } {
  const checked = checkProgram(
    modules.map((m) => ({ name: m.name, file: m.file, syntax: m.syntax })),
    entry,
    options,
  );
  return { modules: checked.program.modules, diagnostics: checked.diagnostics };
}

/** Finds, parses and checks a program. */
export function checkProgramFrom(input: ProgramInput): CheckedProgram & { sources: ParsedModule[] } {
  const sources = findModules(input);
  return { ...checkModules(sources, input.entry), sources };
}

/** A program of one file, read from the text given. */
export function oneFile(file: string, text: string): ProgramInput {
  const entry = moduleNameOf(file);
  return { entry, read: (name) => (name === entry ? { file, text } : undefined) };
}
