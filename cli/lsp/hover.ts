// Hover (editor/hover.ts): what the name under the cursor is, as markdown, over
// the name's range.

import { MarkupKind, type Hover, type HoverParams } from "vscode-languageserver/node";
import { hover } from "../../editor/hover.js";
import type { ServerContext, Service } from "./service.js";

export const hovers: Service = {
  name: "hover",
  capabilities: { hoverProvider: true },
  register(connection, context) {
    connection.onHover(context.answer("hover", (params: HoverParams) => hoverAt(context, params)));
  },
};

function hoverAt(context: ServerContext, params: HoverParams): Hover | null {
  const file = context.fileOfUri(params.textDocument.uri);
  const snapshot = context.snapshot();
  const offset = context.offsetAt(file, params.position);
  if (offset === undefined || !snapshot.modules.has(file)) return null;
  const found = hover(snapshot, file, offset);
  if (found === undefined) return null;
  const range = context.rangeOf(found.span);
  return {
    contents: { kind: MarkupKind.Markdown, value: found.markdown },
    ...(range === undefined ? {} : { range }),
  };
}
