// bench/server: a load test, side by side in one run. The same greeting
// server as a Renyi program (`renyi run bench/server/hello.ry`, with its
// per-request fuel, time and promise tracking on) and as plain node:http
// (bench/server/hello.mjs), each in its own process, each sent N requests,
// C at a time, from an undici pool in this process. Prints requests per
// second of each, their ratio, and the errors (anything but a 200 with the
// right body), which must be 0.
//
// Caveats: the machine has 2 cores, shared, and the client runs on them too,
// so the absolute figures are low and noisy; the ratio is what matters. Each
// server is warmed up, then the two are measured in turns, ROUNDS times, and
// the median of each is taken. Throughput on a loaded machine swings by 3x
// from round to round, so the bench also reads each server process's CPU time
// (user + system, from /proc, on Linux) over the same requests: CPU per
// request is the steadier figure of what a server costs. BENCH_RATE=N sends N
// requests a second to each instead, so that both serve the same load: a
// server run flat out batches more requests a turn of its loop, and its CPU
// per request falls with that.

import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "../tests/support.js";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Pool } from "undici";

const ROOT = new URL("../..", import.meta.url).pathname;
const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const N = Number(process.env["BENCH_REQUESTS"] ?? 40_000);
const C = Number(process.env["BENCH_CONCURRENCY"] ?? 50);
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 3);
/** Requests a second sent to each server (0: as fast as it answers). Below either server's most, CPU per request compares like with like. */
const RATE = Number(process.env["BENCH_RATE"] ?? 0);
const env = { ...process.env, RENYI_CACHE_DIR: mkdtempSync(join(tmpdir(), "renyi-bench-server-")) };

async function startServer(args: string[]): Promise<{ child: ChildProcess; port: number; stderr: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...args, String(port)], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("listening") && resolve());
    child.on("exit", () => reject(new Error(`the server stopped: ${stderr}`)));
  });
  // The program prints before it listens: wait until a request is answered.
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 1 });
  for (;;) {
    try {
      await (await pool.request({ path: "/", method: "GET" })).body.text();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  await pool.close();
  return { child, port, stderr: () => stderr };
}

/** The process's CPU time so far, in seconds (user + system), or NaN where /proc is not there. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** `count` requests, `C` at a time: requests per second, the server's CPU microseconds per request, errors. */
async function load(
  port: number,
  count: number,
  pid = 0,
): Promise<{ perSecond: number; cpuPerRequest: number; errors: number }> {
  const cpuBefore = cpuSeconds(pid);
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: C, pipelining: 1 });
  let sent = 0;
  let errors = 0;
  const started = performance.now();
  const worker = async () => {
    while (sent < count) {
      const i = sent++;
      // At a fixed rate, request i leaves at its own time: both servers then do the same work a second.
      if (RATE > 0) {
        const wait = started + (i * 1000) / RATE - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      try {
        const { statusCode, body } = await pool.request({ path: `/greet?name=n${i}`, method: "GET" });
        const text = await body.text();
        if (statusCode !== 200 || text !== `hello n${i}`) errors++;
      } catch {
        errors++;
      }
    }
  };
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: C }, worker));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpuPerRequest = ((cpuSeconds(pid) - cpuBefore) / count) * 1e6;
  await pool.close();
  return { perSecond: count / seconds, cpuPerRequest, errors };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const renyi = await startServer([RENYI, "run", join(ROOT, "bench", "server", "hello.ry"), "--port"]);
const plain = await startServer([join(ROOT, "bench", "server", "hello.mjs")]);
await load(renyi.port, Math.min(N, 5_000));
await load(plain.port, Math.min(N, 5_000));
const rates = { renyi: [] as number[], plain: [] as number[] };
const cpu = { renyi: [] as number[], plain: [] as number[] };
let errors = { renyi: 0, plain: 0 };
for (let round = 0; round < ROUNDS; round++) {
  const r = await load(renyi.port, N, renyi.child.pid);
  const p = await load(plain.port, N, plain.child.pid);
  rates.renyi.push(r.perSecond);
  rates.plain.push(p.perSecond);
  cpu.renyi.push(r.cpuPerRequest);
  cpu.plain.push(p.cpuPerRequest);
  errors = { renyi: errors.renyi + r.errors, plain: errors.plain + p.errors };
}
renyi.child.kill("SIGINT");
plain.child.kill("SIGINT");
const exited = await new Promise<number | null>((resolve) => renyi.child.on("exit", resolve));

const fmt = (n: number) => Math.round(n).toLocaleString("en");
if (process.argv.includes("--json"))
  // For bench/table.ts: the medians, on one line.
  console.log(
    JSON.stringify({
      renyiPerSecond: median(rates.renyi),
      plainPerSecond: median(rates.plain),
      renyiCpuMicros: median(cpu.renyi),
      plainCpuMicros: median(cpu.plain),
      errors: errors.renyi + errors.plain,
    }),
  );
else {
  console.log(`${fmt(N)} requests, ${C} at a time, median of ${ROUNDS} rounds`);
  console.log(
    `renyi server:      ${fmt(median(rates.renyi))} requests/s (${rates.renyi.map(fmt).join(" / ")}), ` +
      `${errors.renyi} errors`,
  );
  console.log(
    `node:http server:  ${fmt(median(rates.plain))} requests/s (${rates.plain.map(fmt).join(" / ")}), ` +
      `${errors.plain} errors`,
  );
  console.log(`ratio renyi / node:http: ${(median(rates.renyi) / median(rates.plain)).toFixed(2)} (throughput)`);
  console.log(
    `server CPU per request: renyi ${median(cpu.renyi).toFixed(0)} µs, node:http ${median(cpu.plain).toFixed(0)} ` +
      `µs, ratio ${(median(cpu.renyi) / median(cpu.plain)).toFixed(2)}`,
  );
  console.log(`renyi run ended with exit code ${exited}; its report: ${renyi.stderr().trim().split("\n").join(" | ")}`);
}
if (errors.renyi + errors.plain > 0) process.exitCode = 1;
