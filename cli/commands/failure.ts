// The one place a command's failure becomes what the user reads and the exit
// code: a Refusal (a wrong call, a folder that cannot be made) is a plain sentence; anything
// else that escaped is Renyi's own bug, reported without a JavaScript stack
// trace (kept only when RENYI_DEBUG is set). Both exit 3 (refused).

import { EXIT } from "../../vocabulary/outcomes.js";
import { Refusal } from "../host/refusal.cjs";
import { runWords } from "../../vocabulary/problems/run.js";
import { showableLines } from "../../report/diagnostics.js";

export { Refusal };

export function reportFailure(e: unknown): number {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof Refusal) {
    // A refusal may quote a path from a folder's listing (a glob), whose name the terminal must not act on.
    process.stderr.write(`error: ${showableLines(message)}\n`);
  } else {
    const words = runWords("E-INTERNAL", { detail: message });
    process.stderr.write(
      `error[E-INTERNAL]: ${words.message}\n${(words.notes ?? []).map((note) => `  = note: ${note}\n`).join("")}`,
    );
    if (process.env["RENYI_DEBUG"] && e instanceof Error) process.stderr.write(`${e.stack}\n`);
  }
  return EXIT.refused;
}
