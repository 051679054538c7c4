// The memory limit (spec/runtime.md, "What the memory limit counts"): the live
// bytes of the program's thread, read from the engine's own statistics of this
// thread's heap (its JavaScript objects, and the bytes outside it that the
// engine accounts for: byte buffers, and what the libraries' native parts
// report), at the slow path of the fuel check and before an effect (at most
// once a millisecond).
//
// JavaScript has no deterministic drop, so what the reading shows includes
// garbage the engine has not collected yet. A reading past the limit is
// therefore not the end: the garbage is collected, twice (the first full
// collection finds dead byte buffers, whose memory is given back when the next
// one starts), and only what is still live after that ends the run.

import { getHeapStatistics } from "node:v8";
import { collectGarbage } from "./collect-garbage.js";
import { Crash } from "./errors.js";
import { DEFAULT_LIMITS } from "../vocabulary/limits.js";
import { jsonHeapBound, MOST_PER_CHARACTER } from "../report/json-heap-bound.js";

const MIB = 1024 * 1024;

let limitMib: number = DEFAULT_LIMITS.maxMemoryMib;
let limitBytes = limitMib * MIB;
/** Who the messages name: a test of `renyi test`, or the program. */
let owner: "test" | undefined;

export function configureMemory(options: { maxMemoryMib?: number; memoryOwner?: "test" }): void {
  limitMib = options.maxMemoryMib ?? DEFAULT_LIMITS.maxMemoryMib;
  limitBytes = limitMib * MIB;
  owner = options.memoryOwner;
  effectReadAt = -Infinity;
}

/** The bytes the engine counts for this thread: its heap in use, and the memory outside it it knows of. */
function reading(): number {
  const h = getHeapStatistics();
  return h.used_heap_size + h.external_memory;
}

/**
 * The fuel check's slow path reads the memory once 65,536 steps have been
 * charged since the last reading (a library call charged by its size may pass
 * that in one go): a reading costs about 0.3 µs, as much as a few hundred
 * steps of compiled code, and the slow path runs every 16,384 (bench/RESULTS.md,
 * "The memory limit"). Read every 4,096 steps, the readings took 12 ms of a
 * 160 ms loop of arithmetic (a CPU profile of bench/compute/primes).
 */
const READ_EVERY = 65536;
let fuelAtReading = Infinity;

/** At the fuel check's slow path, with the fuel left. */
export function pollMemory(fuel: number): void {
  // The fuel rises only when another account is loaded (a request to a server): read then too.
  if (fuel <= fuelAtReading && fuelAtReading - fuel < READ_EVERY) return;
  fuelAtReading = fuel;
  checkMemory();
}

/**
 * Before an effect, a reading at most once a millisecond: a reading costs about
 * half a microsecond, more than the rest of a cheap call through the gateway
 * (bench/gateway measured it as the largest part of `environment.get`). What a
 * run can make in a millisecond of calls is bounded by that millisecond, and
 * one call's data coming in by the text limit (spec/effects.md, "Data coming
 * in"); a call that brings in much takes longer than that, so the next one reads.
 * The clock is looked at before every effect: looked at every 8th only, seven
 * reads of a large file came in between two looks, and a program kept several
 * times its limit live and ended before the next look (tests/attacks-perf.test.ts).
 */
const EFFECT_READ_MS = 1;
let effectReadAt = -Infinity;

export function checkMemoryBeforeEffect(): void {
  const now = performance.now();
  if (now - effectReadAt < EFFECT_READ_MS) return;
  effectReadAt = now;
  checkMemory();
}

/**
 * Before a library call that builds a whole structure in one step of the engine's own (JSON.parse of a text), where no
 * reading can happen until it returns: a bound on what it could build, so that a text of tiny values (`[{},{},...]`,
 * 20 or more times its size once parsed) ends the run with E-RT-LIMIT-MEMORY instead of taking the thread past the
 * engine's own limit, where Node ends the whole process with a fatal error (spec/runtime.md, "What the memory limit
 * counts"). The bound is report/json-heap-bound.ts's; a text so short that even every character an object's would fit
 * is not counted. A replay's recording is held to the thread's heap before the run starts (cli/recordings/replay-plan.ts).
 */
export function checkRoomForJson(text: string): void {
  // A text that could build no more than this is let through unread, statistics and all (the cost of every small
  // json.parse): the heap limit is the memory limit and at least 256 MiB more, which the memory checks keep in reach.
  if (text.length * MOST_PER_CHARACTER <= ALWAYS_ROOM) return;
  const h = getHeapStatistics() as { heap_size_limit?: number; used_heap_size: number };
  // A browser's stand-in (rtlib/browser) knows no heap: its worker has the browser's own limit.
  if (h.heap_size_limit === undefined || h.heap_size_limit === 0) return;
  const room = () => h.heap_size_limit! - getHeapStatistics().used_heap_size - ROOM_KEPT;
  if (text.length * MOST_PER_CHARACTER <= room()) return;
  const bound = jsonHeapBound(text);
  if (bound <= room()) return;
  collectGarbage();
  collectGarbage();
  if (bound <= room()) return;
  throw new Crash("E-RT-LIMIT-MEMORY", {
    ...(owner !== undefined ? { owner } : {}),
    limit: limitMib,
    live: Math.ceil((getHeapStatistics().used_heap_size + bound) / MIB),
  });
}

/** What the engine needs beyond a parse to end a thread cleanly. */
const ROOM_KEPT = 64 * MIB;
/** What a parse may build without a look at the heap: well inside the 256 MiB the heap limit keeps above the memory limit. */
const ALWAYS_ROOM = 32 * MIB;

/** Ends the run with E-RT-LIMIT-MEMORY when the live bytes, after a full collection, are past the limit. */
function checkMemory(): void {
  if (reading() <= limitBytes) return;
  collectGarbage();
  collectGarbage();
  const live = reading();
  if (live > limitBytes)
    throw new Crash("E-RT-LIMIT-MEMORY", {
      ...(owner !== undefined ? { owner } : {}),
      limit: limitMib,
      live: Math.ceil(live / MIB),
    });
}
