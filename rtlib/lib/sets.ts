// The `sets` module: the functions of Set values (`set` is a keyword).

import { chargeWork } from "../limits.js";
import { RSet } from "../values.js";

export const contains = (s: RSet, item: unknown): boolean => s.has(item);
// What copies or passes over a set charges its items as fuel, before it starts
// (spec/runtime.md, "Library work"); a change in place charges nothing more.
export const add = (s: RSet, item: unknown): RSet => {
  chargeWork(s.size);
  return s.copy().addInPlace(item);
};
export const remove = (s: RSet, item: unknown): RSet => {
  chargeWork(s.size);
  return s.copy().deleteInPlace(item);
};
export const length = (s: RSet): number => s.size;
export const is_empty = (s: RSet): boolean => s.size === 0;
export const to_list = (s: RSet): unknown[] => {
  chargeWork(s.size);
  return [...s.values()];
};
export const union = (a: RSet, b: RSet): RSet => {
  chargeWork(a.size + b.size);
  const out = a.copy();
  for (const x of b.values()) out.addInPlace(x);
  return out;
};
export const intersection = (a: RSet, b: RSet): RSet => {
  chargeWork(a.size);
  return new RSet([...a.values()].filter((x) => b.has(x)));
};
export const difference = (a: RSet, b: RSet): RSet => {
  chargeWork(a.size);
  return new RSet([...a.values()].filter((x) => !b.has(x)));
};

export const addInPlace = (s: RSet, item: unknown): RSet => s.addInPlace(item);
export const removeInPlace = (s: RSet, item: unknown): RSet => s.deleteInPlace(item);
