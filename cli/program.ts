// Finding a program's modules on disk: the entry file, then every file its
// `use` lines bring in, from the entry's folder.

import { dirname, join } from "node:path";
import { importsOf, moduleNameOf, parseSource } from "../compiler/frontend.js";
import type { Diagnostic } from "../compiler/diagnostics.js";
import type { Module } from "../compiler/parse/tree.js";
import type { SourceFile } from "../compiler/source.js";
import { loadSource } from "./files.js";

export interface LoadedModule {
  name: string;
  file: string;
  text: string;
  syntax: Module;
  syntaxDiagnostics: Diagnostic[];
}

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
  const modules: LoadedModule[] = [];
  const problems: Diagnostic[] = [];
  const queue = [entry];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const name = queue.shift()!;
    const file = name === entry ? entryFile : join(folder, `${name}.ry`);
    const loaded = loadSource(file);
    if (loaded.source !== undefined) sources.set(file, loaded.source);
    if (!loaded.ok) {
      // The entry must load; an imported file that is missing is reported at its `use`.
      if (name === entry || loaded.source !== undefined) problems.push(loaded.diagnostic);
      continue;
    }
    const syntax = parseSource(file, loaded.source.text);
    modules.push({ name, file, text: loaded.source.text, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics });
    for (const { name: imported } of importsOf({ name, syntax: syntax.module })) {
      if (!seen.has(imported)) {
        seen.add(imported);
        queue.push(imported);
      }
    }
  }
  return { entry, modules, sources, problems };
}
