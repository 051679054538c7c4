// The Int operators (rtlib/ints.ts) against exact arithmetic on BigInt, on
// operands drawn around the places where their fast path and their checks
// meet: small numbers, the 32-bit bounds, 2^53 - 1, zero and its neighbours.
// Every result must be the exact one, never -0, or a crash with the
// language's code where the exact result leaves ±(2^53 - 1) or divides by 0.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Crash } from "../rtlib/errors.js";
import { iadd, idiv, imod, imul, isub } from "../rtlib/ints.js";
import { seeded } from "./support.js";

const CASES = 200_000;
const MAX = 2n ** 53n - 1n;
const EDGES = [
  0,
  1,
  2,
  3,
  7,
  46340,
  46341,
  65535,
  65536,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  94906265,
  94906266,
  2 ** 52,
  2 ** 53 - 2,
  2 ** 53 - 1,
];

/** An Int: never -0, which no Int is. */
function operand(random: () => number): number {
  return anyOperand(random) || 0;
}

function anyOperand(random: () => number): number {
  const r = random();
  const sign = random() < 0.5 ? -1 : 1;
  if (r < 0.4)
    return sign * EDGES[Math.floor(random() * EDGES.length)]! + (random() < 0.3 ? Math.floor(random() * 3) - 1 : 0);
  if (r < 0.7) return sign * Math.floor(random() * 1000);
  return sign * Math.floor(random() * Number.MAX_SAFE_INTEGER);
}

const truncDiv = (a: bigint, b: bigint): bigint => a / b; // BigInt division truncates toward zero
const OPERATORS: readonly [string, (a: number, b: number) => number, (a: bigint, b: bigint) => bigint][] = [
  ["+", iadd, (a, b) => a + b],
  ["-", isub, (a, b) => a - b],
  ["*", imul, (a, b) => a * b],
  ["/", idiv, truncDiv],
  ["mod", imod, (a, b) => a % b],
];

test(`the Int operators agree with exact arithmetic (${CASES} cases each)`, () => {
  const random = seeded(14);
  let crashes = 0;
  for (const [op, f, exact] of OPERATORS) {
    for (let i = 0; i < CASES; i++) {
      const a = operand(random);
      const b = operand(random);
      if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b)) continue;
      const x = BigInt(a);
      const y = BigInt(b);
      const expected = (op === "/" || op === "mod") && y === 0n ? "E-RT-DIVISION" : exact(x, y);
      let got: number | string;
      try {
        got = f(a, b);
      } catch (e) {
        assert.ok(e instanceof Crash, `${a} ${op} ${b} threw ${String(e)}`);
        got = e.code;
        crashes++;
      }
      if (typeof expected === "bigint" && (expected > MAX || expected < -MAX))
        assert.equal(got, "E-RT-OVERFLOW", `${a} ${op} ${b}`);
      else if (typeof expected === "bigint") {
        assert.equal(typeof got, "number", `${a} ${op} ${b} gave ${got}`);
        assert.equal(BigInt(got as number), expected, `${a} ${op} ${b}`);
        assert.ok(!Object.is(got, -0), `${a} ${op} ${b} gave -0`);
      } else assert.equal(got, expected, `${a} ${op} ${b}`);
    }
  }
  console.log(`ints: ${CASES * OPERATORS.length} cases, ${crashes} crashes`);
  assert.ok(crashes > CASES / 10, `only ${crashes} crashes`);
});
