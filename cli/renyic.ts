#!/usr/bin/env node
// The `renyic` command: builds a program into a bundle and its grant manifest.
// The front end runs today; until code generation lands, a build stops after
// checking with a clear refusal, and never writes a partial bundle.

import { cac } from "cac";
import { runCheck } from "./check.js";
import { guarded } from "./guarded.js";
import { EXIT } from "./exit.js";
import { VERSION } from "./version.js";

const cli = cac("renyic");

cli
  .command("build <file>", "Build a program into DIR/NAME.mjs with its source map and grant manifest")
  .option("--out <dir>", "Where to write the bundle")
  .option("--stable", "Byte-identical output for the same source and toolchain")
  .action((file: string) =>
    guarded(() => {
      const checked = runCheck([file], { json: false });
      if (checked !== EXIT.finished) return checked;
      process.stderr.write("error: `renyic build` cannot emit JavaScript yet: this toolchain has the front end only (check and parse)\n");
      return EXIT.refused;
    }),
  );

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
