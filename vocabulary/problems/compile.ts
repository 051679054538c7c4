// Every problem the compiler can report: the catalogue's compile-time rows.

import type { FactsOf } from "./entry.js";
import { FAILURE_PROBLEMS } from "./failures.js";
import { GRANT_PROBLEMS } from "./grants.js";
import { NAME_PROBLEMS } from "./names.js";
import { SYNTAX_PROBLEMS } from "./syntax.js";
import { TYPE_PROBLEMS } from "./types.js";

export const COMPILE_PROBLEMS = {
  ...SYNTAX_PROBLEMS,
  ...NAME_PROBLEMS,
  ...TYPE_PROBLEMS,
  ...FAILURE_PROBLEMS,
  ...GRANT_PROBLEMS,
};

export type CompileCode = keyof typeof COMPILE_PROBLEMS;

/** The facts an instance of a compile-time problem carries. */
export type CompileFacts<C extends CompileCode> = FactsOf<(typeof COMPILE_PROBLEMS)[C]>;

/** Warnings are the codes that start with `W-`; every other code is an error. */
export function severityOf(code: string): "error" | "warning" {
  return code.startsWith("W-") ? "warning" : "error";
}
