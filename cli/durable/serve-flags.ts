// `renyi serve` and its flags, declared once (cli/host/command-declaration.ts):
// its reader (serve-options.ts), its refusal of a flag it does not take, its
// usage and its section of spec/cli.md are made from them. The ceiling's flags
// are `renyi mcp`'s and the limits `renyi run`'s, taken from their declarations.

import { EXIT } from "../../vocabulary/outcomes.js";
import type { CommandDeclaration, FlagDeclaration } from "../host/command-declaration.js";
import { MCP_COMMAND } from "../mcp/flags.js";
import { RUN_COMMAND } from "../running/run-options.js";

/** The port the endpoint listens on unless --port says another. */
export const DEFAULT_PORT = 9080;

/** The flags of `renyi run` passed on to every run, as they are. */
export const LIMIT_FLAGS = [
  "--fuel",
  "--max-depth",
  "--timeout",
  "--max-collection",
  "--max-text",
  "--max-memory",
  "--max-output-lines",
  "--max-output-bytes",
  "--max-host-calls",
] as const;

const CEILING = "The ceiling, what a program served may be granted (nothing when none is given)";
const LIMITS = "Limits of each run, as renyi run takes them";

const taken = (from: CommandDeclaration, names: readonly string[], group: string): FlagDeclaration[] =>
  names.map((name) => ({ ...from.flags.find((f) => f.name === name)!, group }));

const SERVE_FLAGS: readonly FlagDeclaration[] = [
  {
    name: "--restate",
    says: "serve each program as a Restate service, for a Restate server to call (needed: the only way to serve)",
  },
  {
    name: "--port",
    value: "PORT",
    says: "where the endpoint listens: a port of 127.0.0.1, or HOST:PORT (0.0.0.0:9080 for every interface)",
    default: String(DEFAULT_PORT),
  },
  {
    name: "--trust",
    value: "PUBKEY",
    says: "serve a bundle only if its manifest is signed by this Ed25519 public key (PEM, from renyic keygen); given more than once, by any of them",
    repeatable: true,
  },
  {
    name: "--redact",
    value: "NAME",
    says: "keep the argument, map entry, program option or environment variable NAME out of the journal, as renyi record --redact keeps it out of a recording",
    repeatable: true,
  },
  ...taken(MCP_COMMAND, ["--allow", "--allow-host", "--at-most"], CEILING).map((flag) =>
    flag.name === "--at-most"
      ? {
          ...flag,
          says: "a budget shared by every run of every program on every endpoint of the Restate cluster, such as network.http=60/minute (a unit of second, minute, hour or day)",
        }
      : flag,
  ),
  ...taken(RUN_COMMAND, LIMIT_FLAGS, LIMITS),
];

export const SERVE_COMMAND: CommandDeclaration = {
  program: "renyi",
  name: "serve",
  arguments: [
    { name: "PROGRAM", says: "a program, FILE.ry, or a bundle built by renyic build, DIR/NAME.mjs", many: true },
  ],
  summary:
    "Serve programs as durable Restate services: every call journaled, runs resumed where they stopped (spec/durable.md).",
  description:
    "Each program is checked when the command starts (compiled or admitted, its grant within the ceiling, one program per name) and served as the service NAME with the handler run, whose input is main's options as a JSON object. Each invocation runs in a process of its own under the limits below; every call it makes is kept in Restate's journal before the program sees it, and a run that stops is resumed by its next attempt from the journal.",
  flags: SERVE_FLAGS,
  notes:
    'Register the endpoint with the Restate server\'s admin API: curl -X POST http://127.0.0.1:9070/deployments -d \'{"uri": "http://127.0.0.1:9080"}\'.',
  exitCodes: [
    { code: EXIT.finished, means: "stopped by SIGINT or SIGTERM" },
    { code: EXIT.refused, means: "a wrong command line, or a program refused at registration; nothing was served" },
  ],
};
