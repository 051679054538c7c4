// Go to definition and find references (editor/definition.ts), across the
// open documents and the modules they use: a definition may be in a module that
// is not open; references are found in the open documents.

import type { Location, ReferenceParams, TextDocumentPositionParams } from "vscode-languageserver/node";
import type { Span } from "../../compiler/source.js";
import { definition, references } from "../../editor/definition.js";
import { positionIn, type ServerContext, type Service } from "./service.js";

export const definitions: Service = {
  name: "definition",
  capabilities: { definitionProvider: true },
  register(connection, context) {
    connection.onDefinition(
      context.answer("definition", (params: TextDocumentPositionParams) => {
        const at = positionIn(context, params);
        if (at === undefined) return null;
        const span = definition(at.snapshot, at.file, at.offset);
        return span === undefined ? null : (locationOf(context, span) ?? null);
      }),
    );
  },
};

export const referenceFinder: Service = {
  name: "references",
  capabilities: { referencesProvider: true },
  register(connection, context) {
    connection.onReferences(
      context.answer("references", (params: ReferenceParams) => {
        const at = positionIn(context, params);
        if (at === undefined) return [];
        const spans = references(at.snapshot, at.file, at.offset, params.context.includeDeclaration);
        return spans.flatMap((span) => locationOf(context, span) ?? []);
      }),
    );
  },
};

function locationOf(context: ServerContext, span: Span): Location | undefined {
  const range = context.rangeOf(span);
  return range === undefined ? undefined : { uri: context.uriOfFile(span.file), range };
}
