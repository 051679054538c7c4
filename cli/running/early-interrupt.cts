// `renyi mcp` interrupts a command it started (SIGINT, as Ctrl-C would) when
// the request is cancelled or the server ends, and the command then writes its
// recording or report. Until the command listens for SIGINT, Node's default
// ends it at once with nothing written, and a command is some way into its
// start (loading, compiling) before its run listens. So a command the server
// starts (RENYI_READY_FD=3 in its environment) listens from its first line,
// keeps an interrupt that comes before its run listens for the run to take
// (interrupts.ts), and says on descriptor 3 that it listens: the server sends
// no interrupt before that. CommonJS, so that renyi.cts runs it first.

import { closeSync, writeSync } from "node:fs";

/** The descriptor the server reads the command's word that it listens on. */
const READY_FD = 3;

let pressed = false;
let held: (() => void) | undefined;

/** Listens for SIGINT from now on, and says so on descriptor 3, when the environment asks for it. */
export function holdInterrupts(): void {
  const asked = process.env["RENYI_READY_FD"];
  if (asked === undefined) return;
  // The program's own processes do not inherit the word, nor the descriptor.
  delete process.env["RENYI_READY_FD"];
  if (asked !== String(READY_FD)) return;
  held = () => void (pressed = true);
  process.on("SIGINT", held);
  try {
    writeSync(READY_FD, "listening\n");
    closeSync(READY_FD);
  } catch {
    // No reader: nobody waits for the word.
  }
}

/** Whether an interrupt came before the run listened for it itself; from now on the run listens alone. */
export function takeHeldInterrupt(): boolean {
  if (held !== undefined) process.off("SIGINT", held);
  held = undefined;
  const was = pressed;
  pressed = false;
  return was;
}
