// The playground's check as you type: the editor's own analysis (editor/analysis.ts, the one
// `renyi lsp` answers from) of the one module in the page, and from it what the page shows: the
// diagnostics with their suggested edits, the tokens to colour, and main's grant in words (the
// wording of the editor's lens above `main`, vocabulary/grant-words.ts). Pure and synchronous:
// text in, data out, nothing of the DOM, so that bench/view-check.ts can time the same three
// calls in Node.
//
// Cost: one parse and one check of the module, then one pass over its tokens and one over its
// names: linear in the text, about 10-20 ms for 1,000 lines in Chromium (spec/view.md, section 10).

import type { Diagnostic } from "../../compiler/diagnostics.js";
import { analyse } from "../../editor/analysis.js";
import { codeLenses } from "../../editor/code-lenses.js";
import { semanticTokenList, type SemanticToken } from "../../editor/semantic-tokens.js";

export interface PlaygroundCheck {
  /** The module's diagnostics, sorted by position (each with its suggested edits). */
  readonly diagnostics: readonly Diagnostic[];
  /** Every token to colour, in order: 0-based line and character, UTF-16 length. */
  readonly tokens: readonly SemanticToken[];
  /** main's grant in words, or undefined when the module has no `main`. */
  readonly grant: string | undefined;
  /** How long the check took, in milliseconds. */
  readonly ms: number;
}

/** Checks `text` as the module `file` (a program of one file). */
export function checkPlayground(file: string, text: string): PlaygroundCheck {
  const started = performance.now();
  const snapshot = analyse([{ file, text }]);
  const view = snapshot.modules.get(file);
  const tokens = semanticTokenList(snapshot, file);
  const lenses = codeLenses(snapshot, file);
  // main's lenses are its grant (a lens without a command) followed by Run.
  let grant: string | undefined;
  for (let i = 0; i + 1 < lenses.length; i++)
    if (lenses[i]!.command === undefined && lenses[i + 1]!.command?.name === "renyi.run") {
      grant = lenses[i]!.title;
      break;
    }
  return { diagnostics: view?.diagnostics ?? [], tokens, grant, ms: performance.now() - started };
}
