// The worker thread a program runs in (spec/runtime.md, section 6):
// it loads the bundle, reads main's arguments, runs main, and reports how the
// run ended. The main thread keeps signals, the deadline and the terminal.
//
// CommonJS, as the programs `renyi run` compiles for it are: a thread that
// loads no ES module does without Node's ES module loader, about 5 ms of every
// run's start-up (bench/RESULTS.md). A bundle built by `renyic build` is an ES
// module, and is imported.

import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { loadProgram, loadRuntime } from "./code-cache.cjs";
import type * as Runtime from "../rtlib/index.js" with { "resolution-mode": "import" };
import type { GrantItem, Outcome } from "../rtlib/index.js" with { "resolution-mode": "import" };

// The runtime as one file (scripts/bundle.mjs), the module compiled
// programs require, and the one `renyi/runtime` re-exports: one instance of
// each class, so that `instanceof Failure` holds for what the program throws.
const runtime = loadRuntime() as typeof Runtime;

async function load(bundle: string): Promise<Runtime.Program> {
  return (bundle.endsWith(".cjs") ? loadProgram(bundle) : await import(pathToFileURL(bundle).href)) as Runtime.Program;
}

/** What the main thread sends once it has the program: the worker was started before. */
export interface WorkerInput {
  /** The bundle's path: a CommonJS .cjs compiled by `renyi run`, or an ES module .mjs. */
  readonly bundle: string;
  readonly argv: readonly string[];
  readonly fuel: number;
  readonly maxDepth: number;
  /** Each request's fuel and time when the program serves (spec/runtime.md). */
  readonly requestFuel: number;
  readonly requestTimeoutMs: number;
  readonly allowHosts: readonly string[];
  readonly atMost: readonly string[];
  /**
   * A bundle's grant, from its manifest, which renyi run has compared with the
   * bundle's own (null: main needs nothing). Absent for a program renyi run
   * compiled itself, whose own grant is its source's.
   */
  readonly grant?: GrantItem[] | null;
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

export type WorkerMessage = InputRequest | ChildReport | ServingNotice | RequestCrash | ServedTotals | WorkerOutcome;

function run(input: WorkerInput): Promise<WorkerOutcome> {
  const post = (message: WorkerMessage) => parentPort!.postMessage(message);
  return runtime.runMain(() => load(input.bundle), {
    argv: input.argv,
    limits: { fuel: input.fuel, maxDepth: input.maxDepth, cancel, requestFuel: input.requestFuel, requestTimeoutMs: input.requestTimeoutMs },
    ...(input.grant !== undefined ? { grant: input.grant } : {}),
    allowHosts: input.allowHosts,
    atMost: input.atMost,
    onInput: () => post({ input: true }),
    onChild: (child, running) => post({ child, running }),
    onListening: () => post({ serving: true }),
    onRequestCrash: (outcome) => post({ requestCrash: outcome }),
  });
}

// After the outcome, the thread ends, whatever the program left open (a timer, a socket).
parentPort!.once("message", (input: WorkerInput) => void start(input));

function start(input: WorkerInput): void {
  run(input).then(finish, (e: unknown) => finish(runtime.outcomeOf(e)));
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
  if (served.answered > 0) parentPort!.postMessage({ served: { answered: served.answered, crashed: served.crashed } } satisfies ServedTotals);
  parentPort!.postMessage(outcome);
  process.exit(0);
}
