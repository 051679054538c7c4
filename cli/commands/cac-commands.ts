// The `renyi` commands other than `run`, read with cac (command-line.ts). `run`
// is listed here for `renyi --help`; renyi.cts dispatches it before cac loads.

import { cac } from "cac";
import { runCheck } from "./check.js";
import { runParse } from "./parse.js";
import { runCommandLine } from "./command-line.js";
import { Refusal } from "./failure.js";
import { RUN_SYNOPSIS } from "../running/run-options.js";
import { DEFAULT_LIMITS, HIGHEST_LIMITS } from "../../vocabulary/limits.js";
import { grouped } from "../../vocabulary/numbers.js";
import { TEST_TIMEOUT_SECONDS } from "../testing/limits.js";
import { VERSION } from "../host/version.cjs";

const cli = cac("renyi");

cli
  .command("check [...files]", "Check programs for errors without running them")
  .option("--json", "Print the diagnostics as one JSON object")
  .action((files: string[], options: { json?: boolean }) => {
    if (files.length === 0) throw new Refusal("`renyi check` needs at least one .ry file: `renyi check program.ry`");
    return runCheck(files, { json: options.json === true });
  });

cli.command("parse <file>", "Print the syntax tree of a program").action((file: string) => runParse(file));

cli
  .command(
    "explain [code]",
    "Explain an error code (E-RT-DIVISION), with a wrong and a right example; alone, list every code",
  )
  .action(async (code: string | undefined) => (await import("./explain.js")).runExplain(code));

cli
  .command("test [...paths]", "Run the test blocks of .ry files and folders (default: this folder)")
  .option("--json", "Print every test's result as one JSON object")
  .option("--filter <text>", "Run only the tests whose names hold this text")
  .option("--strict", "Fail a replays test that leaves entries of its recording unused")
  .option("--explain", 'Narrate each test\'s run under its line (spec/runtime.md, "Narrated runs")')
  .option("--refresh <name>", "Record the replays test NAME again, running its body live (exit 4)")
  .option("--fuel <n>", `Steps each test may take (default ${grouped(DEFAULT_LIMITS.fuel)})`)
  .option("--max-depth <n>", `How deeply calls may nest in each test (default ${DEFAULT_LIMITS.maxDepth})`)
  .option("--timeout <seconds>", `Wall time each test may take (default ${TEST_TIMEOUT_SECONDS})`)
  .option(
    "--max-collection <n>",
    `Elements in one list, map or set in each test (default and most ${grouped(DEFAULT_LIMITS.maxCollection)})`,
  )
  .option("--max-text <n>", `Characters in one text in each test (default and most ${grouped(DEFAULT_LIMITS.maxText)})`)
  .option(
    "--max-memory <mib>",
    `MiB of memory each test may keep live (default ${grouped(DEFAULT_LIMITS.maxMemoryMib)})`,
  )
  .option(
    "--max-host-calls <n>",
    `Calls through the gateway each test may make (default ${grouped(DEFAULT_LIMITS.maxHostCalls)})`,
  )
  .action(
    async (
      paths: string[],
      options: {
        json?: boolean;
        filter?: unknown;
        strict?: boolean;
        explain?: boolean;
        refresh?: unknown;
        fuel?: unknown;
        maxDepth?: unknown;
        timeout?: unknown;
        maxCollection?: unknown;
        maxText?: unknown;
        maxHostCalls?: unknown;
        maxMemory?: unknown;
      },
    ) => {
      const { runTests } = await import("./test.js");
      const filter = options.filter === undefined ? {} : { filter: String(options.filter) };
      if (options.refresh === true || options.refresh === "")
        throw new Refusal("--refresh needs the name of a replays test");
      const refresh = options.refresh === undefined ? {} : { refresh: String(options.refresh) };
      return runTests(paths, {
        json: options.json === true,
        strict: options.strict === true,
        explain: options.explain === true,
        ...filter,
        ...refresh,
        fuel: wholeNumber("--fuel", options.fuel, DEFAULT_LIMITS.fuel),
        maxDepth: wholeNumber("--max-depth", options.maxDepth, DEFAULT_LIMITS.maxDepth),
        timeoutSeconds: wholeNumber("--timeout", options.timeout, TEST_TIMEOUT_SECONDS),
        maxMemoryMib: wholeNumber("--max-memory", options.maxMemory, DEFAULT_LIMITS.maxMemoryMib),
        more: {
          maxCollection: wholeNumber(
            "--max-collection",
            options.maxCollection,
            DEFAULT_LIMITS.maxCollection,
            HIGHEST_LIMITS.maxCollection,
          ),
          maxText: wholeNumber("--max-text", options.maxText, DEFAULT_LIMITS.maxText, HIGHEST_LIMITS.maxText),
          maxHostCalls: wholeNumber("--max-host-calls", options.maxHostCalls, DEFAULT_LIMITS.maxHostCalls),
        },
      });
    },
  );

cli.command("run <file>", `Run a program: ${RUN_SYNOPSIS}; FILE --help shows the program's options`);
cli.command(
  "record <file>",
  "Run a program live and write a recording of its calls: renyi record [--to OUT] [--redact NAME]... FILE [program options]",
);
cli.command(
  "reproduce <recording>",
  "Run a recorded program again from its recording, and compare: renyi reproduce REC [FILE]",
);
cli.command(
  "mcp",
  "Serve the Model Context Protocol over standard input and output: the tools check, grant, explain and run, within the ceiling its flags set (spec/mcp.md)",
);
cli.command(
  "grant <recording>",
  "Print the narrowest needs line that covers a recording's calls, and where main's are wider: renyi grant REC [FILE] [--json]",
);

cli.help();
cli.version(VERSION);

/** An option's value as a whole number above 0 (cac reads numbers itself, so the text is read again). */
function wholeNumber(name: string, value: unknown, fallback: number, highest?: number): number {
  if (value === undefined) return fallback;
  const text = String(value);
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text)))
    throw new Refusal(`${name} takes a whole number above 0`);
  if (highest !== undefined && Number(text) > highest)
    throw new Refusal(`${name} may lower the limit, not raise it: at most ${grouped(highest)}`);
  return Number(text);
}

/** Runs the command `argv` (process.argv) names and returns its exit code. */
export function main(argv: readonly string[]): Promise<number> {
  return runCommandLine(cli, argv);
}
