// `renyi test` on tests that `replays "path"` (spec/testing.md, "Replays tests"):
// answered from their recording, checked against their grant and budgets,
// --strict and --refresh; a real child process, recordings written by hand or
// refreshed from a real local server.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { renyiIn } from "./support.js";
import { TEST_EXIT } from "../vocabulary/outcomes.js";
import { recordedOverBudget } from "../rtlib/recording/budget-check.js";
import type { GrantItem } from "../vocabulary/needs.js";
import type { RecordedCall } from "../vocabulary/recording.js";

const work = mkdtempSync(join(tmpdir(), "renyi-test-replays-"));
const cache = join(work, "cache");

type Ran = Awaited<ReturnType<typeof renyiIn>>;

function renyiTest(args: readonly string[], cwd: string): Promise<Ran> {
  return renyiIn(cwd, ["test", ...args], {}, cache);
}

function summary(ran: Ran): string {
  return (ran.stdout.trimEnd().split("\n").at(-1) ?? "").replace(/ \([\d.]+ m?s\)$/, "");
}

/** A folder of its own with `tests.ry` and the recordings given, by name. */
function folderWith(name: string, program: string, recordings: Record<string, object>): string {
  const folder = join(work, name);
  mkdirSync(join(folder, "fixtures"), { recursive: true });
  writeFileSync(join(folder, "tests.ry"), program);
  for (const [file, recording] of Object.entries(recordings))
    writeFileSync(join(folder, "fixtures", file), JSON.stringify(recording, null, 2));
  return folder;
}

/** A recording as `renyi record` writes one, of these calls. */
function recording(grant: readonly string[], calls: readonly Omit<RecordedCall, "sequence">[]): object {
  return {
    program: "tests",
    toolchain: "renyi 0.1.0",
    source: "tests.ry",
    code: "sha256:00",
    grant,
    outcome: "finished",
    calls: calls.map((c, i) => ({ sequence: i + 1, ...c })),
  };
}

/** A recorded `http.get` of `url` that answered `body` with status 200, made at `at` ms. */
function got(url: string, body: string, at?: number): Omit<RecordedCall, "sequence"> {
  return {
    capability: 'network.http("127.0.0.1")',
    primitive: "std.http.get",
    arguments: { url },
    outcome: { success: { status: 200, headers: { "content-type": "text/plain" }, body } },
    ...(at === undefined ? {} : { at_ms: at }),
  };
}

// Port 9 (discard) is closed on the machines the tests run on: a live call there fails.
const NOWHERE = "http://127.0.0.1:9";

test("a replays test is answered from its recording, found beside its file, and a check on the recorded answer can fail", async () => {
  const program = `test "the answer is read from the recording" needs network.http("127.0.0.1") replays "fixtures/one.json"
  let r be http.get("${NOWHERE}/one") otherwise fail
  check r.status is 200
  check r.body is "recorded"
end

test "a recorded answer the test does not expect fails its check" needs network.http("127.0.0.1") replays "fixtures/other.json"
  let r be http.get("${NOWHERE}/one") otherwise fail
  check r.body is "recorded"
end

test "a call the recording does not hold crashes the test" needs network.http("127.0.0.1") replays "fixtures/one.json"
  let r be http.get("${NOWHERE}/two") otherwise fail
end

test "a recording that cannot be read fails the test" needs network.http("127.0.0.1") replays "fixtures/missing.json"
  check 1 is 1
end
`;
  const folder = folderWith("answered", program, {
    "one.json": recording(['network.http("127.0.0.1")'], [got(`${NOWHERE}/one`, "recorded")]),
    "other.json": recording(['network.http("127.0.0.1")'], [got(`${NOWHERE}/one`, "something else")]),
  });
  // Run from another folder: the recordings are found beside the test's file, not the working folder.
  const ran = await renyiTest(["--json", join(folder, "tests.ry")], work);
  assert.equal(ran.status, TEST_EXIT.failed, ran.stderr);
  const report = JSON.parse(ran.stdout) as {
    tests: {
      name: string;
      status: string;
      code?: string;
      message?: string;
      recording?: string;
      check?: { left: string };
    }[];
  };
  assert.deepEqual(
    report.tests.map((t) => [t.status, t.code]),
    [
      ["passed", undefined],
      ["failed", "E-RT-CHECK"],
      ["crashed", "E-RT-REPLAY-MISMATCH"],
      ["failed", "E-RT-RECORDING"],
    ],
  );
  assert.equal(report.tests[0]!.recording, join(folder, "fixtures", "one.json"));
  assert.equal(report.tests[1]!.check?.left, "something else");
  assert.match(report.tests[2]!.message!, /call made: std\.http\.get \{"url":"http:\/\/127\.0\.0\.1:9\/two"\}/);
  assert.match(report.tests[3]!.message!, /I cannot read the recording .*missing\.json/);
});

test("a recording made under a wider grant than the test's needs is refused, as renyi run --replay refuses it", async () => {
  const program = `test "narrow needs" needs network.http("127.0.0.1") replays "fixtures/wide.json"
  let r be http.get("${NOWHERE}/one") otherwise fail
end
`;
  const folder = folderWith("grant", program, {
    "wide.json": recording(
      ['network.http("127.0.0.1")', 'network.http("example.com")'],
      [got(`${NOWHERE}/one`, "recorded")],
    ),
  });
  const ran = await renyiTest(["tests.ry"], folder);
  assert.equal(ran.status, TEST_EXIT.failed, ran.stderr);
  assert.match(
    ran.stdout,
    /crashed narrow needs .*\n {6}error\[E-RT-REPLAY-GRANT\]: the recording's grant has `network\.http\("example\.com"\)`, which the program's needs do not cover \(it needs network\.http\("127\.0\.0\.1"\)\)\n {8}--> tests\.ry:1:1\n/,
  );
});

test("a recording whose calls exceed a budget of the test's needs fails the test; one that keeps to it passes", async () => {
  const program = `test "three calls" needs network.http("127.0.0.1") at most 2 per minute replays "fixtures/three.json"
  let a be http.get("${NOWHERE}/1") otherwise fail
  let b be http.get("${NOWHERE}/2") otherwise fail
  let c be http.get("${NOWHERE}/3") otherwise fail
  check c.status is 200
end
`;
  const calls = (times: number[]) =>
    recording(
      ['network.http("127.0.0.1") at most 2 per minute'],
      times.map((t, i) => got(`${NOWHERE}/${i + 1}`, "ok", t)),
    );
  // The third call is made 59,999 ms after the first: three in one minute.
  const over = folderWith("budget-over", program, { "three.json": calls([0, 30_000, 59_999]) });
  const ran = await renyiTest(["tests.ry"], over);
  assert.equal(ran.status, TEST_EXIT.failed, ran.stdout + ran.stderr);
  assert.match(
    ran.stdout,
    /failed {2}three calls .*\n {6}error\[E-RT-REPLAY-BUDGET\]: the recording makes 3 calls of `network\.http\("127\.0\.0\.1"\)` within 59,999 ms \(calls 1 to 3\), more than the test's `network\.http\("127\.0\.0\.1"\) at most 2 per minute` allows\n {8}--> tests\.ry:1:1\n/,
  );
  // 60,000 ms after the first, the first has left the window, as the gateway counts it.
  const within = folderWith("budget-within", program, { "three.json": calls([0, 30_000, 60_000]) });
  const passed = await renyiTest(["tests.ry"], within);
  assert.equal(passed.status, TEST_EXIT.passed, passed.stdout + passed.stderr);
  assert.equal(summary(passed), "1 passed, 0 failed");
});

test("--strict fails a replays test that leaves recorded calls unused, and lists them", async () => {
  const program = `test "one of two" needs network.http("127.0.0.1") replays "fixtures/two.json"
  let r be http.get("${NOWHERE}/1") otherwise fail
end
`;
  const folder = folderWith("strict", program, {
    "two.json": recording(['network.http("127.0.0.1")'], [got(`${NOWHERE}/1`, "ok"), got(`${NOWHERE}/2`, "ok")]),
  });
  const loose = await renyiTest(["tests.ry"], folder);
  assert.equal(loose.status, TEST_EXIT.passed, loose.stdout + loose.stderr);
  const strict = await renyiTest(["--strict", "tests.ry"], folder);
  assert.equal(strict.status, TEST_EXIT.failed, strict.stdout + strict.stderr);
  assert.match(
    strict.stdout,
    /failed {2}one of two .*\n {6}error\[E-RT-REPLAY-UNUSED\]: the test did not use 1 recorded call of its recording\n {8}call 2: http\.get \{"url":"http:\/\/127\.0\.0\.1:9\/2"\}\n/,
  );
});

test("--refresh NAME records the test's body live again, atomically, keeps redacted names redacted, and is reported refreshed, not passed", async () => {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    seen.push({ url: request.url ?? "", headers: request.headers });
    response.setHeader("content-type", "text/plain");
    response.end("fresh");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const program = `test "the fresh answer" needs network.http("127.0.0.1") replays "fixtures/fresh.json"
  let r be http.get("${base}/now", headers: {"Authorization": "Bearer secret-token-1234"}) otherwise fail
  check r.body is "fresh"
end

test "another test" needs network.http("127.0.0.1") replays "fixtures/stale.json"
  let r be http.get("${NOWHERE}/1") otherwise fail
end
`;
  // The recording was made against another answer, with the header redacted.
  const stale = {
    ...got(`${base}/now`, "stale"),
    arguments: { url: `${base}/now`, headers: { Authorization: "<redacted>" } },
  };
  const folder = folderWith("refresh", program, {
    "fresh.json": recording(['network.http("127.0.0.1")'], [stale]),
    "stale.json": recording(['network.http("127.0.0.1")'], [got(`${NOWHERE}/1`, "ok")]),
  });
  try {
    const before = await renyiTest(["tests.ry"], folder);
    assert.equal(before.status, TEST_EXIT.failed, before.stdout + before.stderr);
    assert.equal(seen.length, 0);

    const refreshed = await renyiTest(["--refresh", "the fresh answer", "tests.ry"], folder);
    assert.equal(refreshed.status, TEST_EXIT.refreshed, refreshed.stdout + refreshed.stderr);
    assert.match(
      refreshed.stdout,
      /refreshed the fresh answer \(\d+ ms\)\n {6}recorded 1 call to .*fresh\.json\n {2}passed {2}another test/,
    );
    assert.equal(summary(refreshed), "1 passed, 1 refreshed, 0 failed");
    assert.equal(seen.length, 1);
    const written = readFileSync(join(folder, "fixtures", "fresh.json"), "utf8");
    assert.ok(!written.includes("secret-token-1234"), written);
    const calls = (JSON.parse(written) as { calls: RecordedCall[]; grant: string[]; source: string }).calls;
    assert.deepEqual(calls[0]!.arguments, { url: `${base}/now`, headers: { Authorization: "<redacted>" } });
    assert.equal(JSON.parse(written).source, "../tests.ry");
    assert.deepEqual(JSON.parse(written).grant, ['network.http("127.0.0.1")']);
    // Written whole: no temporary file is left beside it.
    assert.deepEqual(readdirSync(join(folder, "fixtures")).sort(), ["fresh.json", "stale.json"]);
  } catch (e) {
    server.close();
    throw e;
  }
  // Offline now: the refreshed recording answers the test.
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const after = await renyiTest(["tests.ry"], folder);
  assert.equal(after.status, TEST_EXIT.passed, after.stdout + after.stderr);
  assert.equal(seen.length, 1);

  // A live body that does not pass writes nothing: port 9 refuses the connection.
  const staleBefore = readFileSync(join(folder, "fixtures", "stale.json"), "utf8");
  const broken = await renyiTest(["--refresh", "another test", "tests.ry"], folder);
  assert.equal(broken.status, TEST_EXIT.failed, broken.stdout + broken.stderr);
  assert.match(
    broken.stdout,
    /failed {2}another test .*\n(.*\n)* {6}the recording was not written: the live run of the test did not pass\n/,
  );
  assert.equal(readFileSync(join(folder, "fixtures", "stale.json"), "utf8"), staleBefore);

  const unknown = await renyiTest(["--refresh", "no such test", "tests.ry"], folder);
  assert.equal(unknown.status, TEST_EXIT.refused);
  assert.match(unknown.stderr, /--refresh: no replays test is named "no such test"/);
  assert.ok(!existsSync(join(folder, "fixtures", "no such test")));
});

test("the recording's budget check agrees with counting every window", () => {
  // Brute force: for each call, the calls made less than the window before it, itself included.
  const WINDOW = 1_000;
  const bruteForce = (times: number[], count: number): boolean =>
    times.some((t) => times.filter((u) => u <= t && t - u < WINDOW).length > count);
  const item: GrantItem = { path: ["network", "http"], scope: "127.0.0.1", budget: { count: 0, unit: "second" } };
  let cases = 0;
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 5_000 }), { maxLength: 40 }),
      fc.integer({ min: 1, max: 6 }),
      (times, count) => {
        cases++;
        const calls = times.map((t, i): RecordedCall => ({ sequence: i + 1, ...got(`${NOWHERE}/${i}`, "", t) }));
        const over = recordedOverBudget(calls, [{ ...item, budget: { count, unit: "second" } }]);
        assert.equal(over !== undefined, bruteForce(times, count), `times ${JSON.stringify(times)}, at most ${count}`);
        if (over !== undefined) assert.ok(over.calls > count && over.span < WINDOW);
      },
    ),
    { numRuns: 500 },
  );
  console.log(`budget check against brute force: ${cases} cases`);
});
