// bench/replay: what answering calls from a recording costs, and that the cost
// of a call does not grow with the recording's size (the index is by primitive,
// then by the call's one text or its key, to a queue). Recordings of 1,000,
// 10,000, 22,500 and 90,000 environment.get calls (distinct names, and every tenth call one repeated
// name, so that queues are used too) are read with the recording reader and
// replayed through the gateway, in process. Caveats: after a warm-up, the sizes
// in turn for 7 rounds, median of each; the figures are calls per second and the ratio of the per-call cost
// at each size to that at 1,000. The growth check is n against 4n, 22,500 against 90,000
// calls: both far beyond the processor's caches, so that a ratio above 1 is a cost that grows with the
// recording, not the step from a recording that fits in cache to one that does not.
// Then reading: the recording reader (strict JSON, every field checked) against JSON.parse of the same bytes, on a
// recording of 30,000 HTTP calls written as `renyi record` writes it (indented, JSON bodies), in CPU time (the machine
// is shared: CPU time is less moved by the other work on it than the clock), interleaved, median of 7.
// Last, the whole command from file to exit against the same program live (bench/replay-command.ts), at
// WHOLE_SIZES calls (10,000 and 90,000 unless told), ROUNDS rounds (3 unless told).

import { configureLimits, S } from "../rtlib/limits.js";
import { answerWith } from "../rtlib/gateway.js";
import { rootGrant } from "../rtlib/grants.js";
import * as environment from "../rtlib/lib/environment.js";
import { Replayer } from "../rtlib/recording/replayer.js";
import { readRecording } from "../cli/recordings/reader.js";
import type { RecordedCall } from "../vocabulary/recording.js";
import { measureWholeCommand } from "./replay-command.js";

configureLimits({ fuel: 1e15 });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function nameOf(i: number): string {
  return i % 10 === 0 ? "REPEATED" : `VARIABLE_${i}`;
}

/** A recording of `n` HTTP calls, each answered with a JSON body, written with two spaces as `renyi record` writes. */
function httpRecordingOf(n: number): Buffer {
  const calls: RecordedCall[] = [];
  for (let i = 0; i < n; i++) {
    const body = JSON.stringify({ items: [{ id: i, name: `item "${i}" é`, price: i * 1.5 }], next: i + 1 });
    calls.push({
      sequence: i + 1,
      capability: 'network.http("api.example.com")',
      primitive: "std.http.get",
      arguments: { url: `https://api.example.com/v1/items?page=${i}` },
      outcome: { success: { status: 200, headers: { "content-type": "application/json" }, body } },
      duration_ms: 12,
      at_ms: i * 3,
    });
  }
  const header = { program: "bench", toolchain: "renyi", source: "bench.ry", code: "sha256:00" };
  return Buffer.from(JSON.stringify({ ...header, grant: ["network.http"], outcome: "finished", calls }, null, 2));
}

function recordingOf(n: number): Buffer {
  const calls: RecordedCall[] = [];
  for (let i = 0; i < n; i++) {
    calls.push({
      sequence: i + 1,
      capability: `environment(${JSON.stringify(nameOf(i))})`,
      primitive: "std.environment.get",
      arguments: { name: nameOf(i) },
      outcome: { success: `value ${i}` },
      duration_ms: 0,
      at_ms: i,
    });
  }
  return Buffer.from(
    JSON.stringify({
      program: "bench",
      toolchain: "renyi",
      source: "bench.ry",
      code: "sha256:00",
      grant: ["environment"],
      outcome: "finished",
      calls,
    }),
  );
}

const grant = rootGrant([{ path: ["environment"] }], "main");

interface Costs {
  read: number;
  index: number;
  answer: number;
}

/** Nanoseconds a call: reading the recording, indexing it, and answering each of its calls through the gateway. */
async function replay(bytes: Buffer, n: number): Promise<Costs> {
  const started = process.hrtime.bigint();
  const read = readRecording(bytes);
  if (!read.ok) throw new Error(read.problem);
  const readDone = process.hrtime.bigint();
  const replayer = new Replayer(read.recording.calls, read.grant);
  const indexed = process.hrtime.bigint();
  answerWith(replayer.answer);
  S.hostCalls = 0;
  for (let i = 0; i < n; i++) await environment.get(grant, nameOf(i));
  answerWith(undefined);
  const done = process.hrtime.bigint();
  return {
    read: Number(readDone - started) / n,
    index: Number(indexed - readDone) / n,
    answer: Number(done - indexed) / n,
  };
}

// A warm-up of the whole path first, so that the smallest recording is not measured cold.
for (let i = 0; i < 3; i++) await replay(recordingOf(10_000), 10_000);
// The sizes are measured in turn, round after round, so that a change in the machine's load
// falls on all of them alike: the ratios between sizes are the figures that matter.
const SIZES = [1_000, 10_000, 22_500, 90_000];
const recordings = SIZES.map(recordingOf);
const runs: Costs[][] = SIZES.map(() => []);
for (let round = 0; round < 7; round++) {
  for (let s = 0; s < SIZES.length; s++) runs[s]!.push(await replay(recordings[s]!, SIZES[s]!));
}
const results = SIZES.map((n, s) => ({
  n,
  read: median(runs[s]!.map((r) => r.read)),
  index: median(runs[s]!.map((r) => r.index)),
  answer: median(runs[s]!.map((r) => r.answer)),
}));
const first = results[0]!;
for (const r of results) {
  const perSecond = Math.round(1e9 / r.answer).toLocaleString("en");
  const all = r.read + r.index + r.answer;
  console.log(
    `${r.n.toLocaleString("en").padStart(6)} calls: ${perSecond.padStart(9)} calls/s answered ` +
      `(${r.answer.toFixed(0)} ns a call, ×${(r.answer / first.answer).toFixed(2)} of 1,000); ` +
      `indexing ${r.index.toFixed(0)} ns a call (×${(r.index / first.index).toFixed(2)}); reading ` +
      `${r.read.toFixed(0)} ns a call (×${(r.read / first.read).toFixed(2)}); ` +
      `all told ${Math.round(1e9 / all).toLocaleString("en")} calls/s`,
  );
}
// The growth check: the per-call cost at 4n over that at n, answering and all told.
const n = results.find((r) => r.n === 22_500);
const fourN = results.find((r) => r.n === 90_000);
const allOf = (r: typeof first) => r.read + r.index + r.answer;
console.log(
  `growth from 22,500 to 90,000 calls: answering ×${(fourN!.answer / n!.answer).toFixed(2)}, indexing ×${(fourN!.index / n!.index).toFixed(2)}, all told ×${(allOf(fourN!) / allOf(n!)).toFixed(2)} (1.00 is a constant cost a call)`,
);

// Reading: the reader against JSON.parse, in CPU time.
const cpuMs = (work: () => void): number => {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};
const http = httpRecordingOf(30_000);
const reads: number[] = [];
const parses: number[] = [];
for (let round = 0; round < 7; round++) {
  parses.push(cpuMs(() => JSON.parse(http.toString("utf8"))));
  reads.push(
    cpuMs(() => {
      if (!readRecording(http).ok) throw new Error("the bench's recording was refused");
    }),
  );
}
const megabytes = http.length / 1e6;
console.log(
  `reading ${megabytes.toFixed(1)} MB: the reader ${(megabytes / (median(reads) / 1000)).toFixed(0)} MB/s, ` +
    `JSON.parse ${(megabytes / (median(parses) / 1000)).toFixed(0)} MB/s (the reader ×${(median(reads) / median(parses)).toFixed(2)} of JSON.parse)`,
);

// The whole command, from file to exit, against the same program live (bench/replay-command.ts).
await measureWholeCommand(
  (process.env.WHOLE_SIZES ?? "10000,90000").split(",").map(Number),
  Number(process.env.ROUNDS ?? 3),
);
