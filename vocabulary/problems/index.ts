// The whole catalogue: every code Renyi can report, compile time and run time.
// `renyi explain` and the generator of spec/diagnostics.md read it; the
// compiler and the runtime import only their own part.

import { COMPILE_PROBLEMS } from "./compile.js";
import type { ProblemEntry } from "./entry.js";
import { RUN_PROBLEMS } from "./run.js";

const PROBLEMS = { ...COMPILE_PROBLEMS, ...RUN_PROBLEMS };

export type Code = keyof typeof PROBLEMS;

/** Every code, in the catalogue's order. */
export const CODES = Object.keys(PROBLEMS) as Code[];

export function isCode(text: string): text is Code {
  return Object.hasOwn(PROBLEMS, text);
}

/** A row, with its facts untyped: for readers that print rows, not instances. */
export function entryOf(code: Code): ProblemEntry<unknown> {
  return PROBLEMS[code] as ProblemEntry<unknown>;
}
