// The representation of origins (rtlib/origins.ts): sets of guards interned and
// joined as sets are, values wrapped outermost and never twice, the values that
// never carry origins, and the limit of 64 guards a run may have.

import { seeded } from "./support.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  configureGuards,
  Guarded,
  guardsOf,
  join,
  MAX_GUARDS,
  mayLookUp,
  Origins,
  originsOf,
  plain,
  tag,
} from "../rtlib/origins.js";
import { runMain } from "../rtlib/run-main.js";
import type { GrantItem } from "../vocabulary/needs.js";

function someSet(next: () => number): { origins: Origins; bits: Set<number> } {
  const bits = new Set<number>();
  const count = 1 + Math.floor(next() * 4);
  for (let i = 0; i < count; i++) bits.add(Math.floor(next() * MAX_GUARDS));
  let origins: Origins | undefined;
  for (const b of bits) origins = join(origins, Origins.bit(b));
  return { origins: origins!, bits };
}

test("property: unions of sets of guards are the unions of their bits, interned, commutative, associative and idempotent", () => {
  const next = seeded(20261201);
  let cases = 0;
  for (; cases < 2000; cases++) {
    const a = someSet(next);
    const b = someSet(next);
    const c = someSet(next);
    const ab = a.origins.union(b.origins);
    assert.deepEqual(new Set(ab.indices()), new Set([...a.bits, ...b.bits]));
    assert.equal(ab, b.origins.union(a.origins), "interned: the same set is the same object");
    assert.equal(ab.union(c.origins), a.origins.union(b.origins.union(c.origins)));
    assert.equal(a.origins.union(a.origins), a.origins);
    assert.equal(join(undefined, a.origins), a.origins);
    assert.equal(join(a.origins, undefined), a.origins);
  }
  console.log(`origins: ${cases} cases`);
});

test("a value is wrapped outermost and once; Nothing never carries origins, Booleans and functions do", () => {
  const one = Origins.bit(0);
  const two = Origins.bit(40);
  const text = tag("key", one);
  assert.ok(text instanceof Guarded);
  assert.equal(plain(text), "key");
  const again = tag(text, two) as Guarded;
  assert.equal(again.value, "key", "never a wrapper inside a wrapper");
  assert.deepEqual(again.origins.indices(), [0, 40]);
  assert.equal(tag(text, one), text);
  for (const never of [null, undefined]) assert.equal(tag(never, one), never);
  // A Boolean is a decision and a function may have been chosen by one: both carry what they were made from.
  for (const value of [true, false, () => 1]) assert.deepEqual(tag(value, one), new Guarded(value, one));
  assert.equal(tag(7, undefined), 7);
  assert.equal(originsOf(7), undefined);
  assert.deepEqual(tag([1, 2], one), new Guarded([1, 2], one));
});

test("a run may have 64 guards and no more", async () => {
  const items = (n: number): GrantItem[] =>
    Array.from({ length: n }, (_, i) => ({
      path: ["environment"],
      scope: `K${i}`,
      guard: { sinks: [{ path: ["console"] }] },
    }));
  assert.equal(guardsOf(items(64))?.length, 64);
  assert.equal(guardsOf(items(65)), undefined);
  assert.deepEqual(
    guardsOf(items(3))!.map((g) => g.index),
    [0, 1, 2],
  );
  const refused = await runMain(
    { main: () => undefined, mainParameters: [], mainGrant: items(65), origins: true },
    { argv: [] },
  );
  assert.equal(refused.outcome, "refused");
  assert.match((refused as { message: string }).message, /declare 65 guards \(`only to`\); a run may have at most 64/);
});

test("a host name made of guarded data is asked of no resolver unless it is a sink's", () => {
  const items: GrantItem[] = [
    { path: ["network", "http"] },
    {
      path: ["environment"],
      scope: "SECRET",
      guard: {
        sinks: [
          { path: ["network", "http"], scope: "api.example.com" },
          { path: ["network", "http"], scope: "*.sink.example" },
        ],
      },
    },
  ];
  configureGuards(guardsOf(items)!);
  try {
    // A name spelled from a secret would be a question to whoever answers for its domain.
    assert.equal(mayLookUp("hunter2.exfil.invalid", true), false);
    assert.equal(mayLookUp("hunter2.exfil.invalid:443", true), false);
    // A sink's own name, one its wildcard allows, a literal and localhost are looked up (the last two without the
    // network).
    assert.equal(mayLookUp("api.example.com", true), true);
    assert.equal(mayLookUp("api.example.com:8443", true), true);
    assert.equal(mayLookUp("any.sink.example", true), true);
    assert.equal(mayLookUp("127.1", true), true);
    assert.equal(mayLookUp("localhost:8080", true), true);
    // A call that carries nothing guarded is looked up as any other.
    assert.equal(mayLookUp("hunter2.exfil.invalid", false), true);
  } finally {
    configureGuards([]);
  }
});
