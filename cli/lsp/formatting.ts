// Formatting and range formatting, through the compiler's formatter
// (compiler/format: formatSource and formatRange). A document with syntax
// errors is left as it is: the formatter answers with no text, and the editor
// gets no edit. The answer is one edit, from the first character that changed
// to the last, so that the editor keeps its cursor and folds where nothing
// changed.

import type { DocumentFormattingParams, DocumentRangeFormattingParams, TextEdit } from "vscode-languageserver/node";
import { formatRange, formatSource } from "../../compiler/format/format.js";
import type { ServerContext, Service } from "./service.js";

/** What a formatting answers: the whole formatted text, or none when the text does not parse. */
type Formatted = { readonly text?: string };

export const formatting: Service = {
  name: "formatting",
  capabilities: { documentFormattingProvider: true },
  register(connection, context) {
    connection.onDocumentFormatting(
      context.answer("formatting", (params: DocumentFormattingParams) =>
        formatWith(context, params.textDocument.uri, (file, text) => formatSource(file, text)),
      ),
    );
  },
};

export const rangeFormatting: Service = {
  name: "range formatting",
  capabilities: { documentRangeFormattingProvider: true },
  register(connection, context) {
    connection.onDocumentRangeFormatting(
      context.answer("rangeFormatting", (params: DocumentRangeFormattingParams) =>
        formatWith(context, params.textDocument.uri, (file, text) => {
          const start = context.offsetAt(file, params.range.start) ?? 0;
          const end = context.offsetAt(file, params.range.end) ?? text.length;
          // The formatter answers with the edit of the items the range touches; the whole text is that edit made.
          const { edit } = formatRange(file, text, Math.min(start, end), Math.max(start, end));
          return edit === undefined ? {} : { text: text.slice(0, edit.start) + edit.text + text.slice(edit.end) };
        }),
      ),
    );
  },
};

function formatWith(
  context: ServerContext,
  uri: string,
  format: (file: string, text: string) => Formatted,
): TextEdit[] | null {
  const file = context.fileOfUri(uri);
  const view = context.snapshot().modules.get(file);
  if (view === undefined) return null;
  const formatted = format(file, view.text);
  if (formatted.text === undefined || formatted.text === view.text) return [];
  return [changedStretch(context, file, view.text, formatted.text)];
}

/** One edit that turns `before` into `after`: the stretch between their common start and common end. */
function changedStretch(context: ServerContext, file: string, before: string, after: string): TextEdit {
  let start = 0;
  const shortest = Math.min(before.length, after.length);
  while (start < shortest && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (
    end < shortest - start &&
    before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)
  )
    end++;
  const range = context.rangeOf({ file, start, end: before.length - end })!;
  return { range, newText: after.slice(start, after.length - end) };
}
