// The reader of `renyi view` (spec/view.md, section 10): the answers that read a recording or check
// a program (heavy.ts) are made in a process of its own, under a heap limit and a time bound, so
// that the server, which checks every request and answers the list and the page's files, never
// waits on them and never runs out of memory for them. The reader holds the recordings read
// (recording-view.ts). A job that takes it past its heap, or past the time bound, ends it and is
// refused with a code; the next job finds a fresh reader.
//
// A process, not a worker thread: a thread's heap limit does not hold inside one long allocation
// (JSON.parse of a recording of millions of tiny values overshoots it many times over), and when
// such a thread is torn down past its limit V8 ends the whole process (Node 20). A process that
// reaches its heap ends alone.
//
// Jobs are answered one at a time, in order; at most MAX_WAITING wait their turn.

import { existsSync } from "node:fs";
import { totalmem } from "node:os";
import { type ChildProcess, fork } from "node:child_process";
import { VIEW_READER, VIEW_READER_BUNDLED } from "../host/places.cjs";
import { type ApiAnswer, viewRefusal } from "./answers.js";
import type { HeavyJob } from "./heavy.js";
import type { ReaderReply, ReaderRequest } from "./reader.js";

const MIB = 1024 * 1024;
/** The heap the reader may use, in MiB: a quarter of the machine's memory, at most 2 GiB, at least 128 MiB. */
const DEFAULT_LIMIT_MIB = Math.max(128, Math.min(2048, Math.floor(totalmem() / MIB / 4)));
/** The time a job may take, from its start in a reader that is loaded. */
const DEFAULT_TIMEOUT_MS = 30_000;
/** Jobs waiting their turn; another is refused at once. */
const MAX_WAITING = 64;

/** The reader's code: reader.ts as scripts/bundle.mjs joins it with the compiler, or as compiled. */
const READER_CODE = existsSync(VIEW_READER_BUNDLED) ? VIEW_READER_BUNDLED : VIEW_READER;

/** A positive whole number from the environment (the tests' bounds), else the default. */
function fromEnvironment(name: string, fallback: number): number {
  const given = process.env[name];
  return given !== undefined && /^[1-9][0-9]{0,8}$/.test(given) ? Number(given) : fallback;
}

interface Waiting {
  readonly job: HeavyJob;
  /** Whether it was started in a reader that ended of memory with recordings of other jobs kept in it. */
  retried: boolean;
  readonly resolve: (answer: ApiAnswer) => void;
}

/** What a job reads, said in a refusal: its file, or its two. */
function named(job: HeavyJob): string {
  return job.kind === "compare" ? `${job.a.id} and ${job.b.id}` : job.file.id;
}

export class ReaderProcess {
  readonly limitMib = fromEnvironment("RENYI_VIEW_READER_MIB", DEFAULT_LIMIT_MIB);
  readonly timeoutMs = fromEnvironment("RENYI_VIEW_READ_TIMEOUT_MS", DEFAULT_TIMEOUT_MS);
  private worker: ChildProcess | undefined;
  private ready = false;
  /** Jobs the reader answered: one that ends of memory after some held their recordings. */
  private answered = 0;
  private current: (Waiting & { readonly seq: number; readonly timer: NodeJS.Timeout | undefined }) | undefined;
  private readonly waiting: Waiting[] = [];
  private seq = 0;
  private closed = false;

  /** The answer to a job: the reader's, or a refusal that says why it has none. */
  answer(job: HeavyJob): Promise<ApiAnswer> {
    if (this.closed) return Promise.resolve(viewRefusal(503, "E-VIEW-BUSY", { why: "ending" }));
    if (this.waiting.length >= MAX_WAITING) return Promise.resolve(viewRefusal(503, "E-VIEW-BUSY", { why: "waiting" }));
    return new Promise((resolve) => {
      this.waiting.push({ job, retried: false, resolve });
      this.next();
    });
  }

  /** Ends the reader: the jobs going on and waiting are refused. */
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
    if (worker === undefined || worker.exitCode !== null || worker.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      worker.once("exit", () => resolve());
      worker.kill("SIGKILL");
    });
  }

  private start(): ChildProcess {
    const worker = fork(READER_CODE, [], {
      execArgv: [`--max-old-space-size=${this.limitMib}`],
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    this.ready = false;
    this.answered = 0;
    // The last of what it says on stderr: V8's own words when it ends of memory.
    let said = "";
    worker.stderr?.on("data", (d: Buffer) => {
      said = (said + d.toString("latin1")).slice(-4096);
    });
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
      current.resolve(reply.answer);
      this.next();
    });
    // An error of a reader that started (a message it could not be sent, as it ended) is followed by its end, which
    // says why; one that never started has no end to wait for.
    worker.on("error", (e) => {
      if (worker.pid === undefined) this.ended(worker, e.message.split("\n", 1)[0] ?? "");
      else worker.kill("SIGKILL");
    });
    // `close`, not `exit`: by then all it said on stderr has been read.
    worker.on("close", (code, signal) =>
      this.ended(
        worker,
        /heap out of memory|Allocation failed/.test(said)
          ? "memory"
          : `the reader ended with ${signal === null ? `code ${code}` : signal}`,
      ),
    );
    return worker;
  }

  /** The reader ended: the job it was answering is refused (or, when others' recordings filled it, tried again once). */
  private ended(worker: ChildProcess, why: "memory" | "time" | (string & {})): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    if (worker.exitCode === null && worker.signalCode === null) worker.kill("SIGKILL");
    if (!this.ready) {
      // A reader that ends before its code is loaded would end again: the jobs waiting are refused, not retried.
      const detail = why === "memory" ? "the reader ran out of memory as it started" : why;
      for (const entry of this.waiting.splice(0)) entry.resolve(viewRefusal(500, "E-VIEW-INTERNAL", { detail }));
      return;
    }
    const current = this.current;
    this.current = undefined;
    if (current !== undefined) {
      clearTimeout(current.timer);
      if (why === "memory" && this.answered > 0 && !current.retried) {
        // The recordings of the jobs before it may have filled the reader: it is tried once more, alone in a fresh one.
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
    worker.send({ seq, job: entry.job } satisfies ReaderRequest);
  }
}
