// text.characters and math.format: what a user reaches for to walk a text
// character by character and to write a Float with a fixed number of decimals.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import fc from "fast-check";
import { Crash } from "../rtlib/errors.js";
import * as math from "../rtlib/lib/math.js";
import * as text from "../rtlib/lib/text.js";
import { configureLimits } from "../rtlib/limits.js";
import { ROOT } from "./golden.js";

configureLimits({});
const work = mkdtempSync(join(tmpdir(), "renyi-library-"));
after(() => rmSync(work, { recursive: true, force: true }));

function crashCode(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof Crash) return `${e.code}: ${e.message}`;
    throw e;
  }
  return "no crash";
}

test("text.characters splits by code points: a surrogate pair is one character, a combining accent its own", () => {
  assert.deepEqual(text.characters(""), []);
  assert.deepEqual(text.characters("a😀b"), ["a", "😀", "b"]);
  assert.deepEqual(text.characters("e\u0301"), ["e", "\u0301"]);
  let cases = 0;
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), (t) => {
      cases++;
      const parts = text.characters(t);
      assert.equal(parts.join(""), t);
      assert.equal(parts.length, text.length(t));
      assert.deepEqual(parts, text.split(t, ""));
    }),
    { numRuns: 500 },
  );
  console.log(`text.characters: ${cases} cases`);
});

test("math.format writes exactly that many decimals, rounded half away from zero, never with an exponent", () => {
  assert.equal(math.format(3.14159, 2), "3.14");
  assert.equal(math.format(2.5, 0), "3");
  assert.equal(math.format(-2.5, 0), "-3");
  assert.equal(math.format(1, 3), "1.000");
  assert.equal(math.format(1e21, 1), "1000000000000000000000.0");
  assert.equal(math.format(-1.5e300, 0).length, 302);
  assert.equal(math.format(0.1, 100).length, 102);
  assert.equal(math.format(Number.NaN, 2), "NaN");
  assert.equal(math.format(-Infinity, 2), "-Infinity");
  let cases = 0;
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 0, max: 100 }), (x, decimals) => {
      cases++;
      const written = math.format(x, decimals);
      assert.doesNotMatch(written, /e/);
      const point = written.indexOf(".");
      assert.equal(decimals === 0 ? point : written.length - point - 1, decimals === 0 ? -1 : decimals);
      // Read back, it is within half a unit of the last decimal (or exactly x past 1e21).
      assert.ok(Math.abs(Number(written) - x) <= 0.5 * 10 ** -decimals * (1 + 1e-9) + Math.abs(x) * 1e-15, `${x} to ${decimals}: ${written}`);
    }),
    { numRuns: 1000 },
  );
  console.log(`math.format: ${cases} cases`);
});

test("math.format refuses decimals outside 0 to 100 with a crash", () => {
  assert.equal(crashCode(() => math.format(1, 101)), "E-RT-CRASH: math.format needs 0 to 100 decimals, not 101");
  assert.equal(crashCode(() => math.format(1, -1)), "E-RT-CRASH: math.format needs 0 to 100 decimals, not -1");
});

test("a program calls both, as functions and as methods", () => {
  const path = join(work, "both.ry");
  writeFileSync(
    path,
    'public function main()\n  purpose: Use the two functions.\n  needs console\n  console.print(text.join(text.characters("héllo"), "-"))\n  console.print("{"ab".characters().length()}")\n  console.print(math.format(2.0 / 3.0, 3))\n  console.print((10.0).format(1))\n  console.print(math.format(1.0, 101))\nend\n',
  );
  const result = spawnSync(process.execPath, [join(ROOT, "dist", "cli", "renyi.cjs"), "run", path], { cwd: work, encoding: "utf8", env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") } });
  assert.equal(result.stdout, "h-é-l-l-o\n2\n0.667\n10.0\n");
  assert.match(result.stderr, /E-RT-CRASH\]: math\.format needs 0 to 100 decimals, not 101/);
  assert.match(result.stderr, /both\.ry:8/);
});
