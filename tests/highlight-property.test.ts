// The grammar agrees with the lexer on generated programs (tests/program-generator.ts):
// every keyword, text, number, type name, name, punctuation and comment of the
// lexer's gets the matching scope from editors/renyi.tmLanguage.json, on the
// engine VS Code uses (the mapping is in tests/highlight-support.ts).
//
// RENYI_FUZZ_CASES sets the number of programs (60 by default, about a second alone),
// RENYI_FUZZ_SEED the first seed; program i has seed SEED + i. `npm run fuzz`
// runs this file for longer, with a fresh seed every round.

import assert from "node:assert/strict";
import { test } from "node:test";
import { describeDisagreement, disagreement, loadHighlighter } from "./highlight-support.js";
import { generateProgram } from "./program-generator.js";

const CASES = Number(process.env["RENYI_FUZZ_CASES"] ?? 60);
const FIRST_SEED = Number(process.env["RENYI_FUZZ_SEED"] ?? 1);

/** A comment in each place a comment may stand, so that comments are compared too. */
function withComments(source: string, seed: number): string {
  return source
    .split("\n")
    .map((line, i) => ((i + seed) % 4 === 0 && line.trim() !== "" ? `${line} -- note ${i}: "not a text" {x}` : line))
    .join("\n");
}

test("the grammar gives every token of generated programs the lexer's class", async () => {
  const highlight = await loadHighlighter();
  let compared = 0;
  for (let seed = FIRST_SEED; seed < FIRST_SEED + CASES; seed++) {
    const program = generateProgram(seed);
    for (const source of [program.source, withComments(program.source, seed)]) {
      const found = disagreement(highlight, source);
      if (found === "lex-error") continue;
      compared++;
      if (found !== undefined) {
        assert.fail(
          `seed ${seed} (reproduce with RENYI_FUZZ_SEED=${seed} RENYI_FUZZ_CASES=1): ${describeDisagreement(found)}\n` +
            `---- ${program.entry}.ry ----\n${source}`,
        );
      }
    }
  }
  console.log(`highlight agreement: ${CASES} cases, ${compared} sources compared`);
  assert.ok(compared >= CASES, `most programs lex cleanly (${compared} of ${2 * CASES})`);
});
