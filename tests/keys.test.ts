// Map keys and set items: two values of one type have the same key exactly
// when they are equal (rtlib/values.ts keyOf against rtlib/equality.ts equals).
// A text once took the key of a Json structure, and two equal maps built in
// different orders had different keys; both are generated on purpose here.

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { equals } from "../rtlib/equality.js";
import { describe as describeType, DYNAMIC, keyOf, Pair, RMap, RSet } from "../rtlib/values.js";

const CASES = Number(process.env["RENYI_FUZZ_CASES"] ?? 3000);

// A record and a variant of the kind compiled programs declare.
class Point {
  constructor(
    readonly x: unknown,
    readonly y: unknown,
  ) {}
}
describeType(Point, "Point", "Point", [
  ["x", "x", "x", DYNAMIC],
  ["y", "y", "y", DYNAMIC],
]);
class Some {
  constructor(readonly value: unknown) {}
}
class None {}
describeType(Some, "Some", "Some", [["value", "value", "value", DYNAMIC]], "Optional", 0);
describeType(None, "None", "None", [], "Optional", 1);

/**
 * Texts that look like keys and canonical forms, and texts that start with U+0000 as the old keys of structures did.
 */
const text = fc.oneof(
  fc.constantFrom(
    "",
    "a",
    "b",
    "n",
    "t",
    "f",
    "0",
    "[]",
    "j{}",
    "\u0000",
    "\u0000n",
    "\u0000[1]",
    '\u0000"a"',
    "\u0000j{}",
    ".Point(1,2)",
  ),
  fc.string({ maxLength: 4 }),
  fc.string({ maxLength: 3 }).map((s) => `\u0000${s}`),
);

/** The types whose values can be keys, as generators of their values. */
type Gen = fc.Arbitrary<unknown>;

const json: Gen = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -2, max: 2 }),
    fc.double({ noNaN: true, min: -2, max: 2 }),
    text,
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(text, tie("value"), { maxKeys: 3 }),
  ),
})).value;

const scalars: Gen[] = [
  fc.integer({ min: -3, max: 3 }),
  fc.double({ noNaN: true, min: -2, max: 2 }),
  text,
  fc.boolean(),
  fc.constant(null),
  fc.uint8Array({ maxLength: 3 }),
  json,
];

/**
 * A generator of values of one random type, built from the scalars by lists, pairs, maps, sets, a record and an
 * Optional.
 */
const oneType: fc.Arbitrary<Gen> = fc.letrec<{ type: Gen }>((tie) => ({
  type: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(...scalars),
    tie("type").map((item) => fc.array(item, { maxLength: 3 }) as Gen),
    fc.tuple(tie("type"), tie("type")).map(([a, b]) => fc.tuple(a, b).map(([x, y]) => new Pair(x, y)) as Gen),
    fc
      .tuple(tie("type"), tie("type"))
      .map(([k, v]) => fc.array(fc.tuple(k, v), { maxLength: 3 }).map((entries) => new RMap(entries)) as Gen),
    tie("type").map((item) => fc.array(item, { maxLength: 3 }).map((items) => new RSet(items)) as Gen),
    fc.tuple(tie("type"), tie("type")).map(([a, b]) => fc.tuple(a, b).map(([x, y]) => new Point(x, y)) as Gen),
    tie("type").map(
      (item) => fc.option(item, { nil: undefined }).map((x) => (x === undefined ? new None() : new Some(x))) as Gen,
    ),
  ),
})).type;

/** The same value built another way: maps, sets and Json objects in the reverse order. */
function rebuilt(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebuilt);
  if (value instanceof Pair) return new Pair(rebuilt(value.first), rebuilt(value.second));
  if (value instanceof RMap) return new RMap([...value.entries()].reverse().map(([k, v]) => [rebuilt(k), rebuilt(v)]));
  if (value instanceof RSet) return new RSet([...value.values()].reverse().map(rebuilt));
  if (value instanceof Point) return new Point(rebuilt(value.x), rebuilt(value.y));
  if (value instanceof Some) return new Some(rebuilt(value.value));
  if (value instanceof Uint8Array || value instanceof None || value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .reverse()
      .map(([k, v]) => [k, rebuilt(v)]),
  );
}

/** Two values of one type: independent, equal but built differently, or (for Json) a text spelling the other's key. */
const pairOfOneType = oneType.chain((gen) =>
  fc.oneof(
    fc.tuple(gen, gen),
    gen.map((a) => [a, rebuilt(a)] as [unknown, unknown]),
    json.map((a) => [a, keyOf(a)] as [unknown, unknown]).filter(([, k]) => typeof k === "string"),
  ),
);

test("map keys: two values have one key exactly when they are equal", () => {
  let tried = 0;
  fc.assert(
    fc.property(pairOfOneType, ([a, b]) => {
      tried++;
      const sameKey = keyOf(a) === keyOf(b);
      assert.equal(sameKey, equals(a, b), `keyOf(${String(keyOf(a))}) vs keyOf(${String(keyOf(b))})`);
    }),
    { numRuns: CASES },
  );
  console.log(`map keys against equality: ${tried} cases`);
});

test("a Set<Json> keeps a text apart from the structure its key once spelled", () => {
  const structure = [1];
  const impostor = keyOf(structure) as string;
  const items = new RSet([structure, impostor, null, "\u0000n"]);
  assert.equal(items.size, 4);
  const map = new RMap([[{ a: 1, b: 2 }, "first"]]);
  assert.equal(map.get({ b: 2, a: 1 }), "first");
  const ordered = new RSet([
    new RMap([
      ["a", 1],
      ["b", 2],
    ]),
    new RMap([
      ["b", 2],
      ["a", 1],
    ]),
  ]);
  assert.equal(ordered.size, 1);
});

test("an empty Json object is not an empty Json list", () => {
  // Found by the property above: both have no keys, and equality once compared only keys.
  assert.equal(equals({}, []), false);
  assert.equal(equals([], {}), false);
  assert.notEqual(keyOf({}), keyOf([]));
});
