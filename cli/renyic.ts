#!/usr/bin/env node
// The `renyic` command: builds a program into a bundle and its grant manifest.

import { cac } from "cac";
import { buildCommand } from "./build.js";
import { EXIT } from "./exit.js";
import { VERSION } from "./version.cjs";

// Output whose reader has gone is dropped, as renyi.cts says.
process.stdout.on("error", () => undefined);
process.stderr.on("error", () => undefined);

const cli = cac("renyic");

cli
  .command("build <file>", "Build a program into DIR/NAME.mjs with its source map and grant manifest")
  .option("--out <dir>", "Where to write the bundle")
  .option("--stable", "Byte-identical output for the same source and toolchain")
  .action(async (file: string, options: { out?: string; stable?: boolean }) => {
    process.exitCode = await buildCommand(file, options);
  });

cli.help();
cli.version(VERSION);

try {
  cli.parse(process.argv, { run: false });
  if (cli.matchedCommand === undefined && !cli.options.help && !cli.options.version) cli.outputHelp();
  else await cli.runMatchedCommand();
} catch (e) {
  process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = EXIT.refused;
}
