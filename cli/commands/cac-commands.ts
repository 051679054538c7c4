// The `renyi` commands read with cac (command-line.ts), registered from their
// declarations (catalogue.ts). The others are listed here for `renyi --help`;
// renyi.cts dispatches them before cac loads.

import { cac } from "cac";
import { runCheck } from "./check.js";
import { runParse } from "./parse.js";
import { runCommandLine } from "./command-line.js";
import { Refusal } from "./failure.js";
import { declare, helpFromDeclarations } from "./cac-declared.js";
import { RENYI_COMMANDS } from "./catalogue.js";
import { DEFAULT_LIMITS, HIGHEST_LIMITS } from "../../vocabulary/limits.js";
import { TEST_TIMEOUT_SECONDS } from "../testing/limits.js";
import { wholeNumber as readWholeNumber } from "../running/run-options.js";
import { VERSION } from "../host/version.cjs";

/** What each command cac reads does, by its name: its arguments, then its options as cac read them. */
const ACTIONS: Record<string, (...args: never[]) => unknown> = {
  check: (files: string[], options: { json?: boolean }) => {
    if (files.length === 0) throw new Refusal("`renyi check` needs at least one .ry file: `renyi check program.ry`");
    return runCheck(files, { json: options.json === true });
  },
  parse: (file: string) => runParse(file),
  fmt: async (paths: string[], options: { check?: boolean }) =>
    (await import("./fmt.js")).runFmt(paths, { check: options.check === true }),
  explain: async (code: string | undefined) => (await import("./explain.js")).runExplain(code),
  view: async (paths: string[], options: { port?: unknown }) =>
    (await import("./view.js")).runView(paths, {
      // As written: cac reads `0x10` and `1e3` as numbers.
      port: options.port === undefined ? 0 : portNumber(writtenValue(cli.rawArgs, "--port") ?? String(options.port)),
    }),
  test: async (paths: string[], options: TestFlags) => {
    const { runTests } = await import("./test.js");
    const filter = options.filter === undefined ? {} : { filter: String(options.filter) };
    if (options.refresh === true || options.refresh === "")
      throw new Refusal("--refresh needs the name of a replays test");
    const refresh = options.refresh === undefined ? {} : { refresh: String(options.refresh) };
    if (options.trace === true || options.trace === "") throw new Refusal("--trace needs a file");
    const trace = options.trace === undefined ? {} : { trace: String(options.trace) };
    return runTests(paths, {
      json: options.json === true,
      strict: options.strict === true,
      explain: options.explain === true,
      ...filter,
      ...refresh,
      ...trace,
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
};

/** `renyi test`'s options as cac reads them (catalogue.ts declares them). */
interface TestFlags {
  json?: boolean;
  filter?: unknown;
  strict?: boolean;
  explain?: boolean;
  refresh?: unknown;
  trace?: unknown;
  fuel?: unknown;
  maxDepth?: unknown;
  timeout?: unknown;
  maxCollection?: unknown;
  maxText?: unknown;
  maxHostCalls?: unknown;
  maxMemory?: unknown;
}

const cli = cac("renyi");

// Every command is listed for `renyi --help`; renyi.cts reads `run`, `record`, `reproduce`, `grant`, `mcp`, `serve` and `lsp` itself.
for (const command of RENYI_COMMANDS) {
  const registered = declare(cli, command);
  const action = ACTIONS[command.name];
  if (action !== undefined) registered.action(action);
}
helpFromDeclarations(cli, RENYI_COMMANDS);
cli.version(VERSION);

/** An option's value as a whole number above 0, read as `renyi run` reads its limits; the fallback when not given. */
function wholeNumber(name: string, value: unknown, fallback: number, highest?: number): number {
  if (value === undefined) return fallback;
  const read = readWholeNumber(name, String(value), highest);
  if (typeof read === "string") throw new Refusal(read);
  return read;
}

/** The text given to the last `NAME VALUE` or `NAME=VALUE` of `args`, as written. */
function writtenValue(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  args.forEach((arg, i) => {
    if (arg === name) value = args[i + 1];
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
  });
  return value;
}

/** A port: a whole number from 0 (the system chooses) to 65535. */
function portNumber(text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535)
    throw new Refusal(`--port needs a port from 0 to 65535, not \`${text}\`: \`renyi view --port 8080\``);
  return Number(text);
}

/** Runs the command `argv` (process.argv) names and returns its exit code. */
export function main(argv: readonly string[]): Promise<number> {
  return runCommandLine(cli, argv);
}
