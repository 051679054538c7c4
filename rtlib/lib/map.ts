// The `map` module. Maps keep their entries in the order keys were first put.

import { chargeWork } from "../limits.js";
import { NONE, Some } from "../prelude.js";
import { Pair, type RMap } from "../values.js";

export const get = (m: RMap, key: unknown): unknown => {
  const value = m.valuesByKey.get(keyOfAny(key));
  return value === undefined ? NONE : new Some(value);
};
export const contains = (m: RMap, key: unknown): boolean => m.has(key);
// What copies or passes over a map charges its entries as fuel, before it starts
// (spec/runtime.md, "Library work"); a change in place charges nothing more.
export const put = (m: RMap, key: unknown, value: unknown): RMap => {
  chargeWork(m.size);
  return m.copy().setInPlace(key, value);
};
export const remove = (m: RMap, key: unknown): RMap => {
  chargeWork(m.size);
  return m.copy().deleteInPlace(key);
};
export const keys = (m: RMap): unknown[] => {
  chargeWork(m.size);
  return [...m.entries()].map(([k]) => k);
};
export const values = (m: RMap): unknown[] => {
  chargeWork(m.size);
  return [...m.entries()].map(([, v]) => v);
};
export const entries = (m: RMap): Pair[] => {
  chargeWork(m.size);
  return [...m.entries()].map(([k, v]) => new Pair(k, v));
};
export const length = (m: RMap): number => m.size;
export const is_empty = (m: RMap): boolean => m.size === 0;
export const merge = (a: RMap, b: RMap): RMap => {
  chargeWork(a.size + b.size);
  const out = a.copy();
  for (const [k, v] of b.entries()) out.setInPlace(k, v);
  return out;
};

/** `set m to m.put(k, v)` when m's map is seen by nothing else: changed in place. */
export const putInPlace = (m: RMap, key: unknown, value: unknown): RMap => m.setInPlace(key, value);
export const removeInPlace = (m: RMap, key: unknown): RMap => m.deleteInPlace(key);

import { keyOf as keyOfAny } from "../values.js";
