// The language server's services, a row each: what the server announces it
// can do (its capabilities) and how it answers. Adding a service is adding a
// row to SERVICES; each answers from the editor's pure services (editor/) and
// the context (service.ts), which gives it the analysed documents and turns positions.

import type { ServerCapabilities } from "vscode-languageserver/node";
import { quickFixes } from "./code-actions.js";
import { formatting, rangeFormatting } from "./formatting.js";
import type { Service } from "./service.js";

/** Every service, in the order they are registered. */
export const SERVICES: readonly Service[] = [quickFixes, ...formatting, ...rangeFormatting];

export function capabilitiesOf(services: readonly Service[]): ServerCapabilities {
  return Object.assign({}, ...services.map((s) => s.capabilities)) as ServerCapabilities;
}
