// A full collection of the process's heap, where a command knows that much of it has just become
// garbage. The engine offers `gc` to code only behind a flag: the flag is set the first time, and
// the function is taken from a fresh context, since flags set after start-up apply to contexts
// made after them.

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let gc: (() => void) | undefined;

export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
  }
  gc();
}
