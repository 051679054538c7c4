// bench/test-threads: what `renyi test`'s thread per test costs (spec/testing.md,
// "Why a thread per test"). A file of 20 trivial tests is compiled once; then
// the 20 tests are run one after another, each in a thread of its own (as
// `renyi test` runs them), against all 20 in one thread sharing one runtime
// (the design not chosen), and against 20 threads that run nothing (the floor).
// Caveats: one lane, so the ratio is the cost per test, not the wall time of a
// run (which runs a few lanes at once); median of 5 rounds.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { compileTestFile } from "../cli/testing/compile.js";
import { recordingPath } from "../cli/testing/replays.js";

const N = 20;
const folder = mkdtempSync(join(tmpdir(), "renyi-bench-tests-"));
process.env["RENYI_CACHE_DIR"] = join(folder, "cache");
const file = join(folder, "many.ry");
writeFileSync(
  file,
  [
    "function double(n: Int) returns Int\n  return n * 2\nend\n",
    ...Array.from({ length: N }, (_, i) => `test "t${i}"\n  check double(${i}) is ${2 * i}\nend\n`),
  ].join("\n"),
);
const compiled = await compileTestFile(file, recordingPath);
if (compiled.kind !== "compiled") throw new Error("the benchmark's tests did not compile");
const { bundle, tests } = compiled;
const WORKER = fileURLToPath(new URL("../cli/testing/worker.cjs", import.meta.url));
const RUNTIME = fileURLToPath(new URL("../runtime.cjs", import.meta.url));
const options = { stdout: true, stderr: true, resourceLimits: { maxOldGenerationSizeMb: 1024, stackSizeMb: 16 } };
const exited = (w: Worker) => new Promise((resolve) => w.once("exit", resolve));

async function threadPerTest(): Promise<void> {
  for (const test of tests) {
    await exited(
      new Worker(WORKER, {
        ...options,
        workerData: {
          bundle,
          functionName: test.functionName,
          fuel: 1e6,
          maxDepth: 256,
          cancel: new SharedArrayBuffer(4),
        },
      }),
    );
  }
}

async function oneThread(): Promise<void> {
  const code = `
    const { workerData } = require("node:worker_threads");
    const runtime = require(workerData.runtime);
    const program = require(workerData.bundle);
    (async () => {
      for (const name of workerData.names) await runtime.runTest(async () => program, (t) => t.find((x) => x.run.name === name), { limits: { fuel: 1e6, maxDepth: 256 } });
      process.exit(0);
    })();`;
  await exited(
    new Worker(code, {
      ...options,
      eval: true,
      workerData: { runtime: RUNTIME, bundle, names: tests.map((t) => t.functionName) },
    }),
  );
}

async function emptyThreads(): Promise<void> {
  for (let i = 0; i < N; i++) await exited(new Worker("process.exit(0)", { ...options, eval: true }));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rounds: Record<string, number[]> = { perTest: [], oneThread: [], empty: [] };
for (let round = 0; round < 6; round++) {
  for (const [name, f] of [
    ["perTest", threadPerTest],
    ["oneThread", oneThread],
    ["empty", emptyThreads],
  ] as const) {
    const start = performance.now();
    await f();
    if (round > 0) rounds[name]!.push(performance.now() - start);
  }
}
const [perTest, one, empty] = [median(rounds["perTest"]!), median(rounds["oneThread"]!), median(rounds["empty"]!)];
console.log(
  `${N} tests: a thread each ${perTest.toFixed(0)} ms (${(perTest / N).toFixed(1)} ms a test), all in one thread ` +
    `${one.toFixed(0)} ms, ${N} empty threads ${empty.toFixed(0)} ms`,
);
console.log(
  `a thread per test / one thread: ${(perTest / one).toFixed(1)}x; a thread per test / empty threads: ` +
    `${(perTest / empty).toFixed(2)}x`,
);
