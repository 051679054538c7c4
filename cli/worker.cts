// The worker thread a program runs in (architecture.md, "The process model"):
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
import type { MainParameter, GrantItem } from "../rtlib/index.js" with { "resolution-mode": "import" };

// The runtime as one file (scripts/bundle.mjs), the module compiled
// programs require, and the one `renyi/runtime` re-exports: one instance of
// each class, so that `instanceof Failure` holds for what the program throws.
const runtime = loadRuntime() as typeof Runtime;

type Program = { main?: (...args: unknown[]) => unknown; mainParameters?: MainParameter[]; mainGrant?: GrantItem[] | null };

async function load(bundle: string): Promise<Program> {
  return (bundle.endsWith(".cjs") ? loadProgram(bundle) : await import(pathToFileURL(bundle).href)) as Program;
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

export type WorkerOutcome =
  | { outcome: "finished"; steps: number }
  | { outcome: "failed"; value: string; site?: string; steps: number }
  | { outcome: "crashed"; code: string; message: string; site?: string; stack?: string; steps: number }
  | { outcome: "cancelled"; reason: string; steps: number }
  | { outcome: "refused"; message: string };

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

async function run(input: WorkerInput): Promise<WorkerOutcome> {
  runtime.configureLimits({ fuel: input.fuel, maxDepth: input.maxDepth, cancel, requestFuel: input.requestFuel, requestTimeoutMs: input.requestTimeoutMs });
  runtime.serveWith({
    listening: () => parentPort!.postMessage({ serving: true } satisfies ServingNotice),
    crashed: (e) => parentPort!.postMessage({ requestCrash: outcomeOf(e) } satisfies RequestCrash),
  });
  runtime.configureInput(() => parentPort!.postMessage({ input: true } satisfies InputRequest));
  runtime.configureChildren((child, running) => parentPort!.postMessage({ child, running } satisfies ChildReport));
  const program = await load(input.bundle);
  if (typeof program.main !== "function") return { outcome: "refused", message: "the program has no `main` function to run" };
  const args = runtime.convertArguments(program.mainParameters ?? [], input.argv, { none: runtime.NONE, some: runtime.some });
  if (!args.ok) return { outcome: "refused", message: args.message };
  const items = input.grant !== undefined ? input.grant : (program.mainGrant ?? null);
  const python = items?.find((item) => item.path[0] === "python");
  if (python !== undefined) return { outcome: "refused", message: "main needs python, which this version of Renyi knows but does not run yet" };
  const grant = runtime.narrowByCommandLine(items ?? [], input.allowHosts, input.atMost);
  if (!grant.ok) return { outcome: "refused", message: grant.message };
  try {
    await program.main(...(items === null ? [] : [grant.grant]), ...args.values);
    return { outcome: "finished", steps: runtime.stepsUsed() };
  } catch (e) {
    return outcomeOf(e);
  }
}

function outcomeOf(e: unknown): WorkerOutcome {
  const steps = runtime.stepsUsed();
  if (e instanceof runtime.Failure) {
    return { outcome: "failed", value: safeText(e.value), ...(e.site ? { site: e.site } : {}), steps };
  }
  if (e instanceof runtime.Cancelled) return { outcome: "cancelled", reason: e.reason, steps };
  if (e instanceof runtime.Crash) {
    return { outcome: "crashed", code: e.code, message: e.message, ...(e.site ? { site: e.site } : {}), ...(e.stack ? { stack: e.stack } : {}), steps };
  }
  const limit = runtime.engineLimit(e);
  if (limit !== undefined) return { outcome: "crashed", code: limit.code, message: limit.message, ...(limit.stack ? { stack: limit.stack } : {}), steps };
  const error = e instanceof Error ? e : new Error(String(e));
  return { outcome: "crashed", code: "E-RT-INTERNAL", message: `an internal error: ${error.message}`, ...(error.stack ? { stack: error.stack } : {}), steps };
}

function safeText(value: unknown): string {
  try {
    return runtime.toText(value);
  } catch {
    return String(value);
  }
}

// After the outcome, the thread ends, whatever the program left open (a timer, a socket).
parentPort!.once("message", (input: WorkerInput) => void start(input));

function start(input: WorkerInput): void {
  run(input).then(finish, (e: unknown) => finish(outcomeOf(e)));
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
