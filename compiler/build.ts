// The whole pipeline, to a bundle: parse, check, lower, bundle. Kept apart from
// index.ts so that checking a program never loads the code generator.

import { bundleProgram, type BundleOptions, type BundleResult } from "./emit/bundle.js";
import { checkProgramSources, type Diagnostic } from "./index.js";
import type { Module } from "./parse/tree.js";
import type { CModule, Program } from "./check/checked.js";
import { findModules, importsOf, type ProgramInput } from "./frontend.js";
import { moduleInputs } from "./emit/module-cache.js";
import { SourceFile } from "./source.js";
import { diagnose } from "./diagnose.js";
import { TYPE_STEPS_BASE, TYPE_STEPS_PER_CHARACTER, typeStepsFor } from "./check/work.js";

export interface CompileResult {
  bundle?: BundleResult;
  /** The checked program, when it has no errors: its `main` carries the grant. */
  program?: Program;
  diagnostics: Diagnostic[];
  /** The checked tree of every module without a syntax error, even when the program has errors. */
  modules: CModule[];
}

/** Every phase: parse, check, lower and bundle a program's modules into one ES module and its source map. */
export function compileProgram(
  modules: readonly { name: string; file: string; text: string; syntax: Module; syntaxDiagnostics: Diagnostic[] }[],
  options: BundleOptions,
): CompileResult {
  options.stop?.();
  const checked = checkProgramSources(modules, options.entry, options.stop);
  if (checked.program === undefined) return { diagnostics: checked.diagnostics, modules: checked.modules };
  options.stop?.();
  const bundle = bundleOrRefusal(checked.program, modules.map(textOf), options);
  if ("severity" in bundle) return { diagnostics: [...checked.diagnostics, bundle], modules: checked.modules };
  options.stop?.();
  return { bundle, program: checked.program, diagnostics: checked.diagnostics, modules: checked.modules };
}

/**
 * What bundling needs of a module once it is checked: its text, file and the modules it brings in, without its syntax
 * tree.
 */
export interface ModuleText {
  readonly name: string;
  readonly file: string;
  readonly text: string;
  readonly imports: readonly string[];
}

export function textOf(module: { name: string; file: string; text: string; syntax: Module }): ModuleText {
  return { name: module.name, file: module.file, text: module.text, imports: importsOf(module).map((i) => i.name) };
}

/**
 * The lowering and bundling of a checked program. A caller that lets the syntax
 * trees go once the program is checked (`renyic build`: half of what a large
 * program holds) bundles with this.
 */
function bundleChecked(program: Program, modules: readonly ModuleText[], options: BundleOptions): BundleResult {
  const sources = new Map(modules.map((m) => [m.name, new SourceFile(m.file, m.text)]));
  const inputs = options.moduleCache === undefined ? undefined : moduleInputs(modules);
  return bundleProgram(program, sources, options, inputs);
}

/**
 * bundleChecked, or E-CHECK-TOO-COMPLEX when the program's types nest too
 * deep to lower: lowering follows a type's nesting as checking does, with
 * larger steps, so a type a few thousand deep that checking could follow may
 * still overflow the stack here.
 */
export function bundleOrRefusal(
  program: Program,
  modules: readonly ModuleText[],
  options: BundleOptions,
): BundleResult | Diagnostic {
  try {
    return bundleChecked(program, modules, options);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return nestedTooDeeply(modules, options.entry);
  }
}

/**
 * E-CHECK-TOO-COMPLEX at the start of the entry module: what lowering could not
 * follow, or compiled code nested more deeply than the bundle validator reads.
 */
export function nestedTooDeeply(
  modules: readonly { readonly name: string; readonly file: string; readonly text: string }[],
  entryName: string,
): Diagnostic {
  const entry = modules.find((m) => m.name === entryName) ?? modules[0]!;
  const characters = modules.reduce((sum, m) => sum + m.text.length, 0);
  return diagnose(
    "E-CHECK-TOO-COMPLEX",
    { file: entry.file, start: 0, end: 0 },
    {
      steps: typeStepsFor(characters),
      base: TYPE_STEPS_BASE,
      perCharacter: TYPE_STEPS_PER_CHARACTER,
      characters,
      deep: true,
    },
  );
}

/**
 * The program API's whole pipeline: find the modules through `input.read`, then compile them; the entry is
 * `input.entry`.
 */
export function compile(input: ProgramInput, options: Omit<BundleOptions, "entry">): CompileResult {
  return compileProgram(findModules(input), { ...options, entry: input.entry });
}
