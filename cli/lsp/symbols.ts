// Document symbols, as a hierarchy (a type with its fields or cases), and
// workspace symbols, a search over the open documents' definitions
// (editor/symbols.ts).

import {
  SymbolKind,
  type DocumentSymbol,
  type DocumentSymbolParams,
  type WorkspaceSymbol,
  type WorkspaceSymbolParams,
} from "vscode-languageserver/node";
import {
  documentSymbols,
  workspaceSymbols,
  type DocumentSymbol as RenyiSymbol,
  type SymbolKind as RenyiSymbolKind,
} from "../../editor/symbols.js";
import type { ServerContext, Service } from "./service.js";

const KINDS: Record<RenyiSymbolKind, SymbolKind> = {
  type: SymbolKind.Class,
  record: SymbolKind.Struct,
  variant: SymbolKind.Enum,
  field: SymbolKind.Field,
  case: SymbolKind.EnumMember,
  function: SymbolKind.Function,
  test: SymbolKind.Method,
};

export const documentSymbolOutline: Service = {
  name: "document symbols",
  capabilities: { documentSymbolProvider: true },
  register(connection, context) {
    connection.onDocumentSymbol(
      context.answer("documentSymbol", (params: DocumentSymbolParams): DocumentSymbol[] => {
        const view = context.snapshot().modules.get(context.fileOfUri(params.textDocument.uri));
        return view === undefined ? [] : documentSymbols(view).flatMap((s) => symbolOf(context, s));
      }),
    );
  },
};

export const workspaceSymbolSearch: Service = {
  name: "workspace symbols",
  capabilities: { workspaceSymbolProvider: true },
  register(connection, context) {
    connection.onWorkspaceSymbol(
      context.answer("workspaceSymbol", (params: WorkspaceSymbolParams): WorkspaceSymbol[] =>
        workspaceSymbols(context.snapshot(), params.query).flatMap((s) => {
          const range = context.rangeOf(s.selectionSpan);
          if (range === undefined) return [];
          return [
            {
              name: s.name,
              kind: KINDS[s.kind],
              containerName: s.module,
              location: { uri: context.uriOfFile(s.selectionSpan.file), range },
            },
          ];
        }),
      ),
    );
  },
};

function symbolOf(context: ServerContext, s: RenyiSymbol): DocumentSymbol[] {
  const range = context.rangeOf(s.span);
  const selectionRange = context.rangeOf(s.selectionSpan);
  if (range === undefined || selectionRange === undefined) return [];
  return [
    {
      name: s.name,
      kind: KINDS[s.kind],
      ...(s.detail === undefined ? {} : { detail: s.detail }),
      range,
      selectionRange,
      children: s.children.flatMap((c) => symbolOf(context, c)),
    },
  ];
}
