// A program's modules on disk: the compiler finds them (compiler/program.ts)
// through a reader that looks for `NAME.ry` in the entry's folder. Files that
// exist but cannot be read are kept as problems; a missing `use` is the
// checker's to report.

import { realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { diagnose } from "../../compiler/diagnose.js";
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

/**
 * The program whose entry is `entryFile`. With `inside` (renyi view), a module is read only when its real path is one
 * `inside` accepts: a module that is a symbolic link out of the served folder is reported as unreadable, not read.
 */
export function loadProgram(entryFile: string, inside?: (real: string) => boolean): LoadedProgram {
  const folder = dirname(entryFile);
  const entry = moduleNameOf(entryFile);
  const sources = new Map<string, SourceFile>();
  const problems: Diagnostic[] = [];
  const read = (name: string): { file: string; text: string } | undefined => {
    const file = name === entry ? entryFile : join(folder, `${name}.ry`);
    let real = file;
    if (inside !== undefined) {
      try {
        real = realpathSync(file);
      } catch {
        return undefined;
      }
      if (!inside(real)) {
        const reason = { path: file, reason: "not-regular", kind: "a symbolic link" } as const;
        problems.push(diagnose("E-FILE", { file, start: 0, end: 0 }, reason));
        return undefined;
      }
    }
    const loaded = loadSource(real);
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
