// The `math` module: Int and Float functions. Rounding gives an Int (round: half away from zero).

import { Crash } from "../errors.js";
import { checkInt } from "../ints.js";

export const abs = (n: number): number => Math.abs(n);
export const absFloat = (n: number): number => Math.abs(n);
// biome-ignore lint/complexity/useMathMinMax: the first of two equal numbers (0 and -0) is kept, unlike Math.min
export const min = (a: number, b: number): number => (b < a ? b : a);
// biome-ignore lint/complexity/useMathMinMax: the first of two equal numbers (0 and -0) is kept, unlike Math.max
export const max = (a: number, b: number): number => (b > a ? b : a);
function toInt(x: number, what: string): number {
  if (!Number.isFinite(x)) throw new Crash("E-RT-OVERFLOW", { problem: "no-int", call: what, value: x });
  const n = x === 0 ? 0 : x;
  return checkInt(n === 0 ? 0 : n, what);
}
export const round = (x: number): number => toInt(Math.sign(x) * Math.round(Math.abs(x)), "math.round");
export const floor = (x: number): number => toInt(Math.floor(x), "math.floor");
export const ceil = (x: number): number => toInt(Math.ceil(x), "math.ceil");
export const sqrt = (x: number): number => Math.sqrt(x);
export const pow = (x: number, exponent: number): number => x ** exponent;
export const to_float = (n: number): number => n;
export const pi = (): number => Math.PI;

/** The most decimals `format` writes: what JavaScript's toFixed allows. */
const MAX_DECIMALS = 100;
/**
 * x with exactly `decimals` digits after the point, rounded from x's exact binary value,
 * half away from zero; never in exponent form (1e21 is written out in full), so at most
 * 1 + 309 + 1 + 100 characters (a sign, the digits, the point, the decimals), far below the text limit.
 */
export const format = (x: number, decimals: number): string => {
  if (!(decimals >= 0 && decimals <= MAX_DECIMALS))
    throw new Crash("E-RT-CRASH", {
      problem: "argument",
      call: "math.format",
      needs: `0 to ${MAX_DECIMALS} decimals`,
      given: String(decimals),
    });
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
  // Past 1e21 toFixed writes an exponent; a Float that large has no fraction, so BigInt is exact.
  if (Math.abs(x) >= 1e21) return BigInt(x).toString() + (decimals > 0 ? `.${"0".repeat(decimals)}` : "");
  return x.toFixed(decimals);
};
