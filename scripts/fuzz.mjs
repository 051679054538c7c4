// Runs the property tests for a while: `npm run fuzz -- --minutes 10`.
//
// Each round runs every property test file that exists in dist/tests (the
// compiler's, the formatter's, any other whose name says property, extremes or keys, and the guards'
// and implicit flows' controls, which npm test samples) with
// many cases and a fresh seed in RENYI_FUZZ_SEED, until the time is up. It
// reports the rounds, the cases tried and the failures (with the seed that
// reproduces each), and exits 1 on any failure. Options:
//   --minutes N   how long to run (10)
//   --cases N     programs per round for the tests that read RENYI_FUZZ_CASES (5000)
//   --seed N      the first round's seed (a random one)

import { spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const testsDir = join(root, "dist", "tests");

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name} takes a positive number`);
    process.exit(2);
  }
  return value;
}

const minutes = option("minutes", 10);
const cases = Math.floor(option("cases", 5000));
let seed = Math.floor(option("seed", randomInt(1, 2 ** 31)));

const files = existsSync(testsDir)
  ? readdirSync(testsDir)
      .filter((name) => name.endsWith(".test.js") && /property|extremes|keys|^guards\.test|^implicit-flows/.test(name))
      .sort()
  : [];
if (!files.includes("compile-property.test.js")) {
  console.error("dist/tests/compile-property.test.js is missing: run `npm run build` first");
  process.exit(2);
}

/** Runs one test file with a seed; resolves to its exit code, the number of cases it printed and its output. */
function runFile(file, roundSeed) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--test", "--test-reporter=spec", join(testsDir, file)], {
      cwd: root,
      env: { ...process.env, RENYI_FUZZ_SEED: String(roundSeed), RENYI_FUZZ_CASES: String(cases) },
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (status) => {
      // Property tests print "... N cases ..."; add up what this run printed.
      let tried = 0;
      for (const match of output.matchAll(/(\d+) cases/g)) tried += Number(match[1]);
      resolve({ status, tried, output });
    });
  });
}

const deadline = Date.now() + minutes * 60_000;
let rounds = 0;
let tried = 0;
const failures = [];
console.log(`fuzzing ${files.join(", ")} for ${minutes} minute(s), ${cases} cases a round, first seed ${seed}`);
while (Date.now() < deadline) {
  rounds++;
  for (const file of files) {
    const result = await runFile(file, seed);
    tried += result.tried;
    if (result.status !== 0) {
      failures.push({ file, seed, output: result.output });
      console.log(`round ${rounds}: ${file} FAILED with RENYI_FUZZ_SEED=${seed}`);
    }
    if (Date.now() >= deadline) break;
  }
  console.log(`round ${rounds} done (seed ${seed}): ${tried} cases so far, ${failures.length} failure(s)`);
  seed = (seed + cases) % 2 ** 31 || 1;
}

console.log(`fuzz: ${rounds} round(s), ${tried} cases tried, ${failures.length} failure(s)`);
for (const failure of failures) {
  console.log(`\n==== ${failure.file}, RENYI_FUZZ_SEED=${failure.seed} RENYI_FUZZ_CASES=${cases} ====`);
  // The end of the output holds the failing assertion with the program and its seed.
  console.log(failure.output.slice(-6000));
}
process.exit(failures.length === 0 ? 0 : 1);
