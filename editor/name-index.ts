// The names of a snapshot's modules as the checker resolved them (compiler/
// check/names.ts), and what the services of names share: the name at an
// offset, a stable key for what a name names, where that is declared, and
// every place that names it.
//
// A view's checked tree carries its names when the snapshot was made with
// them; otherwise its program is checked again here, once per view, with the
// names recorded, and the result kept for as long as the view lives. Each
// module's names come from its own view: its own program's names are relative
// to its own folder, and a target names its definition by file.

import { checkProgram } from "../compiler/check/checker.js";
import type { CModule } from "../compiler/check/checked.js";
import type { NameTarget, NameUse } from "../compiler/check/names.js";
import { hasErrors, type Diagnostic } from "../compiler/diagnostics.js";
import { importsOf, parseSource } from "../compiler/index.js";
import type { Module } from "../compiler/parse/tree.js";
import type { Span } from "../compiler/source.js";
import { fileOfModule, type ModuleView, type Snapshot } from "./analysis.js";

export type { NameTarget, NameUse, Span };

interface Indexed {
  readonly checked?: CModule;
  /** By start. */
  readonly names: readonly NameUse[];
}

const indexed = new WeakMap<ModuleView, Indexed>();

/** A view's module checked with its names: its own checked tree when that has them, else checked again. */
export function indexOf(snapshot: Snapshot, view: ModuleView): Indexed {
  const known = indexed.get(view);
  if (known !== undefined) return known;
  const checked = view.checked?.names !== undefined ? view.checked : checkWithNames(snapshot, view, new Map())?.module;
  const names = [...(checked?.names ?? [])].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  const made = { ...(checked ? { checked } : {}), names };
  indexed.set(view, made);
  return made;
}

export function namesOf(snapshot: Snapshot, view: ModuleView): readonly NameUse[] {
  return indexOf(snapshot, view).names;
}

/**
 * `view`'s module checked as the entry of its program with every name
 * recorded; `texts` overrides the text of files by path (a rename's outcome
 * is checked so). The other modules come from the snapshot's views.
 */
export function checkWithNames(
  snapshot: Snapshot,
  view: ModuleView,
  texts: ReadonlyMap<string, string>,
): { module: CModule; diagnostics: readonly Diagnostic[] } | undefined {
  const syntaxOf = (file: string): { syntax: Module; broken: boolean } | undefined => {
    const text = texts.get(file);
    if (text !== undefined) {
      const parsed = parseSource(file, text);
      return { syntax: parsed.module, broken: hasErrors(parsed.diagnostics) };
    }
    const other = snapshot.modules.get(file);
    return other === undefined ? undefined : { syntax: other.syntax, broken: hasErrors(other.syntaxDiagnostics) };
  };
  const sources = [];
  const queue = [view.name];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const name = queue.shift()!;
    const file = fileOfModule(view, name);
    const found = syntaxOf(file);
    if (found === undefined) continue;
    if (name === view.name && found.broken) return undefined;
    if (!found.broken) sources.push({ name, file, syntax: found.syntax });
    for (const used of importsOf({ name, syntax: found.syntax }))
      if (!seen.has(used.name)) {
        seen.add(used.name);
        queue.push(used.name);
      }
  }
  try {
    const checked = checkProgram(sources, view.name, { names: true });
    const module = checked.program.modules.find((m) => m.file === view.file);
    return module && { module, diagnostics: checked.diagnostics.filter((d) => d.span.file === view.file) };
  } catch {
    // The checker refuses what it cannot check with a diagnostic; an editor's question is never the one to fail.
    return undefined;
  }
}

/** The name at `offset` (in it, or just after it, as a cursor at a word's end is), if any. */
function nameAt(names: readonly NameUse[], offset: number): NameUse | undefined {
  let inside: NameUse | undefined;
  let after: NameUse | undefined;
  for (const use of names) {
    if (use.span.start > offset) break;
    if (offset < use.span.end) inside = use;
    else if (offset === use.span.end) after = use;
  }
  return inside ?? after;
}

/** The name at `offset` in `file`, with its view, if the file is known and a name is there. */
export function nameAtOffset(
  snapshot: Snapshot,
  file: string,
  offset: number,
): { view: ModuleView; use: NameUse } | undefined {
  const view = snapshot.modules.get(file);
  if (view === undefined || !Number.isInteger(offset) || offset < 0 || offset > view.text.length) return undefined;
  const use = nameAt(namesOf(snapshot, view), offset);
  return use === undefined ? undefined : { view, use };
}

/** What a target is, as a text the same in every program it is part of. */
export function keyOf(target: NameTarget): string {
  switch (target.kind) {
    case "local":
      return `local ${target.declSpan.file}:${target.declSpan.start}`;
    case "function":
      return `function ${target.file}:${target.name}`;
    case "type":
      return `type ${target.file}:${target.name}`;
    case "field":
      return `field ${target.file}:${target.type}:${target.case ?? ""}:${target.field}`;
    case "case":
      return `case ${target.file}:${target.type}:${target.case}`;
    case "module":
      return `module ${target.file}`;
    case "library":
      return `library ${target.module}:${target.name ?? ""}`;
    case "capability":
      return `capability ${target.path.join(".")}`;
  }
}

/** The file a target is declared in, when it is a file of the program. */
function fileOfTarget(target: NameTarget): string | undefined {
  switch (target.kind) {
    case "local":
      return target.declSpan.file;
    case "function":
    case "module":
      return target.file;
    case "type":
    case "field":
    case "case":
      return target.library ? undefined : target.file;
    default:
      return undefined;
  }
}

/** Where a target is declared: the name in its declaration, or for a module the start of its file. */
export function declarationOf(snapshot: Snapshot, target: NameTarget): Span | undefined {
  if (target.kind === "local") return target.declSpan;
  const file = fileOfTarget(target);
  if (file === undefined) return undefined;
  if (target.kind === "module") return snapshot.modules.has(file) ? { file, start: 0, end: 0 } : undefined;
  const view = snapshot.modules.get(file);
  if (view === undefined) return undefined;
  const key = keyOf(target);
  return namesOf(snapshot, view).find((u) => u.declaration === true && keyOf(u.target) === key)?.span;
}

/**
 * Every use of `target` (and its declaration, `withDeclaration`) in the
 * snapshot, by file and position. A local is looked for in its own file,
 * unless it is a parameter of a public function, which calls elsewhere may
 * name by a label; every other definition in every module.
 */
export function referencesTo(snapshot: Snapshot, target: NameTarget, withDeclaration: boolean): NameUse[] {
  const key = keyOf(target);
  const own = fileOfTarget(target);
  const views =
    target.kind === "local" && !isPublicParameter(snapshot, target.declSpan)
      ? [snapshot.modules.get(own!)].filter((v): v is ModuleView => v !== undefined)
      : [...snapshot.modules.values()];
  const out: NameUse[] = [];
  for (const view of views)
    for (const use of namesOf(snapshot, view))
      if (keyOf(use.target) === key && (withDeclaration || use.declaration !== true)) out.push(use);
  return out.sort((a, b) =>
    a.span.file < b.span.file ? -1 : a.span.file > b.span.file ? 1 : a.span.start - b.span.start,
  );
}

/** Whether `declSpan` is the name of a parameter of a public function (callers in other modules may label it). */
function isPublicParameter(snapshot: Snapshot, declSpan: Span): boolean {
  const view = snapshot.modules.get(declSpan.file);
  return (
    view?.syntax.items.some(
      (item) =>
        item.kind === "FunctionDef" && item.public && item.params.some((p) => p.name.span.start === declSpan.start),
    ) ?? false
  );
}
