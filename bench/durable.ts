// bench/durable: what a durable run costs (spec/durable.md), side by side in
// one run. The same warm program run by `renyi run` (a process of its own, as
// a user runs it) and invoked through Restate (`POST /SERVICE/run` at the
// ingress of a real restate-server, answered by a `renyi serve --restate`
// started once), in turns, ROUNDS times, medians of each: hello, and a
// program making 5 HTTP calls to a stand-in on 127.0.0.1. Then runs per second
// of hello through one endpoint, C invocations at a time for SECONDS, with the
// CPU time each process took (from /proc, Linux): where the time goes.
//
// Caveats: the machine has 2 cores, shared with the Restate server, the
// endpoint, each run's process and this client; absolute figures are low and
// noisy, the ratios are what matter. The targets are 2x for hello and 1.3x for
// the 5-call program.

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RestateServer, startEndpoint } from "../tests/restate-support.js";
import { freePort } from "../tests/support.js";
import { median } from "./timing.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 15);
const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 10);
const C = Number(process.env["BENCH_CONCURRENCY"] ?? 8);

const work = mkdtempSync(join(tmpdir(), "renyi-bench-durable-"));
const env = { ...process.env, RENYI_CACHE_DIR: join(work, "cache") };

const HELLO = `public function main(name: Text = "world")
  purpose: Greet someone by name.
  needs console
  console.print("Hello, {name}!")
end
`;

const FIVE = `public function main(base: Text)
  purpose: Five calls, one after another.
  needs console, network.http("127.0.0.1")
  for each i in [1, 2, 3, 4, 5]
    let r be http.get("{base}/item/{i}") otherwise crash with "failed"
    console.print(r.body)
  end
end
`;

/**
 * Ticks of CPU (user + system) a process has taken, from /proc, its own and its children's that have ended (each run's
 * process, for the endpoint); zeros where there is none.
 */
function cpuTicks(pid: number | undefined): { own: number; children: number } {
  if (pid === undefined) return { own: 0, children: 0 };
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return { own: Number(fields[11]) + Number(fields[12]), children: Number(fields[13]) + Number(fields[14]) };
  } catch {
    return { own: 0, children: 0 };
  }
}

async function serve(port: number, files: string[]): Promise<ChildProcess> {
  const ceiling = ["--allow", "console", "--allow-host", "127.0.0.1"];
  return (await startEndpoint(port, [...ceiling, ...files], { env })).child;
}

/** `renyi run FILE ARGS` to its end, in a process of its own (not spawnSync: the stand-in answers from this thread). */
async function runOnce(file: string, args: string[]): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, [RENYI, "run", file, ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (status !== 0) throw new Error(`renyi run ${file}: ${stderr}`);
  return performance.now() - start;
}

async function invokeOnce(restate: RestateServer, service: string, body: unknown): Promise<number> {
  const start = performance.now();
  const answer = await restate.invoke(`${service}/run`, body);
  if (answer.status !== 200 || !answer.body.includes('"finished"'))
    throw new Error(`${service}: ${answer.status} ${answer.body}`);
  return performance.now() - start;
}

async function main(): Promise<void> {
  const hello = join(work, "hello.ry");
  const five = join(work, "five.ry");
  writeFileSync(hello, HELLO);
  writeFileSync(five, FIVE);
  const standIn = createServer((req, res) => res.end((req.url ?? "").slice(-1)));
  const standInPort = await freePort();
  await new Promise<void>((resolve) => standIn.listen(standInPort, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${standInPort}`;
  const restate = await RestateServer.start();
  const port = await freePort();
  const endpoint = await serve(port, [hello, five]);
  try {
    await restate.register(`http://127.0.0.1:${port}`);
    // Warm both ways: the compile cache, the endpoint's first runs, the server's partitions.
    for (let i = 0; i < 3; i++) {
      await runOnce(hello, []);
      await runOnce(five, ["--base", base]);
      await invokeOnce(restate, "hello", {});
      await invokeOnce(restate, "five", { base });
    }
    const times = {
      runHello: [] as number[],
      durableHello: [] as number[],
      runFive: [] as number[],
      durableFive: [] as number[],
    };
    for (let round = 0; round < ROUNDS; round++) {
      times.runHello.push(await runOnce(hello, []));
      times.durableHello.push(await invokeOnce(restate, "hello", {}));
      times.runFive.push(await runOnce(five, ["--base", base]));
      times.durableFive.push(await invokeOnce(restate, "five", { base }));
    }
    const row = (what: string, run: number[], durable: number[], target: number) => {
      const ratio = median(durable) / median(run);
      console.log(
        `${what}: renyi run ${median(run).toFixed(0)} ms, through Restate ${median(durable).toFixed(0)} ms, ` +
          `${ratio.toFixed(2)}x (target ${target}x${ratio <= target ? ", met" : ", NOT met"})`,
      );
    };
    row("hello", times.runHello, times.durableHello, 2);
    row("5 calls", times.runFive, times.durableFive, 1.3);

    // Runs per second of hello, C at a time, and the CPU each process took meanwhile.
    const ticks = () => ({ endpoint: cpuTicks(endpoint.pid), server: cpuTicks(restate.pid) });
    const before = ticks();
    const until = performance.now() + SECONDS * 1000;
    let done = 0;
    await Promise.all(
      Array.from({ length: C }, async () => {
        while (performance.now() < until) {
          await invokeOnce(restate, "hello", {});
          done++;
        }
      }),
    );
    const afterTicks = ticks();
    // Ticks are hundredths of a second on Linux: ms per run = ticks * 10 / runs.
    const perRun = (a: number, b: number) => `${(((a - b) * 10) / done).toFixed(1)} ms`;
    console.log(
      `hello, ${C} at a time for ${SECONDS} s: ${(done / SECONDS).toFixed(1)} runs/s; CPU per run: the endpoint ` +
        `${perRun(afterTicks.endpoint.own, before.endpoint.own)}, each run's own process ` +
        `${perRun(afterTicks.endpoint.children, before.endpoint.children)}, restate-server ` +
        `${perRun(afterTicks.server.own, before.server.own)}`,
    );
  } finally {
    endpoint.kill("SIGKILL");
    standIn.close();
    await restate.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
