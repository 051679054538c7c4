#!/usr/bin/env node
// The `renyi` command. `run` is dispatched before anything else is loaded:
// a program that is already compiled starts without the compiler.

try {
  if (process.argv[2] === "run") {
    // Everything after the program's file belongs to the program, so `run` reads its own arguments.
    const { startWorker } = await import("./spawn.js");
    const early = startWorker();
    const { runCommand } = await import("./run.js");
    process.exitCode = await runCommand(process.argv.slice(3), early);
  } else {
    const { main } = await import("./commands.js");
    await main(process.argv);
  }
} catch (e) {
  process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 3;
}
