// Runs a command so that no JavaScript stack trace reaches the user: an
// unexpected exception is reported as an internal error, with its stack kept
// only when RENYI_DEBUG is set.

import { EXIT } from "../vocabulary/outcomes.js";

export function guarded(command: () => number): void {
  try {
    process.exitCode = command();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (e instanceof Error && e.constructor.name === "UsageError") {
      process.stderr.write(`error: ${message}\n`);
    } else {
      process.stderr.write(`error[E-INTERNAL]: Renyi itself failed: ${message}\n  = note: this is a bug in Renyi, not in the program; please report it with the file that caused it\n`);
      if (process.env["RENYI_DEBUG"] && e instanceof Error) process.stderr.write(`${e.stack}\n`);
    }
    process.exitCode = EXIT.refused;
  }
}
