// Completion (editor/completion.ts): what may be written at the cursor, after
// `.` or a space too (`needs `, `when `, `per `). Each item replaces the word
// typed so far (a text edit over it); a snippet is sent as one, and its
// documentation as markdown.

import {
  CompletionItemKind,
  InsertTextFormat,
  MarkupKind,
  type CompletionItem,
  type CompletionList,
  type CompletionParams,
  type Range,
} from "vscode-languageserver/node";
import { completions, type CompletionKind, type CompletionItem as Offer } from "../../editor/completion.js";
import { positionIn, type Service } from "./service.js";

const KINDS: Record<CompletionKind, CompletionItemKind> = {
  local: CompletionItemKind.Variable,
  parameter: CompletionItemKind.Variable,
  function: CompletionItemKind.Function,
  type: CompletionItemKind.Struct,
  field: CompletionItemKind.Field,
  method: CompletionItemKind.Method,
  module: CompletionItemKind.Module,
  capability: CompletionItemKind.Property,
  case: CompletionItemKind.EnumMember,
  keyword: CompletionItemKind.Keyword,
};

export const completion: Service = {
  name: "completion",
  capabilities: { completionProvider: { triggerCharacters: [".", " "] } },
  register(connection, context) {
    connection.onCompletion(
      context.answer("completion", (params: CompletionParams): CompletionList => {
        const at = positionIn(context, params);
        if (at === undefined) return { isIncomplete: false, items: [] };
        const found = completions(at.snapshot, at.file, at.offset);
        const range = context.rangeOf(found.span);
        return { isIncomplete: false, items: found.items.map((item) => itemOf(item, range)) };
      }),
    );
  },
};

/** An item replaces the word typed so far (`range`): its insert text, or its label. */
function itemOf(item: Offer, range: Range | undefined): CompletionItem {
  const newText = item.insertText ?? item.label;
  return {
    label: item.label,
    kind: KINDS[item.kind],
    sortText: item.sortText,
    ...(item.detail === undefined ? {} : { detail: item.detail }),
    ...(item.documentation === undefined
      ? {}
      : { documentation: { kind: MarkupKind.Markdown, value: item.documentation } }),
    ...(item.snippet === true ? { insertTextFormat: InsertTextFormat.Snippet } : {}),
    ...(range === undefined ? { insertText: newText } : { textEdit: { range, newText } }),
  };
}
