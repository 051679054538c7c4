// Running one test in a thread of its own (cli/testing/worker.cts) under its
// limits, and what its outcome means for a test (spec/testing.md): a check
// that did not hold, or a failure the test body did not handle, fails it;
// any other crash, a limit reached, the time limit included, crashes it.

import { Worker } from "node:worker_threads";
import type { CheckFacts, Outcome } from "../../rtlib/run-main.js";
import { heapLimitMib } from "../../vocabulary/limits.js";
import type { TestMoreLimits, TestWorkerInput, TestWorkerMessage } from "./worker.cjs";
import { cacheDirectory } from "../cache/cache.cjs";
import type { RecordedCall } from "../../vocabulary/recording.js";
import type { GrantItem } from "../../vocabulary/needs.js";
import { runMessage } from "../../vocabulary/problems/run.js";
import { TEST_WORKER } from "../host/places.cjs";
import type { TraceSpan } from "../tracing/gatherer.cjs";

/** How long a test stuck where it cannot read its cancel flag gets before its thread is ended. */
const GRACE_MS = 2000;

/** The most of a test's console output that is kept to show beside its result. */
const MAX_OUTPUT = 64 * 1024;

export interface TestLimits {
  readonly fuel: number;
  readonly maxDepth: number;
  readonly timeoutSeconds: number;
  /**
   * The live memory each test may keep, in MiB (`renyi test --max-memory`); its thread's heap is heapLimitMib of it.
   */
  readonly maxMemoryMib: number;
  /** The limits a test has as a run has them (`renyi test --max-host-calls` ...); output is the test report's. */
  readonly more: TestMoreLimits;
}

export type TestStatus = "passed" | "failed" | "crashed" | "skipped" | "cancelled" | "refreshed";

export interface TestResult {
  readonly file: string;
  readonly name: string;
  readonly status: TestStatus;
  /** Milliseconds the test ran (in its thread, the program's loading included). */
  readonly ms: number;
  /** Where it failed or crashed, `file.ry:line:column`; for a skipped test, where it is. */
  readonly site?: string;
  /** A crash's code (E-RT-...); a failed check has E-RT-CHECK. */
  readonly code?: string;
  readonly message?: string;
  readonly check?: CheckFacts;
  /** Why a test was skipped. */
  readonly reason?: string;
  /** A replays test's recording, resolved against the folder of the test's file. */
  readonly recording?: string;
  /** A line shown under what went wrong (a refresh that wrote nothing says so). */
  readonly note?: string;
  /** What the test printed (shown in text under a test that did not pass; always in --json). */
  readonly output?: string;
  /** The narration of the test's run (--explain). */
  readonly narration?: string;
}

/** What a test run needs to know of a test to run it. */
export interface TestJob {
  readonly file: string;
  readonly name: string;
  readonly bundle: string;
  /** The compiled program's text, checked against its seal: what the test's thread runs. */
  readonly source: string;
  readonly functionName: string;
  /** A replays test: the calls its effects are answered from. */
  readonly replay?: TestWorkerInput["replay"];
  /** Run live, every completed call kept (--refresh). */
  readonly record?: boolean;
  /** Narrate the test's run (--explain). */
  readonly explain?: boolean;
  /** Gather the test's spans under this one (--trace). */
  readonly trace?: TestWorkerInput["trace"];
}

/** How a test's run ended, with what a replay left unused and what a live run recorded. */
export interface TestRunEnd {
  readonly outcome: Outcome;
  readonly ms: number;
  readonly output: string;
  readonly unreached?: readonly number[];
  readonly recorded: readonly RecordedCall[];
  /** The grant the test ran with, when it was recorded. */
  readonly grant?: readonly GrantItem[];
  /** The narration of the test's run (--explain). */
  readonly narration?: string;
  /** The spans the test's thread gathered (--trace). */
  readonly spans: readonly TraceSpan[];
}

/** A running test: its result, and a way to interrupt it (Ctrl-C). */
export interface RunningTest {
  readonly result: Promise<TestRunEnd>;
  interrupt(): void;
  /** Ends the test's thread at once (a second Ctrl-C). */
  halt(): void;
}

/** Starts `job` in a thread of its own; the result comes when the test has ended, however it ends. */
export function startTest(job: TestJob, limits: TestLimits): RunningTest {
  const cancel = new SharedArrayBuffer(4);
  const flag = new Int32Array(cancel);
  const input: TestWorkerInput = {
    bundle: job.bundle,
    source: job.source,
    cacheFolder: cacheDirectory(),
    functionName: job.functionName,
    fuel: limits.fuel,
    maxDepth: limits.maxDepth,
    limits: { ...limits.more, maxMemoryMib: limits.maxMemoryMib, timeoutMs: limits.timeoutSeconds * 1000 },
    cancel,
    ...(job.replay ? { replay: job.replay } : {}),
    ...(job.record ? { record: true } : {}),
    ...(job.explain ? { explain: true } : {}),
    ...(job.trace !== undefined ? { trace: job.trace } : {}),
  };
  const started = performance.now();
  const worker = new Worker(TEST_WORKER, {
    workerData: input,
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: heapLimitMib(limits.maxMemoryMib), stackSizeMb: 16 },
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    if (output.length < MAX_OUTPUT) output += chunk.toString("utf8").slice(0, MAX_OUTPUT - output.length);
  };
  worker.stdout.on("data", keep);
  worker.stderr.on("data", keep);
  let forced: NodeJS.Timeout | undefined;
  let stopped: Outcome | undefined;
  // Cancellation is a flag the test reads at its steps and before and during every effect;
  // a test stuck where it cannot read it has its thread ended after a grace period, at a place not known.
  const halt = (reason: 1 | 2) => {
    stopped ??=
      reason === 2
        ? {
            outcome: "crashed",
            code: "E-RT-TIMEOUT",
            message: runMessage("E-RT-TIMEOUT", {
              milliseconds: limits.timeoutSeconds * 1000,
              owner: "test",
              stopped: "by-force",
            }),
            steps: 0,
          }
        : { outcome: "cancelled", reason: "interrupt", steps: 0 };
    void worker.terminate();
  };
  const stop = (reason: 1 | 2) => {
    Atomics.store(flag, 0, reason);
    forced ??= setTimeout(() => halt(reason), GRACE_MS);
  };
  const deadline = setTimeout(() => stop(2), limits.timeoutSeconds * 1000);
  const children = new Set<number>();
  const recorded: RecordedCall[] = [];
  const spans: TraceSpan[] = [];
  const result = new Promise<TestRunEnd>((resolve) => {
    let outcome: Outcome | undefined;
    let ms: number | undefined;
    let unreached: readonly number[] | undefined;
    let grant: readonly GrantItem[] | undefined;
    let narration: string | undefined;
    worker.on("message", (message: TestWorkerMessage) => {
      if ("grant" in message) {
        grant = message.grant;
        return;
      }
      if ("recorded" in message) {
        recorded.push(message.recorded);
        return;
      }
      if ("spans" in message) {
        spans.push(...message.spans);
        return;
      }
      if ("child" in message) {
        if (message.running) children.add(message.child);
        else children.delete(message.child);
        return;
      }
      outcome ??= message.outcome;
      ms ??= message.ms;
      unreached ??= message.unreached;
      narration ??= message.narration;
    });
    worker.once("error", (e: Error & { code?: string }) => {
      const outOfMemory = e.code === "ERR_WORKER_OUT_OF_MEMORY";
      outcome ??= outOfMemory
        ? {
            outcome: "crashed",
            code: "E-RT-LIMIT-MEMORY",
            message: runMessage("E-RT-LIMIT-MEMORY", { owner: "test" }),
            steps: 0,
          }
        : {
            outcome: "crashed",
            code: "E-RT-INTERNAL",
            message: runMessage("E-RT-INTERNAL", { problem: "thrown", detail: e.message }),
            steps: 0,
          };
    });
    worker.once("exit", () => {
      clearTimeout(deadline);
      clearTimeout(forced);
      // No child of a test outlives it, even one whose thread was ended by force.
      for (const pid of children) {
        try {
          process.kill(-pid, "SIGKILL");
        } catch {
          // The group is gone already.
        }
      }
      const final = outcome ??
        stopped ?? {
          outcome: "crashed",
          code: "E-RT-INTERNAL",
          message: runMessage("E-RT-INTERNAL", { problem: "no-outcome" }),
          steps: 0,
        };
      resolve({
        outcome: final,
        ms: ms ?? performance.now() - started,
        output,
        recorded,
        spans,
        ...(unreached !== undefined ? { unreached } : {}),
        ...(grant !== undefined ? { grant } : {}),
        ...(narration !== undefined ? { narration } : {}),
      });
    });
  });
  return { result, interrupt: () => stop(1), halt: () => halt(1) };
}

/** A test's result from the outcome of its run. */
export function resultOf(
  job: Pick<TestJob, "file" | "name"> & { site: string },
  outcome: Outcome,
  ms: number,
  output: string,
  crashSite: (outcome: Outcome) => string | undefined,
): TestResult {
  const base = { file: job.file, name: job.name, ms: Math.round(ms) };
  const printed = output === "" ? {} : { output };
  switch (outcome.outcome) {
    case "finished":
      return { ...base, status: "passed", ...printed };
    case "failed":
      return {
        ...base,
        status: "failed",
        code: "E-RT-FAILED",
        message: runMessage("E-RT-FAILED", { value: outcome.value, in: "test" }),
        ...(outcome.site ? { site: outcome.site } : {}),
        ...printed,
      };
    case "crashed": {
      const site = crashSite(outcome);
      const where = site === undefined ? {} : { site };
      // A recording that exceeds the test's budgets fails it, as a check would (spec/testing.md).
      if (outcome.code === "E-RT-REPLAY-BUDGET")
        return { ...base, status: "failed", code: outcome.code, message: outcome.message, site: job.site, ...printed };
      if (outcome.code === "E-RT-CHECK")
        return {
          ...base,
          status: "failed",
          code: outcome.code,
          message: outcome.message,
          ...where,
          ...(outcome.check ? { check: outcome.check } : {}),
          ...printed,
        };
      // A test stopped by force at its time limit is reported at its `test` line: where it was is not known.
      const place = site === undefined && outcome.code === "E-RT-TIMEOUT" ? { site: job.site } : where;
      return { ...base, status: "crashed", code: outcome.code, message: outcome.message, ...place, ...printed };
    }
    case "cancelled":
      return { ...base, status: "cancelled", message: "interrupted", ...printed };
    case "refused":
      return {
        ...base,
        status: "crashed",
        code: outcome.code ?? "E-RT-REFUSED",
        message: outcome.message,
        site: job.site,
        ...printed,
      };
  }
}
