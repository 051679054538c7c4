// The endpoint's side of a durable run, played honestly by the test process
// itself: `renyi run --durable --json` is started as `renyi serve --restate`
// starts it (an IPC channel, RENYI_DURABLE=1), given `start`, and each message
// it sends is answered as the endpoint answers it, with a journal kept in
// memory: `keep` is journaled, then answered `kept`; `sleep` is answered
// `woke`; `take` is answered `taken` as the test says.

import { spawn } from "node:child_process";
import type { DurableStart, FromDurableRun, SharedBudget, ToDurableRun } from "../vocabulary/durable.js";
import type { RecordedCall } from "../vocabulary/recording.js";
import { RENYI } from "./support.js";

export interface EndpointSide {
  readonly code: string;
  readonly journaled?: readonly RecordedCall[];
  readonly shared?: readonly SharedBudget[];
  readonly redacted?: readonly string[];
  /** How long each `keep` waits before it is journaled and answered. */
  readonly keptAfterMs?: number;
  /** How long each `sleep` waits before `woke` (by default, the sleep's own length). */
  readonly wokeAfterMs?: number;
  /** The answer to a `take` of these keys. */
  readonly take?: (keys: readonly string[]) => boolean;
  /** Told of every message the run sends, as it comes, with the time it came (ms since the start). */
  readonly heard?: (message: FromDurableRun, atMs: number) => void;
  /** Close the channel right after `start`, as an endpoint that dies then. */
  readonly closeAfterStart?: boolean;
  /** Told when `kept` is sent for the message of this id. */
  readonly answered?: (id: number, atMs: number) => void;
}

export interface AttemptEnd {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The journal when the attempt ended: the calls it was started with, then those it sent to be kept. */
  readonly journal: RecordedCall[];
  /** Only the calls this attempt sent to be kept, in the order they came. */
  readonly kept: RecordedCall[];
  /** The execution record (--json), the last line of stdout. */
  readonly record: { outcome: string; code: string | null; error?: { code: string | null; message: string } };
  /** The program's output: stdout without the record. */
  readonly output: string;
}

/** `renyi run --durable --json [before...] FILE [after...]` in `cwd`, answered as the endpoint answers. */
export function durableAttempt(
  cwd: string,
  cache: string,
  file: string,
  side: EndpointSide,
  options: { before?: readonly string[]; after?: readonly string[]; env?: Record<string, string> } = {},
): { readonly done: Promise<AttemptEnd>; readonly interrupt: () => void; readonly disconnect: () => void } {
  const began = Date.now();
  const child = spawn(
    process.execPath,
    [RENYI, "run", "--durable", "--json", ...(options.before ?? []), file, ...(options.after ?? [])],
    {
      cwd,
      env: { ...process.env, RENYI_CACHE_DIR: cache, RENYI_DURABLE: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    },
  );
  const journal: RecordedCall[] = [...(side.journaled ?? [])];
  const kept: RecordedCall[] = [];
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  // A run that has just gone (its channel closing as it exits) needs no answer: the error is dropped, not thrown.
  const send = (message: ToDurableRun) => {
    if (child.connected) child.send(message, () => {});
  };
  // The keeps still being journaled: the attempt's end waits for them, as the endpoint journals what it was sent.
  const keeping = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  child.on("message", (message: FromDurableRun) => {
    side.heard?.(message, Date.now() - began);
    if ("keep" in message) {
      const journaled = new Promise<void>((resolve) =>
        setTimeout(() => {
          journal.push(...message.keep.calls);
          kept.push(...message.keep.calls);
          side.answered?.(message.keep.id, Date.now() - began);
          send({ kept: message.keep.id });
          resolve();
        }, side.keptAfterMs ?? 0),
      );
      keeping.add(journaled);
    } else if ("sleep" in message) {
      const timer = setTimeout(() => send({ woke: message.sleep.id }), side.wokeAfterMs ?? message.sleep.ms);
      timers.add(timer);
    } else if ("take" in message) {
      send({ taken: message.take.id, ok: side.take?.(message.take.keys) ?? true });
    }
  });
  const start: DurableStart = {
    start: {
      journaled: [...(side.journaled ?? [])],
      code: side.code,
      shared: [...(side.shared ?? [])],
      redacted: [...(side.redacted ?? [])],
    },
  };
  child.send(start);
  if (side.closeAfterStart === true) child.disconnect();
  const streamEnd = (stream: NodeJS.ReadableStream) => new Promise<void>((resolve) => stream.once("end", resolve));
  const ended = Promise.all([
    new Promise<number | null>((resolve) => child.once("exit", (status) => resolve(status))),
    streamEnd(child.stdout!),
    streamEnd(child.stderr!),
  ]).then(([status]) => status);
  const done = new Promise<AttemptEnd>((resolve) =>
    // Not "close": a child whose channel the parent closed never gives it, though it exits and its output ends.
    ended.then(async (status) => {
      for (const timer of timers) clearTimeout(timer);
      await Promise.all(keeping);
      const lines = stdout.trimEnd().split("\n");
      const last = lines.at(-1) ?? "";
      let record: AttemptEnd["record"];
      try {
        record = JSON.parse(last) as AttemptEnd["record"];
      } catch {
        record = { outcome: "no record", code: null };
      }
      resolve({
        status,
        stdout,
        stderr,
        journal,
        kept,
        record,
        output: stdout.slice(0, stdout.length - last.length - (stdout.endsWith("\n") ? 1 : 0)),
      });
    }),
  );
  return { done, interrupt: () => void child.kill("SIGINT"), disconnect: () => child.disconnect() };
}
