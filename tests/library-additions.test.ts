// text.characters and math.format: what a user reaches for to walk a text
// character by character and to write a Float with a fixed number of decimals;
// json.as_text and its kin: to read a parsed Json value by hand, kind by kind;
// optional.and_then: to chain the steps that each may give None.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import fc from "fast-check";
import { Crash } from "../rtlib/errors.js";
import * as json from "../rtlib/lib/json.js";
import * as math from "../rtlib/lib/math.js";
import * as optional from "../rtlib/lib/optional.js";
import * as text from "../rtlib/lib/text.js";
import { configureLimits } from "../rtlib/limits.js";
import { NONE, Some } from "../rtlib/prelude.js";
import { toText } from "../rtlib/text.js";
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
  // biome-ignore lint/suspicious/noApproximativeNumericConstant: a number to round, not π
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
    fc.property(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer({ min: 0, max: 100 }),
      (x, decimals) => {
        cases++;
        const written = math.format(x, decimals);
        assert.doesNotMatch(written, /e/);
        const point = written.indexOf(".");
        assert.equal(decimals === 0 ? point : written.length - point - 1, decimals === 0 ? -1 : decimals);
        // Read back, it is within half a unit of the last decimal (or exactly x past 1e21).
        assert.ok(
          Math.abs(Number(written) - x) <= 0.5 * 10 ** -decimals * (1 + 1e-9) + Math.abs(x) * 1e-15,
          `${x} to ${decimals}: ${written}`,
        );
      },
    ),
    { numRuns: 1000 },
  );
  console.log(`math.format: ${cases} cases`);
});

test("math.format refuses decimals outside 0 to 100 with a crash", () => {
  assert.equal(
    crashCode(() => math.format(1, 101)),
    "E-RT-CRASH: math.format needs 0 to 100 decimals, not 101",
  );
  assert.equal(
    crashCode(() => math.format(1, -1)),
    "E-RT-CRASH: math.format needs 0 to 100 decimals, not -1",
  );
});

test("a program calls both, as functions and as methods", () => {
  const path = join(work, "both.ry");
  writeFileSync(
    path,
    "public function main()\n  purpose: Use the two functions.\n  needs console\n" +
      '  console.print(text.join(text.characters("héllo"), "-"))\n  console.print("{"ab".characters().length()}")\n' +
      "  console.print(math.format(2.0 / 3.0, 3))\n  console.print((10.0).format(1))\n" +
      "  console.print(math.format(1.0, 101))\nend\n",
  );
  const result = spawnSync(process.execPath, [join(ROOT, "dist", "cli", "renyi.cjs"), "run", path], {
    cwd: work,
    encoding: "utf8",
    env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") },
  });
  assert.equal(result.stdout, "h-é-l-l-o\n2\n0.667\n10.0\n");
  assert.match(result.stderr, /E-RT-CRASH\]: math\.format needs 0 to 100 decimals, not 101/);
  assert.match(result.stderr, /both\.ry:8/);
});

test("json.as_text and its kin give a value of their own kind and None for every other", () => {
  const parsed = json.parse(
    '{"s": "x", "i": 3, "f": 2.5, "z": -0, "big": 1e300, "b": false, "l": [1, "a"], "n": null, "o": ' +
      '{"__proto__": 1, "k": 2}}',
  ) as Record<string, unknown>;
  const shown = (v: unknown) => toText(v);
  assert.equal(shown(json.as_text(parsed["s"])), 'Some("x")');
  assert.equal(shown(json.as_int(parsed["i"])), "Some(3)");
  assert.equal(shown(json.as_int(parsed["f"])), "None");
  assert.ok(Object.is((json.as_int(parsed["z"]) as { value: number }).value, 0), "-0 is the Int 0");
  assert.equal(shown(json.as_int(parsed["big"])), "None", "outside the range of Int");
  assert.equal(shown(json.as_float(parsed["i"])), "Some(3)");
  assert.equal(shown(json.as_boolean(parsed["b"])), "Some(false)");
  assert.equal(shown(json.as_list(parsed["l"])), 'Some([1, "a"])');
  assert.deepEqual(json.keys(parsed["o"]), ["__proto__", "k"]);
  assert.deepEqual(json.keys(parsed["l"]), []);
  assert.equal(json.is_null(parsed["n"]), true);
  assert.equal(json.is_null(parsed["o"]), false);
  // Each gives a value for exactly one kind of JSON value (as_float and as_int share numbers).
  let cases = 0;
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      cases++;
      const v = json.parse(JSON.stringify(value));
      const kinds = [json.as_text(v), json.as_float(v), json.as_boolean(v), json.as_list(v)].filter(
        (x) => shown(x) !== "None",
      ).length;
      const object = typeof v === "object" && v !== null && !Array.isArray(v);
      assert.equal(kinds + (object || v === null ? 1 : 0), 1, JSON.stringify(value));
      if (shown(json.as_int(v)) !== "None") assert.equal(typeof v, "number");
    }),
    { numRuns: 500 },
  );
  console.log(`json.as_*: ${cases} cases`);
});

test("optional.and_then gives what the function gives for a value, and None without calling it for None", async () => {
  const half = (n: unknown) => ((n as number) % 2 === 0 ? new Some((n as number) / 2) : NONE);
  assert.equal(toText(optional.and_then(new Some(4), half)), "Some(2)");
  assert.equal(toText(optional.and_then(new Some(3), half)), "None");
  assert.equal(toText(optional.and_then(NONE, () => assert.fail("called for None"))), "None");
  assert.equal(toText(await optional.and_thenAsync(new Some(4), async (n) => half(n))), "Some(2)");
  assert.equal(toText(await optional.and_thenAsync(NONE, async () => assert.fail("called for None"))), "None");
});

test("and_then with a function that has needs runs in a program, effects in order", () => {
  const path = join(work, "chain.ry");
  writeFileSync(
    path,
    'function loud(n: Int) returns Optional<Int>\n  needs console\n  console.print("saw {n}")\n' +
      "  return if n > 1 then Some(n * 10) else None\nend\n\npublic function main()\n" +
      "  purpose: Chain with an effect.\n  needs console\n" +
      '  console.print("{Some(2).and_then(loud)} {Some(1).and_then(loud)} {optional.and_then(None, loud)}")\nend\n',
  );
  const result = spawnSync(process.execPath, [join(ROOT, "dist", "cli", "renyi.cjs"), "run", path], {
    cwd: work,
    encoding: "utf8",
    env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") },
  });
  assert.equal(result.stderr, "");
  assert.equal(result.stdout, "saw 2\nsaw 1\nSome(20) None None\n");
});
