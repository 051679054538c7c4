// bench/compile-growth: the compiler's time and memory on programs written to
// make its work grow faster than their size (tests/adversarial-programs.ts),
// each family at n and at 2n, side by side, with the ratio of the two. Linear
// work doubles; a pass of small polynomial degree d multiplies by 2^d; an
// exponential one by thousands (before the checker's walks remembered the
// parts they had seen, nested pairs took 3.3 s at 26 lines and 13 s at 28).
//
// Time: the median of BENCH_RUNS (5) compiles in this process after a
// warm-up, parse + check + lower + print. Memory: the peak resident set of a
// process of its own that compiles the program once (`/usr/bin/time`), which
// includes Node's own 40-odd MiB. Caveat: the machine is shared and noisy; the
// ratios are what matter, and tests/compile-bounds-property.test.ts holds the
// bound on counted work, not on time.
//
// Then the code hash (compiler/hash/code-form.ts) of each family's parsed
// program at n and at 4n: it walks each reached definition once, so 4n should
// take about four times n's time.

import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { compileProgram } from "../compiler/build.js";
import { typeStepsOfLastCompilation } from "../compiler/check/work.js";
import { codeHash } from "../compiler/hash/code-form.js";
import { FAMILIES, parsed, type SourceText } from "../tests/adversarial-programs.js";
import { median } from "./timing.js";

const RUNS = Number(process.env["BENCH_RUNS"] ?? 5);
/** The sizes are the families' own times this: 1 keeps them at what the property test uses. */
const SCALE = Number(process.env["BENCH_SCALE"] ?? 4);

function compile(sources: readonly SourceText[]): { steps: number; code: number } {
  const modules = parsed(sources);
  const entry = modules[0]!.name;
  const result = compileProgram(modules, { runtime: "renyi/runtime", entry, file: `${entry}.mjs` });
  return { steps: typeStepsOfLastCompilation(), code: result.bundle?.code.length ?? 0 };
}

function timeOf(sources: readonly SourceText[]): number {
  compile(sources);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    compile(sources);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

/** Peak resident memory (MiB) of a process that compiles the family's program of size n once. */
function peakOf(family: string, n: number): number {
  const self = fileURLToPath(import.meta.url);
  const ran = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, self, "--one", family, String(n)], {
    encoding: "utf8",
  });
  if (ran.status !== 0) throw new Error(`the compile of ${family} at ${n} failed: ${ran.stderr}`);
  return Number(/(\d+)\s*$/.exec(ran.stderr.trim())?.[1] ?? "0") / 1024;
}

const one = process.argv.indexOf("--one");
if (one >= 0) {
  const family = FAMILIES.find((f) => f.name === process.argv[one + 1])!;
  compile(family.make(Number(process.argv[one + 2])));
} else {
  compile([
    { name: "warm", text: 'function main()\n  needs console\n  console.print("{json.encode((1, [2]))}")\nend\n' },
  ]);
  console.log(
    `compile growth, n against 2n (median of ${RUNS} compiles in process; peak memory of a process of its own)\n`,
  );
  console.log(
    "| family | n | characters n / 2n | time n / 2n (ms) | ×time | peak MiB n / 2n | ×memory | steps n / 2n | " +
      "×steps | code n / 2n | ×code |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|");
  for (const family of FAMILIES) {
    const n = family.n * SCALE;
    const small = family.make(n);
    const large = family.make(2 * n);
    const size = (s: readonly SourceText[]) => s.reduce((sum, m) => sum + m.text.length, 0);
    const [ts, tl] = [timeOf(small), timeOf(large)];
    const [ms, ml] = [peakOf(family.name, n), peakOf(family.name, 2 * n)];
    const [ws, wl] = [compile(small), compile(large)];
    const ratio = (a: number, b: number) => (a === 0 ? "—" : `${(b / a).toFixed(2)}`);
    console.log(
      `| ${family.name} | ${n} | ${size(small)} / ${size(large)} | ${ts.toFixed(1)} / ${tl.toFixed(1)} | ` +
        `${ratio(ts, tl)} | ${ms.toFixed(0)} / ${ml.toFixed(0)} | ${ratio(ms, ml)} | ${ws.steps} / ${wl.steps} | ` +
        `${ratio(ws.steps, wl.steps)} | ${ws.code} / ${wl.code} | ${ratio(ws.code, wl.code)} |`,
    );
  }
  console.log("\ncode hash growth, n against 4n (median of the same runs, parsed programs)\n");
  console.log("| family | n | characters n / 4n | time n / 4n (ms) | ×time |");
  console.log("|---|---|---|---|---|");
  for (const family of FAMILIES) {
    const n = family.n * SCALE;
    const [small, large] = [parsed(family.make(n)), parsed(family.make(4 * n))];
    const size = (s: readonly { text: string }[]) => s.reduce((sum, m) => sum + m.text.length, 0);
    const [ts, tl] = [hashTimeOf(small), hashTimeOf(large)];
    console.log(
      `| ${family.name} | ${n} | ${size(small)} / ${size(large)} | ${ts.toFixed(2)} / ${tl.toFixed(2)} | ${(tl / ts).toFixed(2)} |`,
    );
  }
}

function hashTimeOf(modules: ReturnType<typeof parsed>): number {
  const entry = modules[0]!.name;
  codeHash(modules, entry);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    codeHash(modules, entry);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}
