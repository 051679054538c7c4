// bench/format: lines per second of the formatter (compiler/format) on a
// generated 100,000-line program, beside the parser's on the same text in the
// same run (formatting parses first, so the parser is its floor), and the
// formatter's growth from n to 4n lines (linear work gives a ratio near 4).
// Each figure is the median of several runs after a warm-up, the formatter and
// the parser timed in turn so that a slow moment of this shared machine falls
// on both. With --json it prints the figures as one JSON object (bench/table.ts
// reads it).

import { parseSource } from "../compiler/index.js";
import { formatSource } from "../compiler/format/format.js";
import { generateRenyi } from "./programs.js";
import { median } from "./timing.js";

const LINES = Number(process.env["BENCH_LINES"] ?? 100_000);
const RUNS = Number(process.env["BENCH_RUNS"] ?? 7);
const GOAL = 200_000;

function time(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Median times in ms to format and to parse `text`, after a warm-up, taken in turn. */
function measure(text: string): { format: number; parse: number } {
  if (formatSource("bench.ry", text).text === undefined) throw new Error("the generated program does not parse");
  parseSource("bench.ry", text);
  const format: number[] = [];
  const parse: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    format.push(time(() => formatSource("bench.ry", text)));
    parse.push(time(() => parseSource("bench.ry", text)));
  }
  return { format: median(format), parse: median(parse) };
}

const text = generateRenyi(LINES);
const lines = text.split("\n").length - 1;
const full = measure(text);
const rate = lines / (full.format / 1000);
const parseRate = lines / (full.parse / 1000);
const quarter = measure(generateRenyi(Math.round(LINES / 4)));
const growth = full.format / quarter.format;

if (process.argv.includes("--json")) {
  console.log(JSON.stringify({ lines, ms: full.format, rate, parseRate, growth }));
} else {
  const n = (x: number): string => Math.round(x).toLocaleString("en");
  console.log(`renyi fmt: ${lines} lines in ${full.format.toFixed(1)} ms = ${n(rate)} lines/s`);
  console.log(`parse alone, same run: ${full.parse.toFixed(1)} ms = ${n(parseRate)} lines/s`);
  // The ratio is steadier than either figure on a shared machine: a slow moment falls on both.
  console.log(`formatting takes ${(full.format / full.parse).toFixed(2)} times the parse alone`);
  console.log(`growth from ${n(LINES / 4)} to ${n(LINES)} lines: ${growth.toFixed(2)} (linear: near 4)`);
  console.log(`goal: at least ${n(GOAL)} lines/s -> ${rate >= GOAL ? "met" : "NOT met"}`);
}
