// Collection sizes (spec/runtime.md, section 3: 10,000,000 elements in a list, map or set, 64 MiB
// in a text), checked before building wherever the size is known, so that no
// value a program can make reaches the engine's own limits (a RangeError, or a
// fatal error that takes the whole process down).

import { Crash } from "./errors.js";

import { MAX_ELEMENTS as HIGHEST_ELEMENTS, MAX_TEXT as HIGHEST_TEXT } from "../vocabulary/limits.js";
import { configureIncoming } from "./lib/incoming.js";

/**
 * The run's limits, live bindings that every module importing them sees
 * change: set by the host that starts a run (`--max-collection`,
 * `--max-text`), never above the defaults, never by a program.
 */
export let MAX_ELEMENTS: number = HIGHEST_ELEMENTS;
export let MAX_TEXT: number = HIGHEST_TEXT;

/** For the host that starts a run: data coming in is held to the text limit too (rtlib/lib/incoming.ts). */
export function configureCollections(limits: { maxCollection?: number; maxText?: number }): void {
  MAX_ELEMENTS = Math.min(limits.maxCollection ?? HIGHEST_ELEMENTS, HIGHEST_ELEMENTS);
  MAX_TEXT = Math.min(limits.maxText ?? HIGHEST_TEXT, HIGHEST_TEXT);
  configureIncoming({ bytes: MAX_TEXT, rows: MAX_ELEMENTS });
}

export function checkCollection(size: number, what: string): void {
  if (size > MAX_ELEMENTS) {
    throw new Crash("E-RT-LIMIT-COLLECTION", { problem: "elements", building: what, size, limit: MAX_ELEMENTS });
  }
}

/** Every text-building operation checks the length of what it builds here, before building it where it can. */
export function checkText(length: number, what: string): void {
  if (length > MAX_TEXT) textTooLong(length, what);
}

export function textTooLong(length: number, what: string): never {
  throw new Crash("E-RT-LIMIT-COLLECTION", { problem: "text", building: what, length, limit: MAX_TEXT });
}

/** `a + b` on texts. */
export function tadd(a: string, b: string): string {
  if (a.length + b.length > MAX_TEXT) textTooLong(a.length + b.length, "joining two texts");
  return a + b;
}

/**
 * An interpolation (`"{a} and {b}"`), checked once built: the compiler gives a
 * template at most seven values (a larger one is nested), so that however long
 * its parts are (each within the limit), the engine can build it (its own limit
 * is eight times this one) and this check is what stops it.
 */
export function tinterp(text: string): string {
  if (text.length > MAX_TEXT) textTooLong(text.length, "an interpolation");
  return text;
}

/** A text an operation has built whose length could not be known before (upper, lower): checked before any other value can see it. */
export function checkedText(text: string, what: string): string {
  if (text.length > MAX_TEXT) textTooLong(text.length, what);
  return text;
}
