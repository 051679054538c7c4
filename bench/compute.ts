// bench/compute: the same algorithms in Renyi and in hand-written JavaScript,
// run as whole processes side by side (`renyi run` with fuel and depth on,
// against `node`), printing the ratio Renyi / JavaScript for each and their
// geometric mean. Also: compile throughput (parse + check + emit of a
// generated 100,000-line program) and the start-up of `renyi run hello.ry`
// with a warm cache against `node hello.js`.
//
// Caveats: the machine is shared and noisy, so each figure is the median of
// several runs, Renyi and JavaScript interleaved; the ratios include
// `renyi run`'s start-up (worker thread and runtime), about 35 ms, which
// matters less the longer a program runs. The JavaScript versions are written
// as a person would write them, with no overflow checks, fuel or depth.

import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileProgram } from "../compiler/build.js";
import { parseSource } from "../compiler/index.js";
import { generateRenyi } from "./programs.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const DIR = join(ROOT, "bench", "compute");
const RUNS = Number(process.env["BENCH_RUNS"] ?? 5);
const cache = mkdtempSync(join(tmpdir(), "renyi-bench-"));
const env = { ...process.env, RENYI_CACHE_DIR: cache };

function time(args: string[]): { ms: number; out: string } {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { encoding: "utf8", env });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(" ")} failed: ${result.stderr}`);
  return { ms, out: result.stdout };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function sideBySide(renyiArgs: string[], jsArgs: string[], runs = RUNS): { renyi: number; js: number } {
  const first = time(renyiArgs); // warms the compile cache
  const expected = time(jsArgs).out;
  if (first.out !== expected) throw new Error(`outputs differ: ${first.out} vs ${expected}`);
  const r: number[] = [];
  const j: number[] = [];
  for (let i = 0; i < runs; i++) {
    r.push(time(renyiArgs).ms);
    j.push(time(jsArgs).ms);
  }
  return { renyi: median(r), js: median(j) };
}

const programs = ["recursion", "loops", "records", "text", "json"];
const ratios: number[] = [];
console.log("program      renyi ms    js ms   ratio");
for (const name of programs) {
  const { renyi, js } = sideBySide(
    [RENYI, "run", "--fuel", "100000000000", join(DIR, `${name}.ry`)],
    [join(DIR, `${name}.js`)],
  );
  ratios.push(renyi / js);
  console.log(
    `${name.padEnd(10)} ${renyi.toFixed(0).padStart(9)} ${js.toFixed(0).padStart(8)} ${(renyi / js).toFixed(2).padStart(7)}`,
  );
}
const geomean = Math.exp(ratios.reduce((a, r) => a + Math.log(r), 0) / ratios.length);
console.log(`geometric mean of the ratios: ${geomean.toFixed(2)} (goal: at most 1.3)`);

// Start-up: hello with a warm cache against plain node. A run takes a tenth of a
// second, and this machine's noise is several milliseconds, so more of them.
const work = mkdtempSync(join(tmpdir(), "renyi-hello-"));
const helloJs = join(work, "hello.js");
writeFileSync(helloJs, 'console.log("Hello, world!")\n');
const startup = sideBySide(
  [RENYI, "run", join(ROOT, "examples", "hello.ry")],
  [helloJs],
  Number(process.env["BENCH_STARTUP_RUNS"] ?? 31),
);
console.log(
  `start-up: renyi run hello.ry ${startup.renyi.toFixed(0)} ms, node hello.js ${startup.js.toFixed(0)} ms, ratio ` +
    `${(startup.renyi / startup.js).toFixed(2)} (goal: at most 1.5)`,
);

// Compile throughput: parse + check + lower + bundle, in process.
const source = generateRenyi(100_000);
const lines = source.split("\n").length - 1;
const compile = () => {
  const syntax = parseSource("bench.ry", source);
  const result = compileProgram(
    [{ name: "bench", file: "bench.ry", text: source, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics }],
    { runtime: "renyi/runtime", entry: "bench", file: "bench.mjs" },
  );
  if (result.bundle === undefined) throw new Error(result.diagnostics[0]?.message);
};
compile();
const times: number[] = [];
for (let i = 0; i < 3; i++) {
  const start = process.hrtime.bigint();
  compile();
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
}
const ms = median(times);
console.log(
  `compile: ${lines} lines in ${ms.toFixed(0)} ms = ${Math.round(lines / (ms / 1000)).toLocaleString("en")} ` +
    `lines/s (goal: at least 100,000)`,
);
