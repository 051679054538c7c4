#!/usr/bin/env node
// The `renyic` command: builds a program into a bundle and its grant manifest,
// signed when asked, and makes the key pairs that sign them.

import { cac } from "cac";
import { buildCommand } from "./commands/build.js";
import { runCommandLine } from "./commands/command-line.js";
import { reportFailure, Refusal } from "./commands/failure.js";
import { keygenCommand } from "./commands/keygen.js";
import { VERSION } from "./host/version.cjs";

// Output whose reader has gone is dropped, as renyi.cts says.
process.stdout.on("error", () => undefined);
process.stderr.on("error", () => undefined);

const cli = cac("renyic");

cli
  .command("build <file>", "Build a program into DIR/NAME.mjs with its source map and grant manifest")
  .option("--out <dir>", "Where to write the bundle")
  .option("--stable", "Byte-identical output for the same source and toolchain")
  .option("--sign <key>", "Sign the manifest with this Ed25519 private key (PEM), into DIR/NAME.grant.sig")
  .action(async (file: string, options: { out?: string; stable?: boolean; sign?: unknown }) => {
    if (options.sign !== undefined && typeof options.sign !== "string") {
      throw new Refusal("--sign takes one key file: `renyic build program.ry --out dist --sign release.key`");
    }
    return buildCommand(file, { ...options, sign: options.sign });
  });

cli
  .command("keygen", "Make a key pair for signing manifests: NAME.key (private, mode 0600) and NAME.pub")
  .option("--out <name>", "The key pair's name, without .key or .pub")
  .action((options: { out?: string }) => keygenCommand(options));

cli.help();
cli.version(VERSION);

try {
  process.exitCode = await runCommandLine(cli, process.argv);
} catch (e) {
  process.exitCode = reportFailure(e);
}
