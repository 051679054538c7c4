// `renyi serve --restate [flags] PROGRAMS...`: reads the command line, registers
// every program (cli/durable/registration.ts) and, when none is refused, serves
// them as Restate services (cli/durable/endpoint.ts, spec/durable.md). The
// Restate SDK loads only from here.

import { EXIT } from "../../vocabulary/outcomes.js";
import { usageText } from "../host/command-declaration.js";
import { SERVE_COMMAND } from "../durable/serve-flags.js";
import { parseServeArguments } from "../durable/serve-options.js";

export async function serveCommand(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(usageText(SERVE_COMMAND));
    return EXIT.finished;
  }
  const options = parseServeArguments(argv);
  if ("problem" in options) {
    process.stderr.write(`error: ${options.problem}\n`);
    return EXIT.refused;
  }
  const { register } = await import("../durable/registration.js");
  const registered = await register(options.programs, options.ceiling, options.trust);
  if (!registered.ok) {
    for (const problem of registered.problems) process.stderr.write(problem);
    process.stderr.write(
      `renyi serve: ${registered.problems.length} of ${options.programs.length} programs refused; nothing is served\n`,
    );
    return EXIT.refused;
  }
  return (await import("../durable/endpoint.js")).serveEndpoint(options, registered.programs);
}
