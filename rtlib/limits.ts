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
  depthLimit = options.maxDepth ?? 256;
  S.maxDepth = Math.min(depthLimit, PROBE_FROM);
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

/**
 * `$resume(await x, $depth)`: the awaited value, with the depth set back to the
 * awaiting function's, which other tasks may have moved while it waited.
 */
export function resume<T>(value: T, depth: number): T {
  S.depth = depth;
  return value;
}

/**
 * The depth limit the host set. `S.maxDepth`, which compiled code compares
 * with, is at most PROBE_FROM: every call deeper than that comes here, which
 * lets it go on only while the stack has room left.
 */
let depthLimit = 256;

/**
 * Why the stack is probed: a program that runs out of JavaScript's stack in an
 * async function rejects its promise at the stack's very edge, and Node's
 * handler for that rejection, itself out of stack, prints
 * `Exception in PromiseRejectCallback` and a line of compiled code straight to
 * the process's stderr, where no Renyi code can stop it. So no call may start
 * with less than STACK_RESERVE bytes of stack left: past PROBE_FROM calls
 * (the default limit is 256; only a raised `--max-depth` gets here), each call
 * first checks there is room, and ends the run with E-RT-DEPTH while the stack
 * still has room for whatever unwinding it takes.
 */
const PROBE_FROM = 1000;
const STACK_RESERVE = 128 * 1024;
/** Spread as the arguments of a call, these take STACK_RESERVE bytes of stack: the engine checks for the room before it pushes them, and throws a RangeError when there is none. */
const PROBE_ARGUMENTS: readonly number[] = new Array<number>(STACK_RESERVE / 8).fill(0);
const nothing = (): void => undefined;

function roomOnStack(): boolean {
  try {
    Reflect.apply(nothing, undefined, PROBE_ARGUMENTS);
    return true;
  } catch (e) {
    if (e instanceof RangeError) return false;
    throw e;
  }
}

export function tooDeep(): void {
  if (S.depth <= depthLimit && roomOnStack()) return;
  S.depth--;
  throw new Crash("E-RT-DEPTH", S.depth < depthLimit ? `calls nested too deeply for the stack, at a depth of ${(S.depth + 1).toLocaleString("en")} (the limit, --max-depth, is ${depthLimit.toLocaleString("en")})` : `calls nested deeper than ${depthLimit}`, "limit");
}
