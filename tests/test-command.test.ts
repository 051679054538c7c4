// `renyi test` as a user runs it: a real child process on the programs of
// fixtures/testing/, its output, its JSON and its exit codes
// (spec/testing.md).

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./golden.js";
import { RENYI } from "./support.js";
import { TEST_EXIT } from "../vocabulary/outcomes.js";

const FIXTURES = join(ROOT, "fixtures", "testing");
const work = mkdtempSync(join(tmpdir(), "renyi-test-command-"));
const cache = join(work, "cache");

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `renyi test ARGS` in `cwd`, started: the child, and its end. */
function startRenyiTest(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): { child: ReturnType<typeof spawn>; done: Promise<Ran> } {
  const child = spawn(process.execPath, [RENYI, "test", ...args], {
    cwd: options.cwd ?? FIXTURES,
    env: { ...process.env, ...options.env, RENYI_CACHE_DIR: cache },
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  return { child, done: new Promise((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr }))) };
}

/** `renyi test ARGS` in `cwd` (the fixtures' folder unless said), with the compile cache in a folder of its own. */
function renyiTest(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<Ran> {
  return startRenyiTest(args, options).done;
}

/** The output's last line: the summary, with the run's time taken off. */
function summary(ran: Ran): string {
  const last = ran.stdout.trimEnd().split("\n").at(-1) ?? "";
  return last.replace(/ \([\d.]+ m?s\)$/, "");
}

test("passing tests: a line per test, the summary line last, exit 0", async () => {
  const ran = await renyiTest(["passing.ry"]);
  assert.equal(ran.status, TEST_EXIT.passed, ran.stderr);
  assert.match(
    ran.stdout,
    /^passing\.ry\n {2}passed {2}doubling a number \(\d+ ms\)\n {2}passed {2}printing is allowed when the test needs console \(\d+ ms\)\n/,
  );
  assert.equal(summary(ran), "2 passed, 0 failed");
  // What a passing test prints is not shown.
  assert.doesNotMatch(ran.stdout, /hello from a test/);
});

test("a failed check shows the check as written, both values and its .ry line and column; exit 1", async () => {
  const ran = await renyiTest(["failing.ry"]);
  assert.equal(ran.status, TEST_EXIT.failed, ran.stderr);
  assert.match(ran.stdout, / {2}passed {2}a check that holds/);
  assert.match(
    ran.stdout,
    / {2}failed {2}a check that does not hold \(\d+ ms\)\n {6}check `double\(2\) \+ 1 is 4` did not hold at failing\.ry:10:9\n {8}left: {2}5\n {8}right: 4\n/,
  );
  assert.match(
    ran.stdout,
    / {2}failed {2}a condition that is false \(\d+ ms\)\n {6}check `double\(3\) > 10` did not hold at failing\.ry:14:9\n {8}the condition is false\n/,
  );
  assert.equal(summary(ran), "1 passed, 2 failed");
});

test("a crash is reported with its code and position, and the next test still runs", async () => {
  const ran = await renyiTest(["crash.ry"]);
  assert.equal(ran.status, TEST_EXIT.failed, ran.stderr);
  assert.match(
    ran.stdout,
    / {2}crashed dividing by zero crashes \(\d+ ms\)\n {6}error\[E-RT-DIVISION\]: 10 \/ 0: division by zero\n {8}--> crash\.ry:2:10\n/,
  );
  assert.match(ran.stdout, / {2}passed {2}the next test still runs/);
  assert.equal(summary(ran), "1 passed, 0 failed, 1 crashed");
  assert.doesNotMatch(ran.stdout + ran.stderr, /E-RT-INTERNAL|at .*\.js:\d+/);
});

test("a test that uses a capability its needs do not name is refused at compile time; the other files still run; exit 3", async () => {
  const ran = await renyiTest(["undeclared.ry", "passing.ry"]);
  assert.equal(ran.status, TEST_EXIT.refused);
  assert.match(
    ran.stderr,
    /error\[E-CAP-MISSING\]: `console\.print` needs `console`, which the needs of this test do not cover\n {2}--> undeclared\.ry:2:3/,
  );
  assert.doesNotMatch(ran.stdout, /never granted/);
  assert.match(ran.stdout, / {2}passed {2}doubling a number/);
  assert.equal(summary(ran), "2 passed, 0 failed, 1 file refused");
});

test("a test that loops for ever is ended by its fuel, and the test after it runs", async () => {
  const ran = await renyiTest(["--fuel", "3000000", "forever.ry"]);
  assert.equal(ran.status, TEST_EXIT.failed, ran.stderr);
  assert.match(
    ran.stdout,
    / {2}crashed a loop that never ends \(\d+ ms\)\n {6}error\[E-RT-FUEL\]: the program used all of its 3,000,000 steps of fuel \(--fuel N gives more\)\n {8}--> forever\.ry:4:5\n/,
  );
  assert.match(ran.stdout, / {2}passed {2}a test after the endless one/);
  assert.equal(summary(ran), "1 passed, 0 failed, 1 crashed");
});

test("a test that waits past its time limit crashes with E-RT-TIMEOUT at the wait, and the test after it runs", async () => {
  const ran = await renyiTest(["--timeout", "1", "sleeper.ry"]);
  assert.equal(ran.status, TEST_EXIT.failed, ran.stderr);
  assert.match(
    ran.stdout,
    / {2}crashed a wait longer than the time limit \([\d.]+ m?s\)\n {6}error\[E-RT-TIMEOUT\]: the test reached its time limit of 1 s \(renyi test --timeout SECONDS allows more\)\n {8}--> sleeper\.ry:2:3\n/,
  );
  assert.match(ran.stdout, / {2}passed {2}a test after the sleeping one/);
  assert.equal(summary(ran), "1 passed, 0 failed, 1 crashed");
});

test("each test has its own fuel and its own output: nothing of one reaches the next", async () => {
  // Each test takes more than half of this fuel: run on one account, the second would run out.
  const ran = await renyiTest(["--json", "--fuel", "2000000", "isolated.ry"]);
  assert.equal(ran.status, TEST_EXIT.passed, ran.stdout + ran.stderr);
  const report = JSON.parse(ran.stdout) as { tests: { name: string; status: string; output?: string }[] };
  assert.deepEqual(
    report.tests.map((t) => [t.name, t.status, t.output]),
    [
      ["the first half", "passed", "printed by the first\n"],
      ["the second half", "passed", "printed by the second\n"],
    ],
  );
});

test("--json: one object with every test's result, the refused files, the counts and the exit code", async () => {
  const ran = await renyiTest(["--json", "failing.ry", "crash.ry", "replayed.ry"]);
  assert.equal(ran.status, TEST_EXIT.failed, ran.stderr);
  const report = JSON.parse(ran.stdout) as {
    tests: {
      file: string;
      name: string;
      status: string;
      ms: number;
      site?: string;
      code?: string;
      check?: { expression: string; left: string; right: string };
      reason?: string;
    }[];
    refused: unknown[];
    summary: Record<string, number>;
    exitCode: number;
  };
  assert.deepEqual(
    report.tests.map((t) => [t.file, t.name, t.status]),
    [
      ["failing.ry", "a check that holds", "passed"],
      ["failing.ry", "a check that does not hold", "failed"],
      ["failing.ry", "a condition that is false", "failed"],
      ["crash.ry", "dividing by zero crashes", "crashed"],
      ["crash.ry", "the next test still runs", "passed"],
      ["replayed.ry", "a forecast read from a recording", "passed"],
      ["replayed.ry", "a plain test beside it", "passed"],
    ],
  );
  const failed = report.tests[1]!;
  assert.equal(failed.code, "E-RT-CHECK");
  assert.equal(failed.site, "failing.ry:10:9");
  assert.deepEqual(failed.check, { kind: "is", expression: "double(2) + 1 is 4", left: "5", right: "4" });
  assert.equal(report.tests[3]!.code, "E-RT-DIVISION");
  assert.equal(report.tests[3]!.site, "crash.ry:2:10");
  assert.ok(report.tests.every((t) => typeof t.ms === "number"));
  assert.deepEqual(report.refused, []);
  assert.deepEqual(
    { ...report.summary, ms: 0 },
    { passed: 4, refreshed: 0, failed: 2, crashed: 1, skipped: 0, cancelled: 0, refusedFiles: 0, ms: 0 },
  );
  assert.equal(report.exitCode, TEST_EXIT.failed);
});

test("a replays test is answered from its recording, beside its file, offline", async () => {
  const ran = await renyiTest(["replayed.ry"]);
  assert.equal(ran.status, TEST_EXIT.passed, ran.stderr);
  assert.match(ran.stdout, / {2}passed {2}a forecast read from a recording \(\d+ ms\)\n/);
  assert.equal(summary(ran), "2 passed, 0 failed");
});

test("Ctrl-C cancels the tests running and those not started, and exits 130", async () => {
  // A module preloaded into every thread says when the first test's thread has started.
  const folder = mkdtempSync(join(work, "interrupt-"));
  const marker = join(folder, "started");
  writeFileSync(
    join(folder, "hook.cjs"),
    `if (!require("node:worker_threads").isMainThread) ` +
      `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "started");\n`,
  );
  const started = startRenyiTest(["--timeout", "600", "sleeper.ry"], {
    env: { NODE_OPTIONS: `--require ${join(folder, "hook.cjs")}` },
  });
  while (!existsSync(marker)) await new Promise((resolve) => setTimeout(resolve, 20));
  started.child.kill("SIGINT");
  const ran = await started.done;
  assert.equal(ran.status, TEST_EXIT.cancelled, ran.stdout + ran.stderr);
  assert.match(ran.stdout, / {2}cancelled a wait longer than the time limit/);
  assert.match(summary(ran), /^\d passed, 0 failed, \d cancelled$/);
});

test("--filter runs only the tests whose names hold the text", async () => {
  const ran = await renyiTest(["--filter", "HOLDS", "failing.ry"]);
  assert.equal(ran.status, TEST_EXIT.passed, ran.stderr);
  assert.doesNotMatch(ran.stdout, /does not hold|condition/);
  assert.equal(summary(ran), "1 passed, 0 failed");
});

test("without paths, the working folder is searched, without node_modules, dot-folders and files without tests", async () => {
  const folder = mkdtempSync(join(work, "discovery-"));
  const passing = (name: string) => `test "${name}"\n  check 1 + 1 is 2\nend\n`;
  const failingTest = `test "must not be found"\n  check 1 is 2\nend\n`;
  mkdirSync(join(folder, "sub"));
  mkdirSync(join(folder, "node_modules"));
  mkdirSync(join(folder, ".hidden"));
  writeFileSync(join(folder, "a.ry"), passing("in the folder"));
  writeFileSync(join(folder, "sub", "b.ry"), passing("in a folder below"));
  writeFileSync(join(folder, "node_modules", "c.ry"), failingTest);
  writeFileSync(join(folder, ".hidden", "d.ry"), failingTest);
  // A file without tests is not compiled, so not even its errors stop the run.
  writeFileSync(join(folder, "broken.ry"), "function (\n");
  const ran = await renyiTest([], { cwd: folder });
  assert.equal(ran.status, TEST_EXIT.passed, ran.stdout + ran.stderr);
  assert.match(
    ran.stdout,
    /^a\.ry\n {2}passed {2}in the folder \(\d+ ms\)\nsub\/b\.ry\n {2}passed {2}in a folder below/,
  );
  assert.equal(summary(ran), "2 passed, 0 failed");
});

test("paths that are not .ry files or folders are refused with exit 3", async () => {
  const missing = await renyiTest(["no-such-file.ry"]);
  assert.equal(missing.status, TEST_EXIT.refused);
  assert.equal(missing.stderr, "error: no-such-file.ry: no such file or folder\n");
  const notRy = await renyiTest(["README.md"]);
  assert.equal(notRy.status, TEST_EXIT.refused);
  assert.equal(notRy.stderr, "error: README.md is neither a .ry file nor a folder\n");
  const badFuel = await renyiTest(["--fuel", "0", "passing.ry"]);
  assert.equal(badFuel.status, TEST_EXIT.refused);
  assert.equal(badFuel.stderr, "error: --fuel takes a whole number above 0\n");
});

test("a test run opens no network socket it was not granted", async () => {
  // Every socket the test run opens, in any of its threads, is written down by a module
  // preloaded into each of them; a local server counts the connections it is offered.
  const folder = mkdtempSync(join(work, "sockets-"));
  const log = join(folder, "sockets.log");
  writeFileSync(
    join(folder, "hook.cjs"),
    `const net = require("node:net");
const dgram = require("node:dgram");
const fs = require("node:fs");
const note = (what) => fs.appendFileSync(${JSON.stringify(log)}, what + "\\n");
note("loaded");
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) { note("connect"); return connect.apply(this, args); };
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) { note("listen"); return listen.apply(this, args); };
const createSocket = dgram.createSocket;
dgram.createSocket = function (...args) { note("udp"); return createSocket.apply(this, args); };
`,
  );
  let offered = 0;
  const server = createServer((_request, response) => response.end("ok"));
  server.on("connection", () => offered++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  try {
    const env = { NODE_OPTIONS: `--require ${join(folder, "hook.cjs")}` };
    // main would reach the server, and a replays test would if it were live: neither may open a socket.
    writeFileSync(
      join(folder, "offline.ry"),
      `public function main()
  purpose: Reach the local server.
  needs network.http("127.0.0.1")
  let r be http.get("http://127.0.0.1:${port}/") otherwise crash with "unreachable"
end

test "a test without needs"
  check 1 is 1
end

test "a replays test" needs network.http("127.0.0.1") replays "answered.json"
  let r be http.get("http://127.0.0.1:${port}/") otherwise fail
  check r.status is 200
  check r.body is "recorded"
end
`,
    );
    // Its recording answers the call the server would have answered.
    writeFileSync(
      join(folder, "answered.json"),
      JSON.stringify({
        program: "offline",
        toolchain: "renyi 0.1.0",
        source: "offline.ry",
        code: "sha256:00",
        grant: ['network.http("127.0.0.1")'],
        outcome: "finished",
        calls: [
          {
            sequence: 1,
            capability: 'network.http("127.0.0.1")',
            primitive: "std.http.get",
            arguments: { url: `http://127.0.0.1:${port}/` },
            outcome: { success: { status: 200, headers: {}, body: "recorded" } },
          },
        ],
      }),
    );
    const offline = await renyiTest(["offline.ry"], { cwd: folder, env });
    assert.equal(offline.status, TEST_EXIT.passed, offline.stdout + offline.stderr);
    assert.equal(summary(offline), "2 passed, 0 failed");
    const notes = readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l !== "");
    // The hook was in the command's thread and in the test's.
    assert.ok(notes.filter((n) => n === "loaded").length >= 2, notes.join(", "));
    assert.deepEqual(
      notes.filter((n) => n !== "loaded"),
      [],
    );
    assert.equal(offered, 0);

    // The same hook sees a socket that a test was granted: the check above could fail.
    writeFileSync(log, "");
    writeFileSync(
      join(folder, "granted.ry"),
      `test "a test granted the local server" needs network.http("127.0.0.1")
  let r be http.get("http://127.0.0.1:${port}/") otherwise fail
  check r.status is 200
end
`,
    );
    const granted = await renyiTest(["granted.ry"], { cwd: folder, env });
    assert.equal(granted.status, TEST_EXIT.passed, granted.stdout + granted.stderr);
    assert.ok(readFileSync(log, "utf8").includes("connect"));
    assert.ok(offered > 0);
  } finally {
    server.close();
  }
});
