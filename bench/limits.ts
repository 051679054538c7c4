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

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildBundle, geomean, median, ROOT, RUNS, timeBundle as time } from "./bundles.js";

const DIR = join(ROOT, "bench", "compute");
const OUT = join(ROOT, "dist", "bench", "limits-bundles");

function build(name: string, onlyFuel: boolean): string {
  return buildBundle(
    OUT,
    name,
    onlyFuel ? "fuel-only" : "all",
    readFileSync(join(DIR, `${name}.ry`), "utf8"),
    onlyFuel ? { onlyFuel } : {},
  );
}

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
  console.log(
    `${name.padEnd(10)} ${median(a).toFixed(0).padStart(15)} ${median(f).toFixed(0).padStart(14)} ${ratio.toFixed(2).padStart(7)}`,
  );
}
console.log(
  `geometric mean: ${geomean(ratios).toFixed(2)}; worst: ${Math.max(...ratios).toFixed(2)} (goal: at most 1.1)`,
);
