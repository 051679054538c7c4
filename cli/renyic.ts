#!/usr/bin/env node
// The `renyic` command: builds a program into a bundle and its grant manifest,
// signed when asked, and makes the key pairs that sign them.

import { cac } from "cac";
import { buildCommand } from "./commands/build.js";
import { declare, helpFromDeclarations } from "./commands/cac-declared.js";
import { BUILD_COMMAND, KEYGEN_COMMAND, RENYIC_COMMANDS } from "./commands/catalogue.js";
import { runCommandLine } from "./commands/command-line.js";
import { reportFailure, Refusal } from "./commands/failure.js";
import { keygenCommand } from "./commands/keygen.js";
import { VERSION } from "./host/version.cjs";

// Output whose reader has gone is dropped, as renyi.cts says.
process.stdout.on("error", () => undefined);
process.stderr.on("error", () => undefined);

const cli = cac("renyic");

declare(cli, BUILD_COMMAND).action(
  async (file: string, options: { out?: string; stable?: boolean; sign?: unknown }) => {
    if (options.sign !== undefined && typeof options.sign !== "string") {
      throw new Refusal("--sign takes one key file: `renyic build program.ry --out dist --sign release.key`");
    }
    return buildCommand(file, { ...options, sign: options.sign });
  },
);
declare(cli, KEYGEN_COMMAND).action((options: { out?: string }) => keygenCommand(options));

helpFromDeclarations(cli, RENYIC_COMMANDS);
cli.version(VERSION);

try {
  process.exitCode = await runCommandLine(cli, process.argv);
} catch (e) {
  process.exitCode = reportFailure(e);
}
