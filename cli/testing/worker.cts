// The thread one test runs in (`renyi test`, spec/testing.md): a fresh runtime
// and a fresh instance of the program for every test, so that nothing one test
// leaves behind (a budget spent, a server, a child, the fuel used) reaches the
// next, and a test that hangs can be stopped by ending its thread alone.
//
// It loads the runtime and the compiled program, runs the one test it was
// given under that test's own grant and limits (rtlib/run-main.ts, runTest),
// and sends how it ended with the time the test took.

import { parentPort, workerData } from "node:worker_threads";
import { loadProgram, loadRuntime } from "../cache/code-cache.cjs";
import type * as Runtime from "../../rtlib/index.js" with { "resolution-mode": "import" };
import type { Outcome } from "../../rtlib/index.js" with { "resolution-mode": "import" };
import type { RecordedCall } from "../../vocabulary/recording.js" with { "resolution-mode": "import" };
import type { RecordedRequest } from "../../vocabulary/recorded-requests.js" with { "resolution-mode": "import" };
import type { GrantItem } from "../../vocabulary/needs.js" with { "resolution-mode": "import" };
import { gatherSpans, type TraceInput, type TraceSpan } from "../tracing/gatherer.cjs";

/** The limits beyond fuel, depth and time that a test has as a run has them. */
export interface TestMoreLimits {
  readonly maxCollection: number;
  readonly maxText: number;
  readonly maxHostCalls: number;
  /** The live memory the test may keep, in MiB (rtlib/limits-memory.ts). */
  readonly maxMemoryMib?: number;
  /** The test's wall time, in milliseconds, which the main thread keeps: E-RT-TIMEOUT says it. */
  readonly timeoutMs?: number;
}

/** What the main thread gives the test's thread when it starts it. */
export interface TestWorkerInput {
  /** The compile cache's folder this command uses (cache.cts): the test may not reach it whatever its grant. */
  readonly cacheFolder?: string;
  /** The compiled program (a CommonJS .cjs in the cache folder). */
  readonly bundle: string;
  /** Its text, read and checked against its seal by the main thread (cli/cache/seal.ts): what runs. */
  readonly source: string;
  /** The name of the test's function in the bundle (`weather$$test0`): which test of which module. */
  readonly functionName: string;
  readonly fuel: number;
  readonly maxDepth: number;
  readonly limits: TestMoreLimits;
  /** Shared with the main thread: index 0 becomes 1 when interrupted, 2 at the test's deadline. */
  readonly cancel: SharedArrayBuffer;
  /** A replays test: every call answered from these recorded calls (cli/testing/replays.ts). */
  readonly replay?: {
    readonly calls: readonly RecordedCall[];
    readonly grant: readonly GrantItem[];
    readonly redacted?: readonly string[];
    /** The requests a recorded server answered: a replayed `serve` feeds them to its handler. */
    readonly requests?: readonly RecordedRequest[];
  };
  /** `--refresh`: the test runs live and each call it completes is sent as a TestRecordedCall. */
  readonly record?: boolean;
  /** `--explain`: the test's run is narrated, and the narration sent with its result. */
  readonly explain?: boolean;
  /** `--trace`: the test's spans are gathered, each sent as a TestSpan as it ends (cli/tracing/gatherer.cts). */
  readonly trace?: TraceInput;
}

/** Spans of a traced test, a batch at a time. */
export interface TestSpans {
  readonly spans: TraceSpan[];
}

/** The grant the test runs with, sent when it is recorded (--refresh): the recording's header lists it. */
export interface TestGrantReport {
  readonly grant: readonly GrantItem[];
}

/** A call the test completed, as a recording writes it (--refresh). */
export interface TestRecordedCall {
  readonly recorded: RecordedCall;
}

/** A child process started (running) or gone: the main thread kills the groups still running when the test ends. */
export interface TestChildReport {
  readonly child: number;
  readonly running: boolean;
}

/** How the test ended, and how long it ran in its thread (loading the program included). */
export interface TestWorkerResult {
  readonly outcome: Outcome;
  readonly ms: number;
  /** A replays test's recorded calls that no call of the test was answered with, by sequence number. */
  readonly unreached?: readonly number[];
  /**
   * The narration of the test's run (--explain): sent whole with the result, so that tests running side by side do not
   * mix their lines.
   */
  readonly narration?: string;
}

export type TestWorkerMessage = TestChildReport | TestGrantReport | TestRecordedCall | TestSpans | TestWorkerResult;

const input = workerData as TestWorkerInput;
const post = (message: TestWorkerMessage) => parentPort!.postMessage(message);
const runtime = loadRuntime() as typeof Runtime;
const started = performance.now();
const replayer =
  input.replay === undefined
    ? undefined
    : runtime.replayerOf(input.replay.calls, input.replay.grant, {
        ...(input.replay.redacted !== undefined ? { redacted: input.replay.redacted } : {}),
        ...(input.replay.requests !== undefined ? { requests: input.replay.requests } : {}),
      });
let narration: string | undefined;
const observers: Runtime.Observer[] = [];
let flushSpans: (() => void) | undefined;
if (input.record === true) observers.push(runtime.recorder((recorded) => post({ recorded })));
if (input.trace !== undefined) {
  const traced = gatherSpans(input.trace, runtime, (spans) => post({ spans }));
  flushSpans = traced.flush;
  runtime.watchDefinitions(traced.watcher);
  observers.push(traced.observer);
}

runtime
  .runTest(
    async () => loadProgram(input.bundle, input.source) as { tests?: readonly Runtime.TestCase[] },
    (tests) => tests.find((test) => test.run.name === input.functionName),
    {
      limits: { fuel: input.fuel, maxDepth: input.maxDepth, cancel: input.cancel, ...input.limits },
      ...(input.cacheFolder !== undefined ? { cacheFolder: input.cacheFolder } : {}),
      onChild: (child, running) => post({ child, running }),
      ...(input.explain === true
        ? {
            narration: {
              write: (text: string) => void (narration = (narration ?? "") + text),
              recordedDuration: () => replayer?.lastAnswered?.duration_ms,
            },
          }
        : {}),
      ...(replayer !== undefined ? { replayer, recorded: input.replay!.calls } : {}),
      ...(observers.length > 0 ? { observers } : {}),
      ...(input.record === true
        ? { onGrant: (items: readonly GrantItem[]) => post({ grant: items.map((item) => ({ ...item })) }) }
        : {}),
    },
  )
  .then(finish, (e: unknown) => finish(runtime.runOutcomeOf(e)));

function finish(outcome: Outcome): void {
  const ms = performance.now() - started;
  runtime.stopChildren();
  process.stdout.end();
  process.stderr.end();
  const unreached = replayer?.unreached().map((c) => c.sequence);
  flushSpans?.();
  post({
    outcome,
    ms,
    ...(unreached !== undefined ? { unreached } : {}),
    ...(narration !== undefined ? { narration } : {}),
  });
  process.exit(0);
}
