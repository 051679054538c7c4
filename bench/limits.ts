// bench/limits: what the limits other than fuel cost on bench/compute's programs.
// Each program is compiled twice, as `renyic build` compiles it (every limit's
// check in the code) and with the bench-only option `onlyFuel` (fuel checks and
// nothing else: no call depth counted on each call and given back in a
// `finally`, no text-size check on `+` and interpolation), and the two bundles
// are run side by side with `node NAME.mjs`, interleaved, median of several.
//
// Caveats: both variants run the same runtime, so the checks the library makes
// (the collection and text limits before building, each call's fuel charged by
// its size, the output limits) and the memory limit's readings (one per 4,096
// steps at the fuel check's slow path, measured apart in bench/RESULTS.md, "The
// memory limit") are in both: they are part of fuel's own slow path or of a
// library call that does the work anyway. The machine is shared and noisy.

import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileProgram } from "../compiler/build.js";
import { parseSource } from "../compiler/index.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const DIR = join(ROOT, "bench", "compute");
// Inside the package, so that a bundle's `import "renyi/runtime"` resolves to this build's runtime.
const OUT = join(ROOT, "dist", "bench", "limits-bundles");
const RUNS = Number(process.env["BENCH_RUNS"] ?? 5);
const env = { ...process.env, RENYI_FUEL: "1000000000000" };

function build(name: string, onlyFuel: boolean): string {
  const file = join(DIR, `${name}.ry`);
  const text = readFileSync(file, "utf8");
  const syntax = parseSource(file, text);
  const out = `${name}${onlyFuel ? ".fuel-only" : ""}.mjs`;
  const result = compileProgram([{ name, file, text, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics }], { runtime: "renyi/runtime", entry: name, file: out, ...(onlyFuel ? { onlyFuel } : {}) });
  if (result.bundle === undefined) throw new Error(`${name}: ${result.diagnostics[0]?.message}`);
  const path = join(OUT, out);
  writeFileSync(path, result.bundle.code);
  return path;
}

function time(path: string): { ms: number; out: string } {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [path], { encoding: "utf8", env });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${path} failed: ${result.stderr}`);
  return { ms, out: result.stdout };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

mkdirSync(OUT, { recursive: true });
const ratios: number[] = [];
console.log("program      all limits ms   fuel only ms   ratio");
for (const name of ["recursion", "loops", "records", "text", "json"]) {
  const all = build(name, false);
  const fuel = build(name, true);
  if (time(all).out !== time(fuel).out) throw new Error(`${name}: the two variants print different results`);
  const a: number[] = [];
  const f: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    a.push(time(all).ms);
    f.push(time(fuel).ms);
  }
  const ratio = median(a) / median(f);
  ratios.push(ratio);
  console.log(`${name.padEnd(10)} ${median(a).toFixed(0).padStart(15)} ${median(f).toFixed(0).padStart(14)} ${ratio.toFixed(2).padStart(7)}`);
}
const geomean = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
console.log(`geometric mean: ${geomean.toFixed(2)}; worst: ${Math.max(...ratios).toFixed(2)} (goal: at most 1.1)`);
