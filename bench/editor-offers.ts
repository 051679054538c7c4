// bench/editor-offers: the time of one completion in a module of 10,000 lines
// (bench/programs.ts's API glue), at three positions: after `response.` in a
// line being typed, so that the module does not parse; at the start of a
// statement of a module that checks (every name in scope, the module's 912
// definitions, the library's modules, the keywords); after `when` of a match
// on an Int (the cost of finding the subject's type). Then the module's
// outline, folding ranges and lenses. The snapshot is analysed once, outside
// the timing, as the language server does on an edit; each figure is the
// median of RUNS runs after a warm-up. Goal: a completion under 20 ms.

import { analyse } from "../editor/analysis.js";
import { codeLenses } from "../editor/code-lenses.js";
import { completions } from "../editor/completion.js";
import { foldingRanges } from "../editor/folding.js";
import { documentSymbols, workspaceSymbols } from "../editor/symbols.js";
import { generateRenyi } from "./programs.js";
import { medianTime } from "./timing.js";

const LINES = Number(process.env["BENCH_LINES"] ?? 10_000);
const RUNS = Number(process.env["BENCH_RUNS"] ?? 21);

const measure = (run: () => unknown): number => medianTime(run, RUNS);

const program = generateRenyi(LINES);
const lines = program.split("\n").length - 1;
const file = "/bench/glue.ry";

// A line half typed in the middle of the module: it no longer parses there.
const anchor = program.indexOf("otherwise fail\n", program.indexOf("public function fetch_", program.length / 2));
const typedAt = anchor + "otherwise fail\n".length;
const typing = `${program.slice(0, typedAt)}  let code be response.\n${program.slice(typedAt)}`;
const broken = analyse([{ file, text: typing }]);
const memberAt = typedAt + "  let code be response.".length;

const whole = analyse([{ file, text: program }]);
const view = whole.modules.get(file)!;
if (view.checked === undefined) throw new Error("the generated module does not check");
const statementAt = program.indexOf("  return forecast\n", program.length / 2);
const whenAt = program.indexOf("    when _ then", program.length / 2) + "    when ".length;

// The first completion of a process also reads the library's declarations and its reference, once.
const firstStart = process.hrtime.bigint();
completions(broken, file, memberAt);
const first = Number(process.hrtime.bigint() - firstStart) / 1e6;
const member = measure(() => completions(broken, file, memberAt));
const memberItems = completions(broken, file, memberAt).items.map((i) => i.label);
if (!memberItems.includes("status")) throw new Error(`no fields after response.: ${memberItems.join(", ")}`);
const names = measure(() => completions(whole, file, statementAt));
const nameCount = completions(whole, file, statementAt).items.length;
const cases = measure(() => completions(whole, file, whenAt));
const symbols = measure(() => documentSymbols(view));
const search = measure(() => workspaceSymbols(whole, "fcst"));
const folds = measure(() => foldingRanges(view));
const lenses = measure(() => codeLenses(whole, file));

const ms = (x: number) => `${x.toFixed(2)} ms`;
console.log(`module: ${lines} lines, ${view.syntax.items.length} definitions; median of ${RUNS} runs`);
console.log(`first completion of the process: ${ms(first)}`);
console.log(`completion after response. (does not parse): ${ms(member)}`);
console.log(`completion at a statement's start (${nameCount} items): ${ms(names)}`);
console.log(`completion after when: ${ms(cases)}`);
console.log(`document symbols: ${ms(symbols)}; workspace symbols: ${ms(search)}`);
console.log(`folding ranges: ${ms(folds)}; code lenses: ${ms(lenses)}`);
