// The formatter's properties, over generated programs (tests/program-generator.ts)
// and every program of the repository that parses: formatting twice gives what
// formatting once gave, the syntax tree and the checked tree do not change, and
// every comment is kept, in order.
//
// RENYI_FUZZ_CASES sets the number of generated programs (200 by default),
// RENYI_FUZZ_SEED the first seed; `npm run fuzz` runs this file with many more.

import { test } from "node:test";
import { generateProgram } from "./program-generator.js";
import { assertFormatsWell, repositoryPrograms } from "./format-support.js";
import { seeded } from "./support.js";

const CASES = Number(process.env["RENYI_FUZZ_CASES"] ?? 200);
const FIRST_SEED = Number(process.env["RENYI_FUZZ_SEED"] ?? 1);

test("every program of the repository that parses formats well", () => {
  const programs = repositoryPrograms();
  for (const program of programs) assertFormatsWell(program.name, program.text);
  console.log(`${programs.length} programs of examples/ and fixtures/ formatted`);
});

test("generated programs format well", () => {
  for (let i = 0; i < CASES; i++) {
    const seed = FIRST_SEED + i;
    const program = generateProgram(seed);
    assertFormatsWell(`${program.entry}.ry`, program.source);
  }
  console.log(`${CASES} cases of generated programs formatted`);
});

test("generated programs laid out badly format to the same text as laid out well", () => {
  // The same program with its indentation taken away and spaces doubled formats to the same text.
  for (let i = 0; i < Math.ceil(CASES / 4); i++) {
    const seed = FIRST_SEED + i;
    const program = generateProgram(seed);
    const random = seeded(seed);
    // Lines inside a `"""` text are its characters: they keep their indentation.
    let inText = false;
    const shaken = program.source
      .split("\n")
      .map((line) => {
        const shifted = inText ? line : " ".repeat(Math.floor(random() * 6)) + line.trimStart();
        if ((line.split('"""').length - 1) % 2 === 1) inText = !inText;
        return shifted;
      })
      .join("\n");
    const file = `${program.entry}.ry`;
    const canonical = assertFormatsWell(file, program.source);
    const fromShaken = assertFormatsWell(file, shaken);
    if (fromShaken !== canonical) throw new Error(`seed ${seed}: a re-indented program formats differently`);
  }
});
