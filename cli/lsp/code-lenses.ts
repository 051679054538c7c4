// Code lenses (editor/code-lenses.ts): above `main` and each test, its grant in
// words and the commands that run it (renyi.run, renyi.test, ...) with their
// arguments. The server runs none of them: the client decides. A lens that
// only tells has a command with no id, which an editor shows as plain text.

import type { CodeLens, CodeLensParams } from "vscode-languageserver/node";
import { codeLenses } from "../../editor/code-lenses.js";
import type { Service } from "./service.js";

export const lenses: Service = {
  name: "code lenses",
  capabilities: { codeLensProvider: { resolveProvider: false } },
  register(connection, context) {
    connection.onCodeLens(
      context.answer("codeLens", (params: CodeLensParams): CodeLens[] => {
        const snapshot = context.snapshot();
        const file = context.fileOfUri(params.textDocument.uri);
        return codeLenses(snapshot, file).flatMap((lens) => {
          const range = context.rangeOf(lens.span);
          if (range === undefined) return [];
          const command =
            lens.command === undefined
              ? { title: lens.title, command: "" }
              : { title: lens.title, command: lens.command.name, arguments: [...lens.command.arguments] };
          return [{ range, command }];
        });
      }),
    );
  },
};
