// A replays test that names the part of its recording that is its own
// (spec/testing.md, "Part of a recording"): `calls N to M` makes those calls the
// whole of what it replays, `unused CAP, ...` lets the calls of those
// capabilities stay unused under --strict. A real child process, recordings
// written by hand; and the examples' tests pass under --strict.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renyiIn } from "./support.js";
import { ROOT } from "./golden.js";
import { TEST_EXIT } from "../vocabulary/outcomes.js";
import type { RecordedCall } from "../vocabulary/recording.js";

const work = mkdtempSync(join(tmpdir(), "renyi-test-replays-part-"));
const cache = join(work, "cache");

type Ran = Awaited<ReturnType<typeof renyiIn>>;

function renyiTest(args: readonly string[], cwd: string): Promise<Ran> {
  return renyiIn(cwd, ["test", ...args], {}, cache);
}

/** What a run printed, for an assertion's message. */
const shown = (ran: Ran) => ran.stdout + ran.stderr;

/** A folder of its own with `tests.ry` and `fixtures/run.json`. */
function folderWith(name: string, program: string, recording: object): string {
  const folder = join(work, name);
  mkdirSync(join(folder, "fixtures"), { recursive: true });
  writeFileSync(join(folder, "tests.ry"), program);
  writeFileSync(join(folder, "fixtures", "run.json"), JSON.stringify(recording, null, 2));
  return folder;
}

const GRANT = ["console", 'environment("A")', 'environment("B")', 'network.http("127.0.0.1")'];
const NEEDS = 'console, environment("A"), environment("B"), network.http("127.0.0.1")';

// Port 9 (discard) is closed on the machines the tests run on: a live call there would fail.
const NOWHERE = "http://127.0.0.1:9";

/** A recorded run of a main that read A and B, fetched twice and printed twice. */
const RUN = {
  program: "tests",
  toolchain: "renyi 0.1.0",
  source: "tests.ry",
  code: "sha256:00",
  grant: GRANT,
  outcome: "finished",
  calls: (
    [
      {
        capability: 'environment("A")',
        primitive: "std.environment.get",
        arguments: { name: "A" },
        outcome: { success: "a" },
      },
      {
        capability: 'environment("B")',
        primitive: "std.environment.get",
        arguments: { name: "B" },
        outcome: { success: "b" },
      },
      got("/1"),
      got("/2"),
      printed("one"),
      printed("two"),
    ] as Omit<RecordedCall, "sequence">[]
  ).map((c, i) => ({ sequence: i + 1, ...c })),
};

function got(path: string): Omit<RecordedCall, "sequence"> {
  return {
    capability: 'network.http("127.0.0.1")',
    primitive: "std.http.get",
    arguments: { url: `${NOWHERE}${path}` },
    outcome: { success: { status: 200, headers: { "content-type": "text/plain" }, body: path } },
  };
}

function printed(text: string): Omit<RecordedCall, "sequence"> {
  return { capability: "console", primitive: "std.console.print", arguments: { text }, outcome: { success: null } };
}

/** A test that reads A and fetches /1 and /2, leaving B and both prints unused. */
function fetching(name: string, header: string): string {
  return `test "${name}" needs ${NEEDS} replays "fixtures/run.json"${header}
  let a be environment.get("A").or_else("")
  check a is "a"
  let one be http.get("${NOWHERE}/1") otherwise fail
  let two be http.get("${NOWHERE}/2") otherwise fail
  check one.body + two.body is "/1/2"
end
`;
}

test("--strict fails only on the entries a test's `unused` does not excuse, matched as a grant covers a call", async () => {
  const program = [
    fetching("nothing excused", ""),
    fetching("console excused", " unused console"),
    fetching("console and every variable excused", " unused console, environment"),
    fetching("console and the variable B excused", ' unused console,\n    environment("B")'),
    fetching("console and the variable A excused", ' unused console, environment("A")'),
  ].join("\n");
  const folder = folderWith("unused", program, RUN);
  const loose = await renyiTest(["tests.ry"], folder);
  assert.equal(loose.status, TEST_EXIT.passed, shown(loose));
  const strict = await renyiTest(["--strict", "--json", "tests.ry"], folder);
  assert.equal(strict.status, TEST_EXIT.failed, shown(strict));
  const report = JSON.parse(strict.stdout) as {
    tests: { name: string; status: string; code?: string; message?: string; site?: string; note?: string }[];
  };
  const by = new Map(report.tests.map((t) => [t.name, t]));
  const nothing = by.get("nothing excused")!;
  assert.equal(nothing.code, "E-RT-REPLAY-UNUSED");
  assert.match(nothing.message!, /did not use 3 recorded calls/);
  assert.match(nothing.message!, /call 2: environment\.get \{"name":"B"\}\n {2}call 5: console\.print .*\n {2}call 6:/);
  assert.equal(nothing.site, "tests.ry:1:1", "a strict failure points at its test");
  assert.equal(
    nothing.note,
    "hint: If the test leaves these calls unused on purpose, say so after its recording's path: `unused environment, console`, or name the part of the recording that is the test's with `calls N to M`.",
  );
  const consoleOnly = by.get("console excused")!;
  assert.equal(consoleOnly.status, "failed");
  assert.match(
    consoleOnly.message!,
    /did not use 1 recorded call of its recording\n {2}call 2: environment\.get \{"name":"B"\}$/,
  );
  assert.equal(by.get("console and every variable excused")!.status, "passed");
  assert.equal(by.get("console and the variable B excused")!.status, "passed");
  // A's read was used; B's is not excused by a scope that names A.
  const wrongScope = by.get("console and the variable A excused")!;
  assert.equal(wrongScope.status, "failed");
  assert.match(wrongScope.message!, /did not use 1 recorded call.*\n {2}call 2: environment\.get \{"name":"B"\}$/);
});

test("`calls N to M` makes those calls the whole of the test's recording: a call outside it is not answered", async () => {
  const program = `test "the fetches are the test's" needs ${NEEDS} replays "fixtures/run.json" calls 3 to 4
  let one be http.get("${NOWHERE}/1") otherwise fail
  let two be http.get("${NOWHERE}/2") otherwise fail
  check one.body + two.body is "/1/2"
end

test "a read outside the part is no recorded call of the test" needs ${NEEDS} replays "fixtures/run.json" calls 3 to 4
  let a be environment.get("A").or_else("")
  check a is "a"
end

test "one fetch of two, under --strict" needs ${NEEDS} replays "fixtures/run.json" calls 3 to 4
  let one be http.get("${NOWHERE}/1") otherwise fail
  check one.body is "/1"
end
`;
  const folder = folderWith("calls", program, RUN);
  const strict = await renyiTest(["--strict", "--json", "tests.ry"], folder);
  const report = JSON.parse(strict.stdout) as {
    tests: { name: string; status: string; code?: string; message?: string }[];
  };
  const by = new Map(report.tests.map((t) => [t.name, t]));
  assert.equal(by.get("the fetches are the test's")!.status, "passed", shown(strict));
  const outside = by.get("a read outside the part is no recorded call of the test")!;
  assert.equal(outside.status, "crashed", shown(strict));
  assert.equal(outside.code, "E-RT-REPLAY-MISMATCH");
  const half = by.get("one fetch of two, under --strict")!;
  assert.equal(half.code, "E-RT-REPLAY-UNUSED");
  assert.match(half.message!, /did not use 1 recorded call of its recording\n {2}call 4: http\.get/);
  assert.equal(strict.status, TEST_EXIT.failed);
});

test("a part the recording does not hold fails its test with E-RT-RECORDING, saying what it holds", async () => {
  const program = `test "past the end" needs ${NEEDS} replays "fixtures/run.json" calls 5 to 9
  check true
end
`;
  const folder = folderWith("calls-outside", program, RUN);
  const ran = await renyiTest(["tests.ry"], folder);
  assert.equal(ran.status, TEST_EXIT.failed, shown(ran));
  assert.match(
    ran.stdout,
    /failed {2}past the end .*\n {6}error\[E-RT-RECORDING\]: .*run\.json does not hold the calls the test names: the test replays calls 5 to 9, and the recording holds no call 9: its calls are numbered 1 to 6\n {8}--> tests\.ry:1:1\n/,
  );
});

test("a range that runs backwards or from 0, and an unknown capability in `unused`, refuse the file before anything runs", async () => {
  const program = `test "backwards" needs ${NEEDS} replays "fixtures/run.json" calls 4 to 3
  check true
end

test "from zero" needs ${NEEDS} replays "fixtures/run.json" calls 0 to 3
  check true
end

test "misspelt" needs ${NEEDS} replays "fixtures/run.json" unused consol
  check true
end
`;
  const folder = folderWith("refused", program, RUN);
  const ran = await renyiTest(["tests.ry"], folder);
  assert.equal(ran.status, TEST_EXIT.refused, shown(ran));
  const all = shown(ran);
  assert.match(all, /error\[E-CAP-REPLAYS-CALLS\]: `calls 4 to 3` runs backwards/);
  assert.match(all, /error\[E-CAP-REPLAYS-CALLS\]: `calls 0 to 3` names call 0/);
  assert.match(all, /error\[E-CAP-UNKNOWN\]: `consol` is not a capability[\s\S]*Did you mean `console`\?/);
});

test("--refresh of a test with `calls` reads the whole recording, writes the test's own calls and says to check the range", async () => {
  // A part the recording does not hold: a refresh still reads it whole, so that the names it redacted stay redacted.
  const redacted = {
    ...RUN,
    redacted: ["b"],
    calls: RUN.calls.map((c) => (c.sequence === 2 ? { ...c, outcome: { success: "<redacted>" } } : c)),
  };
  const program = `test "reads B" needs ${NEEDS} replays "fixtures/run.json" calls 7 to 9
  let b be environment.get("B").or_else("")
  check b is "secret"
end
`;
  const folder = folderWith("refresh", program, redacted);
  const ran = await renyiIn(folder, ["test", "--refresh", "reads B", "tests.ry"], { B: "secret" }, cache);
  assert.equal(ran.status, TEST_EXIT.refreshed, shown(ran));
  assert.match(
    ran.stdout,
    /refreshed reads B .*\n.*recorded 1 call to .*run\.json\n {6}the test names calls 7 to 9 of its recording, which now holds only the test's own calls/,
  );
  const written = readFileSync(join(folder, "fixtures", "run.json"), "utf8");
  assert.ok(!written.includes("secret"), written);
  assert.match(written, /<redacted>/);
});

test("renyi test --strict examples passes: each example's replays test names what it leaves unused", async () => {
  const ran = await renyiIn(ROOT, ["test", "--strict", "examples"], {}, cache);
  assert.equal(ran.status, TEST_EXIT.passed, shown(ran));
  assert.match(ran.stdout, /^\d+ passed, 0 failed \(/m);
});
