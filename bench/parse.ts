// bench/parse: lines per second for lex + parse, and for lex + parse + check,
// of a generated 100,000-line program, side by side with TypeScript's own
// parser (ts.createSourceFile) on the same program written in TypeScript, in
// the same process and run.
//
// Caveats: the machine is shared and noisy, so each figure is the median of
// several runs after a warm-up, and the ratio matters more than the absolute
// figure. TypeScript's parser builds a richer tree (trivia, flags, parent
// links off), so the comparison is an anchor, not a race.

import ts from "typescript";
import { checkSource, parseSource } from "../compiler/index.js";
import { generateRenyi, generateTypeScript } from "./programs.js";
import { medianTime } from "./timing.js";

const LINES = Number(process.env["BENCH_LINES"] ?? 100_000);
const RUNS = Number(process.env["BENCH_RUNS"] ?? 7);

const measure = (run: () => unknown): number => medianTime(run, RUNS);

const renyi = generateRenyi(LINES);
const typescript = generateTypeScript(LINES);
const renyiLines = renyi.split("\n").length - 1;
const tsLines = typescript.split("\n").length - 1;

const check = checkSource("bench.ry", renyi);
if (check.diagnostics.length > 0) {
  console.error(
    `the generated program has ${check.diagnostics.length} diagnostics; first: ${check.diagnostics[0]!.code} ${check.diagnostics[0]!.message}`,
  );
  process.exit(1);
}

const renyiMs = measure(() => parseSource("bench.ry", renyi));
const checkMs = measure(() => checkSource("bench.ry", renyi));
const tsMs = measure(() => ts.createSourceFile("bench.ts", typescript, ts.ScriptTarget.ES2022, false));

const renyiRate = renyiLines / (renyiMs / 1000);
const tsRate = tsLines / (tsMs / 1000);
console.log(
  `renyi parse:      ${renyiLines} lines in ${renyiMs.toFixed(1)} ms = ` +
    `${Math.round(renyiRate).toLocaleString("en")} lines/s`,
);
const checkRate = renyiLines / (checkMs / 1000);
console.log(
  `renyi parse+check: ${renyiLines} lines in ${checkMs.toFixed(1)} ms = ` +
    `${Math.round(checkRate).toLocaleString("en")} lines/s`,
);
console.log(
  `typescript parse:  ${tsLines} lines in ${tsMs.toFixed(1)} ms = ${Math.round(tsRate).toLocaleString("en")} lines/s`,
);
console.log(`ratio renyi / typescript (lines/s): ${(renyiRate / tsRate).toFixed(2)}`);
console.log(`goal parse: at least 300,000 lines/s -> ${renyiRate >= 300_000 ? "met" : "NOT met"}`);
console.log(`goal parse+check: at least 150,000 lines/s -> ${checkRate >= 150_000 ? "met" : "NOT met"}`);
