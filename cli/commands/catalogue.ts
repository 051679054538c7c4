// Every command of `renyi` and `renyic`, declared once, as data
// (cli/host/command-declaration.ts): `renyi --help`, `renyic --help`, each
// command's usage (cac's options and help are registered from it), the
// refusal of a flag a command does not take, spec/cli.md and the README's
// table of commands are made from this catalogue. `renyi run`'s own
// declaration is in cli/running/run-options.ts, which reads its flags without
// loading this file; `renyi mcp`'s flags are in cli/mcp/flags.ts, beside their reader.

import { DEFAULT_LIMITS as D, HIGHEST_LIMITS } from "../../vocabulary/limits.js";
import { grouped as n } from "../../vocabulary/numbers.js";
import { EXIT, TEST_EXIT } from "../../vocabulary/outcomes.js";
import type { CommandDeclaration } from "../host/command-declaration.js";
import { MCP_COMMAND } from "../mcp/flags.js";
import { SERVE_COMMAND } from "../durable/serve-flags.js";
import { DEFAULT_RUN_TIMEOUT_SECONDS, MAX_CONCURRENT_RUNS } from "../mcp/run-tool.js";
import { RUN_COMMAND } from "../running/run-options.js";
import { TEST_TIMEOUT_SECONDS } from "../testing/limits.js";

const CHECK_COMMAND: CommandDeclaration = {
  program: "renyi",
  name: "check",
  arguments: [{ name: "FILE", says: "a program to check, FILE.ry", many: true }],
  summary: "Check programs for errors without running them.",
  description: "Each file's diagnostics are printed with their codes and places; at least one file is needed.",
  flags: [{ name: "--json", says: "print the diagnostics as one JSON object (spec/diagnostics.md)" }],
  exitCodes: [
    { code: EXIT.finished, means: "no errors (warnings allowed)" },
    { code: EXIT.refused, means: "at least one error, a file that cannot be read, or a wrong command line" },
  ],
};

const PARSE_COMMAND: CommandDeclaration = {
  program: "renyi",
  name: "parse",
  arguments: [{ name: "FILE", says: "the program, FILE.ry" }],
  summary: "Print the syntax tree of a program.",
  flags: [],
  exitCodes: [
    { code: EXIT.finished, means: "the program parsed" },
    { code: EXIT.refused, means: "a syntax error, a file that cannot be read, or a wrong command line" },
  ],
};

const FMT_COMMAND: CommandDeclaration = {
  program: "renyi",
  name: "fmt",
  arguments: [{ name: "PATH", says: "a .ry file or a folder of them", many: true }],
  summary: "Format .ry files and folders in place, in Renyi's one layout (default: this folder).",
  description:
    "A file is rewritten only when formatting changes it, and whole (spec/editor.md, section 8); a file that does not parse is left as it is and its syntax errors are printed.",
  flags: [{ name: "--check", says: "write nothing; name each file that formatting would change" }],
  exitCodes: [
    { code: EXIT.finished, means: "every file is formatted (now, or already with --check)" },
    { code: EXIT.failed, means: "with --check: at least one file is not formatted" },
    {
      code: EXIT.refused,
      means:
        "a file that does not parse or cannot be read or written, a path that is no .ry file or folder, or a wrong command line",
    },
  ],
};

const EXPLAIN_COMMAND: CommandDeclaration = {
  program: "renyi",
  name: "explain",
  arguments: [{ name: "CODE", says: "a code of the catalogue, such as E-RT-DIVISION", optional: true }],
  summary: "Explain an error code, with a wrong and a right example; alone, list every code.",
  flags: [],
};

const TEST_LIMIT = "Limits of each test";

const TEST_COMMAND: CommandDeclaration = {
  program: "renyi",
  name: "test",
  arguments: [{ name: "PATH", says: "a .ry file or a folder of them", many: true }],
  summary: "Run the test blocks of .ry files and folders (default: this folder).",
  description:
    "Each test runs in a thread of its own, under its own needs and limits (spec/testing.md); the limits below apply to each.",
  flags: [
    { name: "--json", says: "print every test's result as one JSON object" },
    { name: "--filter", value: "TEXT", says: "run only the tests whose names hold this text" },
    { name: "--strict", says: "fail a replays test that leaves entries of its recording unused" },
    {
      name: "--explain",
      says: 'narrate each test\'s run under its line (spec/runtime.md, "Narrated runs")',
    },
    {
      name: "--trace",
      value: "FILE",
      says: "write the tests' runs as OpenTelemetry spans to FILE in the OTLP JSON file format: a span per test, under it its purpose calls and effects (spec/tracing.md)",
    },
    {
      name: "--refresh",
      value: "NAME",
      says: "record the replays test NAME again, running its body live (exit 4)",
    },
    { name: "--fuel", value: "N", says: "steps each test may take", default: n(D.fuel), group: TEST_LIMIT },
    {
      name: "--max-depth",
      value: "N",
      says: "how deeply calls may nest in each test",
      default: n(D.maxDepth),
      group: TEST_LIMIT,
    },
    {
      name: "--timeout",
      value: "SECONDS",
      says: "wall time each test may take",
      default: n(TEST_TIMEOUT_SECONDS),
      group: TEST_LIMIT,
    },
    {
      name: "--max-collection",
      value: "N",
      says: "elements in one list, map or set in each test",
      default: n(D.maxCollection),
      most: n(HIGHEST_LIMITS.maxCollection ?? D.maxCollection),
      group: TEST_LIMIT,
    },
    {
      name: "--max-text",
      value: "N",
      says: "characters in one text in each test",
      default: n(D.maxText),
      most: n(HIGHEST_LIMITS.maxText ?? D.maxText),
      group: TEST_LIMIT,
    },
    {
      name: "--max-memory",
      value: "MIB",
      says: "MiB of memory each test may keep live",
      default: n(D.maxMemoryMib),
      group: TEST_LIMIT,
    },
    {
      name: "--max-host-calls",
      value: "N",
      says: "calls through the gateway each test may make",
      default: n(D.maxHostCalls),
      group: TEST_LIMIT,
    },
  ],
  exitCodes: [
    { code: TEST_EXIT.passed, means: "every test that ran passed (skipped tests allowed; no tests at all too)" },
    { code: TEST_EXIT.failed, means: "a test failed or crashed" },
    {
      code: TEST_EXIT.refused,
      means: "refused: a path that is no .ry file or folder, a wrong option, a test file that does not compile",
    },
    { code: TEST_EXIT.refreshed, means: "a test's recording was refreshed (--refresh) and nothing failed" },
    { code: TEST_EXIT.cancelled, means: "interrupted (Ctrl-C)" },
  ],
};

export const RECORD_COMMAND: CommandDeclaration = {
  program: "renyi",
  name: "record",
  arguments: [{ name: "FILE", says: "the program, FILE.ry" }],
  rest: "[program options]",
  summary: "Run a program live and write a recording of its calls (spec/recording.md).",
  description:
    "Runs the program live, as renyi run does, and writes a recording of every call it made to the outside world: by default to NAME.recording.json in the working folder. The file is written whole when the run ends, however it ends.",
  flags: [
    { name: "--to", value: "OUT", says: "where to write the recording", default: "NAME.recording.json" },
    {
      name: "--redact",
      value: "NAME",
      says: "write the argument, map entry (a header), program option or environment variable NAME as <redacted>, and keep its value, and every argument computed from it, out of the whole file in every form it takes",
      repeatable: true,
    },
  ],
  flagsWhere: "before the file",
  alsoTakes: { command: "run", except: ["--replay", "--resume", "--from", "--console", "--manifest", "--durable"] },
  notes:
    'With the run option --seal-key FILE (renyi mcp gives it), every call that carried guarded data is sealed: encrypted under the key in FILE, "sealed" in its place.',
  exitCodes: [
    ...(RUN_COMMAND.exitCodes ?? []).map((c) =>
      c.code === EXIT.refused ? { ...c, means: "refused, or the recording could not be written" } : c,
    ),
  ],
};

export const REPRODUCE_COMMAND: CommandDeclaration = {
  program: "renyi",
  name: "reproduce",
  arguments: [
    { name: "REC", says: "the recording" },
    { name: "FILE", says: "the program, FILE.ry; by default the recording's source", optional: true },
  ],
  summary: "Run a recorded program again from its recording, offline, and compare.",
  description:
    "Runs the recorded program again (FILE, or the recording's source) under the recorded arguments, with every call answered from the recording REC and the console written, and reports whether the outcome and output are the recorded ones and every recorded call was reached. Refused when the program's code is not the recorded code.",
  flags: [],
  exitCodes: [
    { code: EXIT.finished, means: "reproduced" },
    { code: EXIT.crashed, means: "the run differed" },
    { code: EXIT.refused, means: "refused" },
  ],
};

export const GRANT_COMMAND: CommandDeclaration = {
  program: "renyi",
  name: "grant",
  arguments: [
    { name: "REC", says: "the recording" },
    { name: "FILE", says: "the program, FILE.ry, whose main's needs are compared", optional: true },
  ],
  summary: "Print the narrowest needs line that covers a recording's calls, and where main's needs are wider.",
  description:
    "Prints the narrowest needs line that covers every call of the recording REC (hosts, paths, variables, programs), with each of main's budgets sized to what the calls' times show they needed, then where main's needs are wider than the recording used: FILE's needs, or, without it, the grant the recording was made under.",
  flags: [{ name: "--json", says: "print the report as one JSON object" }],
  exitCodes: [
    { code: EXIT.finished, means: "reported" },
    { code: EXIT.failed, means: "main's needs do not cover every recorded call" },
    { code: EXIT.refused, means: "refused" },
  ],
};

export const MCP_COMMAND_DECLARED: CommandDeclaration = {
  ...MCP_COMMAND,
  notes: `A run may take ${DEFAULT_RUN_TIMEOUT_SECONDS} seconds (RENYI_MCP_TIMEOUT=SECONDS sets another), and ${MAX_CONCURRENT_RUNS} run at once.`,
};

export const LSP_COMMAND: CommandDeclaration = {
  program: "renyi",
  name: "lsp",
  arguments: [],
  summary: "Serve the Language Server Protocol over standard input and output, for editors (spec/editor.md).",
  description:
    "Diagnostics as you type, quick fixes and the editor's other services, for the .ry files an editor opens and the modules they use. It reads files and answers with text: it writes no file, runs no program and opens no socket.",
  flags: [{ name: "--stdio", says: "talk over standard input and output (the only way; editors pass it)" }],
  exitCodes: [
    { code: EXIT.finished, means: "the client sent shutdown, then exit" },
    { code: 1, means: "the client exited without shutdown, or its input ended first" },
    { code: EXIT.refused, means: "a wrong command line" },
  ],
};

const VIEW_COMMAND: CommandDeclaration = {
  program: "renyi",
  name: "view",
  arguments: [{ name: "PATH", says: "a folder, a .ry program or a recording (default: this folder)", many: true }],
  summary: "Serve a page on this machine that reviews programs and recordings, with a playground (spec/view.md).",
  description:
    "Prints the page's address, http://127.0.0.1:PORT/TOKEN/, and serves it until Ctrl-C: to this machine alone, to a browser that holds the token, from the folders and files given and nothing else. It runs no program itself; the playground runs one inside the page.",
  flags: [{ name: "--port", value: "P", says: "the port to serve on; 0 lets the system choose one", default: "0" }],
  exitCodes: [
    { code: EXIT.finished, means: "stopped by Ctrl-C" },
    { code: EXIT.refused, means: "a path that cannot be read, a port that cannot be used, or a wrong command line" },
  ],
};

export const BUILD_COMMAND: CommandDeclaration = {
  program: "renyic",
  name: "build",
  arguments: [{ name: "FILE", says: "the program, FILE.ry" }],
  summary: "Build a program into DIR/NAME.mjs with its source map and grant manifest.",
  description:
    "Writes DIR/NAME.mjs, its source map, and its grant manifest DIR/NAME.grant.json; with --sign, the manifest's signature DIR/NAME.grant.sig (spec/runtime.md, section 7).",
  flags: [
    { name: "--out", value: "DIR", says: "where to write the bundle (needed)" },
    { name: "--stable", says: "byte-identical output for the same source and toolchain" },
    {
      name: "--sign",
      value: "KEY",
      says: "sign the manifest with this Ed25519 private key (PEM), into DIR/NAME.grant.sig",
    },
  ],
};

export const KEYGEN_COMMAND: CommandDeclaration = {
  program: "renyic",
  name: "keygen",
  arguments: [],
  summary: "Make a key pair for signing manifests: NAME.key (private, mode 0600) and NAME.pub.",
  description: "Neither file is ever overwritten.",
  flags: [{ name: "--out", value: "NAME", says: "the key pair's name, without .key or .pub (needed)" }],
};

export const FETCH_RECORDING_COMMAND: CommandDeclaration = {
  program: "renyi",
  name: "fetch-recording",
  arguments: [{ name: "INVOCATION_ID", says: "the invocation of a program renyi serve --restate serves: inv_…" }],
  summary: "Write the journal of a durable run as a recording (spec/durable.md).",
  description:
    "Reads the journal Restate keeps of one invocation through the cluster's admin API and writes it as a recording (spec/recording.md) that renyi reproduce, renyi run --replay and renyi run --resume take: the manifest from the journal's header and end, the calls in journal order. An invocation that has not ended gives the run so far. Restate keeps a journal for default-journal-retention (1 day by default) after its invocation ends.",
  flags: [
    { name: "--restate", value: "ADMIN_URL", says: "the admin API of the Restate cluster (needed): http://HOST:9070" },
    {
      name: "--to",
      value: "OUT",
      says: "where to write the recording, over a file of that name if there is one; without it, an existing file is never written over",
      default: "INVOCATION_ID.json",
    },
  ],
};

/** The commands of `renyi`, in the order its help lists them. */
export const RENYI_COMMANDS: readonly CommandDeclaration[] = [
  RUN_COMMAND,
  CHECK_COMMAND,
  TEST_COMMAND,
  FMT_COMMAND,
  RECORD_COMMAND,
  REPRODUCE_COMMAND,
  GRANT_COMMAND,
  FETCH_RECORDING_COMMAND,
  EXPLAIN_COMMAND,
  PARSE_COMMAND,
  MCP_COMMAND_DECLARED,
  SERVE_COMMAND,
  LSP_COMMAND,
  VIEW_COMMAND,
];

/** The commands of `renyic`. */
export const RENYIC_COMMANDS: readonly CommandDeclaration[] = [BUILD_COMMAND, KEYGEN_COMMAND];

/** `renyi` then `renyic`: every command. */
export const ALL_COMMANDS: readonly CommandDeclaration[] = [...RENYI_COMMANDS, ...RENYIC_COMMANDS];
