// `renyi lsp [--stdio]`: the language server over standard input and output
// (cli/lsp/server.ts, spec/editor.md). The language server's library loads
// only from there, for this command alone.

import { EXIT } from "../../vocabulary/outcomes.js";
import { unknownFlagProblem, usageText } from "../host/command-declaration.js";
import { LSP_COMMAND } from "./catalogue.js";

export async function lspCommand(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(usageText(LSP_COMMAND));
    return EXIT.finished;
  }
  // Editors pass --stdio (and some --clientProcessId=N, which the server reads from `initialize` instead).
  const other = argv.find((word) => word !== "--stdio" && !word.startsWith("--clientProcessId"));
  if (other !== undefined) {
    process.stderr.write(
      `error: ${unknownFlagProblem(LSP_COMMAND, other, other.startsWith("-") ? "option" : "argument")}\n`,
    );
    return EXIT.refused;
  }
  return (await import("../lsp/server.js")).serve();
}
