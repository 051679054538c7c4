// `renyi mcp` and its flags, declared once (cli/host/command-declaration.ts):
// its reader (ceiling.ts), its refusal of a flag it does not take, its usage
// and its section of spec/cli.md are made from them. What its usage says of
// the run tool's own limits is added in cli/commands/declarations.ts.

import { EXIT } from "../../vocabulary/outcomes.js";
import type { CommandDeclaration, FlagDeclaration } from "../host/command-declaration.js";
import { DEFAULT_CHECK_MEMORY_MIB, DEFAULT_CHECK_SECONDS } from "./pool.js";

const CEILING = "The ceiling, what a program run by the run tool may be granted (nothing when none is given)";
const CHECKS =
  "Every check of a program a client sends (by any tool), explanation and read of a recording is done in a worker thread, bounded so that the server answers other requests meanwhile";

/** The least and the most each of the checks' bounds may be: a heap below 32 MiB cannot load the checker itself. */
export const CHECK_BOUNDS = { "--check-timeout": [1, 3600], "--check-memory": [32, 16384] } as const;

const MCP_FLAGS: readonly FlagDeclaration[] = [
  {
    name: "--allow",
    value: "CAPABILITY",
    says: "a capability as a needs line writes it: console, 'network.http(\"api.example.com\")', 'filesystem.read(\"data\")'",
    repeatable: true,
    group: CEILING,
  },
  { name: "--allow-host", value: "HOST", says: "network.http to this host", repeatable: true, group: CEILING },
  {
    name: "--at-most",
    value: "CAP=N/UNIT",
    says: "a budget main's use of CAP may not exceed, such as network.http=60/minute",
    repeatable: true,
    group: CEILING,
  },
  {
    name: "--recordings",
    value: "DIR",
    says: "where the run tool writes recordings",
    default: "a folder of this ceiling's own, the cache's recordings/ceiling-KEY",
    group: CEILING,
  },
  {
    name: "--check-timeout",
    value: "SECONDS",
    says: `the time one may take, from ${CHECK_BOUNDS["--check-timeout"][0]} to ${CHECK_BOUNDS["--check-timeout"][1]} seconds`,
    default: String(DEFAULT_CHECK_SECONDS),
    group: CHECKS,
  },
  {
    name: "--check-memory",
    value: "MIB",
    says: `the heap its thread may use, from ${CHECK_BOUNDS["--check-memory"][0]} to ${CHECK_BOUNDS["--check-memory"][1]} MiB`,
    default: String(DEFAULT_CHECK_MEMORY_MIB),
    group: CHECKS,
  },
];

export const MCP_COMMAND: CommandDeclaration = {
  program: "renyi",
  name: "mcp",
  arguments: [],
  summary:
    "Serve the Model Context Protocol over standard input and output, for a client that starts it (spec/mcp.md).",
  description:
    "Its tools: check (a program's diagnostics, with suggested edits), grant (main's needs, budgets and guards, with the grant's hash), explain (a code of the catalogue), run (runs a program whose grant lies within the ceiling, and records the run), replay (replays a program, edited or not, against a recording the run tool made, offline) and test (runs a program's test blocks).",
  flags: MCP_FLAGS,
  exitCodes: [
    { code: EXIT.finished, means: "its input was closed" },
    { code: EXIT.refused, means: "a flag was wrong, and no server started" },
  ],
};
