// Folding ranges (editor/folding.ts): every block of a document, by line, and
// its runs of comments and of `use` lines.

import { FoldingRangeKind, type FoldingRange, type FoldingRangeParams } from "vscode-languageserver/node";
import { foldingRanges } from "../../editor/folding.js";
import type { Service } from "./service.js";

export const folding: Service = {
  name: "folding ranges",
  capabilities: { foldingRangeProvider: true },
  register(connection, context) {
    connection.onFoldingRanges(
      context.answer("foldingRange", (params: FoldingRangeParams): FoldingRange[] => {
        const view = context.snapshot().modules.get(context.fileOfUri(params.textDocument.uri));
        if (view === undefined) return [];
        return foldingRanges(view).map((r) => ({
          startLine: r.startLine,
          endLine: r.endLine,
          ...(r.kind === undefined
            ? {}
            : { kind: r.kind === "comment" ? FoldingRangeKind.Comment : FoldingRangeKind.Imports }),
        }));
      }),
    );
  },
};
