// The compiler's property test: programs generated from the grammar
// (tests/program-generator.ts), with names that are JavaScript's globals and
// reserved words. For every one the checker accepts, the compiler writes
// JavaScript that acorn parses and the bundle validator accepts, in both of
// its forms (the ES module of `renyic build`, the CommonJS module of
// `renyi run`), so it uses no name it does not declare or import. The compiler
// never throws. A sample of the accepted programs also runs for real, and ends
// the way Renyi programs end, never with an internal error or a JavaScript stack.
//
// RENYI_FUZZ_CASES sets the number of programs (1,000 by default), RENYI_FUZZ_SEED
// the first seed; program i has seed SEED + i, so a failing case is reproduced
// with RENYI_FUZZ_SEED=<its seed> RENYI_FUZZ_CASES=1. `npm run fuzz` runs this
// file for longer, with a fresh seed every round.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { compileProgram } from "../compiler/build.js";
import { bundleProgram } from "../compiler/emit/bundle.js";
import { parseSource } from "../compiler/index.js";
import { SourceFile } from "../compiler/source.js";
import { validateBundle } from "../cli/bundles/validate.js";
import { ROOT } from "./golden.js";
import { generateProgram, type GeneratedProgram, type GeneratorOptions } from "./program-generator.js";

// Compiling both forms and validating both is most of the time: 1,000 programs keep this file
// near 15 s on two cores, the runs included; `npm run fuzz` runs many more.
const CASES = Number(process.env["RENYI_FUZZ_CASES"] ?? 1000);
const FIRST_SEED = Number(process.env["RENYI_FUZZ_SEED"] ?? 1);
/** How many accepted programs run as child processes. */
const RUNS = Math.min(Number(process.env["RENYI_FUZZ_RUNS"] ?? 10), CASES);
/** Below this share of accepted programs the generator has drifted from the language, and the test says so. */
const MIN_ACCEPTED = 0.6;

/**
 * One program in ten holds a deliberate mistake, which the checker must refuse (and the compiler must not throw on).
 */
const OPTIONS: GeneratorOptions = { mistakes: 0.1 };

/**
 * The runtime path of the CommonJS form: any absolute path; the validator checks that the bundle requires exactly it.
 */
const CJS_RUNTIME = join(ROOT, "dist", "runtime.cjs");
const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");

const work = mkdtempSync(join(tmpdir(), "renyi-compile-property-"));
after(() => rmSync(work, { recursive: true, force: true }));

function report(program: GeneratedProgram, problem: string): string {
  return (
    `seed ${program.seed} (reproduce with RENYI_FUZZ_SEED=${program.seed} RENYI_FUZZ_CASES=1): ${problem}\n` +
    `---- ${program.entry}.ry ----\n${program.source}`
  );
}

type Outcome = { accepted: true } | { accepted: false; codes: string[] };

/** Compiles one program both ways and returns what went wrong, if anything, with whether the checker accepted it. */
function compileBothWays(program: GeneratedProgram): { outcome: Outcome; problem?: string } {
  const file = `${program.entry}.ry`;
  const syntax = parseSource(file, program.source);
  const modules = [
    { name: program.entry, file, text: program.source, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics },
  ];
  let esm: ReturnType<typeof compileProgram>;
  let cjsCode: string | undefined;
  try {
    esm = compileProgram(modules, {
      runtime: "renyi/runtime",
      entry: program.entry,
      file: `${program.entry}.mjs`,
      format: "module",
    });
    if (esm.program !== undefined) {
      // The CommonJS form from the same checked program, as `renyi run` makes it (the compiler's own printer), without
      // checking it twice.
      const sources = new Map([[program.entry, new SourceFile(file, program.source)]]);
      cjsCode = bundleProgram(esm.program, sources, {
        runtime: CJS_RUNTIME,
        entry: program.entry,
        file: `${program.entry}.cjs`,
        format: "commonjs",
        printer: "own",
      }).code;
    }
  } catch (e) {
    const problem = `the compiler threw (an internal error): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
    return { outcome: { accepted: false, codes: [] }, problem };
  }
  if (esm.bundle === undefined || cjsCode === undefined) {
    const codes = esm.diagnostics.filter((d) => d.code.startsWith("E-")).map((d) => d.code);
    if (codes.length === 0)
      return { outcome: { accepted: false, codes }, problem: "the compiler made no bundle and reported no error" };
    return { outcome: { accepted: false, codes } };
  }
  const asModule = validateBundle(esm.bundle.code);
  if (!asModule.ok)
    return { outcome: { accepted: true }, problem: `the validator refused the ES module: ${asModule.problem}` };
  const asCommonjs = validateBundle(cjsCode, { kind: "commonjs", runtime: CJS_RUNTIME });
  if (!asCommonjs.ok)
    return { outcome: { accepted: true }, problem: `the validator refused the CommonJS module: ${asCommonjs.problem}` };
  return { outcome: { accepted: true } };
}

/** The accepted programs, kept for the runs of the second test. */
const accepted: GeneratedProgram[] = [];

test("every generated program the checker accepts compiles to JavaScript that the validator accepts, in both forms; every deliberate mistake is refused", () => {
  const problems: string[] = [];
  const refusals = new Map<string, number>();
  let refused = 0;
  let mistakes = 0;
  for (let i = 0; i < CASES; i++) {
    const program = generateProgram(FIRST_SEED + i, OPTIONS);
    const { outcome, problem } = compileBothWays(program);
    if (problem !== undefined) problems.push(report(program, problem));
    if (program.mistake !== undefined) {
      // A program with a mistake is refused, whatever else it holds.
      mistakes++;
      if (outcome.accepted)
        problems.push(report(program, `the checker accepted a program with a mistake: ${program.mistake}`));
      continue;
    }
    if (outcome.accepted) accepted.push(program);
    else {
      refused++;
      for (const code of new Set(outcome.codes)) refusals.set(code, (refusals.get(code) ?? 0) + 1);
    }
  }
  const clean = CASES - mistakes;
  const share = clean === 0 ? 1 : accepted.length / clean;
  const common = [...refusals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([code, n]) => `${code} ${n}`)
    .join(", ");
  console.log(
    `compile property: ${CASES} cases from seed ${FIRST_SEED}: ${mistakes} with a deliberate mistake; of the ` +
      `other ${clean}, ` +
      `${accepted.length} accepted by the checker and ${refused} refused (${(share * 100).toFixed(1)}% accepted` +
      `${common ? `; most common refusals: ${common}` : ""}); ${problems.length} failed`,
  );
  assert.equal(
    problems.length,
    0,
    `${problems.length} of ${CASES} programs failed; the first:\n${problems.slice(0, 2).join("\n\n")}`,
  );
  // Too few cases say nothing about the share (a single reproduced case may be refused).
  if (CASES >= 100)
    assert.ok(
      share >= MIN_ACCEPTED,
      `only ${(share * 100).toFixed(1)}% of the generated programs passed the checker: the generator no longer ` +
        `follows the language`,
    );
});

/** Runs a program with `renyi run`, with limits that end every generated program quickly. */
function run(file: string, cache: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RENYI, "run", "--timeout", "60", "--fuel", "2000000", file], {
      cwd: work,
      env: { ...process.env, RENYI_CACHE_DIR: cache, RENYI_DEBUG: "" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

test("a sample of the accepted programs runs to a Renyi outcome: no internal error, no JavaScript stack", async () => {
  assert.ok(accepted.length > 0 || CASES < 10, "no program was accepted, so none could run");
  // Spread the sample over all the accepted programs.
  const step = Math.max(1, Math.floor(accepted.length / Math.max(RUNS, 1)));
  const sample = accepted.filter((_, i) => i % step === 0).slice(0, RUNS);
  const cache = join(work, "cache");
  const outcomes = new Map<number | null, number>();
  const problems: string[] = [];
  // Two at a time: the machine has two cores.
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < sample.length) {
      const program = sample[next++]!;
      const folder = join(work, `seed-${program.seed}`);
      mkdirSync(folder, { recursive: true });
      const file = join(folder, `${program.entry}.ry`);
      writeFileSync(file, program.source);
      const { status, stdout, stderr } = await run(file, cache);
      outcomes.set(status, (outcomes.get(status) ?? 0) + 1);
      const output = `exit ${status}\n---- stdout ----\n${stdout.slice(0, 2000)}\n---- stderr ----\n${stderr.slice(0, 2000)}`;
      if (status !== 0 && status !== 1 && status !== 2)
        problems.push(report(program, `the run ended with exit code ${status}, not a program's outcome\n${output}`));
      else if (/E-RT-INTERNAL/.test(stdout + stderr))
        problems.push(report(program, `the run ended with an internal error\n${output}`));
      else if (/^\s+at /m.test(stdout + stderr))
        problems.push(report(program, `the run printed a JavaScript stack\n${output}`));
      else if (status !== 0 && !/error\[E-RT-[A-Z-]+\]/.test(stderr))
        problems.push(report(program, `the run failed without a Renyi error code\n${output}`));
    }
  };
  await Promise.all([worker(), worker()]);
  const summary = [...outcomes]
    .sort((a, b) => Number(a[0]) - Number(b[0]))
    .map(([status, n]) => `exit ${status}: ${n}`)
    .join(", ");
  console.log(
    `compile property: ran a sample of ${sample.length} accepted programs (${summary}), ${problems.length} failed`,
  );
  assert.equal(problems.length, 0, problems.slice(0, 2).join("\n\n"));
});
