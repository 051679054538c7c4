// The code of a program as a recording and a grant manifest name it
// (spec/recording.md, "What the code hash covers"): main and every definition
// it reaches across modules, as parsed, without positions, layout or comments.
// A comment, a test, a blank line, a reformatting or a definition main does not
// reach leaves the form as it was; an edit of anything main runs changes it.
//
// Reaching is read from the syntax tree, before checking, and errs on the side of
// reaching more: a name that could mean a definition reaches it even where a
// local hides it. Reaching too much makes the hash change on an edit that could
// not matter; reaching too little would let an edit that matters keep the hash,
// which must never happen. What a definition can name: a function or a type of
// its own module by its bare name (`helper(x)`, `Point(x: 1)`, `Shape.Circle`,
// `List<Point>`), and a definition of a module it brings in through that module's
// name (`weather.fetch(c)`, `weather.Forecast`, `w.Shape.Circle(r)`). Methods
// (`name.upper()`) are the library's alone, and the library is the toolchain's.

import { sha256Hasher } from "../../report/sha256.js";
import { importsOf } from "../frontend.js";
import type { FunctionDef, Item, Module, TypeDef } from "../parse/tree.js";

/**
 * The tag the hashed text starts with. The form changes only with it: a change of what is hashed, or how, takes a new
 * tag, so that every recording made before refuses to reproduce for that reason alone and knowingly.
 */
export const CODE_FORM = "renyi-code-1";

/** A module as the hash reads it: its identity (the path from the entry's folder) and its syntax tree. */
export interface FormModule {
  readonly name: string;
  readonly syntax: Module;
}

type Definition = FunctionDef | TypeDef;

interface ModuleScope {
  /** Its functions and types by name; a list, since a name defined twice (an error) reaches both. */
  readonly definitions: Map<string, Definition[]>;
  /** The modules its `use` lines bring in, by the name the module is used by (the alias, or the path's last part). */
  readonly imports: Map<string, string>;
}

/** One reached definition: its module and name, and its syntax tree. */
export interface ReachedDefinition {
  readonly module: string;
  readonly name: string;
  readonly definition: FunctionDef | TypeDef;
}

/**
 * The code hash: `sha256:` of the form (codeForm), fed a line at a time, so that no more than one definition's form is
 * held at once (a large program's form is several times its text).
 */
export function codeHash(modules: readonly FormModule[], entry: string): string {
  const hash = sha256Hasher();
  hash.update(headerLine(entry));
  for (const reached of reachedDefinitions(modules, entry)) hash.update(`\n${definitionLine(reached)}`);
  return `sha256:${hash.digestHex()}`;
}

/**
 * The text the code hash hashes: the form tag, the entry module's name, then one line per definition main reaches, in
 * the order of module and then name (code units), each the JSON of `[module, name, tree]`.
 */
export function codeForm(modules: readonly FormModule[], entry: string): string {
  return [headerLine(entry), ...reachedDefinitions(modules, entry).map(definitionLine)].join("\n");
}

function headerLine(entry: string): string {
  return JSON.stringify([CODE_FORM, entry]);
}

function definitionLine({ module, name, definition }: ReachedDefinition): string {
  return JSON.stringify([module, name, treeForm(definition)], finiteNumbers);
}

/**
 * The definitions main reaches (every function and type of the entry when it has no main), in the order of module and
 * then name; a name defined twice in a module (which the checker refuses) in the order written.
 */
export function reachedDefinitions(modules: readonly FormModule[], entry: string): ReachedDefinition[] {
  const scopes = new Map(modules.map((m) => [m.name, scopeOf(m)]));
  const reached: ReachedDefinition[] = [];
  const seen = new Set<Definition>();
  const reach = (module: string, name: string): void => {
    for (const definition of scopes.get(module)?.definitions.get(name) ?? []) {
      if (seen.has(definition)) continue;
      seen.add(definition);
      reached.push({ module, name, definition });
    }
  };
  const entryScope = scopes.get(entry);
  if (entryScope?.definitions.has("main")) reach(entry, "main");
  else for (const name of entryScope?.definitions.keys() ?? []) reach(entry, name);
  // `reached` is the queue too, with a moving head: each definition is walked once, linear in the program's size.
  for (let head = 0; head < reached.length; head++) {
    const { module, definition } = reached[head]!;
    const scope = scopes.get(module)!;
    walkReferences(definition, (path) => {
      const [first, second] = path;
      reach(module, first!);
      const imported = scope.imports.get(first!);
      if (imported !== undefined && second !== undefined) reach(imported, second);
    });
  }
  // A stable sort: definitions of one name keep the order their module lists them in.
  const written = new Map(modules.flatMap((m) => m.syntax.items.map((item, i): [unknown, number] => [item, i])));
  return reached.sort(
    (a, b) =>
      compareText(a.module, b.module) ||
      compareText(a.name, b.name) ||
      written.get(a.definition)! - written.get(b.definition)!,
  );
}

function scopeOf(module: FormModule): ModuleScope {
  const definitions = new Map<string, Definition[]>();
  for (const item of module.syntax.items) {
    if (item.kind !== "FunctionDef" && item.kind !== "TypeDef") continue;
    const list = definitions.get(item.name.name);
    if (list === undefined) definitions.set(item.name.name, [item]);
    else list.push(item);
  }
  const imports = new Map<string, string>();
  const uses = module.syntax.items.filter((item): item is Extract<Item, { kind: "Use" }> => item.kind === "Use");
  importsOf(module).forEach(({ name }, i) => {
    const use = uses[i]!;
    const asName = (use.alias ?? use.path[use.path.length - 1])?.name;
    if (asName !== undefined && !imports.has(asName)) imports.set(asName, name);
  });
  return { definitions, imports };
}

/**
 * Calls `named` with each path in `node` that could name a definition: a bare name (`[helper]`), a member of a name
 * (`[weather, fetch]`), a type's or a case pattern's path (`[w, Shape, Circle]`).
 */
function walkReferences(node: unknown, named: (path: readonly string[]) => void): void {
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const n = stack.pop();
    if (typeof n !== "object" || n === null) continue;
    if (Array.isArray(n)) {
      for (const item of n) stack.push(item);
      continue;
    }
    const tree = n as { kind?: unknown } & Record<string, unknown>;
    switch (tree.kind) {
      case "Name":
      case "UpperName":
        named([tree["name"] as string]);
        break;
      case "Member": {
        const object = tree["object"] as { kind: string; name?: string };
        if (object.kind === "Name" || object.kind === "UpperName")
          named([object.name!, (tree["name"] as { name: string }).name]);
        break;
      }
      case "NamedType":
      case "CasePattern":
        named((tree["path"] as { name: string }[]).map((p) => p.name));
        break;
      case "CapabilityRef":
        // A capability's path names the library's capabilities, never a definition.
        continue;
    }
    for (const key in tree) if (key !== "span") stack.push(tree[key]);
  }
}

/**
 * What of a tree the form keeps: every node's kind and fields as parsed, but not where it stands (`span`), whether an
 * `if` or an arm was written on one line (`inline`), or a type's `purpose:` line, which nothing at run time shows (a
 * function's purpose is narrated, and main's is its `--help`, so it is kept). A name is its text. A text's adjacent
 * literal chunks are one chunk, however the source split them.
 */
function treeForm(node: unknown): unknown {
  if (typeof node !== "object" || node === null) return node;
  if (Array.isArray(node)) return node.map(treeForm);
  const tree = node as { kind?: unknown } & Record<string, unknown>;
  if (tree.kind === "Ident") return tree["name"];
  if (tree.kind === "Purpose") return tree["text"];
  if (tree.kind === "TextLiteral") return { kind: "TextLiteral", parts: textParts(tree["parts"] as unknown[]) };
  const form: Record<string, unknown> = {};
  for (const key in tree) {
    if (key === "span" || key === "inline" || (key === "purpose" && tree.kind === "TypeDef")) continue;
    form[key] = treeForm(tree[key]);
  }
  return form;
}

function textParts(parts: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const part of parts) {
    const chunk = part as { kind?: unknown; value?: unknown };
    const last = out[out.length - 1] as { chunk?: string } | undefined;
    if (chunk.kind === "TextChunk" && typeof chunk.value === "string") {
      if (chunk.value === "") continue;
      if (last?.chunk !== undefined) out[out.length - 1] = { chunk: last.chunk + chunk.value };
      else out.push({ chunk: chunk.value });
    } else out.push(treeForm(part));
  }
  return out;
}

/** JSON writes Infinity and NaN as null; the form writes them by name, so that no two literals share a form. */
function finiteNumbers(_key: string, value: unknown): unknown {
  return typeof value === "number" && !Number.isFinite(value) ? String(value) : value;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
