// Completion: what may be written at a position, for an editor to offer.
// - after `.`: a record's fields and its type's methods (the type of a local,
//   a parameter or a chain of fields of them), a used module's or a library
//   module's functions and types, a variant's cases, a capability's children;
// - after `needs`: the capabilities, with what each lets a program do; after
//   `per`, the units of a budget;
// - after `when`: the cases of the value matched (or of the failure an
//   `otherwise` handles), as snippets with their fields;
// - where a type is written: the types in scope;
// - elsewhere: the names in scope (locals and parameters declared before the
//   position, the module's functions and types, `use` aliases, library
//   modules, the prelude's types and `Some`/`None`), and where a statement may
//   start, the keywords that start one.
// Nothing is offered in a comment or a text. The module need not parse: names
// come from the recovered syntax tree, or the definition's text parsed again
// alone (completion-scope.ts). The cost is that of the definition the position
// is in and of listing the module's definitions, never a parse or a check of
// the whole module (spec/editor.md, "Completion").

import { libraryScopes } from "../compiler/check/declare.js";
import { METHOD_MODULES } from "../compiler/check/library.js";
import { libraryFunctions, preludeTypes, type LibraryFunction } from "../compiler/check/library-reference.js";
import { BUILTIN_ARITY, resolve } from "../compiler/check/types.js";
import { ALIASES } from "../compiler/check/library.js";
import type * as S from "../compiler/parse/tree.js";
import type { Span } from "../compiler/source.js";
import { capabilityInfo, knownCapabilities } from "../vocabulary/capabilities.js";
import { capabilityMeaning } from "../vocabulary/grant-words.js";
import { BUDGET_UNITS } from "../vocabulary/needs.js";
import type { ModuleView, Snapshot } from "./analysis.js";
import { contextAt, type CompletionContext } from "./completion-context.js";
import { scopeAt } from "./completion-scope.js";
import {
  casesOfTy,
  fieldsOfTy,
  preludeType,
  usedModule,
  useAlias,
  useModuleName,
  type Ty,
  type TyCase,
} from "./offer-types.js";

export type CompletionKind =
  | "local"
  | "parameter"
  | "function"
  | "type"
  | "field"
  | "method"
  | "module"
  | "capability"
  | "case"
  | "keyword";

export interface CompletionItem {
  readonly label: string;
  readonly kind: CompletionKind;
  /** A type, a signature, a module's name. */
  readonly detail?: string;
  /** Markdown. */
  readonly documentation?: string;
  /** What is written instead of the label. */
  readonly insertText?: string;
  /** Whether insertText is a snippet (`${1:name}` placeholders, `$0` the end). */
  readonly snippet?: boolean;
  /**
   * Sorts the items in the order they are listed: locals, the latest first, then parameters, the
   * module's definitions, its `use` aliases, the library's modules, the prelude, the keywords;
   * fields and cases in the order they are declared.
   */
  readonly sortText: string;
}

/** An item before its place in the list is known. */
type Offer = Omit<CompletionItem, "sortText">;

export interface Completions {
  /** The word typed so far, which an item replaces. */
  readonly span: Span;
  readonly items: readonly CompletionItem[];
}

export function completions(snapshot: Snapshot, file: string, offset: number): Completions {
  const view = snapshot.modules.get(file);
  if (view === undefined) return { span: { file, start: 0, end: 0 }, items: [] };
  const at = Math.max(0, Math.min(Number.isFinite(offset) ? Math.trunc(offset) : 0, view.text.length));
  const { context, wordStart } = contextAt(view.text, at);
  const span = { file, start: wordStart, end: at };
  const items = itemsFor(context, snapshot, view, at, wordStart);
  return { span, items: items.map((item, i) => ({ ...item, sortText: String(i).padStart(6, "0") })) };
}

function itemsFor(
  context: CompletionContext,
  snapshot: Snapshot,
  view: ModuleView,
  at: number,
  wordStart: number,
): Offer[] {
  switch (context.kind) {
    case "none":
      return [];
    case "capability":
      return capabilityItems([]);
    case "budget-unit":
      return BUDGET_UNITS.map((unit) => ({ label: unit, kind: "keyword", detail: "budget unit" }));
    case "recording-part":
      return RECORDING_PART.filter((k) => context.words.includes(k.label)).map((k) => ({ ...k, kind: "keyword" }));
    case "use":
      return useItems(snapshot, view);
    case "type":
      return typeItems(snapshot, view);
    case "member":
      return memberItems(context.chain, context.inNeeds, snapshot, view, at, view.text.lastIndexOf(".", wordStart));
    case "case":
      return caseItems(snapshot, view, at, wordStart);
    case "name":
      return nameItems(snapshot, view, at, wordStart, context.statementStart);
  }
}

// ---- names ----

/** A snippet's placeholder: `${1:name}`. */
function slot(n: number, name: string): string {
  return `$\{${n}:${name}}`;
}

const STATEMENT_KEYWORDS: readonly { label: string; insertText?: string; detail: string }[] = [
  { label: "let", detail: "let name be value" },
  { label: "var", detail: "var name be value" },
  { label: "set", detail: "set name to value" },
  { label: "if", detail: "if condition ... end" },
  {
    label: "for each",
    insertText: `for each ${slot(1, "item")} in ${slot(2, "items")}\n\t$0\nend`,
    detail: "for each item in items ... end",
  },
  { label: "while", detail: "while condition ... end" },
  { label: "match", insertText: `match ${slot(1, "value")}\n\twhen $0\nend`, detail: "match value when ... end" },
  { label: "return", detail: "return value" },
  { label: "fail with", detail: "fail with value" },
  { label: "crash with", detail: "crash with message" },
  { label: "check", detail: "check condition (in a test)" },
  { label: "run concurrently", insertText: "run concurrently\n\t$0\nend", detail: "run concurrently ... end" },
  { label: "stop", detail: "leave the loop" },
  { label: "skip", detail: "go on with the loop's next item" },
];

/** What may follow a test's `replays "PATH"` (spec/testing.md, "Part of a recording"). */
const RECORDING_PART: readonly { label: "calls" | "unused"; detail: string; insertText: string; snippet: true }[] = [
  {
    label: "calls",
    detail: "calls N to M: only these calls of the recording are the test's",
    insertText: `calls ${slot(1, "1")} to ${slot(2, "3")}`,
    snippet: true,
  },
  {
    label: "unused",
    detail: "unused console: capabilities whose recorded calls may stay unused (--strict)",
    insertText: `unused ${slot(1, "console")}`,
    snippet: true,
  },
];

const ITEM_KEYWORDS: readonly { label: string; detail: string }[] = [
  { label: "use", detail: "use module.path [as alias]" },
  { label: "public", detail: "public function or type" },
  { label: "function", detail: "function name(parameters) returns Type ... end" },
  { label: "type", detail: "type Name is record ... end, or is variant ... end" },
  { label: "test", detail: 'test "name" ... end' },
];

function nameItems(
  snapshot: Snapshot,
  view: ModuleView,
  at: number,
  wordStart: number,
  statementStart: boolean,
): Offer[] {
  const scope = scopeAt(snapshot, view, at, wordStart);
  if (scope.item === undefined)
    return ITEM_KEYWORDS.map((k) => ({ label: k.label, kind: "keyword", detail: k.detail }));
  if (scope.item.kind === "TypeDef") return typeItems(snapshot, view);
  const items: Offer[] = [];
  const seen = new Set<string>();
  // The latest binding of a name hides the others.
  for (let i = scope.bindings.length - 1; i >= 0; i--) {
    const b = scope.bindings[i]!;
    if (seen.has(b.name)) continue;
    seen.add(b.name);
    const type = b.type().text;
    items.push({ label: b.name, kind: b.kind, ...(type ? { detail: type } : {}) });
  }
  for (const item of view.syntax.items) {
    if (item.kind === "FunctionDef" && !seen.has(item.name.name)) items.push(functionItem(view, item));
    if (item.kind === "TypeDef") items.push(typeDefItem(view, item));
    if (item.kind === "Use")
      items.push({ label: useAlias(item), kind: "module", detail: `module ${useModuleName(view, item)}` });
  }
  items.push(...libraryModuleItems(), ...preludeItems());
  if (statementStart)
    for (const k of STATEMENT_KEYWORDS)
      items.push({
        label: k.label,
        kind: "keyword",
        detail: k.detail,
        ...(k.insertText ? { insertText: k.insertText, snippet: true } : {}),
      });
  return items;
}

/** `name(parameters) returns X or fails with E`, as the definition writes it. */
function headerOf(view: ModuleView, def: S.FunctionDef): string {
  const end =
    def.fails?.span.end ?? def.returns?.span.end ?? def.params[def.params.length - 1]?.span.end ?? def.name.span.end;
  const close = view.text.indexOf(")", end);
  const lineEnd = view.text.indexOf("\n", def.name.span.start);
  const last = def.fails || def.returns ? end : close >= 0 && (lineEnd < 0 || close < lineEnd) ? close + 1 : end;
  return view.text.slice(def.name.span.start, last).replace(/\s+/g, " ");
}

function functionItem(view: ModuleView, def: S.FunctionDef): Offer {
  return {
    label: def.name.name,
    kind: "function",
    detail: headerOf(view, def),
    ...(def.purpose ? { documentation: def.purpose.text } : {}),
  };
}

function typeDefItem(view: ModuleView, def: S.TypeDef): Offer {
  const shape = def.body.kind === "RecordBody" ? "record" : "variant";
  return {
    label: def.name.name,
    kind: "type",
    detail: `${shape} of module ${view.name}`,
    ...(def.purpose ? { documentation: def.purpose.text } : {}),
  };
}

// ---- the library ----

let libraryCache: { byModule: Map<string, LibraryFunction[]>; modules: Offer[]; prelude: Offer[] } | undefined;

/** The library's functions by module, and the items of its modules and of the prelude, made once. */
function library(): NonNullable<typeof libraryCache> {
  if (libraryCache !== undefined) return libraryCache;
  const byModule = new Map<string, LibraryFunction[]>();
  for (const f of libraryFunctions()) byModule.set(f.module, [...(byModule.get(f.module) ?? []), f]);
  const modules = [...byModule].map(
    ([module, functions]): Offer => ({
      label: module,
      kind: "module",
      detail: "library module",
      documentation: functions.map((f) => `- \`${f.name}\`: ${f.line}`).join("\n"),
    }),
  );
  const prelude: Offer[] = [];
  for (const t of preludeTypes())
    prelude.push({
      label: t.name,
      kind: "type",
      detail: `${t.kind} ${t.written} (prelude)`,
      documentation: `${t.line}\n\n${t.members.map((m) => `- \`${m.text}\`: ${m.line}`).join("\n")}`,
    });
  prelude.push(
    {
      label: "Some",
      kind: "case",
      detail: "Optional.Some(value: T)",
      documentation: "A value.",
      insertText: `Some(${slot(1, "value")})`,
      snippet: true,
    },
    { label: "None", kind: "case", detail: "Optional.None", documentation: "No value." },
  );
  libraryCache = { byModule, modules, prelude };
  return libraryCache;
}

function libraryModuleItems(): Offer[] {
  return library().modules;
}

function preludeItems(): Offer[] {
  return library().prelude;
}

function libraryFunctionItem(f: LibraryFunction, asMethod: boolean): Offer {
  const needs = f.needs === "" ? "" : `\n\nNeeds \`${f.needs}\`.`;
  return {
    label: f.name,
    kind: asMethod ? "method" : "function",
    detail: `${f.module}.${f.signature}`,
    documentation: `${f.line}${needs}`,
  };
}

// ---- after a dot ----

function memberItems(
  chain: readonly string[],
  inNeeds: boolean,
  snapshot: Snapshot,
  view: ModuleView,
  at: number,
  dot: number,
): Offer[] {
  if (inNeeds) return capabilityItems(chain);
  // The end of what the dot applies to: the definition is parsed up to there when it must be parsed again.
  let end = dot;
  while (end > 0 && /\s/.test(view.text.charAt(end - 1))) end--;
  const scope = scopeAt(snapshot, view, at, end);
  const members = (type: Ty | undefined) => (type === undefined ? [] : [...fieldItems(type), ...methodItems(type)]);
  const head = chain[0];
  // `f(x).`, `items[0].`: the type of the expression, from the definition parsed up to it.
  if (head === undefined) return members(scope.typeEndingAtCut());
  if (/^[A-Z]/.test(head)) {
    const type = chain.length === 1 ? scope.typeOf({ kind: "UpperName", name: head, span: NOWHERE }) : undefined;
    return type === undefined ? [] : casesOfTy(type).map(caseItem);
  }
  const binding = [...scope.bindings].reverse().find((b) => b.name === head);
  if (binding === undefined && chain.length === 1) {
    const used = usedModule(snapshot, view, head);
    if (used !== undefined) return usedModuleItems(used);
    const functions = library().byModule.get(head);
    if (functions !== undefined) return functions.map((f) => libraryFunctionItem(f, false));
    return [];
  }
  if (binding === undefined) return members(scope.typeEndingAtCut());
  let type = binding.type();
  for (const field of chain.slice(1)) {
    const next = fieldsOfTy(type).find((f) => f.name === field);
    if (next === undefined) return members(scope.typeEndingAtCut());
    type = next.type;
  }
  return members(type);
}

const NOWHERE = { file: "", start: 0, end: 0 };

function fieldItems(type: Ty): Offer[] {
  return fieldsOfTy(type).map((f) => ({
    label: f.name,
    kind: "field",
    detail: f.type.text,
    ...(f.doc ? { documentation: f.doc } : {}),
  }));
}

/** The functions of the type's module whose first parameter takes the type: its methods. */
function methodItems(type: Ty): Offer[] {
  const module = METHOD_MODULES.get(type.name);
  if (module === undefined) return [];
  const declared = libraryScopes().library.get(module);
  return (library().byModule.get(module) ?? [])
    .filter((f) => {
      const first = declared?.functions.get(f.name)?.params[0]?.type;
      if (first === undefined) return false;
      const t = resolve(first);
      return t.kind === "Param" || (t.kind === "Con" && t.name === type.name);
    })
    .map((f) => libraryFunctionItem(f, true));
}

function usedModuleItems(used: ModuleView): Offer[] {
  const items: Offer[] = [];
  for (const item of used.syntax.items) {
    if (item.kind === "FunctionDef" && item.public) items.push(functionItem(used, item));
    if (item.kind === "TypeDef" && item.public) items.push(typeDefItem(used, item));
  }
  return items;
}

// ---- capabilities ----

/** The capabilities directly under `parent` (the top ones for none), with their meaning and how they are scoped. */
function capabilityItems(parent: readonly string[]): Offer[] {
  return knownCapabilities()
    .map((name) => name.split("."))
    .filter((path) => path.length === parent.length + 1 && parent.every((p, i) => path[i] === p))
    .map((path) => {
      const name = path.join(".");
      const info = capabilityInfo(path)!;
      const scope = SCOPE_WORDS[info.scope];
      const facts = [
        scope === undefined ? "Takes no scope." : `Scoped by ${scope}: \`${name}(${SCOPE_EXAMPLES[info.scope]})\`.`,
        info.budgets ? "May carry a budget (`at most N per minute`)." : "Takes no budget.",
        ...(info.errorType ? [`Its calls fail with \`${info.errorType}\`.`] : []),
      ];
      return {
        label: path[path.length - 1]!,
        kind: "capability",
        detail: name,
        documentation: `${capabilityMeaning(name) ?? ""}\n\n${facts.join(" ")}`,
      };
    });
}

const SCOPE_WORDS: Readonly<Record<string, string | undefined>> = {
  host: "a host",
  port: "a port",
  path: "a path",
  name: "a name",
};

const SCOPE_EXAMPLES: Readonly<Record<string, string>> = {
  host: '"api.example.com"',
  port: "8080",
  path: '"data"',
  name: '"NAME"',
};

// ---- cases ----

function caseItems(snapshot: Snapshot, view: ModuleView, at: number, wordStart: number): Offer[] {
  const subject = scopeAt(snapshot, view, at, wordStart, "_").matchSubject?.();
  if (subject === undefined) return [];
  const cases = casesOfTy(subject.name === "Optional" ? (preludeType("Optional", subject.args) ?? subject) : subject);
  return cases.map(caseItem);
}

/** A case, as a pattern after `when` or as a value after `Type.`: `Circle(radius)`, its fields as placeholders. */
function caseItem(c: TyCase): Offer {
  const fields = c.fields.map((f, i) => slot(i + 1, f.name)).join(", ");
  const written =
    c.fields.length === 0 ? c.name : `${c.name}(${c.fields.map((f) => `${f.name}: ${f.type.text}`).join(", ")})`;
  return {
    label: c.name,
    kind: "case",
    detail: written,
    ...(c.doc ? { documentation: c.doc } : {}),
    ...(c.fields.length > 0 ? { insertText: `${c.name}(${fields})`, snippet: true } : {}),
  };
}

// ---- types and modules ----

function typeItems(snapshot: Snapshot, view: ModuleView): Offer[] {
  const items: Offer[] = [];
  for (const name of BUILTIN_ARITY.keys()) items.push({ label: name, kind: "type", detail: "built-in type" });
  for (const [name, stands] of ALIASES) items.push({ label: name, kind: "type", detail: `stands for ${stands}` });
  for (const item of view.syntax.items) {
    if (item.kind === "TypeDef") items.push(typeDefItem(view, item));
    if (item.kind === "Use" && usedModule(snapshot, view, useAlias(item)) !== undefined)
      items.push({ label: useAlias(item), kind: "module", detail: `module ${useModuleName(view, item)}` });
  }
  items.push(...preludeItems().filter((i) => i.kind === "type"));
  return items;
}

/** Modules a `use` line may name: the other modules the snapshot holds in this module's folder and below it. */
function useItems(snapshot: Snapshot, view: ModuleView): Offer[] {
  const items: Offer[] = [];
  for (const other of snapshot.modules.values()) {
    if (other.file === view.file || !other.file.startsWith(view.folder) || !other.file.endsWith(".ry")) continue;
    const path = other.file.slice(view.folder.length, -3).split("/");
    if (!path.every((p) => /^[a-z_][a-z0-9_]*$/.test(p))) continue;
    items.push({ label: path.join("."), kind: "module", detail: other.file });
  }
  return items;
}
