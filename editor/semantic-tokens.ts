// Semantic tokens: every token of a file classified by what it is, from the
// lexer (keywords, texts, numbers, and the comments it collects beside its
// tokens) and the checker (each name
// by what it names: name-index.ts). A name the checker could not resolve gets
// no token, and the grammar's colouring stands.
//
// The legend (SEMANTIC_TOKEN_LEGEND) uses the protocol's standard types, so
// that every theme colours them; a capability is a `macro`, the standard type
// nearest to "a word the language gives a meaning to". Modifiers: a local
// bound by `let` is `readonly`, one bound by `var` is `mutable`; the library's
// functions, types and modules are `defaultLibrary`; a name where it is
// declared is `declaration`; and `guarded` marks what a guard holds:
// the capability of a grant item with `only to ...`, and a local bound by
// `let` straight from a call through such a capability, or from a library
// function called on what it gives (`let key be environment.get("KEY")
// .or_else("")` under `environment("KEY") only to ...`). What is computed
// from such a local is guarded too when the program runs, but that is known
// only then (origins travel with values, spec/runtime.md, section 9): the
// modifier marks the direct reads alone.
//
// Cost: one pass over the file's tokens and one over its names and checked
// tree: linear in the module's size.

import type { CBlock, CExpr, CFunction, CStatement, CTest } from "../compiler/check/checked.js";
import { lex } from "../compiler/lex/lexer.js";
import { KEYWORD_SET } from "../compiler/lex/tokens.js";
import { covers } from "../vocabulary/capabilities.js";
import type { Need } from "../vocabulary/needs.js";
import type { ModuleView, Snapshot } from "./analysis.js";
import { indexOf, keyOf, type NameUse } from "./name-index.js";

export const SEMANTIC_TOKEN_LEGEND = {
  tokenTypes: [
    "namespace",
    "type",
    "enumMember",
    "parameter",
    "variable",
    "property",
    "function",
    "keyword",
    "string",
    "number",
    "comment",
    "macro",
  ],
  tokenModifiers: ["declaration", "readonly", "mutable", "defaultLibrary", "guarded"],
} as const;

type SemanticTokenType = (typeof SEMANTIC_TOKEN_LEGEND.tokenTypes)[number];
type SemanticTokenModifier = (typeof SEMANTIC_TOKEN_LEGEND.tokenModifiers)[number];

/** One token, on one line: `line` and `character` 0-based, `character` and `length` in UTF-16 code units. */
export interface SemanticToken {
  readonly line: number;
  readonly character: number;
  readonly length: number;
  readonly type: SemanticTokenType;
  readonly modifiers: readonly SemanticTokenModifier[];
}

/** The file's tokens in order, each within one line. */
export function semanticTokenList(snapshot: Snapshot, file: string): SemanticToken[] {
  const view = snapshot.modules.get(file);
  if (view === undefined) return [];
  const { names, checked } = indexOf(snapshot, view);
  const byStart = new Map<number, NameUse>();
  // The checker marks a parameter where it is declared; its uses name it by the same key.
  const parameters = new Set<string>();
  for (const use of names) {
    byStart.set(use.span.start, use);
    if (use.declaration === true && use.target.kind === "local" && use.target.parameter === true)
      parameters.add(keyOf(use.target));
  }
  const guarded = guardedLocals(checked?.functions ?? [], checked?.tests ?? []);
  const guardedSpans = guardedCapabilities(view);
  const units = budgetUnits(view);
  const out: SemanticToken[] = [];
  const push = (start: number, end: number, type: SemanticTokenType, modifiers: SemanticTokenModifier[] = []) => {
    // A token of several lines (a text of three quotes) is one token a line.
    let from = start;
    while (from < end) {
      const lineEnd = view.text.indexOf("\n", from);
      const to = lineEnd < 0 || lineEnd >= end ? end : lineEnd;
      const trimmed = to > from && view.text.charCodeAt(to - 1) === 13 ? to - 1 : to;
      if (trimmed > from) {
        const { line, column } = view.source.position(from);
        out.push({ line: line - 1, character: column - 1, length: trimmed - from, type, modifiers });
      }
      from = to + 1;
    }
  };
  const { tokens, comments } = lex(file, view.text);
  let comment = 0;
  for (let i = 0; i < tokens.count; i++) {
    const kind = tokens.kinds[i]!;
    const start = tokens.offsets[i]!;
    const end = start + tokens.lengths[i]!;
    // The comments before this token, in order, so that the protocol's relative positions stay increasing.
    for (; comment < comments.length && comments[comment]!.start < start; comment++) {
      const c = comments[comment]!;
      push(c.start, c.end, "comment");
    }
    if (kind === "eof") break;
    if (units.has(start)) push(start, end, "keyword");
    else if (kind === "name" || kind === "upper") {
      const use = byStart.get(start);
      if (use === undefined || use.span.end !== end) continue;
      const classified = classify(use, parameters, guarded, guardedSpans.has(start));
      if (classified !== undefined) push(start, end, classified.type, classified.modifiers);
    } else if (KEYWORD_SET.has(kind)) push(start, end, "keyword");
    else if (kind === "int" || kind === "float") push(start, end, "number");
    else if (kind === "text_start" || kind === "text_part" || kind === "text_end") push(start, end, "string");
    else if (kind === "prose") push(start, end, "comment");
  }
  return out;
}

/** The tokens as the protocol sends them: five numbers a token, each position relative to the one before. */
export function semanticTokens(snapshot: Snapshot, file: string): { data: number[] } {
  const types: readonly string[] = SEMANTIC_TOKEN_LEGEND.tokenTypes;
  const modifiers: readonly string[] = SEMANTIC_TOKEN_LEGEND.tokenModifiers;
  const data: number[] = [];
  let line = 0;
  let character = 0;
  for (const t of semanticTokenList(snapshot, file)) {
    const deltaLine = t.line - line;
    data.push(
      deltaLine,
      deltaLine === 0 ? t.character - character : t.character,
      t.length,
      types.indexOf(t.type),
      t.modifiers.reduce((bits, m) => bits | (1 << modifiers.indexOf(m)), 0),
    );
    line = t.line;
    character = t.character;
  }
  return { data };
}

function classify(
  use: NameUse,
  parameters: ReadonlySet<string>,
  guarded: ReadonlySet<string>,
  guardedCapability: boolean,
): { type: SemanticTokenType; modifiers: SemanticTokenModifier[] } | undefined {
  const target = use.target;
  const modifiers: SemanticTokenModifier[] = use.declaration === true ? ["declaration"] : [];
  switch (target.kind) {
    case "local":
      modifiers.push(target.mutable ? "mutable" : "readonly");
      if (guarded.has(keyOf(target))) modifiers.push("guarded");
      return { type: target.parameter === true || parameters.has(keyOf(target)) ? "parameter" : "variable", modifiers };
    case "function":
      return { type: "function", modifiers };
    case "library":
      modifiers.push("defaultLibrary");
      return { type: target.name === undefined ? "namespace" : "function", modifiers };
    case "module":
      return { type: "namespace", modifiers };
    case "type":
      if (target.library) modifiers.push("defaultLibrary");
      return { type: "type", modifiers };
    case "field":
      if (target.library) modifiers.push("defaultLibrary");
      return { type: "property", modifiers };
    case "case":
      if (target.library) modifiers.push("defaultLibrary");
      return { type: "enumMember", modifiers };
    case "capability":
      if (guardedCapability) modifiers.push("guarded");
      return { type: "macro", modifiers };
  }
}

/** The spans (by start) of the capabilities of grant items that carry a guard, in `main`'s and tests' needs. */
function guardedCapabilities(view: ModuleView): Set<number> {
  const out = new Set<number>();
  for (const item of view.syntax.items) {
    if (item.kind !== "FunctionDef" && item.kind !== "TestDef") continue;
    for (const grant of item.needs?.items ?? [])
      if (grant.guard !== undefined) for (const part of grant.capability.path) out.add(part.span.start);
  }
  return out;
}

/**
 * The starts of the units of budgets (`minute` of `at most 30 per minute`), and of a test's `calls` and `unused`:
 * words of the grammar, as keywords are.
 */
function budgetUnits(view: ModuleView): Set<number> {
  const out = new Set<number>();
  for (const item of view.syntax.items)
    if (item.kind === "FunctionDef" || item.kind === "TestDef")
      for (const grant of item.needs?.items ?? [])
        if (grant.budget !== undefined) out.add(grant.budget.unit.span.start);
  // A test's `calls` and `unused` are keywords of its header only (spec/grammar.md); each clause's span starts at its word.
  for (const item of view.syntax.items)
    if (item.kind === "TestDef")
      for (const clause of [item.calls, item.unused]) if (clause !== undefined) out.add(clause.span.start);
  return out;
}

/** Keys of the locals bound by `let` straight from a call through a guarded capability of the run's grant. */
function guardedLocals(functions: readonly CFunction[], tests: readonly CTest[]): Set<string> {
  const out = new Set<string>();
  const mainGuards = guardsOf(functions.find((f) => f.name === "main")?.needs ?? []);
  for (const f of functions) if (mainGuards.length > 0) visitBlock(f.body, mainGuards, out);
  for (const t of tests) {
    const guards = guardsOf(t.needs);
    if (guards.length > 0) visitBlock(t.body, guards, out);
  }
  return out;
}

function guardsOf(needs: CFunction["needs"]): Need[] {
  return needs.filter((n) => n.guard !== undefined).map((n) => n.capability);
}

function visitBlock(block: CBlock, guards: readonly Need[], out: Set<string>): void {
  for (const s of block.statements) visitStatement(s, guards, out);
}

function visitStatement(s: CStatement, guards: readonly Need[], out: Set<string>): void {
  switch (s.kind) {
    case "Let":
      if (s.pattern.kind === "Bind" && readsGuarded(s.value, guards)) {
        const local = s.pattern.local;
        out.add(keyOf({ kind: "local", id: local.id, name: local.name, declSpan: local.span, mutable: false }));
      }
      return;
    case "If":
      for (const b of s.branches) visitBlock(b.body, guards, out);
      if (s.elseBody) visitBlock(s.elseBody, guards, out);
      return;
    case "ForEach":
    case "While":
      visitBlock(s.body, guards, out);
      return;
    case "RunConcurrently":
      for (const t of s.tasks) visitStatement(t, guards, out);
      return;
    default:
      return;
  }
}

/**
 * A call (perhaps under `otherwise`) that needs a capability a guard covers,
 * or a library function called on what such a call gives (`environment.get("KEY").or_else("")`).
 */
function readsGuarded(value: CExpr, guards: readonly Need[]): boolean {
  const call = value.kind === "Otherwise" ? value.expr : value;
  if (call.kind !== "Call") return false;
  if (call.needs.some((need) => guards.some((g) => covers(g, need, true)))) return true;
  const receiver = call.args[0];
  return call.callee.kind === "Library" && receiver !== undefined && readsGuarded(receiver, guards);
}
