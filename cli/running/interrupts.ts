// Ctrl-C while a program or its tests run: the first press cancels (the program
// stops at its next step or inside its wait, and ends `cancelled`), a second
// press stops its thread at once.

import { takeHeldInterrupt } from "./early-interrupt.cjs";

/**
 * Two interrupts closer than this are one press of Ctrl-C delivered twice (under --isolate, from the terminal and
 * passed on by the parent).
 */
const SAME_PRESS_MS = 250;

/** Listens for SIGINT until `off` is called: `first` on the first press, `second` on any later one. */
export function onCtrlC(first: () => void, second: () => void): { off(): void } {
  let firstAt: number | undefined;
  const listener = () => {
    if (firstAt === undefined) {
      firstAt = performance.now();
      first();
    } else if (performance.now() - firstAt > SAME_PRESS_MS) {
      second();
    }
  };
  process.on("SIGINT", listener);
  // An interrupt renyi mcp sent while the command was starting (early-interrupt.cts) is the first press.
  if (takeHeldInterrupt()) listener();
  return { off: () => void process.off("SIGINT", listener) };
}
