// The language server's services, a row each: what the server announces it
// can do (its capabilities) and how it answers. Adding a service is adding a
// row to SERVICES; each answers from the editor's pure services (editor/) and
// the context (service.ts), which gives it the analysed documents and turns positions.

import type { ServerCapabilities } from "vscode-languageserver/node";
import { quickFixes } from "./code-actions.js";
import { lenses } from "./code-lenses.js";
import { completion } from "./completion.js";
import { definitions, referenceFinder } from "./definition.js";
import { folding } from "./folding.js";
import { formatting, rangeFormatting } from "./formatting.js";
import { hovers } from "./hover.js";
import { renames } from "./rename.js";
import { semanticTokenService } from "./semantic-tokens.js";
import type { Service } from "./service.js";
import { documentSymbolOutline, workspaceSymbolSearch } from "./symbols.js";

/** Every service, in the order they are registered. */
export const SERVICES: readonly Service[] = [
  quickFixes,
  hovers,
  definitions,
  referenceFinder,
  renames,
  completion,
  documentSymbolOutline,
  workspaceSymbolSearch,
  folding,
  semanticTokenService,
  lenses,
  formatting,
  rangeFormatting,
];

export function capabilitiesOf(services: readonly Service[]): ServerCapabilities {
  return Object.assign({}, ...services.map((s) => s.capabilities)) as ServerCapabilities;
}
