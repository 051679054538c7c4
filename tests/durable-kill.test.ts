// Durable runs outlive their endpoint (spec/durable.md): a real restate-server,
// `renyi serve --restate` as a child process, and a stand-in on 127.0.0.1 that
// counts every request it is sent. The endpoint is killed with SIGKILL while
// many invocations are at random points of their calls, then started again:
// every call the journal held when it died is never sent again, every run ends
// once with its whole output, and a sleeping run wakes when its timer says, not
// after a second sleep.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { killHard, RestateServer, startEndpoint, type Endpoint } from "./restate-support.js";
import { freePort, seeded } from "./support.js";

const SEED = Number(process.env["RENYI_FUZZ_SEED"] ?? 20261206);
/** Rounds of kills; each kills the endpoint once while every invocation of the round is part way. */
const ROUNDS = Number(process.env["RENYI_FUZZ_CASES"] ?? 4);
/** Runs a round: 7 making 5 calls one after another, 3 fetching 10 pages at once; 65 requests in all. */
const RUNS = 10;

let restate: RestateServer;
let work: string;
let standIn: Server;
let standInPort: number;
/** How many times each path reached the stand-in. */
const received = new Map<string, number>();
/** Told of each request the stand-in is sent (the kills count them). */
let onRequest: () => void = () => {};
let random = seeded(SEED);

const SEQUENTIAL = `public function main(base: Text)
  purpose: Five calls, one after another.
  needs console, network.http("127.0.0.1")
  for each i in [1, 2, 3, 4, 5]
    let r be http.get("{base}/item/{i}") otherwise crash with "failed"
    console.print(r.body)
  end
end
`;

const PAGES = `public function main(base: Text)
  purpose: Ten pages at once.
  needs console, network.http("127.0.0.1")
  let bodies be from i in 1 to 10 concurrently at most 10 at a time select (http.get("{base}/page/{i}") otherwise crash with "failed").body
  console.print("{bodies}")
end
`;

/** A program that sleeps `words` (`three`) seconds, `seconds` of them, between two lines. */
const sleeper = (words: string, seconds: number) => `public function main()
  purpose: Sleep ${words} seconds between two lines.
  needs console, time
  console.print("before")
  time.sleep(time.seconds(${seconds}))
  console.print("after")
end
`;
const LONG_SLEEPER = sleeper("six", 6);
const SLEEPER = sleeper("three", 3);

before(async () => {
  work = mkdtempSync(join(tmpdir(), "renyi-durable-kill-"));
  mkdirSync(join(work, "cache"));
  writeFileSync(join(work, "sequential.ry"), SEQUENTIAL);
  writeFileSync(join(work, "pages.ry"), PAGES);
  writeFileSync(join(work, "sleeper.ry"), SLEEPER);
  writeFileSync(join(work, "long_sleeper.ry"), LONG_SLEEPER);
  standIn = createServer((req, res) => {
    const path = req.url ?? "";
    received.set(path, (received.get(path) ?? 0) + 1);
    onRequest();
    // Each answer takes 100 to 350 ms, so that the kill finds the invocations at different calls.
    setTimeout(() => res.end(path.slice(path.lastIndexOf("/") + 1)), 100 + Math.floor(random() * 250));
  });
  standInPort = await freePort();
  await new Promise<void>((resolve) => standIn.listen(standInPort, "127.0.0.1", resolve));
  restate = await RestateServer.start();
});

after(async () => {
  await restate?.stop();
  standIn?.close();
  rmSync(work, { recursive: true, force: true });
});

/** What every program here is allowed: the console, time, and HTTP to the stand-in. */
const CEILING = ["--allow", "console", "--allow", "time", "--allow-host", "127.0.0.1"];

/** `renyi serve --restate --port PORT [the ceiling] FILES…`, once it accepts connections. */
function serve(port: number, files: readonly string[], flags: readonly string[] = []): Promise<Endpoint> {
  return startEndpoint(port, [...CEILING, ...flags, ...files.map((f) => join(work, f))], {
    cwd: work,
    env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") },
  });
}

function kill(endpoint: Endpoint): Promise<void> {
  return killHard(endpoint.child);
}

/** The paths of the calls the invocation's journal holds (the `calls` batches its `renyi` runs journaled). */
async function journaledPaths(id: string): Promise<string[]> {
  const rows = await restate.query(
    `SELECT entry_json FROM sys_journal WHERE id = '${id}' AND entry_type = 'Notification: Run' ORDER BY index`,
  );
  const paths: string[] = [];
  for (const row of rows) {
    const entry = JSON.parse(String(row["entry_json"])) as {
      Notification?: { Completion?: { Run?: { result?: { Success?: number[] } } } };
    };
    const bytes = entry.Notification?.Completion?.Run?.result?.Success;
    if (bytes === undefined) continue;
    const value = JSON.parse(Buffer.from(bytes).toString("utf8")) as {
      calls?: { arguments?: { url?: string } }[];
    };
    for (const call of value.calls ?? []) {
      const url = call.arguments?.url;
      if (url !== undefined) paths.push(new URL(url).pathname);
    }
  }
  return paths;
}

interface Outcome {
  readonly outcome: string;
  readonly output: string;
}

async function outcomeOf(id: string): Promise<Outcome> {
  const answer = await restate.waitFor(id);
  assert.equal(answer.status, 200, `${id}: ${answer.body}`);
  return JSON.parse(answer.body) as Outcome;
}

test("killed at random calls of 40 runs, the endpoint started again: no journaled call is made twice, every run ends whole", async () => {
  const port = await freePort();
  let endpoint = await serve(port, ["sequential.ry", "pages.ry"]);
  const registered = await restate.register(`http://127.0.0.1:${port}`);
  assert.ok(registered.status < 300, registered.body);
  try {
    let killPoints = 0;
    const positions = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      random = seeded(SEED + round);
      const runs: { id: string; prefix: string; pages: boolean }[] = [];
      for (let k = 0; k < RUNS; k++) {
        const pages = k % 4 === 3 || k === RUNS - 1;
        const prefix = `/r${round}-k${k}`;
        const id = await restate.send(pages ? "pages" : "sequential", {
          base: `http://127.0.0.1:${standInPort}${prefix}`,
        });
        runs.push({ id, prefix, pages });
      }
      // The kill comes after a random number of the round's 65 requests: each run is at a call of its own.
      // Early in one round, late in another: the kills find the runs at calls of several places.
      const killAfter = [8, 20, 32, 44][round % 4]! + Math.floor(random() * 10);
      let sent = 0;
      await new Promise<void>((resolve) => {
        onRequest = () => void (++sent === killAfter && resolve());
      });
      onRequest = () => {};
      await kill(endpoint);
      await new Promise((r) => setTimeout(r, 200));
      const held = new Map<string, string[]>();
      for (const run of runs) held.set(run.id, await journaledPaths(run.id));
      endpoint = await serve(port, ["sequential.ry", "pages.ry"]);
      for (const run of runs) {
        const ended = await outcomeOf(run.id);
        assert.equal(ended.outcome, "finished", `${run.id}: ${JSON.stringify(ended)} ${endpoint.stderr}`);
        const expected = run.pages
          ? `[${Array.from({ length: 10 }, (_, i) => `"${i + 1}"`).join(", ")}]\n`
          : "1\n2\n3\n4\n5\n";
        assert.equal(ended.output, expected, run.id);
        const paths = run.pages
          ? Array.from({ length: 10 }, (_, i) => `${run.prefix}/page/${i + 1}`)
          : Array.from({ length: 5 }, (_, i) => `${run.prefix}/item/${i + 1}`);
        const journaled = new Set(held.get(run.id));
        let twice = 0;
        for (const path of paths) {
          const times = received.get(path) ?? 0;
          if (journaled.has(path)) assert.equal(times, 1, `${path} was journaled, and sent again`);
          else assert.ok(times === 1 || times === 2, `${path} reached the stand-in ${times} times`);
          if (times === 2) twice++;
        }
        // Only a call in flight when the endpoint died is sent again: one at most for a run that makes one at a time.
        if (!run.pages) assert.ok(twice <= 1, `${run.id}: ${twice} calls were sent twice`);
        // Killed at call N + 1, N the calls its journal held (0: it began again from its start).
        if (journaled.size < paths.length) {
          killPoints++;
          positions.add(`${run.pages ? "pages" : "sequential"} ${journaled.size + 1}`);
        }
      }
    }
    // The kills found runs before their last call was journaled, at calls of several places.
    assert.ok(killPoints >= Math.min(30, ROUNDS * 7), `only ${killPoints} runs were killed before their end`);
    assert.ok(positions.size >= 3, `the kills came at ${[...positions].join(", ")} only`);
    console.log(`durable runs: ${killPoints} killed, at ${[...positions].sort().join(", ")}`);
  } finally {
    await kill(endpoint);
  }
});

test("a run sleeping 3 seconds survives a restart of its endpoint during the sleep and ends after about 3 seconds", async () => {
  const port = await freePort();
  let endpoint = await serve(port, ["sleeper.ry"]);
  try {
    await restate.register(`http://127.0.0.1:${port}`);
    const started = Date.now();
    const id = await restate.send("sleeper", {});
    await new Promise((r) => setTimeout(r, 1000));
    await kill(endpoint);
    await new Promise((r) => setTimeout(r, 500));
    endpoint = await serve(port, ["sleeper.ry"]);
    const ended = await outcomeOf(id);
    const took = Date.now() - started;
    assert.equal(ended.outcome, "finished", JSON.stringify(ended));
    assert.equal(ended.output, "before\nafter\n");
    assert.ok(took >= 3000, `it ended after ${took} ms, before its timer`);
    assert.ok(took < 5500, `it ended after ${took} ms: the sleep began again`);
  } finally {
    await kill(endpoint);
  }
});

test("a shared budget of 5 per minute across 20 runs from two endpoints lets exactly 5 calls out; the rest fail with OverBudget", async () => {
  const budgeted = (name: string) => `public function main(base: Text)
  purpose: One call, or a line saying the budget refused it.
  needs console, network.http("127.0.0.1")
  let r be http.get("{base}/${name}") otherwise
    when HttpError.OverBudget(_) then return console.print("over budget")
    when _ then crash with "failed"
  end
  console.print("called {r.status}")
end
`;
  writeFileSync(join(work, "first.ry"), budgeted("first"));
  writeFileSync(join(work, "second.ry"), budgeted("second"));
  const flags = ["--at-most", 'network.http("127.0.0.1")=5/minute'];
  const ports = [await freePort(), await freePort()];
  const endpoints = [await serve(ports[0]!, ["first.ry"], flags), await serve(ports[1]!, ["second.ry"], flags)];
  try {
    for (const port of ports) await restate.register(`http://127.0.0.1:${port}`);
    const base = `http://127.0.0.1:${standInPort}/budget`;
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, i) => restate.send(i % 2 === 0 ? "first" : "second", { base })),
    );
    const outcomes = await Promise.all(ids.map(outcomeOf));
    const reached = (received.get("/budget/first") ?? 0) + (received.get("/budget/second") ?? 0);
    assert.equal(reached, 5, `${reached} calls reached the stand-in`);
    for (const o of outcomes) assert.equal(o.outcome, "finished", JSON.stringify(o));
    assert.equal(outcomes.filter((o) => o.output === "called 200\n").length, 5);
    assert.equal(outcomes.filter((o) => o.output === "over budget\n").length, 15);
  } finally {
    for (const e of endpoints) await kill(e);
  }
});

test("a run asleep for 6 seconds holds no process while it sleeps, and takes up where it slept when its timer fires", async () => {
  const port = await freePort();
  const endpoint = await serve(port, ["long_sleeper.ry"]);
  try {
    await restate.register(`http://127.0.0.1:${port}`);
    const started = Date.now();
    const id = await restate.send("long_sleeper", {});
    // Once its timer is journaled, the run's process is given up.
    await restate.untilSlept(id, 5000);
    await new Promise((r) => setTimeout(r, 500));
    const runs = spawnSync("ps", ["-o", "pid=", "--ppid", String(endpoint.child.pid)])
      .stdout.toString()
      .trim().length;
    assert.equal(runs, 0, "a process was still running while the run slept");
    const ended = await outcomeOf(id);
    const took = Date.now() - started;
    assert.equal(ended.outcome, "finished", JSON.stringify(ended));
    assert.equal(ended.output, "before\nafter\n");
    assert.ok(took >= 6000 && took < 9000, `it ended after ${took} ms`);
  } finally {
    await kill(endpoint);
  }
});
