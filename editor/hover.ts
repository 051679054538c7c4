// Hover: what the name under the cursor is, in markdown. A value's type; a
// function's signature as its declaration writes it, its `purpose:` and its
// `needs` in words; a type's declaration; a field or case with its type; a
// library function's signature and the line the library reference gives it;
// a capability of a `needs` line in words, and the budget (`at most 30 per
// minute`) or guard (`only to network.http("x")`) beside it. Nothing at a
// place without a name (a comment, a space, past the end).
//
// Cost: the name index of the file (name-index.ts: one check of its program
// the first time), then a pass over the names of the file and the items of
// the declaring file: linear in their size.

import {
  libraryFunctions,
  preludeTypes,
  type LibraryFunction,
  type PreludeType,
} from "../compiler/check/library-reference.js";
import type * as S from "../compiler/parse/tree.js";
import { typeToText } from "../compiler/check/types.js";
import type { Budget, BudgetUnit, Need } from "../vocabulary/needs.js";
import type { ModuleView, Snapshot } from "./analysis.js";
import { budgetWords, capabilityWords, guardWords } from "./grant-words.js";
import { declarationOf, nameAtOffset, namesOf, keyOf, type NameTarget, type Span } from "./name-index.js";

export interface Hover {
  /** Markdown. */
  readonly markdown: string;
  /** What the hover is about: the name, or the budget or guard. */
  readonly span: Span;
}

export function hover(snapshot: Snapshot, file: string, offset: number): Hover | undefined {
  const view = snapshot.modules.get(file);
  if (view === undefined) return undefined;
  const found = nameAtOffset(snapshot, file, offset);
  if (found !== undefined) {
    const markdown = describe(snapshot, view, found.use.target, offset);
    return markdown === undefined ? undefined : { markdown, span: found.use.span };
  }
  return grantClauseAt(view, offset);
}

const code = (text: string): string => `\`\`\`renyi\n${text}\n\`\`\``;

function describe(snapshot: Snapshot, view: ModuleView, target: NameTarget, offset: number): string | undefined {
  switch (target.kind) {
    case "local":
      return describeLocal(snapshot, target);
    case "function":
      return describeFunction(snapshot, target.file, target.name);
    case "library":
      return target.name === undefined ? describeLibraryModule(target.module) : describeLibraryFunction(target);
    case "module":
      return `${code(`module ${target.module}`)}\n\nThe module in \`${target.file}\`.`;
    case "type":
      return describeType(snapshot, target);
    case "field":
    case "case":
      return describeMember(snapshot, target);
    case "capability":
      return describeCapability(view, target, offset);
  }
}

// ---- values ----

function describeLocal(snapshot: Snapshot, target: Extract<NameTarget, { kind: "local" }>): string {
  // The declaration knows whether it is a parameter, and a call's label (which names one) knows no type.
  const view = snapshot.modules.get(target.declSpan.file);
  const key = keyOf(target);
  const found = view && namesOf(snapshot, view).find((u) => u.declaration === true && keyOf(u.target) === key);
  const declared = found?.target.kind === "local" ? found.target : target;
  const type = target.type ?? declared.type;
  const what = target.mutable ? "var" : declared.parameter === true ? "parameter" : "let";
  return code(`(${what}) ${target.name}${type === undefined ? "" : `: ${typeToText(type)}`}`);
}

// ---- functions ----

function functionDef(view: ModuleView, name: string): S.FunctionDef | undefined {
  return view.syntax.items.find((i): i is S.FunctionDef => i.kind === "FunctionDef" && i.name.name === name);
}

/** A definition's header as written, from its first word to what follows it, comments left out, on one line. */
function headerText(view: ModuleView, start: number, end: number): string {
  return view.text
    .slice(start, end)
    .replace(/--[^\n]*/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

function describeFunction(snapshot: Snapshot, file: string, name: string): string | undefined {
  const view = snapshot.modules.get(file);
  const item = view && functionDef(view, name);
  if (view === undefined || item === undefined) return code(`function ${name}`);
  const headerEnd = item.purpose?.span.start ?? item.needs?.span.start ?? item.body.span.start;
  const parts = [code(headerText(view, item.span.start, headerEnd))];
  if (item.purpose !== undefined) parts.push(item.purpose.text);
  if (item.needs !== undefined) parts.push(needsWords(view, item.needs));
  return parts.join("\n\n");
}

function needsWords(view: ModuleView, needs: S.Needs): string {
  const lines = needs.items.map((item) => {
    const need = needOf(item.capability);
    const words = [capabilityWords(need)];
    if (item.budget !== undefined) words.push(budgetWords(need, budgetOf(item.budget)));
    if (item.guard !== undefined) words.push(guardWords(need, item.guard.sinks.map(needOf)));
    return `- ${words.join(" ")}`;
  });
  return [`\`${headerText(view, needs.span.start, needs.span.end)}\``, ...lines].join("\n");
}

let libraryDocs: readonly LibraryFunction[] | undefined;
let preludeDocs: readonly PreludeType[] | undefined;

function describeLibraryFunction(target: { module: string; name?: string }): string {
  libraryDocs ??= libraryFunctions();
  const doc = libraryDocs.find((f) => f.module === target.module && f.name === target.name);
  if (doc === undefined) return code(`${target.module}.${target.name}`);
  const parts = [code(`${doc.module}.${doc.signature}`), doc.line];
  if (doc.needs !== "") parts.push(`Needs \`${doc.needs}\`.`);
  return parts.join("\n\n");
}

function describeLibraryModule(module: string): string {
  libraryDocs ??= libraryFunctions();
  const names = libraryDocs.filter((f) => f.module === module).map((f) => `\`${f.name}\``);
  return `${code(`module ${module}`)}\n\nA module of the library: ${names.join(", ")}.`;
}

// ---- types ----

function typeDef(view: ModuleView, name: string): S.TypeDef | undefined {
  return view.syntax.items.find((i): i is S.TypeDef => i.kind === "TypeDef" && i.name.name === name);
}

function describeType(snapshot: Snapshot, target: Extract<NameTarget, { kind: "type" }>): string {
  if (target.library) {
    preludeDocs ??= preludeTypes();
    const doc = preludeDocs.find((t) => t.name === target.name);
    if (doc === undefined) return `${code(target.name)}\n\nA type of the language.`;
    const members = doc.members.map((m) => `  ${m.text}`).join("\n");
    return `${code(`type ${doc.written} is ${doc.kind}\n${members}\nend`)}\n\n${doc.line}`;
  }
  const view = snapshot.modules.get(target.file);
  const item = view && typeDef(view, target.name);
  if (view === undefined || item === undefined) return code(`type ${target.name}`);
  const header = headerText(view, item.span.start, item.purpose?.span.start ?? item.body.span.start);
  const members =
    item.body.kind === "RecordBody"
      ? item.body.fields.map((f) => headerText(view, f.span.start, f.span.end))
      : item.body.cases.map((c) => headerText(view, c.span.start, c.span.end));
  const text = code(`${header}\n${members.map((m) => `  ${m}`).join("\n")}\nend`);
  return item.purpose === undefined ? text : `${text}\n\n${item.purpose.text}`;
}

function describeMember(snapshot: Snapshot, target: Extract<NameTarget, { kind: "field" | "case" }>): string {
  const owner = target.kind === "field" && target.case !== undefined ? `${target.type}.${target.case}` : target.type;
  const what = target.kind === "field" ? `A field of \`${owner}\`.` : `A case of \`${target.type}\`.`;
  const name = target.kind === "field" ? target.field : target.case;
  if (target.library) {
    preludeDocs ??= preludeTypes();
    const member = preludeDocs
      .find((t) => t.name === target.type)
      ?.members.find((m) => m.text === name || m.text.startsWith(`${name}:`) || m.text.startsWith(`${name}(`));
    return member === undefined ? `${code(name)}\n\n${what}` : `${code(member.text)}\n\n${what} ${member.line}`;
  }
  const declared = declarationOf(snapshot, target);
  const view = declared && snapshot.modules.get(declared.file);
  const item = view && typeDef(view, target.type);
  const fields = (fs: readonly S.FieldDecl[]) => fs.find((f) => f.name.span.start === declared?.start);
  const decl =
    item?.body.kind === "RecordBody"
      ? fields(item.body.fields)
      : item?.body.cases.flatMap((c) => [c, ...c.fields]).find((m) => m.name.span.start === declared?.start);
  if (view === undefined || decl === undefined) return `${code(name)}\n\n${what}`;
  const text = headerText(view, decl.span.start, decl.span.end);
  const json =
    decl.kind === "FieldDecl" && decl.jsonKey !== undefined
      ? ` Read from and written to JSON as ${JSON.stringify(decl.jsonKey.value)}.`
      : "";
  return `${code(text)}\n\n${what}${json}`;
}

// ---- capabilities ----

function needOf(ref: S.CapabilityRef): Need {
  const path = ref.path.map((p) => p.name);
  return ref.scope === undefined ? { path } : { path, scope: ref.scope.value };
}

function budgetOf(budget: S.Budget): Budget {
  return { count: budget.count.value, unit: budget.unit.name as BudgetUnit };
}

/** The `needs` lines of the module's definitions: only `main`'s and tests' carry budgets and guards. */
function grantItems(view: ModuleView): S.GrantItem[] {
  return view.syntax.items.flatMap((i) =>
    i.kind === "FunctionDef" || i.kind === "TestDef" ? (i.needs?.items ?? []) : [],
  );
}

const within = (span: Span, offset: number): boolean => span.start <= offset && offset <= span.end;

function describeCapability(
  view: ModuleView,
  target: Extract<NameTarget, { kind: "capability" }>,
  offset: number,
): string {
  // A part of a path (`network` of `network.http("x")`) is about the whole capability written there.
  const item = grantItems(view).find((i) => within(i.span, offset));
  const sink = item?.guard?.sinks.find((s) => within(s.span, offset));
  const written = sink ?? (item !== undefined && within(item.capability.span, offset) ? item.capability : undefined);
  const need: Need =
    written !== undefined
      ? needOf(written)
      : target.scope === undefined
        ? { path: target.path }
        : { path: target.path, scope: target.scope };
  const words = [capabilityWords(need)];
  if (item !== undefined && written === item.capability) {
    const whole = need;
    if (item.budget !== undefined) words.push(budgetWords(whole, budgetOf(item.budget)));
    if (item.guard !== undefined) words.push(guardWords(whole, item.guard.sinks.map(needOf)));
  }
  return words.join("\n\n");
}

/** Over `at most 30 per minute` or `only to ...` (their keywords and numbers, which are no names). */
function grantClauseAt(view: ModuleView, offset: number): Hover | undefined {
  for (const item of grantItems(view)) {
    if (!within(item.span, offset)) continue;
    const need = needOf(item.capability);
    if (item.budget !== undefined && within(item.budget.span, offset))
      return { markdown: budgetWords(need, budgetOf(item.budget)), span: item.budget.span };
    if (item.guard !== undefined && within(item.guard.span, offset))
      return { markdown: guardWords(need, item.guard.sinks.map(needOf)), span: item.guard.span };
  }
  return undefined;
}
