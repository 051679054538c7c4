// A JSON reader for files a hostile party may have written (a bundle's grant
// manifest, a recording). JSON.parse keeps the last of two equal keys, so a file
// could show a reader one `needs` and give the program another; this reader
// refuses a repeated key instead, and also text that is not UTF-8, a byte order
// mark, a lone surrogate, a number out of range, and nesting deeper than asked.
// Objects are made without a prototype, so that `__proto__` is a key like any
// other (and a schema refuses it as an unknown field) and no absent key finds
// Object.prototype's members.
//
// It reads at the speed of the engine's own parser: one scan over the text's
// character codes checks what JSON.parse cannot (the rules above) and the
// grammar, building no value but the keys of the object it is in; then
// JSON.parse builds the value, which the scan has proved it will accept, and a
// walk takes the prototype off each object (bench/json-read.ts).

import { isUtf8 } from "node:buffer";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export type JsonRead = { ok: true; value: Json } | { ok: false; problem: string };

const MAX_DEPTH = 16;

/**
 * `maxDepth`: how deeply arrays and objects may nest (a manifest's 16 by default; a recording's arguments nest deeper).
 */
export function readStrictJson(bytes: Uint8Array, maxDepth = MAX_DEPTH): JsonRead {
  if (!isUtf8(bytes)) return { ok: false, problem: "it is not UTF-8 text" };
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) return { ok: false, problem: "it starts with a byte order mark" };
  // The quick scan first, and JSON.parse, which holds the grammar; only when either finds a problem does the checking
  // scan go over the text again, to name the first problem and its place.
  const value = quickScan(text, maxDepth) ? parsed(text) : undefined;
  if (value !== undefined) {
    withoutPrototypes(value);
    return { ok: true, value };
  }
  const problem = problemOf(text, maxDepth);
  if (problem !== undefined) return { ok: false, problem };
  const read = JSON.parse(text) as Json;
  withoutPrototypes(read);
  return { ok: true, value: read };
}

function parsed(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/** Takes Object.prototype off every object of a value JSON.parse made (its depth is bounded by the scan). */
function withoutPrototypes(value: Json): void {
  if (typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i]!;
      if (typeof item === "object" && item !== null) withoutPrototypes(item);
    }
    return;
  }
  Object.setPrototypeOf(value, null);
  for (const key in value) {
    const item = value[key]!;
    if (typeof item === "object" && item !== null) withoutPrototypes(item);
  }
}

class JsonProblem {
  constructor(
    readonly what: string,
    readonly at: number,
  ) {}
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OBJECT = 1;
const ARRAY = 2;
/** Above this many keys an object's keys are checked for repeats in a Set rather than one by one. */
const FEW_KEYS = 12;

/**
 * Whether a text that JSON.parse accepts holds to the rules JSON.parse does not: nesting no deeper than `maxDepth`, no
 * key twice in one object, no escaped surrogate alone, no number past 1e308. It reads the grammar only as far as it
 * must (where texts begin and end, which texts are keys), leaving the rest to JSON.parse, and so passes over most
 * characters with the engine's own searches: a text ends at the next quote that no backslash escapes. It is never
 * wrong when it says yes of a text JSON.parse accepts; on any other it may say yes or no (a no is then explained by
 * the checking scan, a yes by JSON.parse's refusal). Its nesting is counted on every text, so that JSON.parse is
 * never given one that nests deeper than asked.
 */
function quickScan(text: string, maxDepth: number): boolean {
  const n = text.length;
  const open: number[] = [];
  const keys: number[][] = [];
  const counts: number[] = [];
  const keySets: (Set<string> | undefined)[] = [];
  let depth = 0;
  let expectKey = false;
  let nextEscapedUnit = text.indexOf("\\u");
  if (nextEscapedUnit === -1) nextEscapedUnit = n;
  let nextBackslash = text.indexOf("\\");
  if (nextBackslash === -1) nextBackslash = n;
  let at = 0;
  while (at < n) {
    const c = text.charCodeAt(at);
    // Spacing first, the most common character between values of an indented document (a recording is written so).
    if (c === 0x20 || c === 0x0a) {
      while (text.charCodeAt(++at) === 0x20);
      continue;
    }
    if (c === QUOTE) {
      const start = at;
      let quote = text.indexOf('"', at + 1);
      for (;;) {
        if (quote === -1) return false;
        let backslashes = 0;
        while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
        if (backslashes % 2 === 0) break;
        quote = text.indexOf('"', quote + 1);
      }
      // Escaped code units inside this text: a surrogate must come as a pair.
      while (nextEscapedUnit < quote) {
        let backslashes = 0;
        while (text.charCodeAt(nextEscapedUnit - 1 - backslashes) === BACKSLASH) backslashes++;
        let after = nextEscapedUnit + 2;
        if (backslashes % 2 === 0 && nextEscapedUnit > start) {
          const unit = hex4(text, nextEscapedUnit + 2);
          if (unit >= 0xdc00 && unit <= 0xdfff) return false;
          if (unit >= 0xd800 && unit <= 0xdbff) {
            const low = text.startsWith("\\u", nextEscapedUnit + 6) ? hex4(text, nextEscapedUnit + 8) : -1;
            if (!(low >= 0xdc00 && low <= 0xdfff)) return false;
            after = nextEscapedUnit + 12;
          }
        }
        nextEscapedUnit = text.indexOf("\\u", after);
        if (nextEscapedUnit === -1) nextEscapedUnit = n;
      }
      if (expectKey) {
        while (nextBackslash < start) {
          nextBackslash = text.indexOf("\\", start);
          if (nextBackslash === -1) nextBackslash = n;
        }
        const d = depth - 1;
        let set = keySets[d];
        const from = start + 1;
        const escapedKey = nextBackslash < quote;
        const count = counts[d]!;
        if (set === undefined && !escapedKey && count < 2 * FEW_KEYS) {
          const list = keys[d]!;
          const length = quote - from;
          for (let i = 0; i < count; i += 2) {
            const a = list[i]!;
            if (list[i + 1]! - a === length && sameText(text, a, from, length)) return false;
          }
          list[count] = from;
          list[count + 1] = quote;
          counts[d] = count + 2;
        } else {
          if (set === undefined) {
            set = new Set();
            const list = keys[d]!;
            for (let i = 0; i < count; i += 2) set.add(text.slice(list[i]!, list[i + 1]!));
            keySets[d] = set;
          }
          let key: string;
          try {
            key = escapedKey ? (JSON.parse(text.slice(start, quote + 1)) as string) : text.slice(from, quote);
          } catch {
            return false;
          }
          if (set.has(key)) return false;
          set.add(key);
        }
        expectKey = false;
      } else if (depth > maxDepth) return false;
      at = quote + 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      if (
        depth >= maxDepth &&
        !(text.charCodeAt(afterSpace(text, at + 1)) === (c === 0x7b ? 0x7d : 0x5d) && depth <= maxDepth)
      )
        return false;
      open[depth] = c;
      if (c === 0x7b) {
        if (keys[depth] === undefined) keys[depth] = [];
        counts[depth] = 0;
        keySets[depth] = undefined;
        expectKey = true;
      }
      depth++;
      at++;
      continue;
    }
    if (c === 0x7d || c === 0x5d) {
      depth--;
      expectKey = false;
      at++;
      continue;
    }
    if (c === 0x2c) {
      expectKey = open[depth - 1] === 0x7b;
      at++;
      continue;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      if (depth > maxDepth) return false;
      const start = at;
      let plain = true;
      for (;;) {
        const d = text.charCodeAt(at);
        if (d >= 0x30 && d <= 0x39) at++;
        else if (d === 0x2e || d === 0x2d || d === 0x2b) at++;
        else if (d === 0x65 || d === 0x45) {
          plain = false;
          at++;
        } else break;
      }
      if ((!plain || at - start > 15) && !Number.isFinite(Number(text.slice(start, at)))) return false;
      continue;
    }
    if ((c === 0x74 || c === 0x66 || c === 0x6e) && depth > maxDepth) return false;
    at++;
  }
  return true;
}

/** The problem of a text that is not strict JSON, with its line and column; undefined when it is. */
function problemOf(text: string, maxDepth: number): string | undefined {
  try {
    scan(text, maxDepth);
    return undefined;
  } catch (e) {
    if (!(e instanceof JsonProblem)) throw e;
    const before = text.slice(0, e.at);
    let line = 1;
    for (let i = before.indexOf("\n"); i !== -1; i = before.indexOf("\n", i + 1)) line++;
    const column = e.at - before.lastIndexOf("\n");
    return `${e.what} at line ${line}, column ${column}`;
  }
}

function fail(what: string, at: number): never {
  throw new JsonProblem(what, at);
}

/**
 * The checking pass: one loop over the text's character codes with the open arrays and objects on a stack of its own
 * (no call per value), building nothing but what finds a repeated key. A few keys without escapes are compared where
 * they stand in the text, by their places, allocating nothing; past FEW_KEYS, or once a key holds an escape, the keys
 * are kept as values in a Set. Throws a JsonProblem at the first thing that is not strict JSON.
 */
function scan(text: string, maxDepth: number): void {
  const n = text.length;
  /** What is open at each depth: OBJECT or ARRAY. */
  const open: number[] = [];
  /** The keys of the object open at each depth: each key's first and last place, in pairs. */
  const keys: number[][] = [];
  const keySets: (Set<string> | undefined)[] = [];
  let at = 0;
  /** The depth of the value expected next. */
  let depth = 0;
  for (;;) {
    // A value is expected.
    if (depth > maxDepth) fail(`nesting deeper than ${maxDepth}`, at);
    at = afterSpace(text, at);
    const c = text.charCodeAt(at);
    let ended = true;
    if (c === QUOTE) at = afterText(text, at);
    else if (c === 0x7b || c === 0x5b) {
      at = afterSpace(text, at + 1);
      const closing = c === 0x7b ? 0x7d : 0x5d;
      if (text.charCodeAt(at) === closing) at++;
      else {
        open[depth] = c === 0x7b ? OBJECT : ARRAY;
        if (c === 0x7b) {
          const list = keys[depth] ?? (keys[depth] = []);
          list.length = 0;
          keySets[depth] = undefined;
          at = afterKey(text, at, list, keySets, depth);
        }
        depth++;
        ended = false;
      }
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) at = afterNumber(text, at);
    else if (text.startsWith("true", at) || text.startsWith("null", at)) at += 4;
    else if (text.startsWith("false", at)) at += 5;
    else if (at >= n) fail("the text ends where a value was expected", at);
    else fail(`unexpected ${JSON.stringify(text[at])}`, at);
    if (!ended) continue;
    // A value ended: close what it ends, up to the next value expected, or the end of the text.
    for (;;) {
      if (depth === 0) {
        at = afterSpace(text, at);
        if (at < n) fail("text after the end of the JSON value", at);
        return;
      }
      at = afterSpace(text, at);
      const next = text.charCodeAt(at);
      const kind = open[depth - 1];
      if (next === (kind === OBJECT ? 0x7d : 0x5d)) {
        at++;
        depth--;
        continue;
      }
      if (next !== 0x2c) fail(kind === OBJECT ? "`,` or `}` expected" : "`,` or `]` expected", at);
      at++;
      if (kind === OBJECT) at = afterKey(text, afterSpace(text, at), keys[depth - 1]!, keySets, depth - 1);
      break;
    }
  }
}

function afterSpace(text: string, at: number): number {
  for (;;) {
    const c = text.charCodeAt(at);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) at++;
    else return at;
  }
}

/** Whether the text afterText last passed over holds an escape. */
let escaped = false;

/**
 * Past a key and its `:` (the key's quote at `at`), the key checked against the others of the object open at
 * `depth`.
 */
function afterKey(
  text: string,
  at: number,
  list: number[],
  keySets: (Set<string> | undefined)[],
  depth: number,
): number {
  if (text.charCodeAt(at) !== QUOTE) fail("a key in quotes expected", at);
  const end = afterText(text, at);
  const from = at + 1;
  const to = end - 1;
  let set = keySets[depth];
  if (set === undefined && !escaped && list.length < 2 * FEW_KEYS) {
    const length = to - from;
    for (let i = 0; i < list.length; i += 2) {
      const a = list[i]!;
      if (list[i + 1]! - a === length && sameText(text, a, from, length)) twice(text.slice(from, to), at);
    }
    list.push(from, to);
  } else {
    if (set === undefined) {
      set = new Set();
      for (let i = 0; i < list.length; i += 2) set.add(text.slice(list[i]!, list[i + 1]!));
      keySets[depth] = set;
    }
    const key = escaped ? (JSON.parse(text.slice(at, end)) as string) : text.slice(from, to);
    if (set.has(key)) twice(key, at);
    set.add(key);
  }
  const colon = afterSpace(text, end);
  if (text.charCodeAt(colon) !== 0x3a) fail("`:` expected after a key", colon);
  return colon + 1;
}

function twice(key: string, at: number): never {
  fail(`the key ${JSON.stringify(key)} appears twice in one object`, at);
}

/**
 * Past a text (its quote at `start`), checked: no control character, only JSON's escapes, no escaped surrogate
 * alone. The text is valid UTF-16 made from valid UTF-8, so only an escaped surrogate can stand alone. Sets `escaped`.
 */
function afterText(text: string, start: number): number {
  let at = start + 1;
  escaped = false;
  for (;;) {
    const c = text.charCodeAt(at);
    if (c === QUOTE) return at + 1;
    if (c >= 0x20 && c !== BACKSLASH) {
      at++;
      continue;
    }
    if (at >= text.length) fail("a text that is never closed", at);
    if (c < 0x20) fail("a control character inside a text", at);
    escaped = true;
    const e = text.charCodeAt(at + 1);
    if (e === 0x75) {
      const unit = hex4(text, at + 2);
      if (unit < 0) fail("a bad escape inside a text", at);
      at += 6;
      if (unit >= 0xdc00 && unit <= 0xdfff) fail("a text holding half of a character (a lone surrogate)", start);
      if (unit >= 0xd800 && unit <= 0xdbff) {
        const escapesUnit = text.charCodeAt(at) === BACKSLASH && text.charCodeAt(at + 1) === 0x75;
        const low = escapesUnit ? hex4(text, at + 2) : -1;
        if (escapesUnit && low < 0) fail("a bad escape inside a text", at);
        if (!(low >= 0xdc00 && low <= 0xdfff)) fail("a text holding half of a character (a lone surrogate)", start);
        at += 6;
      }
      continue;
    }
    // " \ / b f n r t
    if (
      e === QUOTE ||
      e === BACKSLASH ||
      e === 0x2f ||
      e === 0x62 ||
      e === 0x66 ||
      e === 0x6e ||
      e === 0x72 ||
      e === 0x74
    ) {
      at += 2;
      continue;
    }
    fail("a bad escape inside a text", at);
  }
}

/** Past a number (its first character at `start`); one too large to hold (past 1e308) is refused. */
function afterNumber(text: string, start: number): number {
  let at = start;
  if (text.charCodeAt(at) === 0x2d) at++;
  const first = text.charCodeAt(at);
  if (first === 0x30) at++;
  else if (first >= 0x31 && first <= 0x39) at = digits(text, at);
  else fail("a malformed number", start);
  let plain = at - start <= 15;
  // A fraction or an exponent without digits is not part of the number: what follows it is then unexpected.
  if (text.charCodeAt(at) === 0x2e) {
    const after = digits(text, at + 1);
    if (after > at + 1) at = after;
  }
  const e = text.charCodeAt(at);
  if (e === 0x65 || e === 0x45) {
    const sign = text.charCodeAt(at + 1);
    const from = sign === 0x2b || sign === 0x2d ? at + 2 : at + 1;
    const after = digits(text, from);
    if (after > from) {
      plain = false;
      at = after;
    }
  }
  if (!plain && !Number.isFinite(Number(text.slice(start, at)))) fail("a number too large to hold", start);
  return at;
}

/** Whether the `length` characters at `a` are those at `b`. */
function sameText(text: string, a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (text.charCodeAt(a + i) !== text.charCodeAt(b + i)) return false;
  return true;
}

function digits(text: string, at: number): number {
  for (;;) {
    const c = text.charCodeAt(at);
    if (c >= 0x30 && c <= 0x39) at++;
    else return at;
  }
}

/** The code unit of four hex digits at `at`, or -1. */
function hex4(text: string, at: number): number {
  let unit = 0;
  for (let i = 0; i < 4; i++) {
    const c = text.charCodeAt(at + i);
    const d =
      c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
    if (d < 0) return -1;
    unit = unit * 16 + d;
  }
  return unit;
}

/**
 * The value of bytes readStrictJson has accepted, read again where the value it gave is not at hand (the program's
 * worker thread, sent the bytes rather than a copy of the value): JSON.parse, then no prototypes, as readStrictJson
 * gives it. Only for bytes that reader accepted: nothing here checks them again.
 */
export function readCheckedJson(bytes: Uint8Array): Json {
  const value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8")) as Json;
  withoutPrototypes(value);
  return value;
}
