// Derived equality and order (spec/types.md, section 3), structural on the values
// themselves: numbers by value, texts by UTF-16 code units, lists and records
// field by field, variants by the order of their cases, then their fields.

import { descOf, Pair, RMap, RSet } from "./values.js";
import { Guarded, plain } from "./origins.js";

export function equals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // A key or a row of a query in a program with guards: the value is what is compared.
  if (a instanceof Guarded || b instanceof Guarded) return equals(plain(a), plain(b));
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    // NaN is not equal to itself; everything else that is not an object compared above.
    return false;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equals(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Pair) return b instanceof Pair && equals(a.first, b.first) && equals(a.second, b.second);
  if (a instanceof RMap) {
    if (!(b instanceof RMap) || a.size !== b.size) return false;
    for (const [key, value] of a.valuesByKey) {
      if (!b.valuesByKey.has(key) || !equals(value, b.valuesByKey.get(key))) return false;
    }
    return true;
  }
  if (a instanceof RSet) {
    if (!(b instanceof RSet) || a.size !== b.size) return false;
    for (const key of a.itemsByKey.keys()) if (!b.itemsByKey.has(key)) return false;
    return true;
  }
  if (a instanceof Uint8Array) return b instanceof Uint8Array && Buffer.from(a).equals(Buffer.from(b));
  const da = descOf(a);
  if (da !== undefined) {
    if (descOf(b) !== da) return false;
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const f of da.fields) if (!equals(x[f.prop], y[f.prop])) return false;
    return true;
  }
  // Json objects: never equal to a Json list, which has no keys either when empty.
  if (Array.isArray(b) || descOf(b) !== undefined) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(y, k) && equals(x[k], y[k]));
}

/** -1, 0 or 1. Only called on types the checker found orderable. */
export function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a instanceof Guarded || b instanceof Guarded) return compare(plain(a), plain(b));
  switch (typeof a) {
    case "number":
      return a < (b as number) ? -1 : a > (b as number) ? 1 : 0;
    case "string":
      return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
    case "boolean":
      return a === b ? 0 : a ? 1 : -1;
  }
  if (a === null) return 0;
  if (Array.isArray(a)) {
    const y = b as unknown[];
    const n = Math.min(a.length, y.length);
    for (let i = 0; i < n; i++) {
      const c = compare(a[i], y[i]);
      if (c !== 0) return c;
    }
    return a.length < y.length ? -1 : a.length > y.length ? 1 : 0;
  }
  if (a instanceof Pair) {
    const y = b as Pair;
    return compare(a.first, y.first) || compare(a.second, y.second);
  }
  if (a instanceof Uint8Array) return Buffer.compare(Buffer.from(a), Buffer.from(b as Uint8Array));
  const da = descOf(a);
  const db = descOf(b);
  if (da !== undefined && db !== undefined) {
    if (da.index !== db.index) return da.index < db.index ? -1 : 1;
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const f of da.fields) {
      const c = compare(x[f.prop], y[f.prop]);
      if (c !== 0) return c;
    }
  }
  return 0;
}
