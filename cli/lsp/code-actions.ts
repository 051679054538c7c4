// Quick fixes: each edit a diagnostic suggests (Diagnostic.edits), offered as
// a code action of its own, titled as the edit is, for the diagnostics under
// the range the client asks about.

import { CodeActionKind, type CodeAction, type CodeActionParams, type TextEdit } from "vscode-languageserver/node";
import type { Diagnostic } from "../../compiler/diagnostics.js";
import { toLspDiagnostic } from "./diagnostics.js";
import type { ServerContext, Service } from "./service.js";

export const quickFixes: Service = {
  name: "quick fixes",
  capabilities: { codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] } },
  register(connection, context) {
    connection.onCodeAction(context.answer("codeAction", (params: CodeActionParams) => codeActions(context, params)));
  },
};

function codeActions(context: ServerContext, params: CodeActionParams): CodeAction[] {
  const file = context.fileOfUri(params.textDocument.uri);
  const view = context.snapshot().modules.get(file);
  if (view === undefined) return [];
  const only = params.context.only;
  if (only !== undefined && !only.some((k) => CodeActionKind.QuickFix.startsWith(k))) return [];
  const start = context.offsetAt(file, params.range.start) ?? 0;
  const end = context.offsetAt(file, params.range.end) ?? start;
  const under = view.diagnostics.filter((d) => d.edits !== undefined && d.span.start <= end && d.span.end >= start);
  return under.flatMap((d) => actionsOf(context, view.source, d));
}

function actionsOf(context: ServerContext, source: import("../../compiler/source.js").SourceFile, d: Diagnostic) {
  const diagnostic = toLspDiagnostic(d, source, (f) => context.sourceOf(f));
  return (d.edits ?? []).flatMap((edit): CodeAction[] => {
    const range = context.rangeOf(edit.span);
    if (range === undefined) return [];
    const change: TextEdit = { range, newText: edit.replacement };
    return [
      {
        title: edit.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        edit: { changes: { [context.uriOfFile(edit.span.file)]: [change] } },
      },
    ];
  });
}
