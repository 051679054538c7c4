// The worker threads `renyi mcp` does its work in (spec/mcp.md, "Limits and
// hostile input"): every job that checks a program the client sent, explains a
// code or reads a recording (mcp-work.ts) runs in a thread of its own under a
// time limit and a heap limit, so that the thread which reads and answers
// requests never waits on one: a program whose check would take minutes or
// gigabytes is stopped at the limit, its thread ended, and every other
// request is answered meanwhile.
//
// One thread is kept warm between jobs and reused; at most MAX_WORKING jobs
// run at once and at most MAX_WAITING wait their turn. A thread stopped at a
// limit is replaced by a fresh one at once.

import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import type { Job } from "./work.js";
import type { WorkerReply } from "./worker.js";
import { MCP_WORKER, MCP_WORKER_BUNDLED } from "../host/places.cjs";

/** The wall time a job may take, in seconds, unless `renyi mcp --check-timeout` says otherwise. */
export const DEFAULT_CHECK_SECONDS = 10;
/** The heap a job's thread may use, in MiB, unless `renyi mcp --check-memory` says otherwise. */
export const DEFAULT_CHECK_MEMORY_MIB = 512;
/** Jobs running at once; more wait their turn. */
export const MAX_WORKING = 2;
/** Jobs waiting their turn; another is refused at once. */
export const MAX_WAITING = 32;

/**
 * The thread's code: mcp-worker.ts as scripts/bundle.mjs joins it with the compiler (it loads in about two thirds of
 * the time), or as compiled.
 */
const WORKER_CODE = existsSync(MCP_WORKER_BUNDLED) ? MCP_WORKER_BUNDLED : MCP_WORKER;

export interface WorkLimits {
  readonly seconds: number;
  readonly memoryMib: number;
}

/**
 * Why a job gave no answer: a limit reached, the thread's fault, the request cancelled, too many waiting, or the server
 * ending.
 */
export type Stopped = {
  readonly stopped: "time" | "memory" | "too-large" | "fault" | "cancelled" | "busy" | "ending";
  readonly detail?: string;
};

interface Waiting {
  readonly job: Job;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (outcome: { answer: unknown } | Stopped) => void;
}

export class WorkPool {
  private readonly idle: Worker[] = [];
  private working = 0;
  private readonly waiting: Waiting[] = [];
  private readonly running = new Set<() => void>();
  private closed = false;

  constructor(readonly limits: WorkLimits) {
    // A thread is started now, so that the first request finds it loaded.
    this.idle.push(this.startThread());
  }

  /** Does a job in a worker thread: its answer, or why it has none. */
  run<T>(job: Job, signal?: AbortSignal): Promise<{ answer: T } | Stopped> {
    if (this.closed) return Promise.resolve({ stopped: "ending" });
    if (signal?.aborted) return Promise.resolve({ stopped: "cancelled" });
    return new Promise((resolve) => {
      const entry: Waiting = { job, signal, resolve: resolve as Waiting["resolve"] };
      if (this.working < MAX_WORKING) return this.start(entry);
      if (this.waiting.length >= MAX_WAITING) return resolve({ stopped: "busy" });
      this.waiting.push(entry);
      signal?.addEventListener(
        "abort",
        () => {
          const at = this.waiting.indexOf(entry);
          if (at < 0) return;
          this.waiting.splice(at, 1);
          resolve({ stopped: "cancelled" });
        },
        { once: true },
      );
    });
  }

  /** Ends every thread: the jobs going on and waiting end `ending`. */
  close(): void {
    this.closed = true;
    for (const entry of this.waiting.splice(0)) entry.resolve({ stopped: "ending" });
    for (const stop of [...this.running]) stop();
    for (const worker of this.idle.splice(0)) void worker.terminate();
  }

  private startThread(): Worker {
    const worker = new Worker(WORKER_CODE, {
      resourceLimits: {
        maxOldGenerationSizeMb: this.limits.memoryMib,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(this.limits.memoryMib / 8))),
      },
      stdout: true,
      stderr: true,
    });
    // A thread waiting for work does not keep the server's process alive.
    worker.unref();
    // An error while no job listens (a thread being ended reaches its heap limit as it goes, or one waiting idle
    // fails) must not end the server, as an 'error' with no listener would: it is dropped, and a thread that ends
    // while it waits leaves the idle list, so that no job is given to a thread that is gone.
    worker.on("error", () => undefined);
    worker.once("exit", () => {
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
    });
    return worker;
  }

  private start(entry: Waiting): void {
    this.working++;
    const worker = this.idle.pop() ?? this.startThread();
    worker.ref();
    let settled = false;
    const finish = (outcome: { answer: unknown } | Stopped, keep: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      entry.signal?.removeEventListener("abort", onAbort);
      this.running.delete(stop);
      this.working--;
      if (keep && !this.closed && this.idle.length === 0) {
        worker.unref();
        this.idle.push(worker);
      } else {
        void worker.terminate();
        // The thread killed is replaced at once, so that the next job finds one loaded.
        if (!this.closed && this.idle.length === 0) this.idle.push(this.startThread());
      }
      entry.resolve(outcome);
      this.next();
    };
    const onMessage = (reply: WorkerReply): void => {
      if ("answer" in reply) finish({ answer: reply.answer }, true);
      else if ("tooLarge" in reply) finish({ stopped: "too-large", detail: String(reply.tooLarge) }, true);
      else finish({ stopped: "fault", detail: reply.fault }, true);
    };
    // A thread that reaches its heap limit is ended by Node with ERR_WORKER_OUT_OF_MEMORY.
    const onError = (e: Error & { code?: string }): void =>
      finish(
        e.code === "ERR_WORKER_OUT_OF_MEMORY" ? { stopped: "memory" } : { stopped: "fault", detail: e.message },
        false,
      );
    const onExit = (code: number): void =>
      finish({ stopped: "fault", detail: `the worker thread ended with code ${code}` }, false);
    const onAbort = (): void => finish({ stopped: "cancelled" }, false);
    const stop = (): void => finish({ stopped: "ending" }, false);
    const timer = setTimeout(() => finish({ stopped: "time" }, false), this.limits.seconds * 1000);
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    entry.signal?.addEventListener("abort", onAbort, { once: true });
    this.running.add(stop);
    worker.postMessage(entry.job);
  }

  private next(): void {
    while (this.working < MAX_WORKING && this.waiting.length > 0) this.start(this.waiting.shift()!);
  }
}
