// The `list` module. Lists are never changed once another value can see them;
// every function here builds a new list. Functions that take a function have
// an `...Async` twin the compiler picks when that function is effectful.

import { compare, equals } from "../equality.js";
import { Crash } from "../errors.js";
import { iadd } from "../ints.js";
import { checkCollection, MAX_ELEMENTS } from "../limits-collections.js";
import { chargeWork, S, sortSteps } from "../limits.js";
import { NONE, Some } from "../prelude.js";
import { keyOf, Pair, RMap, RSet } from "../values.js";

type F1 = (x: unknown) => unknown;
type A1 = (x: unknown) => Promise<unknown>;

const opt = (v: unknown, present: boolean): unknown => (present ? new Some(v) : NONE);

export const length = (items: unknown[]): number => items.length;
export const count = (items: unknown[]): number => items.length;
export const is_empty = (items: unknown[]): boolean => items.length === 0;
export const get = (items: unknown[], index: number): unknown => opt(items[index], index >= 0 && index < items.length);
export const first = (items: unknown[]): unknown => opt(items[0], items.length > 0);
export const last = (items: unknown[]): unknown => opt(items[items.length - 1], items.length > 0);

// Each function whose work grows with its input charges that work as fuel,
// once, before it starts (spec/runtime.md, "Library work"): the length of each
// list it passes over, n·⌈log₂ n⌉ for a sort. A function value it calls charges
// its own steps besides.
export const map = (items: unknown[], f: F1): unknown[] => {
  chargeWork(items.length);
  return items.map((x) => f(x));
};
export const filter = (items: unknown[], keep: F1): unknown[] => {
  chargeWork(items.length);
  return items.filter((x) => keep(x) === true);
};
export const fold = (items: unknown[], initial: unknown, combine: (a: unknown, x: unknown) => unknown): unknown => {
  chargeWork(items.length);
  let acc = initial;
  for (const x of items) acc = combine(acc, x);
  return acc;
};
export const find = (items: unknown[], matches: F1): unknown => {
  chargeWork(items.length);
  for (const x of items) if (matches(x) === true) return new Some(x);
  return NONE;
};
export const any = (items: unknown[], matches: F1): boolean => {
  chargeWork(items.length);
  return items.some((x) => matches(x) === true);
};
export const all = (items: unknown[], matches: F1): boolean => {
  chargeWork(items.length);
  return items.every((x) => matches(x) === true);
};
/** The lists are joined as they come, each one's length checked before it is added. */
export const flat_map = (items: unknown[], f: F1): unknown[] => {
  chargeWork(items.length);
  const out: unknown[] = [];
  for (const x of items) appendInPlace(out, f(x) as unknown[], "list.flat_map");
  return out;
};
export const sort_by = (items: unknown[], key: F1): unknown[] => {
  chargeWork(items.length + sortSteps(items.length));
  const keyed = items.map((x) => [key(x), x] as const);
  // Array.prototype.sort is stable.
  keyed.sort((a, b) => compare(a[0], b[0]));
  return keyed.map((k) => k[1]);
};

/**
 * A function value a library function calls again after awaiting it: every call
 * starts at the depth the library function was called at, whatever other tasks
 * did with the depth while it waited (spec/runtime.md, depth).
 */
function fromHere<F extends (...args: never[]) => unknown>(f: F): F {
  const depth = S.depth;
  return ((...args: Parameters<F>) => {
    S.depth = depth;
    return f(...args);
  }) as F;
}

export const mapAsync = async (items: unknown[], given: A1): Promise<unknown[]> => {
  chargeWork(items.length);
  const f = fromHere(given);
  const out: unknown[] = [];
  for (const x of items) out.push(await f(x));
  return out;
};
export const filterAsync = async (items: unknown[], given: A1): Promise<unknown[]> => {
  chargeWork(items.length);
  const keep = fromHere(given);
  const out: unknown[] = [];
  for (const x of items) if ((await keep(x)) === true) out.push(x);
  return out;
};
export const foldAsync = async (
  items: unknown[],
  initial: unknown,
  given: (a: unknown, x: unknown) => Promise<unknown>,
): Promise<unknown> => {
  chargeWork(items.length);
  const combine = fromHere(given);
  let acc = initial;
  for (const x of items) acc = await combine(acc, x);
  return acc;
};
export const findAsync = async (items: unknown[], given: A1): Promise<unknown> => {
  chargeWork(items.length);
  const matches = fromHere(given);
  for (const x of items) if ((await matches(x)) === true) return new Some(x);
  return NONE;
};
export const anyAsync = async (items: unknown[], given: A1): Promise<boolean> => {
  chargeWork(items.length);
  const matches = fromHere(given);
  for (const x of items) if ((await matches(x)) === true) return true;
  return false;
};
export const allAsync = async (items: unknown[], given: A1): Promise<boolean> => {
  chargeWork(items.length);
  const matches = fromHere(given);
  for (const x of items) if ((await matches(x)) !== true) return false;
  return true;
};
export const flat_mapAsync = async (items: unknown[], given: A1): Promise<unknown[]> => {
  chargeWork(items.length);
  const f = fromHere(given);
  const out: unknown[] = [];
  for (const x of items) appendInPlace(out, (await f(x)) as unknown[], "list.flat_map");
  return out;
};
export const sort_byAsync = async (items: unknown[], key: A1): Promise<unknown[]> => {
  const keys = await mapAsync(items, key);
  chargeWork(sortSteps(items.length));
  const keyed = items.map((x, i) => [keys[i], x] as const);
  keyed.sort((a, b) => compare(a[0], b[0]));
  return keyed.map((k) => k[1]);
};

export const flatten = (items: unknown[][]): unknown[] => {
  let n = 0;
  for (let i = 0; i < items.length && n <= MAX_ELEMENTS; i++) n += items[i]!.length;
  checkCollection(n, "list.flatten");
  chargeWork(items.length + n);
  return items.flat();
};
export const sort = (items: unknown[]): unknown[] => {
  chargeWork(sortSteps(items.length));
  return [...items].sort(compare);
};
export const reverse = (items: unknown[]): unknown[] => {
  chargeWork(items.length);
  return [...items].reverse();
};
export const zip = (a: unknown[], b: unknown[]): Pair[] => {
  const n = Math.min(a.length, b.length);
  chargeWork(n);
  return a.slice(0, n).map((x, i) => new Pair(x, b[i]));
};
export const enumerate = (items: unknown[]): Pair[] => {
  chargeWork(items.length);
  return items.map((x, i) => new Pair(i, x));
};
export const unique = (items: unknown[]): unknown[] => {
  chargeWork(items.length);
  return [...new RSet(items).values()];
};
/** A search charges the whole list, before it starts, wherever the item turns out to be. */
export const contains = (items: unknown[], item: unknown): boolean => {
  chargeWork(items.length);
  return items.some((x) => equals(x, item));
};
export const index_of = (items: unknown[], item: unknown): unknown => {
  chargeWork(items.length);
  const i = items.findIndex((x) => equals(x, item));
  return i < 0 ? NONE : new Some(i);
};
export const append = (items: unknown[], item: unknown): unknown[] => {
  checkCollection(items.length + 1, "list.append");
  chargeWork(items.length + 1);
  return [...items, item];
};
/** take, drop and slice charge the length of the list they make. */
function sliced(items: unknown[], from: number, to: number): unknown[] {
  chargeWork(Math.max(0, Math.min(to, items.length) - Math.min(from, items.length)));
  return items.slice(from, to);
}
export const take = (items: unknown[], n: number): unknown[] => sliced(items, 0, Math.max(0, n));
export const drop = (items: unknown[], n: number): unknown[] => sliced(items, Math.max(0, n), items.length);
export const slice = (items: unknown[], start: number, end: number): unknown[] =>
  sliced(items, Math.max(0, start), Math.max(0, end));
export const chunks = (items: unknown[], size: number): unknown[][] => {
  if (size < 1)
    throw new Crash("E-RT-CRASH", {
      problem: "argument",
      call: "list.chunks",
      needs: "a size of at least 1",
      given: String(size),
    });
  chargeWork(items.length);
  const out: unknown[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};
/** Int lists sum with overflow checks; Float lists as doubles. An empty list sums to 0 (or 0.0). */
export const sum = (items: number[]): number => {
  chargeWork(items.length);
  let total = 0;
  for (const x of items) total = Number.isInteger(x) && Number.isInteger(total) ? iadd(total, x) : total + x;
  return total;
};
export const sumFloat = (items: number[]): number => {
  chargeWork(items.length);
  return items.reduce((a, b) => a + b, 0);
};
export const average = (items: number[]): unknown => {
  chargeWork(items.length);
  return items.length === 0 ? NONE : new Some(items.reduce((a, b) => a + b, 0) / items.length);
};
export const min = (items: unknown[]): unknown => {
  chargeWork(items.length);
  return items.length === 0 ? NONE : new Some(items.reduce((a, b) => (compare(b, a) < 0 ? b : a)));
};
export const max = (items: unknown[]): unknown => {
  chargeWork(items.length);
  return items.length === 0 ? NONE : new Some(items.reduce((a, b) => (compare(b, a) > 0 ? b : a)));
};
export const to_set = (items: unknown[]): RSet => {
  chargeWork(items.length);
  return new RSet(items);
};
export const to_map = (entries: Pair[]): RMap => {
  chargeWork(entries.length);
  return new RMap(entries.map((p) => [p.first, p.second]));
};
export const range = (start: number, finish: number): number[] => {
  // The difference of two Ints may be no Int (2^53 - (-2^53)); it is only compared.
  const n = finish > start ? finish - start : 0;
  checkCollection(n, "list.range");
  chargeWork(n);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = start + i;
  return out;
};

/** `a + b` on lists. */
export function concat(a: unknown[], b: unknown[]): unknown[] {
  checkCollection(a.length + b.length, "joining two lists");
  chargeWork(a.length + b.length);
  return a.concat(b);
}

/**
 * `set v to v + b` when v's list is seen by nothing else (see spec/runtime.md,
 * "Value semantics"): the list grows in place, in time linear in `b`.
 */
export function appendInPlace(a: unknown[], b: unknown[], what = "joining two lists"): unknown[] {
  checkCollection(a.length + b.length, what);
  chargeWork(b.length);
  for (let i = 0; i < b.length; i++) a.push(b[i]);
  return a;
}

/**
 * `set v to v + [x]` when v's list is seen by nothing else: one item, without
 * the array of items a rest parameter makes on each call (about 15% of a loop
 * that builds a list, bench/RESULTS.md).
 */
export function pushOneInPlace(a: unknown[], item: unknown): unknown[] {
  if (a.length >= MAX_ELEMENTS) checkCollection(a.length + 1, "joining two lists");
  a.push(item);
  return a;
}

/** `set v to v + [x, y]` when v's list is seen by nothing else. */
export function pushInPlace(a: unknown[], ...items: unknown[]): unknown[] {
  if (a.length + items.length > MAX_ELEMENTS) checkCollection(a.length + items.length, "joining two lists");
  for (let i = 0; i < items.length; i++) a.push(items[i]);
  return a;
}

/** A query's row (or selected value) added to its rows: a join of large lists stops at the element limit. */
export function pushRow(rows: unknown[], row: unknown): void {
  if (rows.length >= MAX_ELEMENTS) checkCollection(rows.length + 1, "a query");
  rows.push(row);
}

/** `a to b` and `a until b`. */
export function rangeInclusive(a: number, b: number): number[] {
  return range(a, b + 1);
}

export { keyOf };
