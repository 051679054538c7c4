// Code lenses (editor/code-lenses.ts): above `main` and each test, its grant in
// words and the commands that run it (renyi.run, renyi.test, ...), whose
// arguments are the words of the command line after `renyi` (`run`, FILE), so
// that a client runs exactly what the lens stands for with its own `renyi`.
// The server runs none of them: the client decides. A lens that only tells has
// a command with no id, which an editor shows as plain text.

import type { CodeLens, CodeLensParams, Command } from "vscode-languageserver/node";
import { codeLenses, type LensCommand } from "../../editor/code-lenses.js";
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
          return [{ range, command: commandOf(lens.title, lens.command) }];
        });
      }),
    );
  },
};

/** The protocol's command of a lens: its title, and the editor's command with its arguments (none to only tell). */
function commandOf(title: string, command: LensCommand | undefined): Command {
  return command === undefined
    ? { title, command: "" }
    : { title, command: command.name, arguments: command.commandLine.slice(1) };
}
