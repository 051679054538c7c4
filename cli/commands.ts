// The `renyi` commands other than `run`, read with cac (command-line.ts). `run`
// is listed here for `renyi --help`; renyi.cts dispatches it before cac loads.

import { cac } from "cac";
import { runCheck } from "./check.js";
import { runParse } from "./parse.js";
import { runCommandLine } from "./command-line.js";
import { Refusal } from "./failure.js";
import { RUN_SYNOPSIS } from "./run-options.js";
import { VERSION } from "./version.cjs";

const cli = cac("renyi");

cli
  .command("check [...files]", "Check programs for errors without running them")
  .option("--json", "Print the diagnostics as one JSON object")
  .action((files: string[], options: { json?: boolean }) => {
    if (files.length === 0) throw new Refusal("`renyi check` needs at least one .ry file: `renyi check program.ry`");
    return runCheck(files, { json: options.json === true });
  });

cli.command("parse <file>", "Print the syntax tree of a program").action((file: string) => runParse(file));

cli.command("run <file>", `Run a program: ${RUN_SYNOPSIS}; FILE --help shows the program's options`);
cli.command("record <file>", "Run a program live and write a recording of its calls: renyi record [--to OUT] [--redact NAME]... FILE [program options]");
cli.command("reproduce <recording>", "Run a recorded program again from its recording, and compare: renyi reproduce REC [FILE]");
cli.command("grant <recording>", "Print the narrowest needs line that covers a recording's calls, and where main's are wider: renyi grant REC [FILE] [--json]");

cli.help();
cli.version(VERSION);

/** Runs the command `argv` (process.argv) names and returns its exit code. */
export function main(argv: readonly string[]): Promise<number> {
  return runCommandLine(cli, argv);
}
