// The compiler's work is bounded by its input's size, against programs written
// to break that: for every family of tests/adversarial-programs.ts (types
// shared many times over, long chains of branches, wide matches, deep graphs
// of modules) and for programs of the generator (tests/program-generator.ts),
// the work of compiling a program twice as large is at most a small power of
// two more. Work is counted, never timed: the steps of the checker's walks
// over types (compiler/check/work.ts), the compiled code's length and the
// rendered diagnostics' length. An exponential pass would show as a ratio in
// the thousands.
//
// RENYI_FUZZ_CASES sets the number of generated programs (200 by default),
// RENYI_FUZZ_SEED the first seed, as in tests/compile-property.test.ts; `npm run
// fuzz` runs this file with more.

import assert from "node:assert/strict";
import { test } from "node:test";
import { compileProgram } from "../compiler/build.js";
import { typeStepsFor, typeStepsOfLastCompilation } from "../compiler/check/work.js";
import { renderText } from "../compiler/diagnostics.js";
import { SourceFile } from "../compiler/source.js";
import { FAMILIES, parsed, type SourceText } from "./adversarial-programs.js";
import { generateProgram } from "./program-generator.js";

const CASES = Number(process.env["RENYI_FUZZ_CASES"] ?? 200);
const FIRST_SEED = Number(process.env["RENYI_FUZZ_SEED"] ?? 1);

/** Doubling the input may at most multiply the work by 2^DEGREE (and a little for what every compile does). */
const DEGREE = 2;
const SLACK = 1.15;
const CONSTANT = 500;

export interface Work {
  readonly characters: number;
  readonly steps: number;
  readonly code: number;
  readonly diagnostics: number;
  readonly codes: string[];
}

function measure(sources: readonly SourceText[]): Work {
  const modules = parsed(sources);
  const entry = modules[0]!.name;
  const result = compileProgram(modules, { runtime: "renyi/runtime", entry, file: `${entry}.mjs`, format: "module" });
  const files = new Map(modules.map((m) => [m.file, new SourceFile(m.file, m.text)]));
  return {
    characters: modules.reduce((sum, m) => sum + m.text.length, 0),
    steps: typeStepsOfLastCompilation(),
    code: result.bundle?.code.length ?? 0,
    diagnostics: result.diagnostics.length === 0 ? 0 : renderText(result.diagnostics, files).length,
    codes: result.diagnostics.map((d) => d.code),
  };
}

function grewPolynomially(what: string, small: number, large: number, context: string): void {
  const bound = 2 ** DEGREE * SLACK * small + CONSTANT;
  assert.ok(
    large <= bound,
    `${context}: ${what} grew from ${small} to ${large} when the input doubled (at most ${Math.round(bound)} allowed)`,
  );
}

// The library is declared on first use, once for the process: its steps are not any program's.
measure([
  { name: "warm", text: 'function main()\n  needs console\n  console.print("{json.encode((1, [2]))}")\nend\n' },
]);

for (const family of FAMILIES) {
  test(`compile work grows polynomially: ${family.name}`, () => {
    const small = measure(family.make(family.n));
    const large = measure(family.make(2 * family.n));
    const context = `${family.name} at n=${family.n} (${small.characters} characters) and 2n (${large.characters}), codes ${JSON.stringify(large.codes)}`;
    assert.ok(
      large.characters <= 2.5 * small.characters,
      `${family.name}: the family does not grow linearly in its source`,
    );
    grewPolynomially("the checker's steps", small.steps, large.steps, context);
    grewPolynomially("the compiled code", small.code, large.code, context);
    grewPolynomially("the diagnostics' text", small.diagnostics, large.diagnostics, context);
    assert.ok(
      large.steps <= typeStepsFor(large.characters),
      `${context}: the checker took ${large.steps} steps, more than its budget`,
    );
    assert.ok(!large.codes.includes("E-CHECK-TOO-COMPLEX"), `${context}: refused as too complex, though it is small`);
  });
}

test(`compile work of generated programs is linear in their number (${CASES} programs from seed ${FIRST_SEED})`, () => {
  let compared = 0;
  for (let seed = FIRST_SEED; seed < FIRST_SEED + CASES; seed++) {
    const program = generateProgram(seed, { mistakes: 0.1 });
    const reproduce = `seed ${seed} (RENYI_FUZZ_SEED=${seed} RENYI_FUZZ_CASES=1)`;
    const once = measure([{ name: program.entry, text: program.source }]);
    // The same program beside itself as a second module: twice the source, checked twice.
    const twice = measure([
      { name: program.entry, text: program.source },
      { name: `${program.entry}_again`, text: program.source },
    ]);
    assert.ok(
      once.steps <= typeStepsFor(once.characters) / 10,
      `${reproduce}: ${once.steps} steps, a tenth of its budget or more\n${program.source}`,
    );
    grewPolynomially("the checker's steps", once.steps, twice.steps, reproduce);
    grewPolynomially("the diagnostics' text", once.diagnostics, twice.diagnostics, reproduce);
    // A diagnostic's text is bounded whatever the types it names.
    assert.ok(
      once.diagnostics <= 4000 * Math.max(1, once.codes.length),
      `${reproduce}: ${once.diagnostics} characters of diagnostics`,
    );
    compared++;
  }
  console.log(`compile bounds: ${compared} generated programs compiled once and doubled`);
});
