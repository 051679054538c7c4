// What the editor's services answer from: every open or known module's text,
// syntax tree and checked tree, and the diagnostics to show in it. Pure like
// the compiler: the caller gives the texts (a language server its open
// documents and the files they use), and nothing here reads a file.
//
// Each module is checked as the entry of its own program, so that its names
// are relative to its own folder: `use lib.x` in `/w/app.ry` is the module
// `lib/x`, the file `/w/lib/x.ry` (fileOfModule).

import type { CModule } from "../compiler/check/checked.js";
import { checkModules, moduleNameOf, parseSource } from "../compiler/index.js";
import type { Diagnostic } from "../compiler/diagnostics.js";
import type { Module } from "../compiler/parse/tree.js";
import { importsOf } from "../compiler/frontend.js";
import { SourceFile } from "../compiler/source.js";

export interface ModuleView {
  /** The file's path, as the caller names files (a language server: an absolute path). */
  readonly file: string;
  /** The folder of `file`, with a trailing `/`: where the names of its `use` lines start. */
  readonly folder: string;
  /** The module's identity in its own program: its file's name without `.ry`. */
  readonly name: string;
  readonly text: string;
  readonly source: SourceFile;
  readonly syntax: Module;
  readonly syntaxDiagnostics: readonly Diagnostic[];
  /** The checked tree, when the module could be checked. */
  readonly checked?: CModule;
  /** Every diagnostic to show in this file, sorted by position. */
  readonly diagnostics: readonly Diagnostic[];
}

export interface Snapshot {
  /** By file. */
  readonly modules: ReadonlyMap<string, ModuleView>;
}

export interface TextOf {
  readonly file: string;
  readonly text: string;
}

/** The file of a module named in `view`'s program (a name of a checked tree, or of a `use`). */
export function fileOfModule(view: Pick<ModuleView, "folder">, moduleName: string): string {
  return `${view.folder}${moduleName}.ry`;
}

export function folderOf(file: string): string {
  return file.slice(0, file.lastIndexOf("/") + 1);
}

/**
 * Every module of `files` analysed from scratch: the plain form, which the
 * language server's workspace (which keeps what an edit did not change) must
 * agree with.
 */
export function analyse(files: readonly TextOf[]): Snapshot {
  const byFile = new Map(files.map((f) => [f.file, f.text]));
  const modules = new Map<string, ModuleView>();
  for (const { file, text } of files) {
    const folder = folderOf(file);
    const name = moduleNameOf(file);
    const parsed = [];
    const queue = [name];
    const seen = new Set(queue);
    while (queue.length > 0) {
      const next = queue.shift()!;
      const nextFile = `${folder}${next}.ry`;
      const nextText = next === name ? text : byFile.get(nextFile);
      if (nextText === undefined) continue;
      const syntax = parseSource(nextFile, nextText);
      parsed.push({ name: next, file: nextFile, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics });
      for (const used of importsOf({ name: next, syntax: syntax.module }))
        if (!seen.has(used.name)) {
          seen.add(used.name);
          queue.push(used.name);
        }
    }
    const checked = checkModules(parsed, name);
    const own = parsed[0]!;
    modules.set(file, {
      file,
      folder,
      name,
      text,
      source: new SourceFile(file, text),
      syntax: own.syntax,
      syntaxDiagnostics: own.syntaxDiagnostics,
      ...(checked.modules.find((m) => m.name === name)
        ? { checked: checked.modules.find((m) => m.name === name)! }
        : {}),
      diagnostics: checked.diagnostics.filter((d) => d.span.file === file),
    });
  }
  return { modules };
}
