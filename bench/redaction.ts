// bench/redaction: what following a redacted name's value by its origin costs
// a recorded run (`renyi record --redact NAME`, spec/recording.md,
// "Redaction"), on bench/guards' programs, whole `renyi record` processes,
// interleaved, median of several:
//   recorded  the program with its guard taken off, recorded without --redact:
//             the plain operators;
//   guarded   bench/guards/NAME.ry as it is (its guard declared), recorded;
//   redacted  the program with its guard taken off, recorded with --redact of the
//             variable it reads: compiled with the origin operators for it.
// Goal: redacted costs what guarded costs (at most 1.1x of it).
//
// Caveats: the times include Node's start-up and the recording's writing
// (a few calls); the machine is shared and noisy. The compile is cached before
// the first timed run.

import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { geomean, median, ROOT, RUNS } from "./bundles.js";

const OUT = join(ROOT, "dist", "bench", "redaction");
const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const env = {
  ...process.env,
  RENYI_FUEL: "1000000000000",
  RENYI_CACHE_DIR: join(OUT, "cache"),
  RENYI_BENCH_ZERO: "0",
  RENYI_BENCH_EMPTY: "",
};

function record(file: string, redact: string | undefined): { ms: number; out: string } {
  const args = [RENYI, "record", "--fuel", "1000000000000", "--to", `${file}.json`];
  if (redact !== undefined) args.push("--redact", redact);
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [...args, file], { encoding: "utf8", env, cwd: OUT });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${file} failed: ${result.stderr}`);
  return { ms, out: result.stdout };
}

mkdirSync(OUT, { recursive: true });
const ratios: number[] = [];
console.log("program    recorded ms   guarded ms   redacted ms   redacted/guarded   redacted/recorded");
// The programs named on the command line (all five by default).
const names = process.argv.length > 2 ? process.argv.slice(2) : ["recursion", "loops", "records", "text", "json"];
for (const name of names) {
  const guardedSource = readFileSync(join(ROOT, "bench", "guards", `${name}.ry`), "utf8");
  const variable = /environment\("([A-Z_]+)"\) only to console/.exec(guardedSource)![1]!;
  const files = {
    recorded: join(OUT, `${name}.ry`),
    guarded: join(OUT, `${name}_guarded.ry`),
  };
  writeFileSync(files.recorded, guardedSource.replace(" only to console", ""));
  writeFileSync(files.guarded, guardedSource);
  const runs = {
    recorded: () => record(files.recorded, undefined),
    guarded: () => record(files.guarded, undefined),
    redacted: () => record(files.recorded, variable),
  };
  const expected = runs.recorded().out;
  for (const mode of ["guarded", "redacted"] as const)
    if (runs[mode]().out !== expected) throw new Error(`${name}: the ${mode} run prints another result`);
  const ms: Record<keyof typeof runs, number[]> = { recorded: [], guarded: [], redacted: [] };
  for (let i = 0; i < RUNS; i++)
    for (const mode of ["recorded", "guarded", "redacted"] as const) ms[mode].push(runs[mode]().ms);
  const [r, g, d] = [median(ms.recorded), median(ms.guarded), median(ms.redacted)];
  ratios.push(d / g);
  console.log(
    `${name.padEnd(10)} ${r.toFixed(0).padStart(11)} ${g.toFixed(0).padStart(12)} ${d.toFixed(0).padStart(13)} ` +
      `${(d / g).toFixed(2).padStart(18)} ${(d / r).toFixed(2).padStart(19)}`,
  );
}
console.log(
  `geometric mean: redacted/guarded ${geomean(ratios).toFixed(2)} (goal at most 1.1); worst ${Math.max(...ratios).toFixed(2)}`,
);
