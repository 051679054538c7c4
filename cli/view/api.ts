// `renyi view`'s API (spec/view.md, section 3): what the page asks its server for, answered as
// JSON in the shapes of view/api.ts.

import { type ApiAnswer, refusalAnswer } from "./answers.js";

export interface ViewContext {
  /** The folders and files given on the command line, resolved. */
  readonly roots: readonly string[];
}

/** The answer to `api/NAME?query`. */
export async function answerApi(name: string, _query: URLSearchParams, _context: ViewContext): Promise<ApiAnswer> {
  return refusalAnswer(404, "E-VIEW-NOT-FOUND", `no api/${name}`);
}
