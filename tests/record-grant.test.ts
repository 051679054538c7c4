// The least grant (spec/recording.md, "The least grant"): `renyi grant REC
// [FILE.ry]` on a recording made against a local server, on hand-written
// recordings with bursts of calls for the budgets, and on hostile ones; the
// sliding window against a count by brute force.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import fc from "fast-check";
import { leastGrant, mostInWindow, needsLine } from "../cli/recordings/least-grant.js";
import type { RecordedCall, Recording } from "../vocabulary/recording.js";
import { renyi, startServer } from "./record-support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-grant-"));
let port: string;
let close: () => Promise<void>;

const BODY = (base: string) => `  let key be optional.or_else(environment.get("API_KEY"), "none")
  let ids be from i in 1 to 4 concurrently at most 4 at a time select (http.get("${base}/item/{i}") otherwise crash with "no").body
  let a be http.get("${base}/same") otherwise crash with "no"
  console.print("{ids} {a.body} {key}")
end
`;

function program(base: string, needs: string): string {
  return `public function main()\n  purpose: Talk to the test server.\n  needs ${needs}\n${BODY(base)}`;
}

before(async () => {
  const server = await startServer();
  port = new URL(server.base).port;
  writeFileSync(
    join(work, "glue.ry"),
    program(
      server.base,
      `console, network.http("127.0.0.1") at most 60 per minute, environment, filesystem.read("data")`,
    ),
  );
  close = server.close;
  const ran = await renyi(work, ["record", "glue.ry"]);
  assert.equal(ran.status, 0, ran.stderr);
  // The same program under the least grant, and under one narrower still.
  const least = `console, environment("API_KEY"), network.http("127.0.0.1:${port}") at most 5 per minute`;
  writeFileSync(join(work, "least.ry"), program(server.base, least));
  writeFileSync(
    join(work, "narrower.ry"),
    program(server.base, `console, environment("OTHER"), network.http("127.0.0.1:${port}") at most 5 per minute`),
  );
});

after(() => close());

test("renyi grant prints the narrowest needs line of a recorded run, and where the grant it ran under is wider", async () => {
  const ran = await renyi(work, ["grant", "glue.recording.json"]);
  assert.equal(ran.status, 0, ran.stderr);
  const lines = ran.stdout.split("\n");
  // Five HTTP calls to one host and port (at most 5 in any minute), one variable, the console.
  assert.equal(
    lines[0],
    `needs console, environment("API_KEY"), network.http("127.0.0.1:${port}") at most 5 per minute`,
  );
  assert.match(
    ran.stdout,
    /7 calls compared with the recording's grant: console, network\.http\("127\.0\.0\.1"\) at most 60 per minute, environment, filesystem\.read\("data"\)/,
  );
  assert.match(
    ran.stdout,
    new RegExp(
      `network\\.http\\("127\\.0\\.0\\.1"\\) at most 60 per minute: the calls used only ` +
        `network\\.http\\("127\\.0\\.0\\.1:${port}"\\)`,
    ),
  );
  assert.match(ran.stdout, /at most 60 per minute: it allows 60 per minute; the calls needed at most 5 per minute/);
  assert.match(ran.stdout, /  environment: the calls used only environment\("API_KEY"\)/);
  assert.match(ran.stdout, /  filesystem\.read\("data"\): no call used it/);
  assert.doesNotMatch(ran.stdout, /  console:/);
});

test("the least grant is enough: the program under it runs live again within its budget, and its recording replays; a narrower one is refused", async () => {
  const live = await renyi(work, ["record", "--to", "least.json", "least.ry"]);
  assert.equal(live.status, 0, live.stderr);
  const replayed = await renyi(work, ["run", "--replay", "least.json", "least.ry"]);
  assert.equal(replayed.status, 0, replayed.stderr);
  // The recording made under the wider grant: its calls, under the least grant's header, replay with least.ry.
  const wide = JSON.parse(readFileSync(join(work, "glue.recording.json"), "utf8")) as Recording;
  const leastItems = (await renyi(work, ["grant", "glue.recording.json", "--json"])).stdout;
  wide.grant = (JSON.parse(leastItems) as { items: { item: string }[] }).items.map((i) => i.item);
  writeFileSync(join(work, "narrowed.json"), JSON.stringify(wide));
  const narrowed = await renyi(work, ["run", "--replay", "narrowed.json", "least.ry"]);
  assert.equal(narrowed.status, 0, narrowed.stderr);
  const refused = await renyi(work, ["run", "--replay", "narrowed.json", "narrower.ry"]);
  assert.equal(refused.status, 3);
  assert.match(refused.stderr, /E-RT-REPLAY-GRANT/);
  // Against the least program's own needs, nothing is wider.
  const against = await renyi(work, ["grant", "glue.recording.json", "least.ry"]);
  assert.equal(against.status, 0, against.stderr);
  assert.match(against.stderr, /warning: least\.ry is not the recorded program/);
  assert.match(against.stdout, /main's needs are no wider than the recording used/);
});

test("renyi grant --json, and against a program whose needs do not cover the recording (exit 1)", async () => {
  const ran = await renyi(work, ["grant", "glue.recording.json", "narrower.ry", "--json"]);
  assert.equal(ran.status, 1, ran.stderr);
  const report = JSON.parse(ran.stdout) as {
    needs: string;
    items: { item: string; calls: number }[];
    wider: { item: string; kind: string }[];
    uncovered: { capability: string }[];
  };
  assert.equal(
    report.needs,
    `needs console, environment("API_KEY"), network.http("127.0.0.1:${port}") at most 5 per minute`,
  );
  assert.deepEqual(
    report.items.map((i) => i.calls),
    [1, 1, 5],
  );
  assert.deepEqual(
    report.uncovered.map((u) => u.capability),
    ['environment("API_KEY")'],
  );
  assert.deepEqual(report.wider, [{ item: 'environment("OTHER")', kind: "unused", text: "no call used it" }]);
});

/** What each primitive of these recordings answers: an answer a live call could give (spec/recording.md). */
const ANSWER: Record<string, RecordedCall["outcome"]> = {
  "std.http.get": { success: { status: 200, headers: {}, body: "" } },
  "std.filesystem.read_text": { success: "" },
  "std.filesystem.list": { success: [] },
};

function call(
  sequence: number,
  capability: string,
  atMs: number | undefined,
  primitive = "std.http.get",
): RecordedCall {
  return {
    sequence,
    capability,
    primitive,
    arguments: { url: `https://x/${sequence}` },
    outcome: ANSWER[primitive]!,
    duration_ms: 1,
    ...(atMs === undefined ? {} : { at_ms: atMs }),
  };
}

function handWritten(grant: string[], calls: RecordedCall[]): string {
  const recording: Recording = {
    program: "burst",
    toolchain: "renyi 0.1.0",
    source: "burst.ry",
    code: `sha256:${"0".repeat(64)}`,
    grant,
    outcome: "finished",
    calls,
  };
  return JSON.stringify(recording, null, 2);
}

test("a hand-written recording with bursts: each budget is the most calls in one window of its unit", async () => {
  // Per host: a.example has a burst of 4 within one second (at 1,000 to 1,900 ms) and 7 calls in its busiest
  // minute; b.example 2 calls 1,000 ms apart, which fall in one closed window of a second.
  const times = [0, 1000, 1300, 1600, 1900, 3500, 59_000, 70_000, 200_000];
  const calls = times.map((t, i) => call(i + 1, 'network.http("a.example")', t));
  calls.push(call(10, 'network.http("b.example")', 5000), call(11, 'network.http("b.example")', 6000));
  calls.push(
    call(12, 'filesystem.read("data/in/a.txt")', 10, "std.filesystem.read_text"),
    call(13, 'filesystem.read("data/in")', 20, "std.filesystem.list"),
    call(14, 'filesystem.read("data/in/b/c.txt")', 30, "std.filesystem.read_text"),
  );
  writeFileSync(
    join(work, "burst.json"),
    handWritten(
      [
        'network.http("*.example") at most 100 per second',
        'filesystem.read("data") at most 10 per run only to console',
        "network.socket(8080)",
      ],
      calls,
    ),
  );
  const ran = await renyi(work, ["grant", "burst.json"]);
  assert.equal(ran.status, 0, ran.stderr);
  const first = ran.stdout.split("\n")[0];
  // The folder read as a whole covers the files in it; its guard is kept.
  assert.equal(
    first,
    'needs network.http("a.example") at most 4 per second, network.http("b.example") at most 2 per second, ' +
      'filesystem.read("data/in") at most 3 per run only to console',
  );
  assert.match(
    ran.stdout,
    /network\.http\("\*\.example"\) at most 100 per second: the calls used only network\.http\("a\.example"\), network\.http\("b\.example"\)/,
  );
  assert.match(ran.stdout, /it allows 100 per second; the calls needed at most 4 per second/);
  assert.match(ran.stdout, /network\.socket\(8080\): no call used it/);
  // Per minute, the same calls: the busiest minute holds 7 of a.example's (0 to 59,000 ms).
  const perMinute = leastGrant(calls.slice(0, 9), [
    { path: ["network", "http"], budget: { count: 60, unit: "minute" } },
  ]);
  assert.equal(needsLine(perMinute), 'needs network.http("a.example") at most 7 per minute');
  // A call without at_ms cannot be placed in a window: the budget is all the calls.
  const untimed = leastGrant(
    [call(1, 'network.http("a.example")', 0), call(2, 'network.http("a.example")', undefined)],
    [{ path: ["network"], budget: { count: 60, unit: "second" } }],
  );
  assert.equal(needsLine(untimed), 'needs network.http("a.example") at most 2 per second');
});

test("the sliding window agrees with a count by brute force on random call times", () => {
  let cases = 0;
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 60 }),
      fc.integer({ min: 0, max: 2000 }),
      (times, windowMs) => {
        cases++;
        let brute = 0;
        for (const t of times) brute = Math.max(brute, times.filter((u) => u >= t - windowMs && u <= t).length);
        assert.equal(mostInWindow(times, windowMs), brute);
      },
    ),
    { numRuns: 500 },
  );
  console.log(`sliding window against brute force: ${cases} cases`);
});

test("a hostile recording is refused with E-RT-RECORDING and no stack: a call outside its own grant, a bad capability, not JSON", async () => {
  writeFileSync(join(work, "outside.json"), handWritten(["console"], [call(1, 'network.http("evil.example")', 0)]));
  writeFileSync(join(work, "badcap.json"), handWritten(["console"], [call(1, "network.http(evil)", 0)]));
  writeFileSync(join(work, "notjson.json"), readFileSync(join(work, "burst.json"), "utf8").slice(0, 200));
  for (const [file, why] of [
    ["outside.json", /call 1 uses `network\.http\("evil\.example"\)`, which the recording's own grant does not cover/],
    ["badcap.json", /calls\[0\]\.capability/],
    ["notjson.json", /is not valid JSON/],
  ] as const) {
    const ran = await renyi(work, ["grant", file]);
    assert.equal(ran.status, 3, `${file}: ${ran.stderr}`);
    assert.match(ran.stderr, /^error\[E-RT-RECORDING\]/);
    assert.match(ran.stderr, why);
    assert.doesNotMatch(ran.stderr, /    at /);
    assert.equal(ran.stdout, "");
  }
  const usage = await renyi(work, ["grant", "burst.json", "--wide"]);
  assert.equal(usage.status, 3);
  assert.match(usage.stderr, /has no option --wide/);
});
