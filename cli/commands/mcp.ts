// `renyi mcp [flags]`: reads the ceiling and the limits from the command line
// and serves the Model Context Protocol over standard input and output
// (cli/mcp/server.ts, spec/mcp.md). The protocol's SDK loads only from there.

import { EXIT } from "../../vocabulary/outcomes.js";
import { parseMcpArguments } from "../mcp/ceiling.js";
import { usageText } from "../host/command-declaration.js";
import { MCP_COMMAND_DECLARED } from "./catalogue.js";

export async function mcpCommand(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(usageText(MCP_COMMAND_DECLARED));
    return EXIT.finished;
  }
  const options = parseMcpArguments(argv);
  if ("problem" in options) {
    process.stderr.write(`error: ${options.problem}\n`);
    return EXIT.refused;
  }
  return (await import("../mcp/server.js")).serve(options);
}
