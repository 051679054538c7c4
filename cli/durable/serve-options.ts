// The command line of `renyi serve`, read against its declaration
// (serve-flags.ts). The ceiling is read by `renyi mcp`'s reader (its flags are
// the same), and the limits by `renyi run`'s, so that each is checked as there
// and the runs are given them as they are.

import { parseMcpArguments, type Ceiling } from "../mcp/ceiling.js";
import { givenTwiceProblem, splitFlag, unknownFlagProblem } from "../host/command-declaration.js";
import { parseRunArguments } from "../running/run-options.js";
import { DEFAULT_PORT, LIMIT_FLAGS, SERVE_COMMAND } from "./serve-flags.js";

export interface ServeOptions {
  readonly restate: boolean;
  readonly host: string;
  readonly port: number;
  readonly ceiling: Ceiling;
  /** The limit flags, as given, for every run. */
  readonly limits: readonly string[];
  readonly trust: readonly string[];
  readonly redact: readonly string[];
  readonly programs: readonly string[];
}

const CEILING_FLAGS = new Set(["--allow", "--allow-host", "--at-most"]);
const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `renyi serve`'s options, or why they are refused. */
export function parseServeArguments(argv: readonly string[]): ServeOptions | { problem: string } {
  const ceilingWords: string[] = [];
  const limits: string[] = [];
  const trust: string[] = [];
  const redact: string[] = [];
  const programs: string[] = [];
  let restate = false;
  let host = "127.0.0.1";
  let port = DEFAULT_PORT;
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("-")) {
      programs.push(arg);
      continue;
    }
    const { name, inline } = splitFlag(arg);
    const flag = SERVE_COMMAND.flags.find((f) => f.name === name);
    if (flag === undefined) return { problem: unknownFlagProblem(SERVE_COMMAND, name) };
    const twice = givenTwiceProblem(given, flag);
    if (twice !== undefined) return { problem: twice };
    if (flag.value === undefined) {
      if (inline !== undefined) return { problem: `${name} takes no value` };
      restate = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || value === "") return { problem: `${name} needs a value` };
    if (CEILING_FLAGS.has(name)) ceilingWords.push(name, value);
    else if ((LIMIT_FLAGS as readonly string[]).includes(name)) limits.push(name, value);
    else if (name === "--trust") trust.push(value);
    else if (name === "--redact") {
      if (!NAME.test(value))
        return { problem: `--redact takes a name, such as api_key or Authorization; not ${JSON.stringify(value)}` };
      redact.push(value);
    } else if (name === "--port") {
      const m = /^(?:(\d{1,3}(?:\.\d{1,3}){3}|localhost|\[[0-9a-fA-F:]+\]):)?(\d{1,5})$/.exec(value);
      if (m === null || Number(m[2]) > 65535)
        return {
          problem: `--port takes a port, such as 9080, or HOST:PORT, such as 0.0.0.0:9080; not ${JSON.stringify(value)}`,
        };
      if (m[1] !== undefined) host = m[1].replace(/^\[|\]$/g, "");
      port = Number(m[2]);
    }
  }
  const ceiling = parseMcpArguments(ceilingWords);
  if ("problem" in ceiling) return { problem: ceiling.problem };
  const run = runUnit(ceiling.ceiling);
  if (run !== undefined) return { problem: run };
  // The limits are read as renyi run reads them: a bad one is refused here, not by every run.
  const read = parseRunArguments([...limits, "program.ry"]);
  if ("problem" in read) return { problem: read.problem };
  if (!restate)
    return {
      problem:
        "renyi serve serves programs through Restate, and needs --restate: `renyi serve --restate program.ry` (spec/durable.md)",
    };
  if (programs.length === 0)
    return { problem: "renyi serve needs at least one program: `renyi serve --restate program.ry`" };
  return { restate, host, port, ceiling: ceiling.ceiling, limits, trust, redact, programs };
}

/** A shared budget counted per run means nothing: every run is another. */
function runUnit(ceiling: Ceiling): string | undefined {
  const per = ceiling.atMost.find((a) => a.unit === "run");
  if (per === undefined) return undefined;
  return (
    `--at-most ${per.text}: a budget of renyi serve is shared by every run, so it is counted per second, minute, ` +
    `hour or day, not per run; bound each run with main's own budgets (at most N per run) instead`
  );
}
