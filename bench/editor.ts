// bench/editor: `renyi lsp` through the protocol, as an editor drives it: the
// time from a didChange to the publishDiagnostics of its version, the median
// of 20 edits, for one module of 5,000 lines, one of 10,000, and a program of
// 50 modules of 1,000 lines (the edit in one of them; each module uses the
// next in chains of five, all 50 open); then the server's memory on that
// program after 1,000 edits. On the 10,000-line module, a hover and a
// completion, the median of 20, with nothing changed and the first after an edit.
//
// Caveats: the server analyses a change at once when no change came in the
// 60 ms before it (cli/lsp/schedule.ts), so each timed edit comes 100 ms after
// the last answer, as keystrokes do; a burst of changes waits for a 60 ms
// pause, and the burst figure shows that wait. The server's own statistics
// (a request of its own, renyi/statistics) count the modules checked again.

import { setTimeout as sleep } from "node:timers/promises";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLsp, uriOf, type LspClient } from "../tests/lsp-client.js";
import { checkSource } from "../compiler/index.js";
import { generateRenyi } from "./programs.js";
import { median } from "./timing.js";

const EDITS = Number(process.env["BENCH_EDITS"] ?? 20);
const MEMORY_EDITS = Number(process.env["BENCH_MEMORY_EDITS"] ?? 1000);
/** With --json, the medians are printed as one JSON object at the end (bench/table.ts reads it). */
const JSON_OUT = process.argv.includes("--json");
const results: Record<string, number> = {};
const say = (line: string) => (JSON_OUT ? process.stderr : process.stdout).write(`${line}\n`);

interface Statistics {
  parses: number;
  checks: number;
  rss: number;
  heapUsed: number;
  collected: boolean;
}

interface Document {
  readonly uri: string;
  text: string;
  version: number;
  /** Where the edits go: a digit in the last function's body, toggled between 1 and 2 (no offset after it moves). */
  at?: number;
}

/** One edit of `doc` (a digit toggled, or `grow` characters added), timed to its diagnostics. */
async function timedEdit(client: LspClient, doc: Document, grow = false): Promise<number> {
  doc.at ??= doc.text.lastIndexOf("1.5");
  // Growing puts a digit in the first function's body: every definition after it moves by one.
  const at = grow ? doc.text.indexOf("1.5") : doc.at;
  if (grow) doc.at++;
  const before = doc.text.slice(0, at);
  const line = before.split("\n").length - 1;
  const character = at - before.lastIndexOf("\n") - 1;
  const replacement = grow ? `1${doc.text[at]}` : doc.text[at] === "1" ? "2" : "1";
  const length = 1;
  doc.text = doc.text.slice(0, at) + replacement + doc.text.slice(at + length);
  doc.version++;
  const start = performance.now();
  client.change(doc.uri, doc.version, [
    { range: { start: { line, character }, end: { line, character: character + length } }, text: replacement },
  ]);
  await client.diagnosticsOf(doc.uri, doc.version, 60_000);
  return performance.now() - start;
}

async function typing(client: LspClient, doc: Document, edits: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < edits; i++) {
    await sleep(100);
    times.push(await timedEdit(client, doc));
  }
  return times;
}

/** The compiler alone on the same text, in this process, at the same time: the floor of the server's figure. */
function compilerAlone(text: string): number {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    checkSource("/bench/big.ry", text);
    times.push(performance.now() - start);
  }
  return median(times);
}

async function oneModule(lines: number): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "renyi-bench-editor-"));
  const client = await startLsp({ cwd: work });
  const doc = { uri: uriOf(join(work, "big.ry")), text: generateRenyi(lines), version: 1 };
  client.open(doc.uri, doc.text, 1);
  await client.diagnosticsOf(doc.uri, 1, 120_000);
  const times = await typing(client, doc, EDITS);
  // A burst: the timed edit comes straight after the last answer, within the 60 ms window.
  const burst: number[] = [];
  for (let i = 0; i < 5; i++) burst.push(await timedEdit(client, doc));
  results[`module${lines}`] = median(times);
  if (lines === 10_000) await answers(client, doc);
  say(
    `${lines.toLocaleString("en")}-line module: ${median(times).toFixed(1)} ms median from didChange to its ` +
      `diagnostics (${EDITS} edits; min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)}); ` +
      `within a burst ${median(burst).toFixed(1)} ms; the compiler alone (parse + check, in process) ` +
      `${compilerAlone(doc.text).toFixed(1)} ms`,
  );
  await client.stop();
  rmSync(work, { recursive: true, force: true });
}

/** A request timed to its answer. */
async function timed(client: LspClient, method: string, params: unknown): Promise<number> {
  const start = performance.now();
  await client.request(method, params);
  return performance.now() - start;
}

/**
 * A hover and a completion on `item.temperature` in the last function, the median of EDITS each: with nothing
 * changed, then the first of each after an edit (its diagnostics received), which must check nothing again.
 */
async function answers(client: LspClient, doc: Document): Promise<void> {
  const at = doc.text.lastIndexOf("item.temperature * 1.5") + "item.temperature".length;
  const before = doc.text.slice(0, at);
  const position = { line: before.split("\n").length - 1, character: at - before.lastIndexOf("\n") - 1 };
  const params = { textDocument: { uri: doc.uri }, position };
  const hover = () => timed(client, "textDocument/hover", params);
  const completion = () => timed(client, "textDocument/completion", params);
  const hovers: number[] = [];
  const completions: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    hovers.push(await hover());
    completions.push(await completion());
  }
  const statistics = () => client.request<Statistics>("renyi/statistics", {});
  const hoversAfter: number[] = [];
  const completionsAfter: number[] = [];
  let checksByAnswers = 0;
  for (let i = 0; i < EDITS; i++) {
    await sleep(100);
    await timedEdit(client, doc);
    const checked = (await statistics()).checks;
    hoversAfter.push(await hover());
    checksByAnswers += (await statistics()).checks - checked;
    await sleep(100);
    await timedEdit(client, doc);
    completionsAfter.push(await completion());
  }
  results["hover10000"] = median(hovers);
  results["completion10000"] = median(completions);
  say(
    `10,000-line module, through the protocol (${EDITS} each): hover ${median(hovers).toFixed(1)} ms median ` +
      `(max ${Math.max(...hovers).toFixed(1)}), completion ${median(completions).toFixed(1)} ms ` +
      `(max ${Math.max(...completions).toFixed(1)}); the first after an edit: hover ${median(hoversAfter).toFixed(1)} ms, ` +
      `completion ${median(completionsAfter).toFixed(1)} ms, modules checked by the hovers ${checksByAnswers}`,
  );
}

async function program(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "renyi-bench-editor-"));
  const client = await startLsp({ cwd: work, node: ["--expose-gc"] });
  const docs: Document[] = [];
  for (let i = 0; i < 50; i++) {
    const uses = i % 5 === 4 ? "" : `use m${i + 1}\n\n`;
    const text = uses + generateRenyi(1000);
    writeFileSync(join(work, `m${i}.ry`), text);
    docs.push({ uri: uriOf(join(work, `m${i}.ry`)), text, version: 1 });
  }
  for (const doc of docs) client.open(doc.uri, doc.text, 1);
  for (const doc of docs) await client.diagnosticsOf(doc.uri, 1, 300_000);
  const lines = docs.reduce((sum, d) => sum + d.text.split("\n").length - 1, 0);
  const edited = docs[27]!;
  const statistics = () => client.request<Statistics>("renyi/statistics", {});
  const before = await statistics();
  const times = await typing(client, edited, EDITS);
  const after = await statistics();
  // One edit that moves the offsets after it: the modules that use m27 (m25, m26) are checked again.
  const beforeGrow = await statistics();
  await sleep(100);
  const grow = await timedEdit(client, edited, true);
  await sleep(300);
  const afterGrow = await statistics();
  results["program"] = median(times);
  say(
    `${lines.toLocaleString("en")}-line program of 50 modules: ${median(times).toFixed(1)} ms median ` +
      `(${EDITS} edits in m27's body; ${(after.checks - before.checks) / EDITS} module(s) checked an edit); ` +
      `an edit that moves offsets ${grow.toFixed(1)} ms, ${afterGrow.checks - beforeGrow.checks} modules checked`,
  );
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  const samples: Statistics[] = [];
  for (let i = 1; i <= MEMORY_EDITS; i++) {
    await timedEdit(client, docs[i % 50]!);
    if (i % (MEMORY_EDITS / 4) === 0) samples.push(await statistics());
  }
  results["rssMib"] = samples[samples.length - 1]!.rss / 1024 / 1024;
  say(
    `memory after ${MEMORY_EDITS} edits, at each quarter: RSS ${samples.map((s) => mib(s.rss)).join(", ")} MiB; ` +
      `heap after a collection ${samples.map((s) => mib(s.heapUsed)).join(", ")} MiB`,
  );
  await client.stop();
  rmSync(work, { recursive: true, force: true });
}

await oneModule(5_000);
await oneModule(10_000);
await program();
if (JSON_OUT) console.log(JSON.stringify(results));
