// bench/replay-budget: what checking a replays test's recording against the
// test's budgets costs (rtlib/recording/budget-check.ts), and that it grows
// linearly with the number of recorded calls: recordings of 30,000, 90,000 and
// 270,000 http.get calls (SIZES=a,b,c for others), one every 10 ms, checked
// against `at most 6,000 per minute` (never exceeded, so every call is
// visited), in process. Caveats: after a warm-up, the sizes in turn for 7
// rounds, median of each; the figure to compare across machines is the ratio of
// the per-call cost at the largest size to that at the smallest (1 for a linear
// check; a quadratic one would be 9). Below about 20,000 calls the recording
// fits the processor's caches and a call costs about a quarter as much: compare
// sizes above that.

import { recordedOverBudget } from "../rtlib/recording/budget-check.js";
import type { GrantItem } from "../vocabulary/needs.js";
import type { RecordedCall } from "../vocabulary/recording.js";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function callsOf(n: number): RecordedCall[] {
  return Array.from({ length: n }, (_, i) => ({
    sequence: i + 1,
    capability: 'network.http("api.example.com")',
    primitive: "std.http.get",
    arguments: { url: `https://api.example.com/${i}` },
    outcome: { success: { status: 200, headers: {}, body: "" } },
    at_ms: i * 10,
  }));
}

const budget: GrantItem[] = [
  { path: ["network", "http"], scope: "api.example.com", budget: { count: 6_000, unit: "minute" } },
];
const sizes = (process.env.SIZES ?? "30000,90000,270000").split(",").map(Number);
const recordings = new Map(sizes.map((n) => [n, callsOf(n)]));
const perCall = new Map<number, number[]>(sizes.map((n) => [n, []]));

for (const n of sizes)
  if (recordedOverBudget(recordings.get(n)!, budget) !== undefined) throw new Error("the bench's budget is exceeded");
for (let round = 0; round < 7; round++) {
  for (const n of sizes) {
    const began = performance.now();
    recordedOverBudget(recordings.get(n)!, budget);
    perCall.get(n)!.push(((performance.now() - began) * 1e6) / n);
  }
}
for (const n of sizes) console.log(`${n.toLocaleString("en")} calls: ${median(perCall.get(n)!).toFixed(0)} ns a call`);
console.log(
  `ratio of the per-call cost at ${sizes.at(-1)!.toLocaleString("en")} calls to that at ${sizes[0]!.toLocaleString("en")}: ${(median(perCall.get(sizes.at(-1)!)!) / median(perCall.get(sizes[0]!)!)).toFixed(2)}`,
);
