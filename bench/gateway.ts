// bench/gateway: what the gateway itself costs, per call. Permitted
// environment.get and time.now calls through the gateway, against the same
// work done directly and awaited (the gateway's callers await it); and a
// budgeted permitted call (a sliding window of a day) against an unbudgeted one.
//
// Caveats: in process, after a warm-up. The loops run interleaved, a round of
// each in turn, 7 rounds, and each figure is its loop's median: a slow moment
// of the machine then falls on every loop alike instead of on one of them,
// which is what made the figures of loops timed one after the other move by
// 30% between runs. The gateway's calls are async, so the awaited direct call
// is the fair baseline.

import { pathToFileURL } from "node:url";
import { configureLimits, S } from "../rtlib/limits.js";
import { call } from "../rtlib/gateway.js";
import { rootGrant } from "../rtlib/grants.js";
import * as environment from "../rtlib/lib/environment.js";
import * as time from "../rtlib/lib/time.js";
import { optional } from "../rtlib/prelude.js";

export interface GatewayFigures {
  /** Nanoseconds per call. */
  readonly direct: number;
  readonly awaited: number;
  readonly environmentGet: number;
  readonly timeNow: number;
  readonly timeNowDirect: number;
  readonly unbudgeted: number;
  readonly budgeted: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function measureGateway(
  calls = Number(process.env["BENCH_CALLS"] ?? 300_000),
  rounds = 7,
): Promise<GatewayFigures> {
  process.env["RENYI_BENCH_VARIABLE"] = "value";
  configureLimits({ fuel: 1e15 });
  S.maxHostCalls = Number.MAX_SAFE_INTEGER;
  const direct = () => optional(process.env["RENYI_BENCH_VARIABLE"]);
  const grant = rootGrant([{ path: ["environment"] }, { path: ["time"] }], "main");
  const need = { path: ["network", "http"], scope: "a.com" };
  const unbudgetedGrant = rootGrant([{ path: ["network", "http"], scope: "a.com" }], "main");
  const budgetedGrant = rootGrant(
    [{ path: ["network", "http"], scope: "a.com", budget: { count: 1e12, unit: "day" } }],
    "main",
  );
  const loops: Record<keyof GatewayFigures, () => Promise<void> | void> = {
    direct: () => {
      for (let i = 0; i < calls; i++) direct();
    },
    awaited: async () => {
      for (let i = 0; i < calls; i++) await direct();
    },
    environmentGet: async () => {
      for (let i = 0; i < calls; i++) await environment.get(grant, "RENYI_BENCH_VARIABLE");
    },
    timeNow: async () => {
      for (let i = 0; i < calls; i++) await time.now(grant);
    },
    timeNowDirect: async () => {
      for (let i = 0; i < calls; i++) await Date.now();
    },
    unbudgeted: async () => {
      for (let i = 0; i < calls; i++) await call(unbudgetedGrant, { name: "bench", need }, {}, direct);
    },
    budgeted: async () => {
      for (let i = 0; i < calls; i++) await call(budgetedGrant, { name: "bench", need }, {}, direct);
    },
  };
  const names = Object.keys(loops) as (keyof GatewayFigures)[];
  for (const name of names) await loops[name]();
  const times = new Map(names.map((name) => [name, [] as number[]]));
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      const start = process.hrtime.bigint();
      await loops[name]();
      times.get(name)!.push(Number(process.hrtime.bigint() - start) / calls);
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(times.get(name)!)])) as unknown as GatewayFigures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href && process.argv.includes("--json")) {
  // For bench/table.ts, which measures the gateway in a process of its own.
  process.stdout.write(`${JSON.stringify(await measureGateway())}\n`);
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const f = await measureGateway();
  console.log(`direct call:                 ${f.direct.toFixed(0)} ns`);
  console.log(`direct call, awaited:        ${f.awaited.toFixed(0)} ns`);
  console.log(
    `environment.get via gateway: ${f.environmentGet.toFixed(0)} ns ` +
      `(+${(f.environmentGet - f.awaited).toFixed(0)} ns over the awaited direct call; goal: at most +500)`,
  );
  console.log(
    `time.now via gateway:        ${f.timeNow.toFixed(0)} ns (+${(f.timeNow - f.timeNowDirect).toFixed(0)} ns ` +
      `over Date.now() awaited; goal: at most +500)`,
  );
  console.log(`unbudgeted permitted call:   ${f.unbudgeted.toFixed(0)} ns`);
  console.log(
    `budgeted permitted call:     ${f.budgeted.toFixed(0)} ns (+${(f.budgeted - f.awaited).toFixed(0)} ns over ` +
      `the awaited direct call; goal: under 1,000 ns more than the bare call)`,
  );
}
