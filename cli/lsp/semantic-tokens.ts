// Semantic tokens, the whole document at once (editor/semantic-tokens.ts), in
// the legend it exports: what each name is (a parameter, a field, a guarded
// value), beyond what the grammar's colouring can tell.

import type { SemanticTokens, SemanticTokensParams } from "vscode-languageserver/node";
import { SEMANTIC_TOKEN_LEGEND, semanticTokens } from "../../editor/semantic-tokens.js";
import type { Service } from "./service.js";

export const semanticTokenService: Service = {
  name: "semantic tokens",
  capabilities: {
    semanticTokensProvider: {
      legend: {
        tokenTypes: [...SEMANTIC_TOKEN_LEGEND.tokenTypes],
        tokenModifiers: [...SEMANTIC_TOKEN_LEGEND.tokenModifiers],
      },
      full: true,
    },
  },
  register(connection, context) {
    connection.languages.semanticTokens.on(
      context.answer("semanticTokens", (params: SemanticTokensParams): SemanticTokens => {
        const snapshot = context.snapshot();
        const file = context.fileOfUri(params.textDocument.uri);
        return snapshot.modules.has(file) ? semanticTokens(snapshot, file) : { data: [] };
      }),
    );
  },
};
