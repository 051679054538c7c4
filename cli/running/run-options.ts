// `renyi run`'s own options, declared once: the reader, the list in its refusal,
// the usage text and its section of spec/cli.md all come from the table below
// (cli/host/command-declaration.ts). They are read by hand, not with cac: cac
// takes about 18 ms to load, on the path of every run, and everything after
// the program's file belongs to the program anyway.

import { DEFAULT_LIMITS as D, HIGHEST_LIMITS } from "../../vocabulary/limits.js";
import { grouped } from "../../vocabulary/numbers.js";
import { EXIT } from "../../vocabulary/outcomes.js";
import {
  type CommandDeclaration,
  type FlagDeclaration,
  givenTwiceProblem,
  splitFlag,
  unknownFlagProblem,
  usageText,
} from "../host/command-declaration.js";

/** The limits beyond fuel, depth and time, passed to the run as they are (rtlib/run-main.ts, RunConfig). */
export interface MoreLimits {
  maxCollection: number;
  maxText: number;
  maxOutputLines: number;
  maxOutputBytes: number;
  maxHostCalls: number;
}

/** `--max-memory`: the live memory the program may keep; it also sets the heap of the program's thread, when the thread starts. */
type HeapOption = "maxMemoryMib";

export interface RunOptions extends MoreLimits {
  fuel: number;
  maxDepth: number;
  timeoutSeconds: number;
  maxMemoryMib: number;
  /** Whether --timeout was given: only then does it stop a program that serves. */
  timeoutGiven: boolean;
  requestFuel: number;
  requestTimeoutSeconds: number;
  allowHosts: string[];
  atMost: string[];
  /** Public key files: a bundle runs only if its manifest is signed by one of them. */
  trust: string[];
  /** A recording every effect is answered from (spec/recording.md). */
  replay?: string;
  /** A recording whose calls are answered until the first it does not hold, then live (spec/recording.md, "Resuming a run"). */
  resume?: string;
  /** Where --resume writes the new recording. */
  to?: string;
  /** With --resume: the recorded call from which the run goes live (spec/recording.md, "Resuming a run"). */
  from?: number;
  /** Print the run manifest on standard error when the run ends. */
  manifest: boolean;
  /** Run the whole command in a process of its own under the operating system's limits (cli/running/isolate.ts). */
  isolate: boolean;
  /** Narrate the run on standard error (spec/runtime.md, "Narrated runs"). */
  explain: boolean;
  /** Print the execution record as the last line of standard output when the run ends. */
  json: boolean;
  /** With --replay: console.print and console.error are performed as well as answered. */
  console: boolean;
  /** The key the recording's sealed calls are opened with (--replay), or sealed with (renyi record). */
  sealKey?: string;
  /** Write the run's spans to this file, in the OTLP JSON file format (spec/tracing.md). */
  trace?: string;
  /** Send the run's spans to this collector over OTLP/HTTP. */
  traceEndpoint?: string;
  /** A log line on stderr when the run starts, when it ends, and for each host call that failed. */
  log: boolean;
  /** One attempt of a durable invocation of `renyi serve --restate`, over the IPC channel the run was started with. */
  durable: boolean;
}

type Numeric =
  | "fuel"
  | "maxDepth"
  | "timeoutSeconds"
  | "requestFuel"
  | "requestTimeoutSeconds"
  | keyof MoreLimits
  | HeapOption
  | "from";
type Repeated = "allowHosts" | "atMost" | "trust";

interface RunFlag extends FlagDeclaration {
  /** A whole number above 0, a value that may be given again and again, a file, or a flag without a value. */
  readonly into:
    | { numeric: Numeric }
    | { repeated: Repeated }
    | { file: "replay" | "resume" | "to" | "sealKey" | "trace" | "traceEndpoint" }
    | { flag: "manifest" | "isolate" | "explain" | "json" | "console" | "log" | "durable" };
}

const n = grouped;

const RUN_FLAGS: readonly RunFlag[] = [
  { name: "--fuel", value: "N", into: { numeric: "fuel" }, says: "steps the program may take", default: n(D.fuel) },
  {
    name: "--max-depth",
    value: "N",
    into: { numeric: "maxDepth" },
    says: "how deeply calls may nest",
    default: n(D.maxDepth),
  },
  {
    name: "--timeout",
    value: "SECONDS",
    into: { numeric: "timeoutSeconds" },
    says: "wall time the run may take; past it the run crashes with E-RT-TIMEOUT where it was; a program that serves is stopped only by a --timeout given here",
    default: n(D.timeoutSeconds),
  },
  {
    name: "--max-collection",
    value: "N",
    into: { numeric: "maxCollection" },
    says: "elements in one list, map or set",
    default: n(D.maxCollection),
    most: n(HIGHEST_LIMITS.maxCollection ?? D.maxCollection),
  },
  {
    name: "--max-text",
    value: "N",
    into: { numeric: "maxText" },
    says: "characters in one text, and bytes in one piece of data coming in",
    default: n(D.maxText),
    most: n(HIGHEST_LIMITS.maxText ?? D.maxText),
  },
  {
    name: "--max-memory",
    value: "MIB",
    into: { numeric: "maxMemoryMib" },
    says: "MiB of memory the program may keep live",
    default: n(D.maxMemoryMib),
  },
  {
    name: "--max-output-lines",
    value: "N",
    into: { numeric: "maxOutputLines" },
    says: "lines printed on stdout, and on stderr, before the output is truncated",
    default: n(D.maxOutputLines),
  },
  {
    name: "--max-output-bytes",
    value: "N",
    into: { numeric: "maxOutputBytes" },
    says: "bytes printed on stdout, and on stderr, before the output is truncated",
    default: n(D.maxOutputBytes),
  },
  {
    name: "--max-host-calls",
    value: "N",
    into: { numeric: "maxHostCalls" },
    says: "calls through the gateway (every effect)",
    default: n(D.maxHostCalls),
  },
  {
    name: "--request-fuel",
    value: "N",
    into: { numeric: "requestFuel" },
    says: "steps each request to a server may take",
    default: n(D.requestFuel),
  },
  {
    name: "--request-timeout",
    value: "SECONDS",
    into: { numeric: "requestTimeoutSeconds" },
    says: "time each request to a server may take",
    default: n(D.requestTimeoutSeconds),
  },
  {
    name: "--allow-host",
    value: "HOST",
    into: { repeated: "allowHosts" },
    says: "only this host for network.http; narrows the grant",
    repeatable: true,
  },
  {
    name: "--at-most",
    value: "CAP=N/UNIT",
    into: { repeated: "atMost" },
    says: "a further budget, such as network.http=60/minute",
    repeatable: true,
  },
  {
    name: "--trust",
    value: "PUBKEY",
    into: { repeated: "trust" },
    says: "run the bundle only if its manifest is signed by this Ed25519 public key (PEM, from renyic keygen); given more than once, by any of them",
    repeatable: true,
  },
  {
    name: "--replay",
    value: "REC",
    into: { file: "replay" },
    says: "answer every effect from the recording REC (renyi record): nothing is written or sent; stops at the first call that differs",
  },
  {
    name: "--console",
    into: { flag: "console" },
    says: "with --replay: perform console.print and console.error as well, as renyi reproduce does, so that the replay shows what it prints",
  },
  {
    name: "--seal-key",
    value: "FILE",
    into: { file: "sealKey" },
    says: "with --replay: open the recording's sealed calls with this key (renyi mcp's recordings folder holds it, seal.key)",
  },
  {
    name: "--resume",
    value: "REC",
    into: { file: "resume" },
    says: "answer each call from the recording REC until the first it does not hold (or holds as a failure), then go on live, recording: the main must be the recorded code; writes a new recording (--to)",
  },
  {
    name: "--to",
    value: "OUT",
    into: { file: "to" },
    says: "where --resume writes the new recording, never over an existing file",
    default: "beside REC, NAME.resumed.json",
  },
  {
    name: "--from",
    value: "N",
    into: { numeric: "from" },
    says: "with --resume: go live from the recorded call N (its sequence): a call answered by an entry of sequence N or later is made live, and every call after it; for a run that failed on a success it was given (a status 503 is a success of http.get)",
  },
  {
    name: "--trace",
    value: "FILE",
    into: { file: "trace" },
    says: "write the run as OpenTelemetry spans to FILE, in the OTLP JSON file format, whole when the run ends, however it ends: the run, each call to a definition with a purpose, each effect (spec/tracing.md)",
  },
  {
    name: "--trace-endpoint",
    value: "URL",
    into: { file: "traceEndpoint" },
    says: "send the same spans to the OpenTelemetry collector at URL (http or https, such as http://localhost:4318/v1/traces) over OTLP/HTTP when the run ends",
  },
  {
    name: "--log",
    into: { flag: "log" },
    says: "a line of JSON on standard error when the run starts, when it ends, and for each effect that failed; never a value, nor a target made of guarded data",
  },
  {
    name: "--manifest",
    into: { flag: "manifest" },
    says: "print the run manifest (the header renyi record writes) on standard error when the run ends; no file is written",
  },
  {
    name: "--isolate",
    into: { flag: "isolate" },
    says: "run in a process of its own with the operating system's limits: its memory (from --max-memory), open files and CPU time (from --timeout)",
  },
  {
    name: "--explain",
    into: { flag: "explain" },
    says: "narrate the run on standard error: a line per call to a definition (its purpose, arguments and result), per effect, and per failure with the otherwise that caught it",
  },
  {
    name: "--json",
    into: { flag: "json" },
    says: "print the execution record, one line of JSON, as the last line of standard output when the run ends (even when it was refused)",
  },
  {
    name: "--durable",
    into: { flag: "durable" },
    says: "run as one attempt of a durable invocation of renyi serve --restate, over the IPC channel it was started with",
  },
];

/** `renyi run`, declared: its usage, its refusal of an unknown flag and its section of spec/cli.md come from here. */
export const RUN_COMMAND: CommandDeclaration = {
  program: "renyi",
  name: "run",
  arguments: [
    {
      name: "FILE",
      says: "the program, FILE.ry, or a bundle built by renyic build, DIR/NAME.mjs (validated first)",
    },
  ],
  rest: "[program options]",
  summary: "Run a program, or a bundle built by renyic build.",
  description:
    "Everything after the file belongs to the program: main's parameters are its options (FILE --help lists them).",
  flags: RUN_FLAGS,
  flagsHeading: "Renyi options",
  flagsWhere: "before the file",
  notes:
    "A bundle runs with the grant its manifest shows (NAME.grant.json), and is refused if the bundle's own grant differs. Without --trust a signature is not checked: the manifest then proves no author, only that bundle and manifest agree.",
  exitCodes: [
    { code: EXIT.finished, means: "finished" },
    { code: EXIT.failed, means: "failed" },
    { code: EXIT.crashed, means: "crashed, a limit (fuel, depth, time, memory) among the causes" },
    { code: EXIT.refused, means: "refused" },
    { code: EXIT.cancelled, means: "cancelled (Ctrl-C)" },
  ],
};

/** Options that do not go together, or undefined. */
export function conflictingOptions(options: RunOptions): string | undefined {
  if (options.to !== undefined && options.resume === undefined)
    return "--to names the recording --resume writes; give --resume REC too";
  if (options.from !== undefined && options.resume === undefined)
    return "--from says where a resumed run goes live; give --resume REC too";
  if (options.resume !== undefined && options.replay !== undefined)
    return "--resume goes live where the recording ends, --replay never does: give one of them";
  if (options.console && options.replay === undefined)
    return "--console performs the console calls a replay answers; give --replay REC too";
  if (options.sealKey !== undefined && options.replay === undefined)
    return "--seal-key opens the sealed calls of the recording --replay reads; give --replay REC too";
  if (options.durable) {
    const other = [
      options.replay !== undefined && "--replay",
      options.resume !== undefined && "--resume",
      options.manifest && "--manifest",
      options.isolate && "--isolate",
    ].find((o) => o !== false);
    if (other !== undefined)
      return `--durable answers calls from the journal renyi serve --restate keeps; it does not go with ${other}`;
  }
  return undefined;
}

/** Splits `renyi run` arguments: options up to the file are Renyi's, everything after belongs to the program. */
export function parseRunArguments(
  argv: readonly string[],
): { options: RunOptions; file: string; programArgs: string[] } | { problem: string } {
  const options: RunOptions = {
    fuel: D.fuel,
    maxDepth: D.maxDepth,
    timeoutSeconds: D.timeoutSeconds,
    timeoutGiven: false,
    requestFuel: D.requestFuel,
    requestTimeoutSeconds: D.requestTimeoutSeconds,
    ...defaultMoreLimits(),
    maxMemoryMib: D.maxMemoryMib,
    allowHosts: [],
    atMost: [],
    trust: [],
    manifest: false,
    isolate: false,
    explain: false,
    json: false,
    console: false,
    log: false,
    durable: false,
  };
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) {
      // A signature is a bundle's: a .ry program is compiled here from the source in hand.
      if (options.trust.length > 0 && !arg.endsWith(".mjs"))
        return {
          problem: `--trust checks the signature of a bundle built by renyic build (DIR/NAME.mjs); ${arg} is not one`,
        };
      return { options, file: arg, programArgs: argv.slice(i + 1) };
    }
    const { name, inline } = splitFlag(arg);
    const option = RUN_FLAGS.find((o) => o.name === name);
    if (option === undefined) return { problem: unknownFlagProblem(RUN_COMMAND, name) };
    const twice = givenTwiceProblem(given, option);
    if (twice !== undefined) return { problem: twice };
    if ("flag" in option.into) {
      if (inline !== undefined) return { problem: `${name} takes no value` };
      options[option.into.flag] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if ("file" in option.into) {
      if (value === undefined || value === "") return { problem: `${name} needs a file` };
      options[option.into.file] = value;
      continue;
    }
    if ("repeated" in option.into) {
      if (value === undefined) return { problem: `${name} needs a value` };
      options[option.into.repeated].push(value);
      continue;
    }
    const number = wholeNumber(name, value, HIGHEST_LIMITS[option.into.numeric as keyof typeof HIGHEST_LIMITS]);
    if (typeof number === "string") return { problem: number };
    options[option.into.numeric] = number;
    if (option.into.numeric === "timeoutSeconds") options.timeoutGiven = true;
  }
  return { problem: "`renyi run` needs a program: `renyi run program.ry [program options]`" };
}

function defaultMoreLimits(): MoreLimits {
  return {
    maxCollection: D.maxCollection,
    maxText: D.maxText,
    maxOutputLines: D.maxOutputLines,
    maxOutputBytes: D.maxOutputBytes,
    maxHostCalls: D.maxHostCalls,
  };
}

/** A limit's value: a whole number above 0 and at most `highest`, or why not. */
export function wholeNumber(name: string, value: string | undefined, highest: number | undefined): number | string {
  if (value === undefined || !/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value)))
    return `${name} takes a whole number above 0`;
  if (highest !== undefined && Number(value) > highest)
    return `${name} may lower the limit, not raise it: at most ${n(highest)}`;
  return Number(value);
}

/** `renyi run --help`: made when asked for, not on the path of every run. */
export function runUsage(): string {
  return usageText(RUN_COMMAND);
}
