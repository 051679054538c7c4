// bench/guards: what provenance guards cost on bench/compute's programs, in three
// modes, each built as `renyic build` builds it and run with `node NAME.mjs`,
// interleaved, median of several (whole processes):
//   plain    the program as it is: no guard, the plain operators;
//   idle     the same program with a guard no data passes through on main
//            (bench/idle-guard.ts): the origin operators, and every call checked;
//   guarded  bench/guards/NAME.ry: the same work with guarded data flowing through
//            the hot loop (a guarded number the loop's total starts from, guarded
//            names in the records, a guarded prefix on every text).
// Goals: idle at most 1.1x plain, guarded at most 2x.
//
// Caveats: the guarded programs differ from the plain ones by one environment
// read and a few operands; they print the same results. The machine is shared
// and noisy; whole-process times include Node's start-up (about 40 ms).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildBundle, geomean, median, ROOT, RUNS, timeBundle as time } from "./bundles.js";
import { withIdleGuard } from "./idle-guard.js";

const OUT = join(ROOT, "dist", "bench", "guards-bundles");
const build = (name: string, mode: string, text: string): string => buildBundle(OUT, name, mode, text);

const idleRatios: number[] = [];
const guardedRatios: number[] = [];
console.log("program      plain ms   idle ms   guarded ms   idle/plain   guarded/plain");
for (const name of ["recursion", "loops", "records", "text", "json"]) {
  const source = readFileSync(join(ROOT, "bench", "compute", `${name}.ry`), "utf8");
  const paths = {
    plain: build(name, "plain", source),
    idle: build(name, "idle", withIdleGuard(source)!),
    guarded: build(name, "guarded", readFileSync(join(ROOT, "bench", "guards", `${name}.ry`), "utf8")),
  };
  const expected = time(paths.plain).out;
  for (const mode of ["idle", "guarded"] as const)
    if (time(paths[mode]).out !== expected) throw new Error(`${name}: the ${mode} variant prints another result`);
  const ms: Record<keyof typeof paths, number[]> = { plain: [], idle: [], guarded: [] };
  for (let i = 0; i < RUNS; i++)
    for (const mode of ["plain", "idle", "guarded"] as const) ms[mode].push(time(paths[mode]).ms);
  const [p, i, g] = [median(ms.plain), median(ms.idle), median(ms.guarded)];
  idleRatios.push(i / p);
  guardedRatios.push(g / p);
  console.log(
    `${name.padEnd(10)} ${p.toFixed(0).padStart(10)} ${i.toFixed(0).padStart(9)} ${g.toFixed(0).padStart(12)} ` +
      `${(i / p).toFixed(2).padStart(12)} ${(g / p).toFixed(2).padStart(15)}`,
  );
}
console.log(
  `geometric mean: idle ${geomean(idleRatios).toFixed(2)} (goal at most 1.1), guarded ` +
    `${geomean(guardedRatios).toFixed(2)} (goal at most 2); worst: idle ${Math.max(...idleRatios).toFixed(2)}, ` +
    `guarded ${Math.max(...guardedRatios).toFixed(2)}`,
);
