// What bench/limits.ts and bench/guards.ts share: a program compiled as `renyic
// build` compiles it (with a compile option or not) into a bundle inside the
// package, so that its `import "renyi/runtime"` resolves to this build's runtime,
// and a bundle timed whole, as `node NAME.mjs`.

import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileProgram } from "../compiler/build.js";
import { parseSource } from "../compiler/index.js";
import type { BundleOptions } from "../compiler/emit/bundle.js";

export const ROOT = new URL("../..", import.meta.url).pathname;
export const RUNS = Number(process.env["BENCH_RUNS"] ?? 5);
/** Fuel and host calls enough that no program here meets them; the variable bench/effects reads set, as bench/gateway sets it. */
const env = {
  ...process.env,
  RENYI_FUEL: "1000000000000",
  RENYI_MAX_HOST_CALLS: "1000000000",
  RENYI_BENCH_VARIABLE: "value",
};

/** Compiles `text` (module `name`) into `dir/name.variant.mjs`; gives back its path. */
export function buildBundle(
  dir: string,
  name: string,
  variant: string,
  text: string,
  options: Partial<BundleOptions> = {},
): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.ry`);
  const syntax = parseSource(file, text);
  const out = `${name}.${variant}.mjs`;
  const result = compileProgram([{ name, file, text, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics }], {
    runtime: "renyi/runtime",
    entry: name,
    file: out,
    ...options,
  });
  if (result.bundle === undefined)
    throw new Error(`${name} (${variant}): ${result.diagnostics.find((d) => d.severity === "error")?.message}`);
  const path = join(dir, out);
  writeFileSync(path, result.bundle.code);
  return path;
}

/** Runs a bundle with node, whole; its wall time and what it printed. */
export function timeBundle(path: string): { ms: number; out: string } {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [path], { encoding: "utf8", env });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${path} failed: ${result.stderr}`);
  return { ms, out: result.stdout };
}

export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const geomean = (xs: readonly number[]): number => Math.exp(xs.reduce((s, r) => s + Math.log(r), 0) / xs.length);

const IN_PROCESS = join(ROOT, "dist", "bench", "in-process.js");

/**
 * Runs a bundle or a JavaScript file in a process of its own and times it inside: the program's work, without Node's
 * start-up.
 */
export function timeInProcess(
  path: string,
  args: readonly string[] = [],
): { ms: number; out: string; maxRssKiB: number } {
  const result = spawnSync(process.execPath, [IN_PROCESS, path, ...args], { encoding: "utf8", env });
  if (result.status !== 0) throw new Error(`${path} failed: ${result.stderr}`);
  const m = /in-process-ms ([\d.]+)/.exec(result.stderr);
  const rss = /max-rss-kib (\d+)/.exec(result.stderr);
  if (m === null || rss === null) throw new Error(`${path}: no in-process time in ${result.stderr}`);
  return { ms: Number(m[1]), out: result.stdout, maxRssKiB: Number(rss[1]) };
}
