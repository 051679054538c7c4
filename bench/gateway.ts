// bench/gateway: what the gateway itself costs. 1,000,000 permitted
// environment.get calls through the gateway, against reading the same
// variable directly (plainly, and awaited as the gateway's callers await);
// and a budgeted permitted call (a sliding window of a day) against an
// unbudgeted one. Caveats: in process, after a warm-up, median of 5; the
// gateway's calls are async, so the awaited direct call is the fair baseline.

import { configureLimits, S } from "../rtlib/limits.js";
import { call } from "../rtlib/gateway.js";
import { rootGrant } from "../rtlib/grants.js";
import * as environment from "../rtlib/lib/environment.js";
import { optional } from "../rtlib/prelude.js";

const N = Number(process.env["BENCH_CALLS"] ?? 1_000_000);
process.env["RENYI_BENCH_VARIABLE"] = "value";
configureLimits({ fuel: 1e15 });
S.maxHostCalls = Number.MAX_SAFE_INTEGER;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(loop: () => Promise<void> | void): Promise<number> {
  await loop();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = process.hrtime.bigint();
    await loop();
    times.push(Number(process.hrtime.bigint() - start) / N);
  }
  return median(times);
}

const direct = () => optional(process.env["RENYI_BENCH_VARIABLE"]);
const plain = await measure(() => {
  for (let i = 0; i < N; i++) direct();
});
const awaited = await measure(async () => {
  for (let i = 0; i < N; i++) await direct();
});
const grant = rootGrant([{ path: ["environment"] }], "main");
const gateway = await measure(async () => {
  for (let i = 0; i < N; i++) await environment.get(grant, "RENYI_BENCH_VARIABLE");
});
const need = { path: ["network", "http"], scope: "a.com" };
const unbudgetedGrant = rootGrant([{ path: ["network", "http"], scope: "a.com" }], "main");
const budgetedGrant = rootGrant([{ path: ["network", "http"], scope: "a.com", budget: { count: 1e12, unit: "day" } }], "main");
const unbudgeted = await measure(async () => {
  for (let i = 0; i < N; i++) await call(unbudgetedGrant, { name: "bench", need }, {}, direct);
});
const budgeted = await measure(async () => {
  for (let i = 0; i < N; i++) await call(budgetedGrant, { name: "bench", need }, {}, direct);
});

console.log(`direct call:                 ${plain.toFixed(0)} ns`);
console.log(`direct call, awaited:        ${awaited.toFixed(0)} ns`);
console.log(`environment.get via gateway: ${gateway.toFixed(0)} ns (+${(gateway - awaited).toFixed(0)} ns over the awaited direct call)`);
console.log(`unbudgeted permitted call:   ${unbudgeted.toFixed(0)} ns`);
console.log(`budgeted permitted call:     ${budgeted.toFixed(0)} ns (+${(budgeted - awaited).toFixed(0)} ns over the awaited direct call; goal: under 1,000 ns more than the bare call)`);
