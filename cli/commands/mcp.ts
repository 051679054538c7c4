// `renyi mcp [flags]`: reads the ceiling and the limits from the command line
// and serves the Model Context Protocol over standard input and output
// (cli/mcp/server.ts, spec/mcp.md). The protocol's SDK loads only from there.

import { EXIT } from "../../vocabulary/outcomes.js";
import { parseMcpArguments } from "../mcp/ceiling.js";
import { DEFAULT_CHECK_MEMORY_MIB, DEFAULT_CHECK_SECONDS } from "../mcp/pool.js";
import { DEFAULT_RUN_TIMEOUT_SECONDS, MAX_CONCURRENT_RUNS } from "../mcp/run-tool.js";

const MCP_USAGE = `Usage: renyi mcp [--allow CAPABILITY]... [--allow-host HOST]... [--at-most CAP=N/UNIT]... [--recordings DIR]
                 [--check-timeout SECONDS] [--check-memory MIB]

Serves the Model Context Protocol over standard input and output, for a client that starts
it (spec/mcp.md). Its tools: check (a program's diagnostics, with suggested edits), grant
(main's needs, budgets and guards, with the grant's hash), explain (a code of the catalogue)
run (runs a program whose grant lies within the ceiling, and records the run), replay
(replays a program, edited or not, against a recording the run tool made, offline) and test
(runs a program's test blocks).

The ceiling, what a program run by the run tool may be granted (nothing when none is given):
  --allow CAPABILITY       a capability as a needs line writes it: console,
                           'network.http("api.example.com")', 'filesystem.read("data")' (repeatable)
  --allow-host HOST        network.http to this host (repeatable)
  --at-most CAP=N/UNIT     a budget main's use of CAP may not exceed, such as
                           network.http=60/minute (repeatable)
  --recordings DIR         where the run tool writes recordings (default: a folder of
                           this ceiling's own, the cache's recordings/ceiling-KEY)

Every check of a program a client sends (by any tool), explanation and read of a recording
is done in a worker thread, bounded so that the server answers other requests meanwhile:
  --check-timeout SECONDS  the time one may take (default ${DEFAULT_CHECK_SECONDS})
  --check-memory MIB       the heap its thread may use (default ${DEFAULT_CHECK_MEMORY_MIB})

A run may take ${DEFAULT_RUN_TIMEOUT_SECONDS} seconds (RENYI_MCP_TIMEOUT=SECONDS sets another), and ${MAX_CONCURRENT_RUNS} run at once.
`;

export async function mcpCommand(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(MCP_USAGE);
    return EXIT.finished;
  }
  const options = parseMcpArguments(argv);
  if ("problem" in options) {
    process.stderr.write(`error: ${options.problem}\n`);
    return EXIT.refused;
  }
  return (await import("../mcp/server.js")).serve(options);
}
