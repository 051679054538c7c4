// vocabulary/numbers.ts: grouping thousands by hand writes what the engine's locale data writes.

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { grouped } from "../vocabulary/numbers.js";

test('grouped writes every safe integer as toLocaleString("en") does', () => {
  let cases = 0;
  fc.assert(
    fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.integer({ min: -1000, max: 1000 })), (n) => {
      cases++;
      assert.equal(grouped(n), n.toLocaleString("en"));
    }),
    { numRuns: 10_000, seed: 20261201 },
  );
  for (const n of [0, 999, 1000, 999_999, 1_000_000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 5e10])
    assert.equal(grouped(n), n.toLocaleString("en"));
  console.log(`grouped: ${cases} cases`);
});
