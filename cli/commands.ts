// The `renyi` commands other than `run`, read with cac.

import { cac } from "cac";
import { runCheck } from "./check.js";
import { runParse } from "./parse.js";
import { guarded } from "./guarded.js";
import { VERSION } from "./version.cjs";

const cli = cac("renyi");

cli
  .command("check [...files]", "Check programs for errors without running them")
  .option("--json", "Print the diagnostics as one JSON object")
  .action((files: string[], options: { json?: boolean }) =>
    guarded(() => {
      if (files.length === 0) throw new UsageError("`renyi check` needs at least one .ry file: `renyi check program.ry`");
      return runCheck(files, { json: options.json === true });
    }),
  );

cli.command("parse <file>", "Print the syntax tree of a program").action((file: string) => guarded(() => runParse(file)));

cli.help();
cli.version(VERSION);

export class UsageError extends Error {}

cli.command("run <file>", "Run a program: renyi run [--fuel N] [--max-depth N] [--timeout S] [--request-fuel N] [--request-timeout S] [--allow-host HOST] [--at-most CAP=N/UNIT] [--trust PUBKEY] FILE [program options]");

export async function main(argv: string[]): Promise<void> {
  cli.parse(argv, { run: false });
  if (cli.matchedCommand === undefined && cli.args.length > 0) {
    throw new UsageError(`\`${cli.args[0]}\` is not a renyi command; see \`renyi --help\``);
  }
  if (cli.matchedCommand === undefined && !cli.options.help && !cli.options.version) cli.outputHelp();
  else await cli.runMatchedCommand();
}
