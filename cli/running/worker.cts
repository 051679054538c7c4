// The worker thread a program runs in (spec/runtime.md, section 6):
// it loads the bundle, reads main's arguments, runs main, and reports how the
// run ended. The main thread keeps signals, the deadline and the terminal.
//
// CommonJS, as the programs `renyi run` compiles for it are: a thread that
// loads no ES module does without Node's ES module loader, about 5 ms of every
// run's start-up (bench/RESULTS.md). A bundle built by `renyic build` is an ES
// module, and is imported.

import { parentPort, workerData } from "node:worker_threads";
import { loadProgram, loadRuntime } from "../cache/code-cache.cjs";
import type * as Runtime from "../../rtlib/index.js" with { "resolution-mode": "import" };
import type { GrantItem, HostCallEntry, Outcome } from "../../rtlib/index.js" with { "resolution-mode": "import" };
import type { RecordedCall } from "../../vocabulary/recording.js" with { "resolution-mode": "import" };
import type { RecordedRequest, RecordedResponse } from "../../vocabulary/recorded-requests.js" with {
  "resolution-mode": "import",
};
import type { MoreLimits } from "./run-options.js" with { "resolution-mode": "import" };
import type { SharedBudget, ToDurableRun } from "../../vocabulary/durable.js" with { "resolution-mode": "import" };
import { gatherSpans, type TraceInput, type TraceSpan } from "../tracing/gatherer.cjs";
import { failedCallLog } from "../tracing/log-lines.cjs";

// The runtime as one file (scripts/bundle.mjs), the module compiled
// programs require, and the one `renyi/runtime` re-exports: one instance of
// each class, so that `instanceof Failure` holds for what the program throws.
const runtime = loadRuntime() as typeof Runtime;

/**
 * Every program runs from the text the main thread checked, never read again here: a program
 * renyi run compiled, against its seal in the cache; a bundle, admitted with its manifest
 * (cli/bundles/admit.ts), imported as a data: URL whose frames carry the bundle's path.
 */
async function load(bundle: string, source: string | undefined): Promise<Runtime.Program> {
  if (source === undefined) throw new Error(`no checked text was given for the program ${bundle}`);
  if (bundle.endsWith(".cjs")) return loadProgram(bundle, source) as Runtime.Program;
  return (await import(
    `data:text/javascript;base64,${Buffer.from(source, "utf8").toString("base64")}`
  )) as Runtime.Program;
}

/** What the main thread sends once it has the program: the worker was started before. */
export interface WorkerInput {
  /** The compile cache's folder this command uses (cache.cts): the program may not reach it whatever its grant. */
  readonly cacheFolder?: string;
  /** The bundle's path: a CommonJS .cjs compiled by `renyi run`, or an ES module .mjs. */
  readonly bundle: string;
  /** The program's text, checked by the main thread (a .cjs against its seal, cli/cache/seal.ts; a bundle, admitted): what runs. */
  readonly source?: string;
  readonly argv: readonly string[];
  readonly fuel: number;
  readonly maxDepth: number;
  /** Each request's fuel and time when the program serves (spec/runtime.md). */
  readonly requestFuel: number;
  readonly requestTimeoutMs: number;
  /** The command line's other limits: collections, output, host calls, the live memory the program may keep, and the run's wall time (which the main thread keeps: E-RT-TIMEOUT says it). */
  readonly limits: MoreLimits & { readonly maxMemoryMib: number; readonly timeoutMs?: number };
  readonly allowHosts: readonly string[];
  readonly atMost: readonly string[];
  /**
   * A bundle's grant, from its manifest, which renyi run has compared with the
   * bundle's own (null: main needs nothing). Absent for a program renyi run
   * compiled itself, whose own grant is its source's.
   */
  readonly grant?: GrantItem[] | null;
  /** Narrate the run on stderr (renyi run --explain). */
  readonly explain?: boolean;
  /** Record every call (renyi record, renyi run --manifest): each is sent as a RecordedMessage. */
  readonly record?: boolean;
  /** The names the recording is redacted under (renyi record --redact): what they give is followed by its origin. */
  readonly redact?: string[];
  /**
   * Answer every call from these recorded calls (renyi run --replay, renyi reproduce): given as they are, or as the
   * checked recording's bytes to read them from (recordedCalls).
   */
  readonly replay?: {
    readonly calls: RecordedCall[] | Runtime.CheckedRecording;
    /** The recording's grant header, read back. */
    readonly grant: GrantItem[];
    /** Perform console.print and console.error too (renyi reproduce, renyi run --resume). */
    readonly writeConsole: boolean;
    /**
     * Go live at the first call the recording does not hold (renyi run --resume): each entry answered is sent as a
     * RecordedMessage marked replayed.
     */
    readonly resume?: boolean;
    /** With resume: the recorded call from which the run goes live (renyi run --resume --from N). */
    readonly resumeFrom?: number;
    /** A console line the recording does not hold is listed at the end rather than stopping the replay (--replay, reproduce). */
    readonly consoleDiffers?: boolean;
    /** The names the recording is redacted under, when its header says (older recordings: found in its calls). */
    readonly redacted?: string[];
    /** The program follows the redacted names' values by their origin: the entries' `redacted_at` marks are read. */
    readonly originMarks?: boolean;
    /**
     * The sequence numbers of the calls that were sealed (opened with the key): the replay keeps their values out of
     * what it says.
     */
    readonly sealed?: number[];
    /** Those of them whose arguments carried no guarded data (sealed for what they gave back). */
    readonly sealedForResult?: number[];
    /** The requests a recorded server answered: a replayed `serve` feeds them to its handler. */
    readonly requests?: RecordedRequest[];
    /** One attempt of a durable run: the journal's calls, answered while their keys' queues last (replayer.ts). */
    readonly durable?: true;
  };
  /**
   * One attempt of a durable run (renyi run --durable, spec/durable.md): each live call is sent as a RecordedMessage
   * with the id it is kept under, and the program waits for it; sleeps and shared budgets are asked of the endpoint as
   * DurableRequests, answered with DurableReplies.
   */
  readonly durable?: { readonly shared: SharedBudget[] };
  /**
   * Keep the run's host calls and grant for its execution record (renyi run --json): sent as an ExecutionLog before the
   * outcome.
   */
  readonly log?: boolean;
  /** Gather the run's spans (renyi run --trace, --trace-endpoint): each is sent as a TracedSpan as it ends. */
  readonly trace?: TraceInput;
  /** Write a log line on stderr for each host call that failed (renyi run --log). */
  readonly logLines?: boolean;
}

/** Spans of a traced run, sent a batch at a time as they end (cli/tracing/gatherer.cts). */
export interface TracedSpans {
  readonly spans: TraceSpan[];
}

/** A call the run has completed, as the recording writes it. */
export interface RecordedMessage {
  readonly recorded: RecordedCall;
  /** An entry of the recording a resumed run was answered with, as it was recorded. */
  readonly replayed?: true;
  /** What of the call was guarded data: a recording made with a seal key seals it. */
  readonly guarded?: "arguments" | "result";
  /** The texts of its arguments that came from a redacted name (renyi record --redact). */
  readonly redactedParts?: readonly string[];
  /** The texts the program computed from a redacted value before the call (renyi record --redact). */
  readonly redactedTexts?: readonly string[];
  /** A durable run's live call: the id it is to be kept under (spec/durable.md). */
  readonly keep?: number;
}

/** What a durable run's program asks of its endpoint, through the main thread. */
export interface DurableRequest {
  readonly durable: Runtime.DurableAsk;
}

/** The endpoint's answer, sent on by the main thread to a durable run's program. */
export interface DurableReply {
  readonly durable: Exclude<ToDurableRun, { start: unknown }>;
}

/** A request a recorded server's handler is called with (spec/recording.md, "Servers"). */
export interface IncomingMessage {
  readonly incoming: RecordedRequest;
}

/** The response a recorded server gave the request of that number. */
export interface AnsweredMessage {
  readonly answered: { readonly request: number; readonly response: RecordedResponse };
}

/**
 * Sent before the outcome of a recorded or replayed run: its standard output's hash and length, and the recorded calls
 * a replay did not reach.
 */
export interface RunTally {
  readonly tally: {
    readonly stdout: string;
    readonly bytes: number;
    readonly unreached?: number[];
    readonly grant?: string[];
    /** The console lines a replay answered from the recording without showing them (no --console). */
    readonly unshownConsole?: number;
    /** The console lines of a replay the recording did not hold: the first of them, and how many in all. */
    readonly consoleDiffered?: { readonly shown: Runtime.ConsoleDifference[]; readonly total: number };
  };
}

/** How the run ended (rtlib/run-main.ts). */
export type WorkerOutcome = Outcome;

const { cancel } = workerData as { cancel: SharedArrayBuffer };

/** The one message the worker sends before its outcome: the program's first read of its input. */
export interface InputRequest {
  readonly input: true;
}

/** A child process started (running) or gone: the main thread kills the groups still running when the run ends. */
export interface ChildReport {
  readonly child: number;
  readonly running: boolean;
}

/** Sent when a server starts listening: the run's default time limit no longer applies. */
export interface ServingNotice {
  readonly serving: true;
}

/** A request whose handler crashed or failed, for the main thread to report; the server goes on. */
export interface RequestCrash {
  readonly requestCrash: WorkerOutcome;
}

/** Sent with the outcome when the program served: how many requests, how many of them crashed. */
export interface ServedTotals {
  readonly served: { readonly answered: number; readonly crashed: number };
}

/**
 * Sent before the outcome under --json: what the execution record lists of the run (cli/running/execution-record.ts).
 */
export interface ExecutionLog {
  readonly log: {
    /**
     * main's grant once the command line narrowed it, as its needs line writes each item; null when the run was refused
     * before.
     */
    readonly grant: string[] | null;
    readonly calls: HostCallEntry[];
    readonly handlerCalls: number;
  };
}

export type WorkerMessage =
  | InputRequest
  | ChildReport
  | ServingNotice
  | RequestCrash
  | ServedTotals
  | RecordedMessage
  | IncomingMessage
  | AnsweredMessage
  | RunTally
  | ExecutionLog
  | TracedSpans
  | DurableRequest
  | WorkerOutcome;

/** The SHA-256 and length of what the run printed, kept only when the run is recorded or replayed. */
let printed: { hash: import("node:crypto").Hash; bytes: number } | undefined;
let replayer: Runtime.RunReplayer | undefined;
/** main's grant as the manifest writes it, once known. */
let grantTexts: string[] | undefined;
/** The run's host calls, kept under --json. */
let log: Runtime.HostCallLog | undefined;
/** Sends the spans a traced run still holds. */
let flushSpans: (() => void) | undefined;

function tallyPrint(text: string): void {
  const bytes = Buffer.from(text, "utf8");
  printed!.hash.update(bytes);
  printed!.bytes += bytes.length;
}

function run(input: WorkerInput): Promise<WorkerOutcome> {
  const post = (message: WorkerMessage) => parentPort!.postMessage(message);
  if (input.record === true || input.replay !== undefined)
    printed = { hash: (require("node:crypto") as typeof import("node:crypto")).createHash("sha256"), bytes: 0 };
  const observers: Runtime.Observer[] = [];
  // A durable run records as a resumed run does: the calls it makes live, numbered apart from those it was answered.
  const resume = input.replay?.resume === true || input.replay?.durable === true;
  const attempt = input.durable === undefined ? undefined : durableAttempt(input.durable.shared, post);
  if (input.record === true) {
    // A resumed run records the calls it makes live; the entries it was answered with are sent as they were recorded.
    // A call a server's handler made is recorded with the number of its request; a resumed run, whose recording
    // joins entries of another run, records a server's calls as the run's own (spec/recording.md, "Servers").
    const record = runtime.recorder((call, guarded, redacted) => {
      const request = resume ? undefined : runtime.loadedRequest();
      // `request` written right after `sequence`.
      const { sequence, ...rest } = call;
      const recorded = request === undefined ? call : { sequence, request, ...rest };
      post({
        recorded,
        ...(guarded !== undefined ? { guarded } : {}),
        ...(redacted?.parts !== undefined ? { redactedParts: redacted.parts } : {}),
        ...(redacted?.texts !== undefined ? { redactedTexts: redacted.texts } : {}),
        ...(attempt !== undefined ? { keep: attempt.keepId() } : {}),
      });
    });
    if (!resume)
      runtime.recordRequestsTo({
        began: (incoming) => post({ incoming }),
        answered: (request, response) => post({ answered: { request, response } }),
      });
    observers.push(resume ? (call) => void (call.replayed === true || record(call)) : record);
    if (input.replay === undefined || resume)
      observers.push(
        (call) =>
          void (
            call.replayed !== true &&
            call.primitive === "std.console.print" &&
            "success" in call.outcome &&
            tallyPrint(`${String(call.arguments["text"])}\n`)
          ),
      );
  }
  if (input.log === true) {
    log = runtime.hostCallLog();
    observers.push(log.observe);
  }
  if (input.trace !== undefined) {
    const traced = gatherSpans(input.trace, runtime, (spans) => post({ spans }));
    flushSpans = traced.flush;
    runtime.watchDefinitions(traced.watcher);
    observers.push(traced.observer);
  }
  if (input.logLines === true) observers.push(failedCallLog(runtime, (line) => void process.stderr.write(line)));
  if (input.replay !== undefined) {
    replayer = runtime.replayerOf(recordedCalls(input.replay.calls), input.replay.grant, {
      writeConsole: input.replay.writeConsole,
      ...(input.replay.consoleDiffers === true ? { consoleDiffers: true } : {}),
      onStdout: tallyPrint,
      ...(input.replay.redacted !== undefined ? { redacted: input.replay.redacted } : {}),
      ...(input.replay.originMarks === true ? { originMarks: true } : {}),
      ...(input.replay.sealed !== undefined ? { sealed: new Set(input.replay.sealed) } : {}),
      ...(input.replay.sealedForResult !== undefined ? { sealedForResult: new Set(input.replay.sealedForResult) } : {}),
      ...(input.replay.durable === true ? { durable: true as const } : {}),
      ...(input.replay.resume === true
        ? {
            resume: {
              onAnswered: (recorded: RecordedCall) => post({ recorded, replayed: true }),
              ...(input.replay.resumeFrom !== undefined ? { from: input.replay.resumeFrom } : {}),
            },
          }
        : {}),
      ...(input.replay.requests !== undefined ? { requests: input.replay.requests } : {}),
    });
  }
  return runtime.runMain(() => load(input.bundle, input.source), {
    argv: input.argv,
    ...(input.cacheFolder !== undefined ? { cacheFolder: input.cacheFolder } : {}),
    limits: {
      fuel: input.fuel,
      maxDepth: input.maxDepth,
      cancel,
      requestFuel: input.requestFuel,
      requestTimeoutMs: input.requestTimeoutMs,
      ...input.limits,
    },
    ...(input.grant !== undefined ? { grant: input.grant } : {}),
    allowHosts: input.allowHosts,
    atMost: input.atMost,
    ...(observers.length > 0 ? { observers } : {}),
    ...(replayer !== undefined ? { replayer } : {}),
    ...(attempt !== undefined ? { durable: attempt.hooks } : {}),
    ...((input.redact ?? input.replay?.redacted) !== undefined
      ? { redact: input.redact ?? input.replay!.redacted! }
      : {}),
    // Narration goes to stderr directly, not through the program's own output limits: it has its own bound.
    ...(input.explain === true
      ? {
          narration: {
            write: (text: string) => void process.stderr.write(text),
            recordedDuration: () => replayer?.lastAnswered?.duration_ms,
          },
        }
      : {}),
    ...(printed !== undefined || log !== undefined
      ? { onGrant: (items: readonly GrantItem[]) => void (grantTexts = items.map(runtime.grantText)) }
      : {}),
    onInput: () => post({ input: true }),
    onChild: (child, running) => post({ child, running }),
    onListening: () => post({ serving: true }),
    onRequestCrash: (outcome) => post({ requestCrash: outcome }),
  });
}

/** A durable run's attempt: its questions go to the main thread, and the endpoint's answers come back from it. */
function durableAttempt(
  shared: readonly SharedBudget[],
  post: (message: WorkerMessage) => void,
): Runtime.DurableAttempt {
  const attempt = new runtime.DurableAttempt(shared, (durable) => post({ durable }));
  parentPort!.on("message", (message: DurableReply) => {
    if (typeof message === "object" && message !== null && "durable" in message) attempt.answer(message.durable);
  });
  return attempt;
}

// After the outcome, the thread ends, whatever the program left open (a timer, a socket).
/** A replay's recorded calls: as they were sent, or read from the checked recording's bytes transferred here. */
function recordedCalls(calls: RecordedCall[] | Runtime.CheckedRecording): RecordedCall[] {
  return Array.isArray(calls) ? calls : runtime.callsOfChecked(calls);
}

parentPort!.once("message", (input: WorkerInput) => void start(input));

function start(input: WorkerInput): void {
  run(input).then(finish, (e: unknown) => finish(runtime.runOutcomeOf(e)));
}

/**
 * Ends the program's output, then sends the outcome: the main thread reports the
 * run once both have come through, without waiting for this thread to stop.
 */
function finish(outcome: WorkerOutcome): void {
  // No child outlives the run: one a concurrent task left running when main ended is killed with its group.
  runtime.stopChildren();
  process.stdout.end();
  process.stderr.end();
  const { served } = runtime;
  if (served.answered > 0)
    parentPort!.postMessage({ served: { answered: served.answered, crashed: served.crashed } } satisfies ServedTotals);
  if (printed !== undefined) {
    const unreached = replayer?.unreached().map((c) => c.sequence);
    parentPort!.postMessage({
      tally: {
        stdout: `sha256:${printed.hash.digest("hex")}`,
        bytes: printed.bytes,
        ...(unreached !== undefined ? { unreached } : {}),
        ...(grantTexts !== undefined ? { grant: grantTexts } : {}),
        ...(replayer !== undefined && replayer.unshownConsole > 0 ? { unshownConsole: replayer.unshownConsole } : {}),
        ...(replayer !== undefined && replayer.consoleDiffered > 0
          ? { consoleDiffered: { shown: [...replayer.consoleDifferences], total: replayer.consoleDiffered } }
          : {}),
      },
    } satisfies RunTally);
  }
  flushSpans?.();
  if (log !== undefined)
    parentPort!.postMessage({
      log: { grant: grantTexts ?? null, calls: log.calls, handlerCalls: log.handlerCalls() },
    } satisfies ExecutionLog);
  parentPort!.postMessage(outcome);
  process.exit(0);
}
