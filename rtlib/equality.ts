// Derived equality and order (spec/types.md, section 3), structural on the values
// themselves: numbers by value, texts by UTF-16 code units, lists and records
// field by field, variants by the order of their cases, then their fields.
//
// Both walk the two values side by side with a stack of their own (a list nested a
// million deep is a value a loop can build, and the engine's stack would not hold
// its walk), and charge fuel as they go (spec/runtime.md, "Walks over values"): one
// step for each pair of parts they visit below the two values they were given, and
// one for each UTF-16 unit (or byte) of the shorter of two texts (or Bytes) they
// compare. A pair that is the very same object is equal without being opened: the
// same tree compared with itself costs nothing, however large.

import { descOf, Pair, RMap, RSet } from "./values.js";
import { Guarded, plain } from "./origins.js";
import { chargeWork, S, slow } from "./limits.js";

export function equals(a: unknown, b: unknown): boolean {
  if (a === b) {
    // Two texts equal in content need not be one string: the engine compares them unit by unit.
    if (typeof a === "string") chargeWork(a.length);
    return true;
  }
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    if (typeof a === "string" && typeof b === "string") chargeWork(Math.min(a.length, b.length));
    // NaN is not equal to itself; everything else that is not an object compared above.
    return false;
  }
  const pending: unknown[] = [];
  if (!openEqual(a, b, pending)) return false;
  while (pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    if ((S.room -= 1) < 0) slow();
    if (x === y) {
      if (typeof x === "string") chargeWork(x.length);
      continue;
    }
    // Two numbers or Booleans not the same are unequal; a record's fields are most often these.
    if (typeof x !== "object" && typeof x !== "string" && typeof y !== "object") return false;
    if (!openEqual(x, y, pending)) return false;
  }
  return true;
}

/**
 * Whether `a` and `b`, not the same value, are alike at their top: pushes the pairs of
 * their parts still to compare (first part last, so that it is compared first).
 */
function openEqual(a: unknown, b: unknown, pending: unknown[]): boolean {
  // Records and cases first, the parts most values have.
  const da = descOf(a);
  if (da !== undefined && descOf(b) === da) {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    const fields = da.fields;
    for (let i = fields.length - 1; i >= 0; i--) pending.push(x[fields[i]!.prop], y[fields[i]!.prop]);
    return true;
  }
  // A key or a row of a query in a program with guards: the value is what is compared.
  if (a instanceof Guarded || b instanceof Guarded) {
    const x = plain(a);
    const y = plain(b);
    if (x === y) {
      if (typeof x === "string") chargeWork(x.length);
      return true;
    }
    return openEqual(x, y, pending);
  }
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    if (typeof a === "string" && typeof b === "string") chargeWork(Math.min(a.length, b.length));
    return false;
  }
  // A record or case against another type or case.
  if (da !== undefined) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = a.length - 1; i >= 0; i--) pending.push(a[i], b[i]);
    return true;
  }
  if (a instanceof Pair) {
    if (!(b instanceof Pair)) return false;
    pending.push(a.second, b.second, a.first, b.first);
    return true;
  }
  if (a instanceof RMap) {
    if (!(b instanceof RMap) || a.size !== b.size) return false;
    // Each key looked up in the other map is a step; the values are compared after.
    chargeWork(a.size);
    for (const key of a.valuesByKey.keys()) if (!b.valuesByKey.has(key)) return false;
    const values: unknown[] = [];
    for (const [key, value] of a.valuesByKey) values.push(value, b.valuesByKey.get(key));
    for (let i = values.length - 2; i >= 0; i -= 2) pending.push(values[i], values[i + 1]);
    return true;
  }
  if (a instanceof RSet) {
    if (!(b instanceof RSet) || a.size !== b.size) return false;
    chargeWork(a.size);
    for (const key of a.itemsByKey.keys()) if (!b.itemsByKey.has(key)) return false;
    return true;
  }
  if (a instanceof Uint8Array) {
    if (!(b instanceof Uint8Array)) return false;
    chargeWork(Math.min(a.length, b.length));
    return Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
  }
  // Json objects: never equal to a Json list, which has no keys either when empty.
  if (
    Array.isArray(b) ||
    descOf(b) !== undefined ||
    b instanceof Pair ||
    b instanceof RMap ||
    b instanceof RSet ||
    b instanceof Uint8Array
  )
    return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  chargeWork(keys.length);
  for (const k of keys) if (!Object.hasOwn(y, k)) return false;
  for (let i = keys.length - 1; i >= 0; i--) pending.push(x[keys[i]!], y[keys[i]!]);
  return true;
}

/** What a list's order comes to once all the items both lists have are equal: its length's. */
class Then {
  constructor(readonly order: number) {}
}

/** -1, 0 or 1. Only called on types the checker found orderable. */
export function compare(a: unknown, b: unknown): number {
  if (a === b) {
    if (typeof a === "string") chargeWork(a.length);
    return 0;
  }
  const pending: unknown[] = [];
  let c = openCompare(a, b, pending);
  while (c === 0 && pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    if (x instanceof Then) {
      c = x.order;
      continue;
    }
    if ((S.room -= 1) < 0) slow();
    if (x === y) {
      if (typeof x === "string") chargeWork(x.length);
      continue;
    }
    // Two numbers, a record's fields most often.
    if (typeof x === "number") c = x < (y as number) ? -1 : x > (y as number) ? 1 : 0;
    else c = openCompare(x, y, pending);
  }
  return c;
}

/** The order of `a` and `b` at their top, or 0 with the pairs of their parts still to compare pushed. */
function openCompare(a: unknown, b: unknown, pending: unknown[]): number {
  if (a instanceof Guarded || b instanceof Guarded) {
    const x = plain(a);
    const y = plain(b);
    if (x === y) {
      if (typeof x === "string") chargeWork(x.length);
      return 0;
    }
    return openCompare(x, y, pending);
  }
  switch (typeof a) {
    case "number":
      return a < (b as number) ? -1 : a > (b as number) ? 1 : 0;
    case "string":
      chargeWork(Math.min(a.length, (b as string).length));
      return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
    case "boolean":
      return a === b ? 0 : a ? 1 : -1;
  }
  if (a === null) return 0;
  if (Array.isArray(a)) {
    const y = b as unknown[];
    const n = Math.min(a.length, y.length);
    pending.push(new Then(a.length < y.length ? -1 : a.length > y.length ? 1 : 0), undefined);
    for (let i = n - 1; i >= 0; i--) pending.push(a[i], y[i]);
    return 0;
  }
  if (a instanceof Pair) {
    const y = b as Pair;
    pending.push(a.second, y.second, a.first, y.first);
    return 0;
  }
  if (a instanceof Uint8Array) {
    const y = b as Uint8Array;
    chargeWork(Math.min(a.length, y.length));
    return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(y.buffer, y.byteOffset, y.length));
  }
  const da = descOf(a);
  const db = descOf(b);
  if (da !== undefined && db !== undefined) {
    if (da.index !== db.index) return da.index < db.index ? -1 : 1;
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    const fields = da.fields;
    for (let i = fields.length - 1; i >= 0; i--) pending.push(x[fields[i]!.prop], y[fields[i]!.prop]);
  }
  return 0;
}
