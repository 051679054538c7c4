// Int arithmetic: whole numbers within ±(2^53 - 1). Leaving that range, or
// dividing by zero, crashes (spec/runtime.md, section 2).

import { Crash } from "./errors.js";

// The bound 2^53 - 1 is written as a literal in each operator: the runtime's
// bundler turns a module's `const` into a `var`, which the engine then reads
// and compares as a variable on every operation.
//
// Each operator first asks whether its result is a 32-bit integer, `(r | 0) === r`,
// and returns it at once if so: where the engine has seen only small integers
// it computes `r` as one, knows the test holds and drops the range checks
// after it, which it did not fold on their own (a prime count by trial
// division ran 10 to 25% faster). `r | 0` also turns -0, which is no Int, into 0.

function overflow(op: string, a: number, b: number): never {
  throw new Crash("E-RT-OVERFLOW", { problem: "operation", left: a, operator: op, right: b });
}

export function iadd(a: number, b: number): number {
  const r = a + b;
  // (-0 needs no care: neither operand is ever -0.)
  if ((r | 0) === r) return r;
  if (r > 9007199254740991 || r < -9007199254740991) overflow("+", a, b);
  return r;
}

export function isub(a: number, b: number): number {
  const r = a - b;
  if ((r | 0) === r) return r;
  if (r > 9007199254740991 || r < -9007199254740991) overflow("-", a, b);
  return r;
}

export function imul(a: number, b: number): number {
  const r = a * b;
  if ((r | 0) === r) return r | 0;
  if (r > 9007199254740991 || r < -9007199254740991) overflow("*", a, b);
  return r;
}

/** Whole-number division, toward zero. */
export function idiv(a: number, b: number): number {
  if (b === 0) throw new Crash("E-RT-DIVISION", { left: String(a), operator: "/" });
  const r = Math.trunc(a / b);
  return (r | 0) === r ? r | 0 : r;
}

/** The remainder of whole-number division; its sign is the dividend's. */
export function imod(a: number, b: number): number {
  if (b === 0) throw new Crash("E-RT-DIVISION", { left: String(a), operator: "mod" });
  const r = a % b;
  return (r | 0) === r ? r | 0 : r;
}

export function fmod(a: number, b: number): number {
  return a % b;
}

export function checkInt(n: number, what: string): number {
  if (!Number.isSafeInteger(n)) throw new Crash("E-RT-OVERFLOW", { problem: "result", operation: what, result: n });
  return n;
}

/** `items[i]`: outside the list, the run crashes. */
export function index<T>(items: readonly T[], i: number): T {
  if (i < 0 || i >= items.length || !Number.isInteger(i)) {
    throw new Crash("E-RT-INDEX", { index: i, length: items.length });
  }
  return items[i]!;
}
