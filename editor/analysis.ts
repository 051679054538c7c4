// What the editor's services answer from: every open or known module's text,
// syntax tree and checked tree, and the diagnostics to show in it. Pure like
// the compiler: the caller gives the texts (a language server its open
// documents and the files they use), and nothing here reads a file.
//
// Each module is checked as the entry of its own program, so that its names
// are relative to its own folder: `use lib.x` in `/w/app.ry` is the module
// `lib/x`, the file `/w/lib/x.ry` (fileOfModule). Its program's other modules
// are declared, and their bodies checked only where they can change what the
// entry's own checking finds (bodiesChecked): the diagnostics shown in a file
// are its own.
//
// A module with syntax errors is still checked, through the tree the parser
// recovered; which of the checker's diagnostics are shown beside the syntax
// errors is decided by shownDiagnostics (spec/editor.md, section 2).

import type { CModule } from "../compiler/check/checked.js";
import { typeStepsFor } from "../compiler/check/work.js";
import { diagnose } from "../compiler/diagnose.js";
import { checkRecovered, importsOf, moduleNameOf, parseSource, sortDiagnostics } from "../compiler/index.js";
import type { Diagnostic } from "../compiler/diagnostics.js";
import type { Item, Module } from "../compiler/parse/tree.js";
import { SourceFile, type Span } from "../compiler/source.js";
import { MAX_SOURCE_BYTES } from "../vocabulary/limits.js";

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
  /** The files of the modules its program reaches through `use`, itself first. */
  readonly reaches?: readonly string[];
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

/** The folder of a file, with its trailing `/`. */
function folderOf(file: string): string {
  return file.slice(0, file.lastIndexOf("/") + 1);
}

/** One file's text parsed: what a workspace keeps while the text stays the same. */
export interface ParsedFile {
  readonly file: string;
  readonly text: string;
  readonly syntax: Module;
  readonly syntaxDiagnostics: readonly Diagnostic[];
  /** Too large to analyse: the syntax tree is empty and this is its one diagnostic. */
  readonly refused?: true;
  /** What its users see of it (interfaceOf), made once. */
  interfaceKey?: string;
}

/** The most UTF-8 bytes of one module an editor analyses: as much as a command reads of a source file. */
const MAX_ANALYSED_BYTES = MAX_SOURCE_BYTES;

export function parseFile(file: string, text: string): ParsedFile {
  // A UTF-16 unit is at most 3 bytes of UTF-8: the byte count is only taken when it could exceed the bound.
  if (text.length * 3 > MAX_ANALYSED_BYTES && utf8Length(text) > MAX_ANALYSED_BYTES) {
    const at = { file, start: 0, end: 0 };
    return {
      file,
      text,
      syntax: { kind: "Module", file, items: [], span: at },
      syntaxDiagnostics: [
        diagnose("E-FILE", at, { path: file, reason: "too-large", limitMiB: MAX_ANALYSED_BYTES / 1024 / 1024 }),
      ],
      refused: true,
    };
  }
  const parsed = parseSource(file, text);
  return { file, text, syntax: parsed.module, syntaxDiagnostics: parsed.diagnostics };
}

/** The UTF-8 bytes of a text (a lone surrogate is written as U+FFFD, three bytes). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** A module of an entry's program: its name there, and its parsed file. */
export interface ProgramModule {
  readonly name: string;
  readonly parsed: ParsedFile;
}

/** The entry, then every module its `use` lines reach that `parsedOf` finds, each once. */
export function programOf(file: string, parsedOf: (file: string) => ParsedFile | undefined): ProgramModule[] {
  const folder = folderOf(file);
  const entry = moduleNameOf(file);
  const modules: ProgramModule[] = [];
  const queue = [entry];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const name = queue.shift()!;
    // The entry is its own file whatever its name ends with (an unsaved document's has no `.ry`).
    const parsed = parsedOf(name === entry && modules.length === 0 ? file : `${folder}${name}.ry`);
    if (parsed === undefined) continue;
    modules.push({ name, parsed });
    for (const used of importsOf({ name, syntax: parsed.syntax }))
      if (!seen.has(used.name)) {
        seen.add(used.name);
        queue.push(used.name);
      }
  }
  return modules;
}

/**
 * The modules whose bodies are checked in an entry's program: the entry, and
 * each module with a public generic function, since the abilities such a
 * function needs of its type parameters are found in its body (and the bodies
 * of the generics it calls, in the same module or one with public generics of
 * its own) and refuse calls in the entry (compiler/check/bounds.ts).
 */
export function bodiesChecked(program: readonly ProgramModule[]): Set<string> {
  return new Set(
    program
      .filter(
        (m, i) =>
          i === 0 ||
          m.parsed.syntax.items.some(
            (item) => item.kind === "FunctionDef" && item.public && item.typeParams.length > 0,
          ),
      )
      .map((m) => m.name),
  );
}

/**
 * What a module's users see of it, as text: every item but the bodies of its
 * functions and its tests, each with its offset (a user's diagnostics point
 * into it). Two texts with the same key give a user the same checking.
 */
export function interfaceOf(parsed: ParsedFile): string {
  if (parsed.interfaceKey !== undefined) return parsed.interfaceKey;
  const parts: string[] = [];
  for (const item of parsed.syntax.items) {
    if (item.kind === "TestDef") continue;
    const end = item.kind === "FunctionDef" ? Math.max(item.span.start, item.body.span.start) : item.span.end;
    parts.push(`${item.span.start}:${parsed.text.slice(item.span.start, end)}`);
  }
  parsed.interfaceKey = parts.join("\u0000");
  return parsed.interfaceKey;
}

/** Checks an entry's program (programOf) and makes the entry's view. */
export function viewOf(program: readonly ProgramModule[]): ModuleView {
  const own = program[0]!.parsed;
  const file = own.file;
  const base = {
    file,
    folder: folderOf(file),
    name: program[0]!.name,
    text: own.text,
    source: new SourceFile(file, own.text),
    syntax: own.syntax,
    syntaxDiagnostics: own.syntaxDiagnostics,
    reaches: program.map((m) => m.parsed.file),
  };
  if (own.refused) return { ...base, diagnostics: own.syntaxDiagnostics };
  const bodies = bodiesChecked(program);
  // The budget of type steps counts what is checked, so that it too is decided by the key.
  const characters = program.reduce(
    (sum, m) => sum + (bodies.has(m.name) ? m.parsed.text.length : interfaceOf(m.parsed).length),
    0,
  );
  const modules = program
    .filter((m) => !m.parsed.refused)
    .map((m) => ({
      name: m.name,
      file: m.parsed.file,
      syntax: m.parsed.syntax,
      syntaxDiagnostics: [...m.parsed.syntaxDiagnostics],
    }));
  // The names are recorded as the module is checked, so that a hover or a rename need not check it again.
  const checked = checkRecovered(modules, base.name, { bodies, names: true, typeSteps: typeStepsFor(characters) });
  const own_ = checked.modules.find((m) => m.name === base.name);
  const broken = brokenUses(program);
  return {
    ...base,
    ...(own_ ? { checked: own_ } : {}),
    diagnostics: shownDiagnostics(
      own.syntax,
      own.syntaxDiagnostics,
      checked.diagnostics.filter((d) => d.span.file === file && !namesBrokenModule(d, broken)),
    ),
  };
}

/**
 * The rule for a module with syntax errors: every syntax error is shown, and
 * the checker's diagnostics are shown where they lie in a top-level item (a
 * `use`, a type, a function, a test) that holds no syntax error. In an item
 * that holds one, the recovered tree has holes the checker would only report
 * again, as unknown names or missing returns. And in a module that uses one
 * with syntax errors, a name looked up in that module and not found is not
 * reported (brokenUses): its definition may be where the syntax error is.
 */
function shownDiagnostics(
  syntax: Module,
  syntaxDiagnostics: readonly Diagnostic[],
  checkerDiagnostics: readonly Diagnostic[],
): Diagnostic[] {
  if (syntaxDiagnostics.length === 0) return sortDiagnostics([...checkerDiagnostics]);
  const broken = syntax.items.filter((item) => syntaxDiagnostics.some((d) => overlaps(item, d.span)));
  const kept = checkerDiagnostics.filter((d) => !broken.some((item) => within(item, d.span)));
  return sortDiagnostics([...syntaxDiagnostics, ...kept]);
}

/**
 * The names by which the entry's `use` lines bring in a module with syntax
 * errors: a name looked up in such a module and not found may be missing only
 * because its definition is where the syntax error is.
 */
function brokenUses(program: readonly ProgramModule[]): Set<string> {
  const broken = new Set(program.filter((m) => m.parsed.syntaxDiagnostics.length > 0).map((m) => m.name));
  const names = new Set<string>();
  const entry = program[0]!;
  if (broken.size === 0) return names;
  const uses = entry.parsed.syntax.items.filter((item) => item.kind === "Use");
  for (const [i, used] of importsOf({ name: entry.name, syntax: entry.parsed.syntax }).entries()) {
    const use = uses[i]!;
    if (used.name === entry.name || !broken.has(used.name)) continue;
    names.add(use.path.map((p) => p.name).join("."));
    names.add(use.alias?.name ?? use.path[use.path.length - 1]!.name);
  }
  return names;
}

/** A diagnostic about a name looked up in one of `modules` (E-NAME-UNKNOWN-FUNCTION, E-NAME-UNKNOWN-TYPE...). */
function namesBrokenModule(d: Diagnostic, modules: ReadonlySet<string>): boolean {
  if (modules.size === 0) return false;
  const module = (d.facts as { module?: unknown } | undefined)?.module;
  return typeof module === "string" && modules.has(module);
}

function overlaps(item: Item, span: Span): boolean {
  return span.start <= item.span.end && span.end >= item.span.start;
}

function within(item: Item, span: Span): boolean {
  return span.start >= item.span.start && span.start <= item.span.end;
}

/**
 * Every module of `files` analysed from scratch: the plain form, which the
 * language server's workspace (which keeps what an edit did not change) must
 * agree with.
 */
export function analyse(files: readonly TextOf[]): Snapshot {
  const parsed = new Map(files.map((f) => [f.file, parseFile(f.file, f.text)]));
  const modules = new Map<string, ModuleView>();
  for (const { file } of files) modules.set(file, viewOf(programOf(file, (f) => parsed.get(f))));
  return { modules };
}
