// Fuel, call depth and cancellation (spec/runtime.md, section 3). Compiled code
// charges each straight-line block's exact step count at its entry:
//
//   if ((S.room -= 7) < 0) slow();
//
// The fuel left is `check + room`: `room`, the steps left before the slow path,
// is a small integer (at most 16,384, -1 for a task to stop) that the engine
// keeps as one, where the fuel itself (billions) would be a float kept in a box,
// read with `check` at every charge. `S.fuel` reads and writes the sum.
// `check` sits at most 16,384 steps below the fuel left, so the slow path runs
// at least every 16,384 steps (16 µs of loops at the measured rates): it stops the run when the fuel is gone and
// polls the cancellation flag the main thread sets, and reads the thread's
// memory (limits-memory.ts).
//
// The counters in `S` belong to one account at a time: the run's, or, while a
// server answers, the request whose code is running (spec/runtime.md, "Limits
// of a server"). `switchTo` saves the counters into the account they came from
// and loads another's.

import { Cancelled, Crash } from "./errors.js";
import { checkMemoryBeforeEffect, pollMemory } from "./limits-memory.js";
import { DEFAULT_LIMITS } from "../vocabulary/limits.js";
import { longTimeout } from "./waits.js";

export interface LimitState {
  /** The fuel left: `check + room`; written, it sets `room` (and `check`, should `room` leave its bounds). */
  fuel: number;
  /** Steps left before the slow path: 0 to POLL_EVERY, or -1 for a task that takes it at its next step. */
  room: number;
  check: number;
  depth: number;
  maxDepth: number;
  /** Set by the host: steps used are `limit - fuel`. */
  limit: number;
  hostCalls: number;
  maxHostCalls: number;
}

/** What one account (the run, or one request to a server) may still spend. */
export interface Account {
  /** Whose account it is, for the messages: "the program" or "the request". */
  readonly owner: "the program" | "the request";
  fuel: number;
  readonly limit: number;
  hostCalls: number;
  readonly maxHostCalls: number;
  /** `performance.now()` after which the account's task is stopped; Infinity for none. */
  readonly deadline: number;
  /**
   * Why the task was stopped, once it is: every later step or effect throws. Past its
   * time (the limit it had, in milliseconds), or its server ended while it ran.
   */
  stopped?: { milliseconds: number } | { serverEnded: true };
}

const POLL_EVERY = 16384;

/**
 * The counters, in an instance of a class: `fuel`, an accessor, lies on its prototype, so that the object keeps
 * fields the engine reads at fixed offsets (an accessor of its own made it a dictionary, every charge a lookup).
 */
class Counters implements LimitState {
  room = POLL_EVERY;
  check = DEFAULT_LIMITS.fuel - POLL_EVERY;
  depth = 0;
  maxDepth = DEFAULT_LIMITS.maxDepth;
  limit = DEFAULT_LIMITS.fuel;
  hostCalls = 0;
  maxHostCalls = DEFAULT_LIMITS.maxHostCalls;
  get fuel(): number {
    return this.check + this.room;
  }
  set fuel(fuel: number) {
    setFuel(fuel);
  }
}

export const S: LimitState = new Counters();

/** The limits of each request to a server (spec/runtime.md); set by the host. */
export const REQUEST_LIMITS: { fuel: number; timeoutMs: number } = {
  fuel: DEFAULT_LIMITS.requestFuel,
  timeoutMs: DEFAULT_LIMITS.requestTimeoutSeconds * 1000,
};

let runAccount: Account = account("the program", S.fuel, S.maxHostCalls, Infinity);
/** The account whose counters are in `S`. */
let loaded: Account = runAccount;

/** Index 0: 0 while running, 1 when interrupted, 2 at the deadline. Shared with the main thread. */
let cancelFlag: Int32Array | undefined;
/** The run's wall-time limit in milliseconds, when the host that keeps the deadline says: E-RT-TIMEOUT names it. */
let timeLimitMs: number | undefined;
/**
 * The `performance.now()` past which the run is cancelled at its time limit, for a host with no other thread to keep
 * the deadline and set the flag (the playground of `renyi view`, spec/view.md): Infinity for none.
 */
let timeoutAt = Infinity;

function account(owner: Account["owner"], fuel: number, maxHostCalls: number, deadline: number): Account {
  return { owner, fuel, limit: fuel, hostCalls: 0, maxHostCalls, deadline };
}

export function configureLimits(options: {
  fuel?: number;
  maxDepth?: number;
  maxHostCalls?: number;
  cancel?: SharedArrayBuffer;
  requestFuel?: number;
  requestTimeoutMs?: number;
  timeoutMs?: number;
  timeoutAt?: number;
}): void {
  runAccount = account(
    "the program",
    options.fuel ?? DEFAULT_LIMITS.fuel,
    options.maxHostCalls ?? DEFAULT_LIMITS.maxHostCalls,
    Infinity,
  );
  loaded = runAccount;
  load(runAccount);
  S.depth = 0;
  depthLimit = options.maxDepth ?? DEFAULT_LIMITS.maxDepth;
  S.maxDepth = Math.min(depthLimit, PROBE_FROM);
  REQUEST_LIMITS.fuel = options.requestFuel ?? DEFAULT_LIMITS.requestFuel;
  REQUEST_LIMITS.timeoutMs = options.requestTimeoutMs ?? DEFAULT_LIMITS.requestTimeoutSeconds * 1000;
  cancelFlag = options.cancel === undefined ? undefined : new Int32Array(options.cancel);
  timeLimitMs = options.timeoutMs;
  timeoutAt = options.timeoutAt ?? Infinity;
}

/** The run's wall-time limit, in milliseconds, when the host said what it is. */
export function runTimeLimitMs(): number | undefined {
  return timeLimitMs;
}

function load(a: Account): void {
  S.limit = a.limit;
  S.hostCalls = a.hostCalls;
  S.maxHostCalls = a.maxHostCalls;
  // A stopped task takes the slow path at its very next step.
  if (a.stopped !== undefined) takeSlowPathNext(a.fuel);
  else setThreshold(a.fuel);
}

/**
 * Sets the fuel left, `check` unmoved while `room` stays within its bounds (a
 * charge from the runtime, `S.fuel -= n`, is then `S.room -= n`, and the
 * comparison with `S.check` after it holds as it did).
 * Past them, `check` moves so that `room` stays a small integer: below 0, the
 * slow path is taken at the next step (and `fuel < check` still holds).
 */
function setFuel(fuel: number): void {
  const room = fuel - S.check;
  // `| 0`: stored as a small integer, never a float of integral value, which would make every `room` of `S` a float.
  if (room >= 0 && room <= POLL_EVERY) S.room = room | 0;
  else if (room < 0) takeSlowPathNext(fuel);
  else setThreshold(fuel);
}

/** The fuel left `fuel`, the slow path at most POLL_EVERY steps away (at once, when it is below 0). */
function setThreshold(fuel: number): void {
  if (fuel < 0) return takeSlowPathNext(fuel);
  S.check = Math.max(0, fuel - POLL_EVERY);
  S.room = (fuel - S.check) | 0;
}

/** The fuel left `fuel`, and the slow path taken at the next step. */
function takeSlowPathNext(fuel: number): void {
  S.check = fuel + 1;
  S.room = -1;
}

/** Makes `next` the account charged from now on; gives back the one that was. */
export function switchTo(next: Account): Account {
  const previous = loaded;
  if (next === previous) return previous;
  previous.fuel = S.fuel;
  previous.hostCalls = S.hostCalls;
  loaded = next;
  load(next);
  return previous;
}

/** A new account for one request, with the request limits. */
export function requestAccount(): Account {
  return account(
    "the request",
    REQUEST_LIMITS.fuel,
    runAccount.maxHostCalls,
    performance.now() + REQUEST_LIMITS.timeoutMs,
  );
}

export function loadedAccount(): Account {
  return loaded;
}

export function theRunAccount(): Account {
  return runAccount;
}

/**
 * What a request's task throws at its next step or effect once its server has ended
 * (its `requests` answered, or the run cancelled): the request was already answered
 * 503, and nothing it does after may reach the outside world. Its handler's caller
 * (lib/server.ts) drops it.
 */
class ServerEnded extends Error {
  constructor() {
    super("the request's server has stopped answering");
    this.name = "ServerEnded";
  }
}

/** Stops the task of `a` at its next step or effect (a request past its time, or whose server ended). */
export function stop(a: Account, why: NonNullable<Account["stopped"]>): void {
  a.stopped ??= why;
  if (a === loaded) takeSlowPathNext(S.fuel);
}

/** Steps the run's own code used (a request's steps are the request's). */
export function stepsUsed(): number {
  const fuel = loaded === runAccount ? S.fuel : runAccount.fuel;
  return runAccount.limit - Math.max(fuel, 0);
}

/** The fuel check's slow path. */
export function slow(): void {
  const fuel = S.fuel;
  // The fuel left stays exact (the steps used are read from it), and the next step takes the slow path again.
  takeSlowPathNext(fuel);
  checkStopped();
  if (fuel < 0) {
    throw new Crash("E-RT-FUEL", { owner: loaded.owner, limit: S.limit });
  }
  checkCancelled();
  checkDeadline();
  pollMemory(fuel);
  setThreshold(fuel);
}

/**
 * The room left before the slow path, for a loop that keeps its fuel in a local
 * (compiler/lower/fuel-regions.ts): `S.room`, a small integer the engine keeps
 * in a register.
 */
export function fuelRoom(): number {
  return S.room;
}

/**
 * A charge of such a loop, `$room = $fuelLeft($room -= 7)`: the room as it is, or,
 * once it is below 0, the fuel written back, the slow path taken, and the new
 * room. One function for every charge, which the engine inlines: its one call of
 * the slow path has been made before the loop's code is optimized, where a call
 * of its own at each charge would throw the optimized code away the first time
 * it ran (measured: `if (($room -= 7) < 0) ...` took twice as long in a prime count).
 */
export function fuelLeft(room: number): number {
  if (room >= 0) return room;
  S.fuel = S.check + room;
  slow();
  return S.room;
}

/**
 * The loop's room written back as it ends, `$fuelBack($room)`, however it ends.
 * Below 0 only when a charge's slow path ended it (`fuelLeft` threw), which
 * wrote the fuel back itself.
 */
export function fuelBack(room: number): void {
  if (room >= 0) S.room = room | 0;
}

export function checkCancelled(): void {
  const cancelled = cancellationAsked();
  if (cancelled !== undefined) throw cancelled;
}

/** The cancellation asked for, if one was. */
export function cancellationAsked(): Cancelled | undefined {
  if (cancelFlag === undefined)
    return timeoutAt === Infinity || performance.now() <= timeoutAt ? undefined : new Cancelled("timeout");
  const flag = Atomics.load(cancelFlag, 0);
  return flag === 0 ? undefined : new Cancelled(flag === 2 ? "timeout" : "interrupt");
}

/** How often a wait (a request in flight, a sleep, a server, a child, a busy database) looks for a cancellation. */
const WAIT_POLL_MS = 25;

/**
 * Watches for a cancellation while the task waits on the outside world, where
 * no step runs to see it: `then` is called once with it. Returns the function
 * that stops watching, to be called when the wait ends either way.
 */
export function watchCancellation(then: (cancelled: Cancelled) => void): () => void {
  if (cancelFlag === undefined && timeoutAt === Infinity) return () => {};
  const poll = setInterval(() => {
    const cancelled = cancellationAsked();
    if (cancelled === undefined) return;
    clearInterval(poll);
    then(cancelled);
  }, WAIT_POLL_MS);
  return () => clearInterval(poll);
}

/** Waits `ms` milliseconds (however many: waits.ts), or until the run is cancelled, which it throws. */
export function cancellableWait(ms: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const asked = cancellationAsked();
    if (asked !== undefined) return reject(asked);
    const timer = longTimeout(() => {
      stopWatching();
      resolve();
    }, ms);
    const stopWatching = watchCancellation((cancelled) => {
      timer.clear();
      reject(cancelled);
    });
  });
}

/** What `promise` gives, or the run's cancellation, thrown as soon as it is asked for (a durable run's waits on its endpoint). */
export function cancellableAwait<T>(promise: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const asked = cancellationAsked();
    if (asked !== undefined) return reject(asked);
    const stopWatching = watchCancellation(reject);
    promise.then(
      (value) => {
        stopWatching();
        resolve(value);
      },
      (e: unknown) => {
        stopWatching();
        reject(e);
      },
    );
  });
}

/** Before every effect: the running task's account is not stopped nor past its time. */
export function checkTask(): void {
  checkStopped();
  checkDeadline();
  checkMemoryBeforeEffect();
}

function checkStopped(): void {
  const stopped = loaded.stopped;
  if (stopped === undefined) return;
  if ("serverEnded" in stopped) throw new ServerEnded();
  throw new Crash("E-RT-LIMIT-TIME", stopped);
}

function checkDeadline(): void {
  if (loaded.deadline !== Infinity && performance.now() > loaded.deadline) {
    stop(loaded, { milliseconds: REQUEST_LIMITS.timeoutMs });
    checkStopped();
  }
}

/**
 * `return $leave(value)` in a synchronous function: the depth it raised on entry given back, once the value
 * returned is made (the calls that made it ran one deeper).
 */
export function leave<T>(value: T): T {
  S.depth--;
  return value;
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
let depthLimit: number = DEFAULT_LIMITS.maxDepth;

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
  throw new Crash(
    "E-RT-DEPTH",
    S.depth < depthLimit
      ? { problem: "stack", depth: S.depth + 1, limit: depthLimit }
      : { problem: "limit", limit: depthLimit },
  );
}

/**
 * Library work charged by its size (spec/runtime.md, "Library work"): a library
 * function whose cost grows with its input charges that size against the same
 * fuel as compiled code, once per call and before the work where the size is
 * known, so that a list of millions under a small `--fuel` stops at once. The
 * same test as compiled code's: one subtraction and compare when fuel is
 * plentiful, the slow path (which ends the run with E-RT-FUEL) otherwise.
 */
export function chargeWork(steps: number): void {
  const room = S.room - steps;
  if (room >= 0) S.room = room | 0;
  else {
    S.fuel = S.check + room;
    slow();
  }
}

/** The charge of sorting n items: n times the bits of n - 1 (⌈log₂ n⌉), an exact integer on every machine. */
export function sortSteps(n: number): number {
  return n < 2 ? n : n * (32 - Math.clz32(n - 1));
}
