// How `renyi` and `renyic` read their command lines with cac, the same way:
// cac's own complaints (an unknown option, a missing argument) become usage
// errors (Refusals) before any command runs, and each command's action returns its exit code.

import type { CAC } from "cac";
import { EXIT } from "../../vocabulary/outcomes.js";
import { Refusal } from "./failure.js";

/** Runs the command `argv` names and returns its exit code; throws a Refusal when it is called wrongly. */
export async function runCommandLine(cli: CAC, argv: readonly string[]): Promise<number> {
  try {
    cli.parse([...argv], { run: false });
    const command = cli.matchedCommand;
    if (command !== undefined) {
      command.checkUnknownOptions();
      command.checkOptionValue();
      command.checkRequiredArgs();
      command.checkUnusedArgs();
    }
  } catch (e) {
    throw new Refusal(asGiven(e instanceof Error ? e.message : String(e), argv));
  }
  if (cli.matchedCommand === undefined && cli.args.length > 0) {
    throw new Refusal(`\`${cli.args[0]}\` is not a ${cli.name} command; see \`${cli.name} --help\``);
  }
  if (cli.options["help"] || cli.options["version"]) return EXIT.finished;
  if (cli.matchedCommand === undefined) {
    cli.outputHelp();
    return EXIT.finished;
  }
  const code: unknown = await cli.runMatchedCommand();
  return typeof code === "number" ? code : EXIT.finished;
}

/** cac names an unknown option as it reads it, `--maxDepht` for `--max-depht`: the refusal names it as it was typed. */
function asGiven(message: string, argv: readonly string[]): string {
  const unknown = /^Unknown option `--([^`]+)`$/.exec(message);
  if (unknown === null) return message;
  const camel = (word: string) => word.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  const typed = argv.find((word) => word.startsWith("--") && camel(word.slice(2).split("=")[0]!) === unknown[1]);
  return typed === undefined ? message : `Unknown option \`${typed.split("=")[0]}\``;
}
