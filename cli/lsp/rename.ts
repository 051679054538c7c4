// Rename (editor/rename.ts): the name under the cursor and, for a new name, the
// edits in every open document that names it, as one WorkspaceEdit. A refusal
// (a name that cannot be renamed, a new name that would change what the
// program means) is the protocol's error response, its message the reason.
//
// The server knows the open documents and the modules they use, not every
// module of the workspace: a public definition may be named by a module no
// open document reaches, so it is not renamed (`allModules` is not given).

import {
  LSPErrorCodes,
  ResponseError,
  type PrepareRenameParams,
  type Range,
  type RenameParams,
  type TextEdit,
  type WorkspaceEdit,
} from "vscode-languageserver/node";
import { prepareRename, rename } from "../../editor/rename.js";
import { positionIn, type Service } from "./service.js";

export const renames: Service = {
  name: "rename",
  capabilities: { renameProvider: { prepareProvider: true } },
  register(connection, context) {
    connection.onPrepareRename(
      context.answer(
        "prepareRename",
        (params: PrepareRenameParams): { range: Range; placeholder: string } | ResponseError<void> | null => {
          const at = positionIn(context, params);
          if (at === undefined) return null;
          const found = prepareRename(at.snapshot, at.file, at.offset);
          if (found === undefined) return null;
          if ("refused" in found) return refusal(found.refused);
          const range = context.rangeOf(found.span);
          return range === undefined ? null : { range, placeholder: found.placeholder };
        },
      ),
    );
    connection.onRenameRequest(
      context.answer("rename", (params: RenameParams): WorkspaceEdit | ResponseError<void> | null => {
        const at = positionIn(context, params);
        if (at === undefined) return null;
        const renamed = rename(at.snapshot, at.file, at.offset, params.newName);
        if ("refused" in renamed) return refusal(renamed.refused);
        const changes: Record<string, TextEdit[]> = {};
        for (const edit of renamed.edits) {
          const range = context.rangeOf(edit.span);
          if (range === undefined) continue;
          (changes[context.uriOfFile(edit.span.file)] ??= []).push({ range, newText: edit.newText });
        }
        return { changes };
      }),
    );
  },
};

/** A refusal is an answer, not a failure: the error response the protocol expects, with nothing written to standard error. */
function refusal(message: string): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestFailed, message);
}
