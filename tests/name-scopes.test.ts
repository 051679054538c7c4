// The scopes by which the free-name check and the bundle validator resolve a
// name (compiler/emit/scopes.ts) keep a count a name rather than walking every
// scope: checked against the plain chain of sets, innermost last, on random
// walks that open and close scopes declaring overlapping names.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Scopes } from "../compiler/emit/scopes.js";
import { seeded } from "./support.js";

const NAMES = ["a", "b", "c", "d", "$S", "$slow"];

test("scopes answer as the chain of sets does, on random walks", () => {
  const random = seeded(7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  let checks = 0;
  for (let walk = 0; walk < 300; walk++) {
    const outermost = new Set(NAMES.filter(() => random() < 0.4));
    const scopes = new Scopes(outermost);
    const chain: Set<string>[] = [];
    for (let step = 0; step < 60; step++) {
      const r = random();
      if (r < 0.35) {
        const names = new Set(NAMES.filter(() => random() < 0.3));
        scopes.enter(names);
        chain.push(names);
      } else if (r < 0.6 && chain.length > 0) {
        scopes.leave();
        chain.pop();
      } else if (r < 0.7) {
        const names = new Set(NAMES.filter(() => random() < 0.3));
        scopes.within(names, () => {
          for (const name of NAMES)
            assert.equal(
              scopes.declares(name),
              names.has(name) || chain.some((s) => s.has(name)) || outermost.has(name),
            );
        });
      }
      const name = pick(NAMES);
      const inner = chain.some((s) => s.has(name));
      assert.equal(scopes.declares(name), inner || outermost.has(name), `walk ${walk} step ${step}: declares ${name}`);
      assert.equal(
        scopes.isOutermost(name),
        !inner && outermost.has(name),
        `walk ${walk} step ${step}: isOutermost ${name}`,
      );
      checks++;
    }
  }
  console.log(`name scopes: ${checks} lookups on 300 random walks checked against the chain of sets`);
});

test("a scope left by a throw inside `within` is closed", () => {
  const scopes = new Scopes(new Set(["x"]));
  assert.throws(() =>
    scopes.within(new Set(["x", "y"]), () => {
      assert.equal(scopes.isOutermost("x"), false);
      throw new Error("stop");
    }),
  );
  assert.equal(scopes.isOutermost("x"), true);
  assert.equal(scopes.declares("y"), false);
});
