// Maps (rtlib/values.ts, RMap) against a naive model: a list of entries compared
// with the language's equality. Keys of every kind a map may have: Ints, texts
// (one that starts with U+0000, which has a canonical form of its own), Floats
// with -0.0 beside 0.0 (one key, as the two are equal), Booleans, lists and pairs. The model and the map must
// agree on every get, on the size, and on the entries in the order their keys
// were first put, with each key given back as it was put. Keys of the primitive
// types are put and read half the time as compiled code does for a map whose key
// type is one of them (setPrimitiveInPlace, getPrimitiveOr), in the same maps.

import { seeded } from "./support.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair, RMap } from "../rtlib/values.js";
import { equals } from "../rtlib/equality.js";

const KEYS: unknown[] = [
  0,
  1,
  2,
  -5,
  2 ** 40,
  "a",
  "b",
  "",
  "\u0000a",
  "\u0000",
  0.5,
  -0,
  true,
  false,
  [1, 2],
  [1, 2, 3],
  [],
  new Pair(1, "x"),
  new Pair(1, "y"),
];

/** A key whose static type would be Int, Float, Boolean or Text: compiled code puts and gets it the primitive way. */
const isPrimitive = (key: unknown): key is number | boolean | string =>
  typeof key === "number" || typeof key === "boolean" || typeof key === "string";

test("property: a map agrees with a list of entries on every get, its size and its entries in order", () => {
  const next = seeded(1201);
  let operations = 0;
  for (let round = 0; round < 300; round++) {
    let map = new RMap();
    const model: [unknown, unknown][] = [];
    for (let step = 0; step < 40; step++, operations++) {
      const key = KEYS[Math.floor(next() * KEYS.length)];
      const i = model.findIndex(([k]) => equals(k, key));
      const choice = next();
      if (choice < 0.6) {
        const value = Math.floor(next() * 100);
        // A copy half the time: a change in place must not be seen by the map it was copied from.
        if (next() < 0.5) {
          const before = map;
          const size = before.size;
          map = map.copy();
          map.setInPlace(key, value);
          assert.equal(before.size, size);
        }
        // biome-ignore lint/suspicious/noDuplicateElseIf: next() draws a new number each time
        else if (isPrimitive(key) && next() < 0.5) map.setPrimitiveInPlace(key, value);
        else map.setInPlace(key, value);
        // The key last put is the one given back (0 and -0.0 are one key).
        if (i >= 0) model[i] = [key, value];
        else model.push([key, value]);
      } else if (choice < 0.8) {
        map.deleteInPlace(key);
        if (i >= 0) model.splice(i, 1);
      }
      const expected = model.find(([k]) => equals(k, key))?.[1];
      assert.deepEqual(map.get(key), expected, `get ${String(key)}`);
      if (isPrimitive(key))
        assert.deepEqual(
          map.getPrimitiveOr(key, "none"),
          expected ?? "none",
          `get ${String(key)} by its primitive key`,
        );
      assert.equal(map.size, model.length);
    }
    const entries = [...map.entries()];
    assert.equal(entries.length, model.length);
    entries.forEach(([k, v], j) => {
      assert.ok(equals(k, model[j]![0]) && Object.is(k, -0) === Object.is(model[j]![0], -0), `key ${j}`);
      assert.equal(v, model[j]![1]);
    });
  }
  console.log(`maps: ${operations} operations against the model`);
});
