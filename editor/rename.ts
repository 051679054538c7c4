// Rename: a local, a function, a type, a record's field or a variant's case,
// in every module of the snapshot that names it, as edits. A rename that
// would change what the program means is refused with the reason, never
// half made: the new name must be a name of the right kind and no keyword,
// must not be taken where the old one stood (another local of the same
// definition, a function, module or `use` alias of the module, a type, a
// field of the same record, a case of the same variant), and the program with
// the edits made is checked again, every name in it resolving as before and
// no new problem appearing. The library's names, capabilities, modules (named
// by their files), `error` (which `otherwise` binds) and `main` (where a run
// starts) are not renamed. A public definition may be named by modules the
// snapshot does not hold: it is renamed only when the caller says the
// snapshot holds every module (`allModules`).
//
// A field keeps its JSON form: one without a `from json` key gets one with
// its old name (`name: Text from json "old"`), so that decoding and encoding
// read and write the same JSON as before.
//
// Cost: the references (definition.ts's cost), then one check of the program
// of each file the edits touch: linear in the size of those programs.

import { BUILTIN_ARITY } from "../compiler/check/types.js";
import { ALIASES, MODULES } from "../compiler/check/library.js";
import { libraryScopes } from "../compiler/check/declare.js";
import type * as S from "../compiler/parse/tree.js";
import { KEYWORD_SET } from "../compiler/lex/tokens.js";
import type { Snapshot } from "./analysis.js";
import {
  checkWithNames,
  declarationOf,
  keyOf,
  nameAtOffset,
  namesOf,
  referencesTo,
  type NameTarget,
  type NameUse,
  type Span,
} from "./name-index.js";

export interface TextEdit {
  readonly span: Span;
  readonly newText: string;
}

export type Refused = { readonly refused: string };

export interface RenameOptions {
  /** The snapshot holds every module of the program's folder: a public definition may be renamed. */
  readonly allModules?: boolean;
}

/** The name at `offset` and its text, when it can be renamed; why not, when it cannot; nothing where no name is. */
export function prepareRename(
  snapshot: Snapshot,
  file: string,
  offset: number,
): { span: Span; placeholder: string } | Refused | undefined {
  const found = nameAtOffset(snapshot, file, offset);
  if (found === undefined) return undefined;
  const refusal = fixedName(snapshot, found.use);
  if (refusal !== undefined) return { refused: refusal };
  return { span: found.use.span, placeholder: nameOf(found.use.target) };
}

/** The edits that rename what the name at `offset` names to `newName`, by file and position; or why not. */
export function rename(
  snapshot: Snapshot,
  file: string,
  offset: number,
  newName: string,
  options: RenameOptions = {},
): { edits: TextEdit[] } | Refused {
  const found = nameAtOffset(snapshot, file, offset);
  if (found === undefined) return { refused: "There is no name here to rename." };
  const target = found.use.target;
  const old = nameOf(target);
  const refusal =
    fixedName(snapshot, found.use) ??
    badName(target, newName) ??
    (newName === old ? undefined : (publicRefusal(snapshot, target, options) ?? taken(snapshot, target, newName)));
  if (refusal !== undefined) return { refused: refusal };
  if (newName === old) return { edits: [] };
  const uses = referencesTo(snapshot, target, true);
  const edits: TextEdit[] = uses.map((u) => ({ span: u.span, newText: newName }));
  const jsonKey = keepJsonKey(snapshot, target);
  if (jsonKey !== undefined) edits.push(jsonKey);
  edits.sort((a, b) => (a.span.file < b.span.file ? -1 : a.span.file > b.span.file ? 1 : a.span.start - b.span.start));
  // One name is one edit, however many times it was recorded.
  const once = edits.filter(
    (e, i) => i === 0 || e.span.file !== edits[i - 1]!.span.file || e.span.start !== edits[i - 1]!.span.start,
  );
  const changed = meaningChanged(snapshot, target, newName, once);
  return changed === undefined ? { edits: once } : { refused: changed };
}

function nameOf(target: NameTarget): string {
  switch (target.kind) {
    case "field":
      return target.field;
    case "case":
      return target.case;
    case "capability":
      return target.path[target.path.length - 1]!;
    case "library":
      return target.name ?? target.module;
    case "module":
      return target.module.split("/").pop()!;
    default:
      return target.name;
  }
}

const quoted = (name: string): string => `\`${name}\``;

/** Why the name cannot be renamed whatever the new name, if it cannot. */
function fixedName(snapshot: Snapshot, use: NameUse): string | undefined {
  const target = use.target;
  const name = quoted(nameOf(target));
  switch (target.kind) {
    case "library":
      return target.name === undefined
        ? `${name} is a module of the library: its name is the library's, not the program's.`
        : `${quoted(`${target.module}.${target.name}`)} is a function of the library: its name is the library's, not the program's.`;
    case "capability":
      return `${quoted(target.path.join("."))} is a capability: capabilities are named by the language, and a grant names them.`;
    case "module":
      return `${quoted(target.module)} is a module, named by its file (${target.file}): rename the file and its \`use\` lines instead.`;
    case "type":
    case "field":
    case "case":
      if (target.library)
        return `${name} is the library's (${target.kind === "type" ? "a type" : target.kind === "field" ? `a field of \`${target.type}\`` : `a case of \`${target.type}\``}): its name is not the program's to change.`;
      break;
    case "local":
      // `error` is bound by `otherwise` without being written there.
      if (target.declSpan.end - target.declSpan.start !== target.name.length)
        return `${name} is the failure an \`otherwise\` handles: the language names it.`;
      break;
    case "function":
      if (target.name === "main")
        return "`main` is where a run starts: `renyi run` and `renyi test` find it by that name.";
      break;
  }
  if (declarationOf(snapshot, target) === undefined)
    return `${name} is declared in ${"file" in target ? target.file : "a file"}, which the editor has not read: it cannot be renamed from here.`;
  return undefined;
}

const LOWER = /^[a-z_][A-Za-z0-9_]*$/;
const UPPER = /^[A-Z][A-Za-z0-9_]*$/;

/** Why `newName` cannot name a target of this kind at all, if it cannot. */
function badName(target: NameTarget, newName: string): string | undefined {
  const upper = target.kind === "type" || target.kind === "case";
  const what = { local: "a local", function: "a function", type: "a type", field: "a field", case: "a case" }[
    target.kind as "local" | "function" | "type" | "field" | "case"
  ];
  if (!(upper ? UPPER : LOWER).test(newName))
    return upper
      ? `${JSON.stringify(newName)} is not a name for ${what}: it starts with a capital letter, then letters, digits and \`_\`.`
      : `${JSON.stringify(newName)} is not a name for ${what}: it starts with a small letter or \`_\`, then letters, digits and \`_\`.`;
  if (newName === "_") return "`_` names nothing: a value bound to it is thrown away.";
  if (KEYWORD_SET.has(newName)) return `${quoted(newName)} is a keyword of the language.`;
  return undefined;
}

/** A public definition, which modules outside the snapshot may name. */
function publicRefusal(snapshot: Snapshot, target: NameTarget, options: RenameOptions): string | undefined {
  if (options.allModules === true) return undefined;
  const view = "file" in target ? snapshot.modules.get(target.file) : undefined;
  if (view === undefined) return undefined;
  const typeName =
    target.kind === "type" ? target.name : target.kind === "field" || target.kind === "case" ? target.type : undefined;
  const isPublic =
    target.kind === "function"
      ? view.syntax.items.some((i) => i.kind === "FunctionDef" && i.name.name === target.name && i.public)
      : typeName !== undefined &&
        view.syntax.items.some((i) => i.kind === "TypeDef" && i.name.name === typeName && i.public);
  if (!isPublic) return undefined;
  return (
    `${quoted(nameOf(target))} is public: modules the editor has not read may use it, and would keep the old name. ` +
    "It is renamed only when every module of the program is known."
  );
}

/** The names the definition holding `declSpan` binds: its parameters and locals. */
function localsOfDefinition(snapshot: Snapshot, declSpan: Span): NameUse[] {
  const view = snapshot.modules.get(declSpan.file);
  if (view === undefined) return [];
  const item = view.syntax.items.find((i) => i.span.start <= declSpan.start && declSpan.end <= i.span.end);
  if (item === undefined) return [];
  return namesOf(snapshot, view).filter(
    (u) =>
      u.declaration === true &&
      u.target.kind === "local" &&
      item.span.start <= u.span.start &&
      u.span.end <= item.span.end,
  );
}

/** Why `newName` is already taken where the target is declared, if it is. */
function taken(snapshot: Snapshot, target: NameTarget, newName: string): string | undefined {
  const file = target.kind === "local" ? target.declSpan.file : "file" in target ? target.file : undefined;
  const view = file === undefined ? undefined : snapshot.modules.get(file);
  if (view === undefined) return undefined;
  const items = view.syntax.items;
  const line = (span: Span): number => view.source.position(span.start).line;
  switch (target.kind) {
    case "local": {
      const other = localsOfDefinition(snapshot, target.declSpan).find(
        (u) => u.target.kind === "local" && u.target.name === newName,
      );
      if (other !== undefined)
        return `${quoted(newName)} is already a name in the same definition (line ${line(other.span)}): a local may not shadow another.`;
      return undefined;
    }
    case "function": {
      const other = items.find((i) => i.kind === "FunctionDef" && i.name.name === newName);
      if (other !== undefined && other.kind === "FunctionDef")
        return `${quoted(newName)} is already a function of this module (line ${line(other.name.span)}).`;
      const use = items.find(
        (i): i is S.Use => i.kind === "Use" && (i.alias ?? i.path[i.path.length - 1]!).name === newName,
      );
      if (use !== undefined)
        return `${quoted(newName)} already names a module of this one's \`use\` lines (line ${line(use.span)}).`;
      if (Object.hasOwn(MODULES, newName)) return `${quoted(newName)} is a module of the library.`;
      return undefined;
    }
    case "type": {
      const other = items.find((i) => i.kind === "TypeDef" && i.name.name === newName);
      if (other !== undefined && other.kind === "TypeDef")
        return `${quoted(newName)} is already a type of this module (line ${line(other.name.span)}).`;
      if (BUILTIN_ARITY.has(newName) || ALIASES.has(newName) || libraryScopes().prelude.types.has(newName))
        return `${quoted(newName)} is a type of the library.`;
      return undefined;
    }
    case "field":
    case "case": {
      const def = items.find((i): i is S.TypeDef => i.kind === "TypeDef" && i.name.name === target.type);
      if (def === undefined) return undefined;
      const siblings: readonly (S.FieldDecl | S.CaseDecl)[] =
        def.body.kind === "RecordBody"
          ? def.body.fields
          : target.kind === "case"
            ? def.body.cases
            : (def.body.cases.find((c) => c.name.name === target.case)?.fields ?? []);
      const other = siblings.find((m) => m.name.name === newName);
      if (other === undefined) return undefined;
      return target.kind === "case"
        ? `${quoted(newName)} is already a case of \`${target.type}\` (line ${line(other.name.span)}).`
        : `${quoted(newName)} is already a field of \`${target.case === undefined ? target.type : `${target.type}.${target.case}`}\` (line ${line(other.name.span)}).`;
    }
    default:
      return undefined;
  }
}

/** ` from json "old"` after a field's type, when it has no key of its own: its JSON form stays. */
function keepJsonKey(snapshot: Snapshot, target: NameTarget): TextEdit | undefined {
  if (target.kind !== "field") return undefined;
  const declared = declarationOf(snapshot, target);
  const view = declared && snapshot.modules.get(declared.file);
  const def = view?.syntax.items.find((i): i is S.TypeDef => i.kind === "TypeDef" && i.name.name === target.type);
  if (def === undefined) return undefined;
  const fields = def.body.kind === "RecordBody" ? def.body.fields : def.body.cases.flatMap((c) => c.fields);
  const field = fields.find((f) => f.name.span.start === declared!.start);
  if (field === undefined || field.jsonKey !== undefined) return undefined;
  const at = field.type.span.end;
  return { span: { file: declared!.file, start: at, end: at }, newText: ` from json ${JSON.stringify(target.field)}` };
}

// ---- the program after the edits ----

/** Offsets of a file before the edits, as they are after them (edits in order, none overlapping). */
function offsetMap(edits: readonly TextEdit[]): { start(o: number): number; end(o: number): number } {
  const shift = (pick: (e: TextEdit) => boolean) =>
    edits.reduce((sum, e) => (pick(e) ? sum + e.newText.length - (e.span.end - e.span.start) : sum), 0);
  return {
    start: (o) => o + shift((e) => e.span.end <= o),
    end: (o) => o + shift((e) => e.span.start < o),
  };
}

function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = "";
  let at = 0;
  for (const e of edits) {
    out += text.slice(at, e.span.start) + e.newText;
    at = e.span.end;
  }
  return out + text.slice(at);
}

/**
 * The target as it is after the rename: the renamed one under its new name
 * (and the fields and cases of a renamed type, the fields of a renamed case,
 * under it), a local by where its declaration has moved to.
 */
function renamedKey(
  target: NameTarget,
  renamed: NameTarget,
  newName: string,
  maps: ReadonlyMap<string, ReturnType<typeof offsetMap>>,
): string {
  const key = keyOf(target);
  if (key === keyOf(renamed)) {
    if (target.kind === "local") return keyOf({ ...target, declSpan: moved(target.declSpan, maps) });
    if (target.kind === "field") return keyOf({ ...target, field: newName });
    if (target.kind === "case") return keyOf({ ...target, case: newName });
    return keyOf({ ...target, name: newName } as NameTarget);
  }
  if (
    renamed.kind === "type" &&
    (target.kind === "field" || target.kind === "case") &&
    target.file === renamed.file &&
    target.type === renamed.name
  )
    return keyOf({ ...target, type: newName });
  if (
    renamed.kind === "case" &&
    target.kind === "field" &&
    target.file === renamed.file &&
    target.type === renamed.type &&
    target.case === renamed.case
  )
    return keyOf({ ...target, case: newName });
  if (target.kind === "local") return keyOf({ ...target, declSpan: moved(target.declSpan, maps) });
  return key;
}

function moved(span: Span, maps: ReadonlyMap<string, ReturnType<typeof offsetMap>>): Span {
  const map = maps.get(span.file);
  return map === undefined ? span : { file: span.file, start: map.start(span.start), end: map.end(span.end) };
}

/** Why the edited program means something else, if it does: a name resolving otherwise, or a new problem. */
function meaningChanged(
  snapshot: Snapshot,
  renamed: NameTarget,
  newName: string,
  edits: readonly TextEdit[],
): string | undefined {
  const byFile = new Map<string, TextEdit[]>();
  for (const e of edits) byFile.set(e.span.file, [...(byFile.get(e.span.file) ?? []), e]);
  const maps = new Map([...byFile].map(([file, fileEdits]) => [file, offsetMap(fileEdits)] as const));
  const texts = new Map<string, string>();
  for (const [file, fileEdits] of byFile) {
    const view = snapshot.modules.get(file);
    if (view === undefined) return `The rename would edit ${file}, which the editor has not read.`;
    texts.set(file, applyEdits(view.text, fileEdits));
  }
  for (const file of byFile.keys()) {
    const view = snapshot.modules.get(file)!;
    // Before and after are checked alike, from what the snapshot holds (a module it lacks is lacking in both).
    const before = checkWithNames(snapshot, view, new Map());
    const after = checkWithNames(snapshot, view, texts);
    if (before === undefined || after === undefined) return `${file} could not be checked, before or after the rename.`;
    const source = { position: (o: number) => view.source.position(o) };
    const problems = new Map<string, number>();
    const count = (m: Map<string, number>, k: string, by: number) => m.set(k, (m.get(k) ?? 0) + by);
    for (const d of before.diagnostics) count(problems, d.code, 1);
    for (const d of after.diagnostics)
      if ((problems.get(d.code) ?? 0) > 0) count(problems, d.code, -1);
      else return `After the rename, ${file} would have a new problem: ${d.code} ${d.message}`;
    const expected = new Map<string, number>();
    const map = maps.get(file)!;
    for (const use of before.module.names ?? [])
      count(
        expected,
        `${map.start(use.span.start)} ${map.end(use.span.end)} ${renamedKey(use.target, renamed, newName, maps)}`,
        1,
      );
    for (const use of after.module.names ?? []) {
      const key = `${use.span.start} ${use.span.end} ${keyOf(use.target)}`;
      if ((expected.get(key) ?? 0) > 0) {
        count(expected, key, -1);
        continue;
      }
      const { line } = source.position(firstBefore(edits, file, use.span.start));
      return `Renaming ${quoted(nameOf(renamed))} to ${quoted(newName)} would change what a name means near line ${line} of ${file}.`;
    }
    const missing = [...expected].find(([, n]) => n > 0);
    if (missing !== undefined)
      return `Renaming ${quoted(nameOf(renamed))} to ${quoted(newName)} would leave a name of ${file} naming nothing.`;
  }
  return undefined;
}

/** An offset after the edits, taken back to the text before them (for a line number the editor shows). */
function firstBefore(edits: readonly TextEdit[], file: string, offset: number): number {
  let shift = 0;
  for (const e of edits) {
    if (e.span.file !== file) continue;
    const delta = e.newText.length - (e.span.end - e.span.start);
    if (e.span.start + shift >= offset) break;
    shift += delta;
  }
  return Math.max(0, offset - shift);
}
