// Document and workspace symbols: a module's outline (types with their fields
// or cases, functions with their purpose, tests) and a search over every
// module's definitions by a fuzzy query. Read from the syntax tree, which the
// parser builds even for a module that does not parse (it keeps the
// definitions it could read), so the outline holds while a line is half typed.

import type { Item, TypeDef } from "../compiler/parse/tree.js";
import type { Span } from "../compiler/source.js";
import type { ModuleView, Snapshot } from "./analysis.js";

export type SymbolKind = "type" | "record" | "variant" | "field" | "case" | "function" | "test";

export interface DocumentSymbol {
  readonly name: string;
  readonly kind: SymbolKind;
  /** A function's purpose, a field's type, a case's fields. */
  readonly detail?: string;
  /** The whole definition. */
  readonly span: Span;
  /** Its name: where the editor puts the cursor. */
  readonly selectionSpan: Span;
  readonly children: readonly DocumentSymbol[];
}

export interface WorkspaceSymbol {
  readonly name: string;
  readonly kind: SymbolKind;
  readonly detail?: string;
  /** The module it is defined in, by its name. */
  readonly module: string;
  readonly selectionSpan: Span;
}

/** The most symbols one workspace search answers with. */
const WORKSPACE_SYMBOL_LIMIT = 200;

export function documentSymbols(view: ModuleView): DocumentSymbol[] {
  return view.syntax.items.flatMap((item) => symbolOf(view, item));
}

function symbolOf(view: ModuleView, item: Item): DocumentSymbol[] {
  switch (item.kind) {
    case "TypeDef":
      return [typeSymbol(view, item)];
    case "FunctionDef":
      return [
        {
          name: item.name.name,
          kind: "function",
          ...(item.purpose ? { detail: item.purpose.text } : {}),
          span: item.span,
          selectionSpan: item.name.span,
          children: [],
        },
      ];
    case "TestDef":
      return [{ name: item.name.value, kind: "test", span: item.span, selectionSpan: item.name.span, children: [] }];
    case "Use":
      return [];
  }
}

function typeSymbol(view: ModuleView, item: TypeDef): DocumentSymbol {
  const written = (span: Span): string => view.text.slice(span.start, span.end);
  const children =
    item.body.kind === "RecordBody"
      ? item.body.fields.map(
          (f): DocumentSymbol => ({
            name: f.name.name,
            kind: "field",
            detail: written(f.type.span),
            span: f.span,
            selectionSpan: f.name.span,
            children: [],
          }),
        )
      : item.body.cases.map(
          (c): DocumentSymbol => ({
            name: c.name.name,
            kind: "case",
            ...(c.fields.length > 0
              ? { detail: `(${c.fields.map((f) => `${f.name.name}: ${written(f.type.span)}`).join(", ")})` }
              : {}),
            span: c.span,
            selectionSpan: c.name.span,
            children: [],
          }),
        );
  return {
    name: item.name.name,
    kind: item.body.kind === "RecordBody" ? "record" : "variant",
    ...(item.purpose ? { detail: item.purpose.text } : {}),
    span: item.span,
    selectionSpan: item.name.span,
    children,
  };
}

/**
 * Every module's functions, types and tests whose name holds the query's
 * characters in order, any case (`fwx` finds `fetch_weather`); the closest
 * first (fewest characters between them, then the shortest name), at most
 * `limit`. An empty query gives the first of every module's definitions.
 */
export function workspaceSymbols(snapshot: Snapshot, query: string, limit = WORKSPACE_SYMBOL_LIMIT): WorkspaceSymbol[] {
  const wanted = query.toLowerCase();
  const found: { symbol: WorkspaceSymbol; score: number }[] = [];
  for (const view of snapshot.modules.values())
    for (const item of view.syntax.items) {
      if (item.kind === "Use") continue;
      const symbol = workspaceSymbolOf(view, item);
      const score = subsequenceScore(symbol.name.toLowerCase(), wanted);
      if (score !== undefined) found.push({ symbol, score });
    }
  found.sort(
    (a, b) =>
      a.score - b.score ||
      a.symbol.name.length - b.symbol.name.length ||
      (a.symbol.name < b.symbol.name ? -1 : a.symbol.name > b.symbol.name ? 1 : 0),
  );
  return found.slice(0, Math.max(0, limit)).map((f) => f.symbol);
}

function workspaceSymbolOf(view: ModuleView, item: Exclude<Item, { kind: "Use" }>): WorkspaceSymbol {
  const common = { module: view.name };
  switch (item.kind) {
    case "TypeDef":
      return {
        ...common,
        name: item.name.name,
        kind: item.body.kind === "RecordBody" ? "record" : "variant",
        ...(item.purpose ? { detail: item.purpose.text } : {}),
        selectionSpan: item.name.span,
      };
    case "FunctionDef":
      return {
        ...common,
        name: item.name.name,
        kind: "function",
        ...(item.purpose ? { detail: item.purpose.text } : {}),
        selectionSpan: item.name.span,
      };
    case "TestDef":
      return { ...common, name: item.name.value, kind: "test", selectionSpan: item.name.span };
  }
}

/**
 * Whether `query`'s characters occur in `name` in order: the number of
 * characters skipped between the first match and the last (0 for a prefix
 * or a whole word), or undefined when they do not.
 */
export function subsequenceScore(name: string, query: string): number | undefined {
  let at = 0;
  let first = -1;
  for (const c of query) {
    const found = name.indexOf(c, at);
    if (found < 0) return undefined;
    if (first < 0) first = found;
    at = found + c.length;
  }
  return first < 0 ? 0 : at - first - query.length + first;
}
