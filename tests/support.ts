// What several test files do alike: run a program with `renyi run` as a child
// process, turn a library call's outcome into text, find a free port.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { ROOT } from "./golden.js";
import { Failure } from "../rtlib/errors.js";
import { toText } from "../rtlib/text.js";

export const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");

export interface Started {
  readonly child: ChildProcessWithoutNullStreams;
  readonly done: Promise<{ status: number | null; stdout: string; stderr: string }>;
  /** What the program has printed so far. */
  readonly output: () => string;
}

/**
 * Writes `source` to a new file in `work` and runs it: `renyi run [before...] FILE [after...]`,
 * in `work`, with the compile cache in `work/cache`.
 */
export function startProgram(
  work: string,
  source: string,
  options: { before?: readonly string[]; after?: readonly string[]; env?: Record<string, string> } = {},
): Started {
  const file = join(work, `p${Math.random().toString(36).slice(2)}.ry`);
  writeFileSync(file, source);
  const args = [RENYI, "run", ...(options.before ?? []), file, ...(options.after ?? [])];
  const child = spawn(process.execPath, args, {
    cwd: work,
    env: { ...process.env, ...options.env, RENYI_CACHE_DIR: join(work, "cache") },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("exit", (status) => resolve({ status, stdout, stderr })),
  );
  return { child, done, output: () => stdout };
}

/** `renyi ARGS` in `cwd`, the environment given added (and the compile cache at `cache`), to its end. */
export function renyiIn(
  cwd: string,
  args: readonly string[],
  env: Record<string, string>,
  cache: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [RENYI, ...args], {
      cwd,
      env: { ...process.env, ...env, RENYI_CACHE_DIR: cache },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * A small deterministic generator (xorshift): the same numbers for the same seed, so that a failing property names its
 * seed.
 */
export function seeded(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** A library call's outcome as text: `ok VALUE`, or the failure's value. */
export async function outcome(call: Promise<unknown>): Promise<string> {
  try {
    return `ok ${toText(await call)}`;
  } catch (e) {
    if (e instanceof Failure) return toText(e.value);
    throw e;
  }
}

/** A port nothing on 127.0.0.1 listens on, right now. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A GET of `path` from a server on 127.0.0.1 that may not be listening yet: tried every 50 ms, for 10 seconds. */
export async function getWhenUp(port: number, path = "/"): Promise<{ status: number; body: string }> {
  for (let i = 0; i < 200; i++) {
    try {
      return await new Promise((resolve, reject) => {
        const req = httpRequest({ host: "127.0.0.1", port, path }, (res) => {
          let body = "";
          res.on("data", (d: Buffer) => (body += d.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.end();
      });
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error("the server never came up");
}

/** A request on a fresh connection: status and body, or an error after 10 s of nothing. */
export function getFresh(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, agent: false }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`${path}: no answer in 10 s`)));
    req.end();
  });
}

/** What `renyiTimed` saw of a command: its exit status (null when killed), its output and the time it took. */
export interface TimedRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** `renyi ARGS` in `cwd` with exactly the environment given, to its end or until it is killed at `killAfterMs`. */
export function renyiTimed(
  args: readonly string[],
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly killAfterMs: number },
): Promise<TimedRun> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [RENYI, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.killAfterMs);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** A code cache spoilt in each way a cache on disk can be, changed bytes first: changed, cut short, its seal alone, empty, not a cache. */
export function damagedCaches(good: Buffer): [string, Buffer][] {
  const flipped = Buffer.from(good);
  for (let i = 100; i < flipped.length; i += 997) flipped[i]! ^= 0x5a;
  return [
    ["bytes changed through the cache", flipped],
    ["cut in half", good.subarray(0, good.length >> 1)],
    ["its seal alone", good.subarray(0, 32)],
    ["empty", Buffer.alloc(0)],
    ["not a cache", Buffer.from("renyi ".repeat(2000))],
  ];
}
