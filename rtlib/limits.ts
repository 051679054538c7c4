// Fuel, call depth and cancellation (seed 002, section 2). Compiled code
// charges each straight-line block's exact step count at its entry:
//
//   if ((S.fuel -= 7) < S.check) slow();
//
// `check` sits at most 1,024 steps below the fuel left, so the slow path runs
// at least every 1,024 steps: it stops the run when the fuel is gone and
// polls the cancellation flag the main thread sets.

import { Cancelled, Crash } from "./errors.js";

export interface LimitState {
  fuel: number;
  check: number;
  depth: number;
  maxDepth: number;
  /** Set by the host: steps used are `limit - fuel`. */
  limit: number;
  hostCalls: number;
  maxHostCalls: number;
}

const POLL_EVERY = 1024;

export const S: LimitState = {
  fuel: 200_000_000,
  check: 200_000_000 - POLL_EVERY,
  depth: 0,
  maxDepth: 256,
  limit: 200_000_000,
  hostCalls: 0,
  maxHostCalls: 100_000,
};

/** Index 0: 0 while running, 1 when interrupted, 2 at the deadline. Shared with the main thread. */
let cancelFlag: Int32Array | undefined;

export function configureLimits(options: { fuel?: number; maxDepth?: number; maxHostCalls?: number; cancel?: SharedArrayBuffer }): void {
  const fuel = options.fuel ?? 200_000_000;
  S.fuel = fuel;
  S.limit = fuel;
  S.check = Math.max(0, fuel - POLL_EVERY);
  S.depth = 0;
  S.maxDepth = options.maxDepth ?? 256;
  S.hostCalls = 0;
  S.maxHostCalls = options.maxHostCalls ?? 100_000;
  cancelFlag = options.cancel === undefined ? undefined : new Int32Array(options.cancel);
}

export function stepsUsed(): number {
  return S.limit - Math.max(S.fuel, 0);
}

/** The fuel check's slow path. */
export function slow(): void {
  if (S.fuel < 0) {
    throw new Crash("E-RT-FUEL", `the program used all of its ${S.limit.toLocaleString("en")} steps of fuel`, "limit");
  }
  checkCancelled();
  S.check = Math.max(0, S.fuel - POLL_EVERY);
}

export function checkCancelled(): void {
  if (cancelFlag === undefined) return;
  const flag = Atomics.load(cancelFlag, 0);
  if (flag !== 0) throw new Cancelled(flag === 2 ? "timeout" : "interrupt");
}

/** Entering a function deeper than the limit. */
/**
 * `$resume(await x, $depth)`: the awaited value, with the depth set back to the
 * awaiting function's, which other tasks may have moved while it waited.
 */
export function resume<T>(value: T, depth: number): T {
  S.depth = depth;
  return value;
}

export function tooDeep(): never {
  S.depth--;
  throw new Crash("E-RT-DEPTH", `calls nested deeper than ${S.maxDepth}`, "limit");
}
