// A run of a program, once `renyi run` has read its command line: compile it
// (or take it from the cache, or admit a bundle), run it in the worker thread
// started for it, and report how the run ended with the exit codes of
// spec/runtime.md, section 5. The worker it was started with is held by a
// HeldWorker, which ends it however the run ends before it takes it.

import { resolve } from "node:path";
import { finished } from "node:stream/promises";
import { pathToFileURL } from "node:url";
import { renderText, type Diagnostic } from "../../report/diagnostics.js";
import { exitCodeOf, outcomeText, requestCrashText, servedText } from "../../report/outcome-text.js";
import type { SourceMapV3 } from "../../report/source-map.js";
import type { SourceFile } from "../../report/source.js";
import { longTimeout } from "../../rtlib/waits.js";
import { DEFAULT_LIMITS, heapLimitMib } from "../../vocabulary/limits.js";
import type { GrantItem } from "../../vocabulary/needs.js";
import { EXIT } from "../../vocabulary/outcomes.js";
import { runMessage } from "../../vocabulary/problems/run.js";
import { cacheDirectory } from "../cache/cache.cjs";
import { compileWithCache, type Compiled, type NotCompiled } from "../cache/cached-compile.js";
import { RUNTIME_URL } from "../host/places.cjs";
// The execution record's module loads only under --json.
import type { RecordSubject } from "./execution-record.js";
// So does tracing's, under --trace, --trace-endpoint or --log.
import type { RunTrace } from "../tracing/run-trace.js";
import { onCtrlC } from "./interrupts.js";
import type { RunPlan, RunSession } from "./plan.js";
import type { RunOptions } from "./run-options.js";
import { startWorker, type EarlyWorker } from "./spawn.cjs";
import { transferredOf } from "./transfers.js";
import type { ExecutionLog, RunTally, WorkerInput, WorkerMessage, WorkerOutcome } from "./worker.cjs";

/**
 * The worker thread a run was started with, which boots while the command
 * reads its command line and compiles. Until the run takes it, it is the
 * command's to end: `release()` in one `finally` ends it whatever way the
 * command went.
 */
export class HeldWorker {
  private taken = false;
  constructor(private early: EarlyWorker) {}

  /** A run with another memory limit needs a thread with the heap that goes with it. */
  restartWithHeap(heapMib: number): void {
    void this.early.worker.terminate();
    this.early = startWorker(heapMib);
  }

  take(): EarlyWorker {
    this.taken = true;
    return this.early;
  }

  release(): void {
    if (!this.taken) void this.early.worker.terminate();
  }
}

/** What `renyi run` read of its command line: its options, the program's file and the words after it. */
export interface ParsedRun {
  readonly options: RunOptions;
  readonly file: string;
  readonly programArgs: string[];
}

/** Runs the program `parsed` names with the held worker, under `plan` when a command brings one; returns the exit code. */
export async function runProgram(held: HeldWorker, parsed: ParsedRun, plan: RunPlan | undefined): Promise<number> {
  const options = parsed.options;
  if (options.trace === undefined && options.traceEndpoint === undefined && !options.log)
    return runWatched(held, parsed, plan, undefined);
  const tracing = await import("../tracing/run-trace.js");
  // A trace that could not be written or sent is refused before the run, not found out after it.
  const problem = tracing.traceRefusal(options);
  if (problem !== undefined) {
    process.stderr.write(`error: ${problem}\n`);
    if (options.json) {
      const { RecordSubject, writeRecord } = await import("./execution-record.js");
      writeRecord(new RecordSubject(parsed.file).refusedWith(`error: ${problem}`, EXIT.refused), true);
    }
    return EXIT.refused;
  }
  const trace = new tracing.RunTrace(options, parsed.file);
  // Refused, should anything throw: the trace is written however the command ends.
  let exit: number = EXIT.refused;
  try {
    exit = await runWatched(held, parsed, plan, trace);
    return exit;
  } finally {
    await trace.finish(exit);
  }
}

async function runWatched(
  held: HeldWorker,
  parsed: ParsedRun,
  plan: RunPlan | undefined,
  trace: RunTrace | undefined,
): Promise<number> {
  // The run's time starts before its compile: a program that takes minutes to compile takes minutes to run.
  const startedAt = Date.now();
  const recording = parsed.options.json ? await import("./execution-record.js") : undefined;
  const subject = recording === undefined ? undefined : new recording.RecordSubject(parsed.file);
  // The early thread has the default heap; a run given another memory limit is started again with the heap that goes with it.
  if (parsed.options.maxMemoryMib !== DEFAULT_LIMITS.maxMemoryMib)
    held.restartWithHeap(heapLimitMib(parsed.options.maxMemoryMib));
  let compiled: Compiled | NotCompiled;
  try {
    if (parsed.file.endsWith(".mjs")) compiled = await admittedBundle(parsed.file, parsed.options.trust);
    else
      compiled = await compileWithCache(
        parsed.file,
        // A traced run hears of its definitions' calls through the narration's hook (rtlib/narration.ts).
        parsed.options.explain || trace?.workerInput().trace !== undefined,
        deadlineOf(startedAt, parsed.options.timeoutSeconds),
        plan?.origins?.(parsed) === true,
      );
  } catch (e) {
    if (!(e instanceof CompileTimedOut)) throw e;
    return compileTimedOut(parsed.file, parsed.options.timeoutSeconds, subject, trace);
  }
  if ("diagnostics" in compiled) {
    process.stderr.write(renderText(compiled.diagnostics, compiled.sources));
    if (subject !== undefined)
      recording!.writeRecord(subject.refused(compiled.diagnostics, compiled.sources, EXIT.refused), true);
    return EXIT.refused;
  }
  subject?.compiled(compiled.program, compiled.code, compiled.bundle);
  trace?.compiled(compiled.program, compiled.code());
  let session: RunSession | undefined;
  if (plan !== undefined) {
    const planned = plan({ program: compiled.program, file: parsed.file, code: compiled.code }, parsed);
    if ("refused" in planned) {
      process.stderr.write(planned.refused);
      if (subject !== undefined) recording!.writeRecord(subject.refusedWith(planned.refused, EXIT.refused), true);
      return EXIT.refused;
    }
    session = planned;
  }
  return runBundle(
    held.take(),
    compiled.path,
    compiled.map,
    compiled.sources,
    parsed.programArgs,
    parsed.options,
    compiled.grant,
    session,
    subject,
    compiled.source,
    startedAt,
    trace,
  );
}

/** Thrown from the compiler's `stop` once the run's time is up while it is still compiling. */
class CompileTimedOut extends Error {}

/** What the compiler calls now and then: it ends the compile once the run's --timeout has passed since `startedAt`. */
function deadlineOf(startedAt: number, timeoutSeconds: number): () => void {
  const deadline = startedAt + timeoutSeconds * 1000;
  return () => {
    if (Date.now() > deadline) throw new CompileTimedOut();
  };
}

/** A run whose time ran out while its program was compiled: it ends as a run at its time limit does (E-RT-TIMEOUT), at no place in it. */
function compileTimedOut(
  file: string,
  timeoutSeconds: number,
  subject: RecordSubject | undefined,
  trace: RunTrace | undefined,
): number {
  const outcome = timeoutOutcome(timeoutSeconds, "compiling");
  trace?.ended(outcome);
  const at = {
    path: file,
    map: (): SourceMapV3 => ({ version: 3, sources: [], names: [], mappings: "" }),
    sources: () => new Map<string, SourceFile>(),
  };
  const exit = reportOutcome(outcome, at.path, at.map, at.sources);
  subject?.write(subject.ran(outcome, undefined, undefined, exit, at), true);
  return exit;
}

/** E-RT-TIMEOUT where the program had no say: its time ran out while it was compiled, or it was stopped by force. */
function timeoutOutcome(timeoutSeconds: number, stopped: "compiling" | "by-force"): WorkerOutcome {
  return {
    outcome: "crashed",
    code: "E-RT-TIMEOUT",
    message: runMessage("E-RT-TIMEOUT", { milliseconds: timeoutSeconds * 1000, stopped }),
    steps: 0,
  };
}

/**
 * A bundle built by `renyic build`, admitted (cli/bundles/admit.ts), then run
 * as the text admitted, with its import of the runtime pointed at this toolchain's.
 */
async function admittedBundle(file: string, trust: readonly string[]): Promise<Compiled | NotCompiled> {
  // The validator (and acorn) load only for bundles: a .ry program does not need them.
  const { admitBundle } = await import("../bundles/admit.js");
  const { readBundleSources } = await import("../bundles/bundle-files.js");
  const admitted = await admitBundle(file, trust);
  if (!admitted.ok) {
    const reason = admitted.problem;
    const refused: Diagnostic = {
      code: "E-RT-REFUSED",
      severity: "error",
      message: runMessage("E-RT-REFUSED", { reason }),
      span: { file, start: 0, end: 0 },
      notes: [],
      facts: { reason },
    };
    return { diagnostics: [refused], sources: new Map<string, SourceFile>() };
  }
  const { code, manifest, map } = admitted;
  // The text admitted is the text that runs: the worker imports it as it is, never the file read again. Its
  // frames are named by the bundle's own path, where a crash is placed through its source map.
  const path = resolve(file);
  const runnable =
    code.slice(0, admitted.importStart) +
    JSON.stringify(RUNTIME_URL) +
    code.slice(admitted.importEnd) +
    `\n//# sourceURL=${pathToFileURL(path).href}\n`;
  let sources: Map<string, SourceFile> | undefined;
  return {
    path,
    source: runnable,
    map: () => map,
    sources: () => (sources ??= readBundleSources(file, manifest)),
    grant: admitted.grant,
    program: manifest.program,
    code: () => manifest.code,
    bundle: () => manifest.bundle,
  };
}

/** How long a cancelled program has to stop on its own before its thread is stopped by force. */
const FORCED_AFTER_MS = 2000;

/** Runs a compiled bundle in a worker and reports its outcome; returns the exit code. */
function runBundle(
  early: EarlyWorker,
  path: string,
  map: () => SourceMapV3,
  sources: () => ReadonlyMap<string, SourceFile>,
  programArgs: readonly string[],
  options: RunOptions,
  grant?: GrantItem[] | null,
  session?: RunSession,
  subject?: RecordSubject,
  source?: string,
  startedAt = Date.now(),
  trace?: RunTrace,
): Promise<number> {
  const { worker } = early;
  const flag = new Int32Array(early.cancel);
  const input: WorkerInput = {
    bundle: path,
    ...(source !== undefined ? { source } : {}),
    cacheFolder: cacheDirectory(),
    argv: programArgs,
    fuel: options.fuel,
    maxDepth: options.maxDepth,
    requestFuel: options.requestFuel,
    requestTimeoutMs: options.requestTimeoutSeconds * 1000,
    limits: {
      maxCollection: options.maxCollection,
      maxText: options.maxText,
      maxOutputLines: options.maxOutputLines,
      maxOutputBytes: options.maxOutputBytes,
      maxHostCalls: options.maxHostCalls,
      maxMemoryMib: options.maxMemoryMib,
      timeoutMs: options.timeoutSeconds * 1000,
    },
    allowHosts: options.allowHosts,
    atMost: options.atMost,
    ...(grant !== undefined ? { grant } : {}),
    ...(options.explain ? { explain: true } : {}),
    ...session?.input,
    ...(subject !== undefined ? { log: true } : {}),
    ...trace?.workerInput(),
  };
  // A bundle is compiled without narration: only its effects can be narrated (spec/runtime.md, "Narrated runs").
  if (options.explain && path.endsWith(".mjs"))
    process.stderr.write(
      "(a bundle built by renyic build is compiled without narration: only its effects are narrated)\n",
    );
  worker.postMessage(input, transferredOf(input));
  // The program reads the terminal's input (console.read_line) through its own stream, which
  // the terminal's input is piped into when the program first reads (InputRequest).
  let reading = false;
  worker.stdout.pipe(process.stdout, { end: false });
  worker.stderr.pipe(process.stderr, { end: false });
  // When the reader goes away (`renyi run x.ry | head`), pipe() lets go of the terminal's
  // stream; what the program prints after that is read and dropped, so that it never waits
  // on a reader that is gone, and the run goes on to its end.
  process.stdout.once("error", () => worker.stdout.resume());
  process.stderr.once("error", () => worker.stderr.resume());
  const drained = Promise.all([finished(worker.stdout), finished(worker.stderr)]);
  // The execution record goes on a line of its own after the program's output.
  let endsLine = true;
  if (subject !== undefined)
    worker.stdout.on("data", (chunk: Buffer) => void (chunk.length > 0 && (endsLine = chunk[chunk.length - 1] === 10)));
  return new Promise<number>((resolve) => {
    let outcome: WorkerOutcome | undefined;
    let served: { answered: number; crashed: number } | undefined;
    let tally: RunTally["tally"] | undefined;
    let log: ExecutionLog["log"] | undefined;
    let forced: NodeJS.Timeout | undefined;
    // Cancellation is a flag the program reads at its steps and before and during every effect;
    // a program stuck where it cannot read it is stopped after a grace period, at a place not known.
    const stopNow = (reason: 1 | 2) => {
      outcome ??=
        reason === 2
          ? timeoutOutcome(options.timeoutSeconds, "by-force")
          : { outcome: "cancelled", reason: "interrupt", steps: 0 };
      void worker.terminate();
    };
    const cancelRun = (reason: 1 | 2) => {
      Atomics.store(flag, 0, reason);
      forced ??= setTimeout(() => stopNow(reason), FORCED_AFTER_MS);
    };
    const ctrlC = onCtrlC(
      () => cancelRun(1),
      () => stopNow(1),
    );
    // A chain of timers: one timer holds at most about 24.8 days (rtlib/waits.ts).
    // What the compile took of the run's time is not given again.
    let deadline = longTimeout(() => cancelRun(2), options.timeoutSeconds * 1000 - (Date.now() - startedAt));
    // A durable run's time asleep on its endpoint's timer is not counted: the deadline is paused while it sleeps.
    let deadlineAt = startedAt + options.timeoutSeconds * 1000;
    let pausedWithMs: number | undefined;
    // A server's run without --timeout has no deadline left to pause.
    let timed = true;
    const stopRelay = session?.durable?.attach(
      (reply) => worker.postMessage(reply),
      (sleeping) => {
        if (!timed || over) return;
        if (sleeping && pausedWithMs === undefined) {
          pausedWithMs = deadlineAt - Date.now();
          deadline.clear();
        } else if (!sleeping && pausedWithMs !== undefined) {
          deadlineAt = Date.now() + pausedWithMs;
          deadline = longTimeout(() => cancelRun(2), pausedWithMs);
          pausedWithMs = undefined;
        }
      },
    );
    // The run is over at its outcome (or, without one, when the thread stops); it is
    // reported once the program's output has come through, without waiting for the
    // thread to tear down: the worker ends its output streams before it sends the outcome.
    let over = false;
    // The process groups of the program's children still running (lib/process.ts): killed when
    // the run ends, however it ends, even when the worker was stopped by force.
    const children = new Set<number>();
    const end = () => {
      if (over) return;
      over = true;
      for (const pid of children) {
        try {
          process.kill(-pid, "SIGKILL");
        } catch {
          // The group is gone already.
        }
      }
      if (reading) {
        process.stdin.unpipe(worker.stdin!);
        process.stdin.destroy();
      }
      ctrlC.off();
      deadline.clear();
      stopRelay?.();
      clearTimeout(forced);
      void drained.then(() => {
        // The thread no longer keeps the process alive: it is stopping, or stopped.
        worker.unref();
        const final = outcome ?? {
          outcome: "crashed",
          code: "E-RT-INTERNAL",
          message: runMessage("E-RT-INTERNAL", { problem: "no-outcome" }),
          steps: 0,
        };
        if (served !== undefined) process.stderr.write(servedText(served));
        trace?.ended(final);
        const code = reportOutcome(final, path, map, sources);
        const exit = session === undefined ? code : session.onEnd(final, tally, code);
        if (subject !== undefined)
          subject.write(subject.ran(final, log, served, exit, { path, map, sources }), endsLine);
        resolve(exit);
      });
    };
    worker.on("message", (message: WorkerMessage) => {
      if ("child" in message) {
        if (message.running) children.add(message.child);
        else children.delete(message.child);
        return;
      }
      if ("input" in message) {
        if (!reading && !over) process.stdin.pipe(worker.stdin!);
        reading = true;
        return;
      }
      // A server runs until it is stopped: only a --timeout given on the command line stops it.
      if ("serving" in message) {
        if (!options.timeoutGiven) {
          deadline.clear();
          timed = false;
        }
        return;
      }
      if ("requestCrash" in message) {
        process.stderr.write(requestCrashText(message.requestCrash, { path, map, sources }));
        return;
      }
      if ("served" in message) {
        served = message.served;
        return;
      }
      if ("durable" in message) {
        session?.durable?.ask(message);
        return;
      }
      if ("recorded" in message && message.keep !== undefined) {
        session?.durable?.keep({ ...message, keep: message.keep });
        return;
      }
      if ("recorded" in message) {
        session?.onRecorded?.(
          message.recorded,
          message.replayed === true,
          message.guarded,
          message.redactedParts,
          message.redactedTexts,
        );
        return;
      }
      if ("incoming" in message) {
        session?.onIncoming?.(message.incoming);
        return;
      }
      if ("answered" in message) {
        session?.onAnswered?.(message.answered.request, message.answered.response);
        return;
      }
      if ("tally" in message) {
        tally = message.tally;
        return;
      }
      if ("log" in message) {
        log = message.log;
        return;
      }
      if ("spans" in message) {
        trace?.add(message.spans);
        return;
      }
      outcome ??= message;
      end();
    });
    worker.once("error", (e: Error & { code?: string }) => {
      const outOfMemory = e.code === "ERR_WORKER_OUT_OF_MEMORY";
      outcome ??= outOfMemory
        ? { outcome: "crashed", code: "E-RT-LIMIT-MEMORY", message: runMessage("E-RT-LIMIT-MEMORY", {}), steps: 0 }
        : {
            outcome: "crashed",
            code: "E-RT-INTERNAL",
            message: runMessage("E-RT-INTERNAL", { problem: "thrown", detail: e.message }),
            steps: 0,
          };
    });
    worker.once("exit", end);
  });
}

function reportOutcome(
  outcome: WorkerOutcome,
  path: string,
  map: () => SourceMapV3,
  sources: () => ReadonlyMap<string, SourceFile>,
): number {
  process.stderr.write(outcomeText(outcome, { path, map, sources }));
  return exitCodeOf(outcome);
}
