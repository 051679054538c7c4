// The reader's thread of `renyi view` (spec/view.md, section 10): the answers that read a recording
// or check a program (heavy.ts) are made in a worker thread of their own, under a heap limit and a
// time bound, so that the server's thread, which checks every request and answers the list and the
// page's files, never waits on them and never runs out of memory for them. The thread holds the
// recordings read (recording-view.ts). A job that takes the thread past its heap, or past the time
// bound, ends the thread and is refused with a code; the next job finds a fresh thread.
//
// Jobs are answered one at a time, in order; at most MAX_WAITING wait their turn.

import { existsSync } from "node:fs";
import { totalmem } from "node:os";
import { Worker } from "node:worker_threads";
import { VIEW_READER, VIEW_READER_BUNDLED } from "../host/places.cjs";
import { type ApiAnswer, viewRefusal } from "./answers.js";
import type { HeavyJob } from "./heavy.js";
import type { ReaderReply, ReaderRequest } from "./reader.js";

const MIB = 1024 * 1024;
/** The heap the thread may use, in MiB: a quarter of the machine's memory, at most 2 GiB, at least 128 MiB. */
const DEFAULT_LIMIT_MIB = Math.max(128, Math.min(2048, Math.floor(totalmem() / MIB / 4)));
/** The time a job may take, from its start in a thread that is loaded. */
const DEFAULT_TIMEOUT_MS = 30_000;
/** Jobs waiting their turn; another is refused at once. */
const MAX_WAITING = 64;

/** The thread's code: reader.ts as scripts/bundle.mjs joins it with the compiler, or as compiled. */
const READER_CODE = existsSync(VIEW_READER_BUNDLED) ? VIEW_READER_BUNDLED : VIEW_READER;

/** A positive whole number from the environment (the tests' bounds), else the default. */
function fromEnvironment(name: string, fallback: number): number {
  const given = process.env[name];
  return given !== undefined && /^[1-9][0-9]{0,8}$/.test(given) ? Number(given) : fallback;
}

interface Waiting {
  readonly job: HeavyJob;
  /** Whether it was started in a thread that ended of memory with recordings of other jobs kept in it. */
  retried: boolean;
  readonly resolve: (answer: ApiAnswer) => void;
}

/** What a job reads, said in a refusal: its file, or its two. */
function named(job: HeavyJob): string {
  return job.kind === "compare" ? `${job.a.id} and ${job.b.id}` : job.file.id;
}

export class ReaderThread {
  readonly limitMib = fromEnvironment("RENYI_VIEW_READER_MIB", DEFAULT_LIMIT_MIB);
  readonly timeoutMs = fromEnvironment("RENYI_VIEW_READ_TIMEOUT_MS", DEFAULT_TIMEOUT_MS);
  private worker: Worker | undefined;
  private ready = false;
  /** Jobs the thread answered: a thread that ends of memory after some held their recordings. */
  private answered = 0;
  private current: (Waiting & { readonly seq: number; readonly timer: NodeJS.Timeout | undefined }) | undefined;
  private readonly waiting: Waiting[] = [];
  private seq = 0;
  private closed = false;

  /** The answer to a job: the thread's, or a refusal that says why it has none. */
  answer(job: HeavyJob): Promise<ApiAnswer> {
    if (this.closed) return Promise.resolve(viewRefusal(503, "E-VIEW-BUSY", { why: "ending" }));
    if (this.waiting.length >= MAX_WAITING)
      return Promise.resolve(viewRefusal(503, "E-VIEW-BUSY", { why: "waiting" }));
    return new Promise((resolve) => {
      this.waiting.push({ job, retried: false, resolve });
      this.next();
    });
  }

  /** Ends the thread: the jobs going on and waiting are refused. */
  close(): Promise<void> {
    this.closed = true;
    const ending = viewRefusal(503, "E-VIEW-BUSY", { why: "ending" });
    if (this.current !== undefined) {
      clearTimeout(this.current.timer);
      this.current.resolve(ending);
      this.current = undefined;
    }
    for (const entry of this.waiting.splice(0)) entry.resolve(ending);
    const worker = this.worker;
    this.worker = undefined;
    return worker === undefined ? Promise.resolve() : worker.terminate().then(() => undefined);
  }

  private start(): Worker {
    const worker = new Worker(READER_CODE, {
      resourceLimits: {
        maxOldGenerationSizeMb: this.limitMib,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(this.limitMib / 16))),
      },
      stdout: true,
      stderr: true,
    });
    this.ready = false;
    this.answered = 0;
    worker.on("message", (reply: ReaderReply) => {
      if (worker !== this.worker) return;
      if ("ready" in reply) {
        this.ready = true;
        return this.next();
      }
      const current = this.current;
      if (current === undefined || current.seq !== reply.seq) return;
      clearTimeout(current.timer);
      this.current = undefined;
      this.answered++;
      // Idle, the thread does not keep the process alive: the server does.
      worker.unref();
      current.resolve(reply.answer);
      this.next();
    });
    // A thread past its heap is ended by Node with ERR_WORKER_OUT_OF_MEMORY, then exits: the first of the two says why.
    worker.on("error", (e: Error & { code?: string }) =>
      this.ended(worker, e.code === "ERR_WORKER_OUT_OF_MEMORY" ? "memory" : (e.message.split("\n", 1)[0] ?? "")),
    );
    worker.on("exit", (code) => this.ended(worker, `the reader's thread ended with code ${code}`));
    return worker;
  }

  /** The thread ended: the job it was answering is refused (or, when others' recordings filled it, tried again once). */
  private ended(worker: Worker, why: "memory" | "time" | (string & {})): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    if (why === "time") void worker.terminate();
    if (!this.ready) {
      // A thread that ends before its code is loaded would end again: the jobs waiting are refused, not retried.
      const detail = why === "memory" ? "the reader's thread ran out of memory as it started" : why;
      for (const entry of this.waiting.splice(0)) entry.resolve(viewRefusal(500, "E-VIEW-INTERNAL", { detail }));
      return;
    }
    const current = this.current;
    this.current = undefined;
    if (current !== undefined) {
      clearTimeout(current.timer);
      if (why === "memory" && this.answered > 0 && !current.retried) {
        // The recordings of the jobs before it may have filled the thread: it is tried once more, alone in a fresh one.
        current.retried = true;
        this.waiting.unshift(current);
      } else
        current.resolve(
          why === "memory"
            ? viewRefusal(413, "E-VIEW-MEMORY", { what: named(current.job), limitMiB: this.limitMib })
            : why === "time"
              ? viewRefusal(504, "E-VIEW-TIMEOUT", { what: named(current.job), seconds: this.timeoutMs / 1000 })
              : viewRefusal(500, "E-VIEW-INTERNAL", { detail: why }),
        );
    }
    this.next();
  }

  private next(): void {
    if (this.closed || this.current !== undefined || this.waiting.length === 0) return;
    if (this.worker === undefined) this.worker = this.start();
    if (!this.ready) return;
    const worker = this.worker;
    const entry = this.waiting.shift()!;
    const seq = ++this.seq;
    const timer = setTimeout(() => this.ended(worker, "time"), this.timeoutMs);
    this.current = { ...entry, seq, timer };
    worker.ref();
    worker.postMessage({ seq, job: entry.job } satisfies ReaderRequest);
  }
}
