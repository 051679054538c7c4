// The strict JSON reader (report/strict-json.ts), written for speed as a scan
// and JSON.parse, against the reference reader it replaced
// (strict-json-reference.ts), which builds every value by hand: on generated
// documents and on those documents damaged (a character taken out, put in or
// doubled, a key repeated, an escape cut), both accept the same texts with the
// same values, and refuse the same texts. RENYI_FUZZ_CASES sets how many
// documents (2,000 by default).

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { readStrictJson } from "../report/strict-json.js";
import { readStrictJsonReference } from "./strict-json-reference.js";

const CASES = Number(process.env["RENYI_FUZZ_CASES"] ?? 2000);

/** Texts that hold what a hostile file puts in them: escapes, surrogates (lone or paired), controls, prototype names. */
const tricky = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.constantFrom("__proto__", "constructor", "toString", "\\", '"', "\u0000", "\ud83d\ude00", "\ud800", "\udc00", "é"),
);

const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(1e308, -1e-308, 1.2345678901234568e29, 0.1),
    tricky,
    fc.array(tie("value"), { maxLength: 5 }),
    fc.array(fc.tuple(tricky, tie("value")), { maxLength: 6 }),
  ),
}));

/** A document written with random spacing, its objects as lists of pairs so that keys may repeat. */
function write(value: unknown, spacing: () => string): string {
  if (
    Array.isArray(value) &&
    value.every((v) => Array.isArray(v) && v.length === 2 && typeof v[0] === "string") &&
    value.length > 0 &&
    Math.random() < 0.5
  ) {
    return `{${spacing()}${value.map(([k, v]) => `${JSON.stringify(k)}${spacing()}:${spacing()}${write(v, spacing)}`).join(`,${spacing()}`)}}`;
  }
  if (Array.isArray(value)) return `[${value.map((v) => write(v, spacing)).join(`,${spacing()}`)}]`;
  return JSON.stringify(value) ?? "null";
}

const damage = fc.oneof(
  fc.constant((t: string, at: number) => t.slice(0, at) + t.slice(at + 1)),
  fc.constant((t: string, at: number) => t.slice(0, at) + t[at] + t.slice(at)),
  fc
    .constantFrom(
      "\\",
      '"',
      "\\u",
      "\\ud800",
      "\\udc00",
      "1e999",
      "-",
      ".",
      "{",
      "]",
      ",",
      "\u0001",
      "\ufeff",
      "\\x",
      "0",
      "123456789012345678901234567890",
      "9e99999",
      "[[[[[[[[[[",
    )
    .map((s) => (t: string, at: number) => t.slice(0, at) + s + t.slice(at)),
);

const seen = { accepted: 0, refused: 0 };

function agree(text: string, depth: number): void {
  const bytes = Buffer.from(text, "utf8");
  const fast = readStrictJson(bytes, depth);
  const reference = readStrictJsonReference(bytes, depth);
  seen[fast.ok ? "accepted" : "refused"]++;
  assert.equal(fast.ok, reference.ok, `${JSON.stringify(text)}: ${JSON.stringify([fast, reference])}`);
  if (fast.ok && reference.ok) assert.deepStrictEqual(fast.value, reference.value);
  if (!fast.ok && !reference.ok) {
    // Where both refuse, they name a problem of the same kind (the first one each finds may differ in a text that holds two).
    assert.match(fast.problem, /at line \d+, column \d+$|not UTF-8|byte order mark/);
  }
}

test("the fast reader accepts and refuses what the reference reader does, with the same values", () => {
  const spacing = () => [" ", "", "\n  ", "\t", "\r\n"][Math.floor(Math.random() * 5)]!;
  fc.assert(
    fc.property(jsonValue.value, damage, fc.nat(), fc.integer({ min: 1, max: 8 }), (value, hurt, where, depth) => {
      const text = write(value, spacing);
      agree(text, depth);
      agree(hurt(text, where % (text.length + 1)), depth);
    }),
    { numRuns: CASES },
  );
  // Both sides of the rule were tried, many times each.
  assert.ok(seen.accepted > CASES / 10 && seen.refused > CASES / 10, JSON.stringify(seen));
});

test("the reader refuses each rule JSON.parse does not hold, naming it and its place", () => {
  const problem = (text: string | Uint8Array, depth?: number) => {
    const read = readStrictJson(typeof text === "string" ? Buffer.from(text, "utf8") : text, depth);
    assert.equal(read.ok, false, String(text));
    return (read as { problem: string }).problem;
  };
  assert.equal(problem('{"a": 1,\n "a": 2}'), 'the key "a" appears twice in one object at line 2, column 2');
  assert.equal(problem('{"\\u0061": 1, "a": 2}'), 'the key "a" appears twice in one object at line 1, column 15');
  const many = Array.from({ length: 40 }, (_, i) => `"k${i}": ${i}`).join(", ");
  assert.match(problem(`{${many}, "k39": 0}`), /the key "k39" appears twice/);
  assert.equal(problem("[[[1]]]", 2), "nesting deeper than 2 at line 1, column 4");
  assert.equal(problem('"\\ud800"'), "a text holding half of a character (a lone surrogate) at line 1, column 1");
  assert.equal(
    problem('"\\udc00\\ud800"'),
    "a text holding half of a character (a lone surrogate) at line 1, column 1",
  );
  assert.equal(problem("1e400"), "a number too large to hold at line 1, column 1");
  assert.equal(problem('"a\u0001"'), "a control character inside a text at line 1, column 3");
  assert.equal(problem(new Uint8Array([0x22, 0xff, 0x22])), "it is not UTF-8 text");
  assert.equal(problem("\ufeff{}"), "it starts with a byte order mark");
  assert.equal(problem('{"a": 1} x'), "text after the end of the JSON value at line 1, column 10");
  // Nesting is counted before any value is built: millions of brackets are refused, not built.
  assert.equal(
    problem(`${"[".repeat(5_000_000)}${"]".repeat(5_000_000)}`, 64),
    "nesting deeper than 64 at line 1, column 66",
  );
  assert.equal(
    problem(`${'{"a":'.repeat(100)}1${"}".repeat(100)}`, 64),
    "nesting deeper than 64 at line 1, column 326",
  );
});

test("objects have no prototype, and __proto__ is a key like any other", () => {
  const read = readStrictJson(Buffer.from('{"__proto__": {"polluted": true}, "list": [{"constructor": 1}]}'));
  assert.ok(read.ok);
  const value = read.value as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(value), null);
  assert.deepEqual(Object.keys(value), ["__proto__", "list"]);
  assert.equal(Object.getPrototypeOf((value["list"] as object[])[0]), null);
  assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
  assert.equal("toString" in value, false);
});
