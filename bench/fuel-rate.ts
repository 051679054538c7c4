// bench/fuel-rate: how many steps of fuel compiled Renyi spends in a second, the
// measurement behind the default fuel (spec/runtime.md, "The default fuel").
// Each program runs as `renyi run --json`, whose execution record gives the exact
// steps it used and its wall time; the start-up (the same record of hello.ry) is
// taken off before dividing. Two kinds of programs: bench/compute's, which do real
// work (records, texts, JSON, recursion, arithmetic), and two runaway programs (a
// loop and a recursion that never end) stopped by a given fuel, the case the
// default exists for: how long a program that never ends runs before fuel stops it.
//
// Caveats: the machine is shared and noisy (medians of several runs); rates differ
// by program by two orders of magnitude, since a step is a statement or a node of
// work and a library call's step is charged by its size, not its time. The figure
// that matters for the default is the fastest rate: a runaway loop of the cheapest
// statements reaches the fuel soonest.

import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_LIMITS } from "../vocabulary/limits.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const RUNS = Number(process.env["BENCH_RUNS"] ?? 3);
const work = mkdtempSync(join(tmpdir(), "renyi-fuel-rate-"));
const env = { ...process.env, RENYI_CACHE_DIR: join(work, "cache") };

interface Measured {
  steps: number;
  ms: number;
  outcome: string;
}

function record(file: string, fuel: number): Measured {
  const result = spawnSync(process.execPath, [RENYI, "run", "--json", "--fuel", String(fuel), file], {
    encoding: "utf8",
    env,
    maxBuffer: 1 << 26,
  });
  const last = result.stdout.trimEnd().split("\n").pop() ?? "";
  const parsed = JSON.parse(last) as Measured & { error: { code: string } | null };
  if (parsed.outcome !== "finished" && parsed.error?.code !== "E-RT-FUEL")
    throw new Error(`${file}: ${parsed.outcome} ${JSON.stringify(parsed.error)}`);
  return { steps: parsed.steps, ms: parsed.ms, outcome: parsed.outcome };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function measure(file: string, fuel: number): Measured {
  record(file, fuel); // warms the compile cache
  const runs = Array.from({ length: RUNS }, () => record(file, fuel));
  return { steps: runs[0]!.steps, ms: median(runs.map((r) => r.ms)), outcome: runs[0]!.outcome };
}

const write = (name: string, text: string) => {
  const file = join(work, name);
  writeFileSync(file, text);
  return file;
};
const hello = write(
  "hello.ry",
  'public function main()\n  purpose: Say hello.\n  needs console\n  console.print("hello")\nend\n',
);
const runawayLoop = write(
  "runaway-loop.ry",
  "public function main()\n  purpose: Count forever.\n  var i be 0\n  while true\n    set i to (i + 1) mod 1000\n" +
    "  end\nend\n",
);
const runawayRecursion = write(
  "runaway-recursion.ry",
  "function down(n: Int) returns Int\n  if n < 1\n    return 0\n  end\n  return down(n - 1) + 1\nend\n\n" +
    "public function main()\n  purpose: Recurse forever.\n  var i be 0\n  while true\n" +
    "    set i to (i + down(200)) mod 1000\n  end\nend\n",
);

const startup = measure(hello, 1_000_000).ms;
console.log(`start-up (hello.ry): ${startup} ms, taken off each run's time below`);
console.log("program              steps          ms   steps per second   outcome");
const rates: Array<{ name: string; rate: number }> = [];
const programs: Array<[string, string, number]> = [
  ...["recursion", "loops", "records", "text", "json"].map((name): [string, string, number] => [
    name,
    join(ROOT, "bench", "compute", `${name}.ry`),
    1e12,
  ]),
  ["runaway loop", runawayLoop, 2e9],
  ["runaway recursion", runawayRecursion, 2e9],
];
for (const [name, file, fuel] of programs) {
  const m = measure(file, fuel);
  const rate = m.steps / (Math.max(1, m.ms - startup) / 1000);
  rates.push({ name, rate });
  console.log(
    `${name.padEnd(18)} ${m.steps.toExponential(2).padStart(9)} ${String(m.ms).padStart(10)} ` +
      `${rate.toExponential(2).padStart(18)}   ${m.outcome}`,
  );
}
const fastest = rates.reduce((a, b) => (b.rate > a.rate ? b : a));
const slowest = rates.reduce((a, b) => (b.rate < a.rate ? b : a));
console.log(
  `fastest: ${fastest.name}, ${fastest.rate.toExponential(2)} steps/s; slowest: ${slowest.name}, ` +
    `${slowest.rate.toExponential(2)} steps/s`,
);
for (const fuel of [2e8, 1e10, DEFAULT_LIMITS.fuel, 1e11]) {
  console.log(
    `fuel ${fuel.toExponential(0)}${fuel === DEFAULT_LIMITS.fuel ? " (the default)" : ""}: a runaway loop stops ` +
      `after ${(fuel / fastest.rate).toFixed(1)} s; the slowest program's work would take ` +
      `${(fuel / slowest.rate / 60).toFixed(1)} min`,
  );
}
