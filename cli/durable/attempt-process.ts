// One attempt of an invocation's run: `renyi run --durable --json [flags] FILE
// [options]` in a process of its own (spec/durable.md, "The child run"), so
// that every limit of `renyi run` holds per invocation and a crash takes only
// that run. It talks with the endpoint over its IPC channel; what it prints is
// kept, up to a bound past which it is stopped.

import { spawn, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import { DURABLE_ENV, type FromDurableRun, type ToDurableRun } from "../../vocabulary/durable.js";
import { cacheDirectory } from "../cache/cache.cjs";
import { RENYI_COMMAND } from "../host/places.cjs";
import type { Ended } from "./response.js";

/** The most of standard output kept: far above the run's own output limit, and its record. */
const MAX_STDOUT_BYTES = 64 * 1024 * 1024;
/** The most of standard error kept. */
const MAX_STDERR_BYTES = 1024 * 1024;
/** How long a run interrupted has to end on its own before it is killed. */
const INTERRUPT_GRACE_MS = 5000;

/** Runs at once on one endpoint: an invocation past them waits its turn before its process starts. */
const MAX_RUNNING = Math.max(4, availableParallelism() * 4);
let started = 0;
const waiting: (() => void)[] = [];

/** A place among the runs going on, once one is free; the function gives it back. */
export async function turn(): Promise<() => void> {
  if (started >= MAX_RUNNING) await new Promise<void>((resolve) => waiting.push(resolve));
  else started++;
  let given = false;
  return () => {
    if (given) return;
    given = true;
    const next = waiting.shift();
    if (next !== undefined) next();
    else started--;
  };
}

/** Every run going on, for the endpoint to end when it ends. */
const running = new Set<ChildProcess>();

/** Kills every run going on (the endpoint is ending: each invocation's next attempt goes on). */
export function killAll(): void {
  for (const child of running) child.kill("SIGKILL");
}

export interface Attempt {
  readonly ended: Promise<Ended>;
  send(message: ToDurableRun): void;
  /** As Ctrl-C would: the run ends as cancelled, or is killed after a grace. */
  interrupt(): void;
  kill(): void;
}

export function startAttempt(argv: readonly string[], heard: (message: FromDurableRun) => void): Attempt {
  const child = spawn(process.execPath, [RENYI_COMMAND, "run", "--durable", "--json", ...argv], {
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    env: { ...process.env, [DURABLE_ENV]: "1", RENYI_CACHE_DIR: cacheDirectory() },
  });
  running.add(child);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let outBytes = 0;
  let errBytes = 0;
  let stopped: Ended["stopped"];
  const timers: NodeJS.Timeout[] = [];
  child.stdout!.on("data", (chunk: Buffer) => {
    outBytes += chunk.length;
    if (outBytes <= MAX_STDOUT_BYTES) out.push(chunk);
    else if (stopped === undefined) {
      stopped = "output";
      child.kill("SIGKILL");
    }
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    errBytes += chunk.length;
    if (errBytes <= MAX_STDERR_BYTES) err.push(chunk);
  });
  child.on("message", (message) => heard(message as FromDurableRun));
  child.on("error", () => undefined);
  // Every message the run sent has come once its channel is closed, as well as its output.
  const disconnected = new Promise<void>((resolve) => child.once("disconnect", resolve));
  const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on("close", (exit, signal) => resolve([exit, signal])),
  );
  const ended = Promise.all([closed, disconnected]).then(([[exit, signal]]) => {
    running.delete(child);
    for (const timer of timers) clearTimeout(timer);
    return { stdout: Buffer.concat(out), stderr: Buffer.concat(err), exit, signal, ...(stopped ? { stopped } : {}) };
  });
  return {
    ended,
    send: (message) => {
      if (child.connected) child.send(message, undefined, {}, () => undefined);
    },
    interrupt: () => {
      if (stopped !== undefined || child.exitCode !== null) return;
      stopped = "cancelled";
      child.kill("SIGINT");
      timers.push(setTimeout(() => child.kill("SIGKILL"), INTERRUPT_GRACE_MS));
    },
    kill: () => void child.kill("SIGKILL"),
  };
}
