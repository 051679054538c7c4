// A full collection of the thread's heap, for the memory limit (limits-memory.ts) and for a command that
// knows much of its heap has just become garbage (`renyic build`, once its syntax trees are let go).

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let gc: (() => void) | undefined;

/**
 * The engine offers a full collection to code only behind a flag; the flag is set the first time it
 * is needed (a run that stays below its limit never sets it), and the function is taken from a fresh
 * context, since flags set after start-up apply to contexts made after them. The program cannot reach
 * it: compiled code has no access to globals (the validator).
 */
export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
  }
  gc();
}
