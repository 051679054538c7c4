// Exhaustiveness checking does bounded work on hostile input: a crafted match
// that made the usefulness algorithm run for over a minute is refused with
// E-MATCH-TOO-COMPLEX after a fixed number of steps, so are many matches that
// are each costly, and large matches a person would write still check.

import assert from "node:assert/strict";
import { test } from "node:test";
import { checkSource } from "../compiler/index.js";

/** A deterministic generator, so that the crafted programs are the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/**
 * A record of `width` Boolean fields and a match of `4 * width` arms, each
 * fixing three random fields: deciding whether such arms cover every value is
 * a satisfiability problem, and the usefulness matrices grow exponentially.
 */
function craftedMatch(width: number, name = "pick", seed = 1): { types: string; function: string } {
  const next = random(seed);
  const fields = Array.from({ length: width }, (_, i) => `  f${i}: Boolean`).join("\n");
  const arms: string[] = [];
  for (let a = 0; a < width * 4; a++) {
    const chosen = new Set<number>();
    while (chosen.size < 3) chosen.add(Math.floor(next() * width));
    arms.push(
      `    when Flags(${[...chosen].map((f) => `f${f}: ${next() < 0.5 ? "true" : "false"}`).join(", ")}) then ${a}`,
    );
  }
  return {
    types: `type Flags is record\n${fields}\nend\n`,
    function:
      `function ${name}(flags: Flags) returns Int\n  return match flags\n${arms.join("\n")}\n    when _ then 0\n` +
      `  end\nend\n`,
  };
}

const codes = (text: string): string[] =>
  checkSource("crafted.ry", text)
    .diagnostics.filter((d) => d.severity === "error")
    .map((d) => d.code);

test("a crafted match of a few hundred arms is refused as too complex instead of checked for minutes", () => {
  // Width 22 (88 arms) took 86 seconds to check before the budget.
  const { types, function: fn } = craftedMatch(22);
  const diagnostics = checkSource("crafted.ry", `${types}\n${fn}`).diagnostics;
  const refusal = diagnostics.find((d) => d.code === "E-MATCH-TOO-COMPLEX");
  assert.ok(refusal, `expected E-MATCH-TOO-COMPLEX, got ${diagnostics.map((d) => d.code).join(", ")}`);
  assert.match(refusal.message, /its 89 arms need more than 1,000,000 steps/);
  assert.match(refusal.hint ?? "", /Split it/);
});

test("many costly matches share one budget: the program is refused once, not checked match by match", () => {
  // Width 12 needs about 450,000 steps per match: under one match's budget, but 40 of them are not.
  const crafted = Array.from({ length: 40 }, (_, i) => craftedMatch(12, `pick${i}`));
  const program = `${crafted[0]!.types}\n${crafted.map((c) => c.function).join("\n")}`;
  const refusals = checkSource("crafted.ry", program).diagnostics.filter((d) => d.code === "E-MATCH-TOO-COMPLEX");
  assert.equal(refusals.length, 1);
  assert.match(refusals[0]!.message, /with the ones before it, this program's matches need more than 10,000,000 steps/);
});

test("large matches a person writes still check", () => {
  const cases = Array.from({ length: 60 }, (_, i) => `  Case${i}(value: Int)`).join("\n");
  const arms = Array.from(
    { length: 60 },
    (_, i) => `    when (Kind.Case${i}(value), true) then value + ${i}\n    when (Kind.Case${i}(_), false) then ${i}`,
  ).join("\n");
  const variantMatch =
    `type Kind is variant\n${cases}\nend\n\nfunction f(kind: Kind, flag: Boolean) returns Int\n` +
    `  return match (kind, flag)\n${arms}\n  end\nend\n`;
  assert.deepEqual(codes(variantMatch), []);
  const table = Array.from({ length: 1000 }, (_, i) => `    when ${i} then "${i}"`).join("\n");
  assert.deepEqual(
    codes(`function name(n: Int) returns Text\n  return match n\n${table}\n    when _ then "many"\n  end\nend\n`),
    [],
  );
  // And a missing case among them is still found.
  const missing = arms.split("\n").slice(0, -1).join("\n");
  assert.deepEqual(codes(variantMatch.replace(arms, missing)), ["E-MATCH-MISSING"]);
});
