#!/usr/bin/env node
// The `renyi` command. `run` is dispatched before anything else is loaded: the
// program's worker thread is started first, so that it boots while this thread
// finds the compiled program, and a program that is already compiled starts
// without the compiler.
//
// Why CommonJS: Node reaches the first line of a CommonJS entry about 4 ms
// sooner than that of an ES module entry, and every millisecond before the
// worker starts is on the path of every run (bench/RESULTS.md, start-up). The
// rest of the command is ES modules, imported from here, but for `run`, whose
// main thread loads CommonJS alone (scripts/bundle.mjs).

import { holdInterrupts } from "./running/early-interrupt.cjs";
import { startWorker, type EarlyWorker } from "./running/spawn.cjs";

// Started by renyi mcp, the command listens for its interrupt from here on (early-interrupt.cts).
holdInterrupts();

// Output that cannot be written (its reader has gone: `renyi check x.ry | head`) is
// dropped; there is nowhere to report it, and it is no error of the program's.
process.stdout.on("error", () => undefined);
process.stderr.on("error", () => undefined);

let early: EarlyWorker | undefined;

/** commands.js and the compiler it loads as a few ES modules; run.js is one CommonJS file (scripts/bundle.mjs). */
const COMMANDS_BUNDLED = "./commands-bundled.js";

async function renyi(): Promise<number> {
  if (process.argv[2] === "run") {
    early = startWorker();
    // Everything after the program's file belongs to the program, so `run` reads its own arguments.
    // Required, not imported: the main thread of a run loads no ES module (scripts/bundle.mjs);
    // with the code cache the build made for it (code-cache.cts).
    const { loadRunCommand } = require("./cache/code-cache.cjs") as typeof import("./cache/code-cache.cjs");
    const { runCommand } = loadRunCommand() as typeof import("./commands/run.js");
    return runCommand(process.argv.slice(3), early);
  }
  // `record` and `reproduce` run a program as `run` does, whose words after the file are the program's.
  if (process.argv[2] === "record") return (await import("./commands/record.js")).recordCommand(process.argv.slice(3));
  if (process.argv[2] === "reproduce")
    return (await import("./commands/reproduce.js")).reproduceCommand(process.argv.slice(3));
  if (process.argv[2] === "grant") return (await import("./commands/grant.js")).grantCommand(process.argv.slice(3));
  if (process.argv[2] === "fetch-recording")
    return (await import("./commands/fetch-recording.js")).fetchRecordingCommand(process.argv.slice(3));
  // The protocol's SDK is loaded by this command alone.
  if (process.argv[2] === "mcp") return (await import("./commands/mcp.js")).mcpCommand(process.argv.slice(3));
  // The Restate SDK is loaded by this command alone.
  if (process.argv[2] === "serve") return (await import("./commands/serve.js")).serveCommand(process.argv.slice(3));
  // The language server's library is loaded by this command alone.
  if (process.argv[2] === "lsp") return (await import("./commands/lsp.js")).lspCommand(process.argv.slice(3));
  const { main } = (await import(COMMANDS_BUNDLED)) as typeof import("./commands/cac-commands.js");
  return main(process.argv);
}

renyi().then(
  (code) => {
    process.exitCode = code;
  },
  async (e: unknown) => {
    // The program's thread, if started, must not keep the process alive.
    void early?.worker.terminate();
    // Every command's failures are reported in one place (failure.ts).
    const { reportFailure } = await import("./commands/failure.js");
    process.exitCode = reportFailure(e);
  },
);
