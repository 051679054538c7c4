// A program's modules on disk: the compiler finds them (compiler/program.ts)
// through a reader that looks for `NAME.ry` in the entry's folder. Files that
// exist but cannot be read are kept as problems; a missing `use` is the
// checker's to report.

import { dirname, join } from "node:path";
import { findModules, type ParsedModule } from "../../compiler/frontend.js";
import { moduleNameOf } from "../../compiler/frontend.js";
import type { Diagnostic } from "../../compiler/diagnostics.js";
import type { SourceFile } from "../../compiler/source.js";
import { loadSource } from "./files.js";

type LoadedModule = ParsedModule;

export interface LoadedProgram {
  entry: string;
  modules: LoadedModule[];
  sources: Map<string, SourceFile>;
  /** Files that could not be read as the entry (a missing `use` is the checker's to report). */
  problems: Diagnostic[];
}

export function loadProgram(entryFile: string): LoadedProgram {
  const folder = dirname(entryFile);
  const entry = moduleNameOf(entryFile);
  const sources = new Map<string, SourceFile>();
  const problems: Diagnostic[] = [];
  const read = (name: string): { file: string; text: string } | undefined => {
    const file = name === entry ? entryFile : join(folder, `${name}.ry`);
    const loaded = loadSource(file);
    if (loaded.source !== undefined) sources.set(file, loaded.source);
    if (!loaded.ok) {
      // The entry must load; an imported file that is missing is reported at its `use`.
      if (name === entry || loaded.source !== undefined) problems.push(loaded.diagnostic);
      return undefined;
    }
    return { file, text: loaded.source.text };
  };
  const modules = findModules({ entry, read });
  return { entry, modules, sources, problems };
}
