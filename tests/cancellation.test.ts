// Cancellation (spec/runtime.md, "Cancellation"): Ctrl-C ends a run `cancelled`
// (exit 130), and the deadline (--timeout) ends it `crashed` with E-RT-TIMEOUT (exit 2),
// within half a second, wherever the program is: in a tight loop, waiting on a
// slow server, asleep, waiting for a busy database, in concurrent tasks; a second
// Ctrl-C stops a program that cannot see the first, a program that cannot see its
// deadline is stopped by force, and a recording in progress is written either way. Real child processes,
// a real HTTP server on 127.0.0.1 and a real SQLite file.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import Database from "better-sqlite3";
import { RENYI, renyiIn, startProgram, type Started } from "./support.js";
import { configureLimits } from "../rtlib/limits.js";
import { outcomeOf, runOutcomeOf } from "../rtlib/run-main.js";
import { Crash, Failure } from "../rtlib/errors.js";

const work = mkdtempSync(join(tmpdir(), "renyi-cancel-"));
after(() => rmSync(work, { recursive: true, force: true }));

/** The goal: a run ends within this long of Ctrl-C. */
const LATENCY_MS = 500;

/** Waits until the program has printed `marker`, then `delayMs` more. */
function printed(started: Started, marker: string, delayMs: number): Promise<void> {
  return new Promise((resolve) => {
    const look = () => {
      if (started.output().includes(marker)) {
        started.child.stdout.off("data", look);
        setTimeout(resolve, delayMs);
      }
    };
    started.child.stdout.on("data", look);
    look();
  });
}

/** Presses Ctrl-C once the program printed `marker` (and `delayMs` more), and times how long the run takes to end. */
async function ctrlC(
  started: Started,
  marker: string,
  delayMs = 100,
): Promise<{ ms: number; status: number | null; stdout: string; stderr: string }> {
  await printed(started, marker, delayMs);
  const pressed = performance.now();
  started.child.kill("SIGINT");
  const ended = await started.done;
  return { ms: performance.now() - pressed, ...ended };
}

test("Ctrl-C ends a program in a tight loop within half a second, at the place it had reached", async () => {
  const started = startProgram(
    work,
    `public function main()
  purpose: Spin.
  needs console
  console.print("spinning")
  var i be 0
  while true
    set i to i + 1
  end
end
`,
  );
  const ended = await ctrlC(started, "spinning");
  assert.equal(ended.status, 130, ended.stderr);
  assert.ok(ended.ms < LATENCY_MS, `ended ${ended.ms.toFixed(0)} ms after Ctrl-C`);
  assert.match(ended.stderr, /^cancelled: interrupted\n {2}--> [^\n]*p\w+\.ry:[67]:\d+, in `main` of module `p\w+`\n$/);
  console.log(`tight loop: ended ${ended.ms.toFixed(0)} ms after Ctrl-C`);
});

test("Ctrl-C aborts a request to a server that does not answer", async () => {
  const sockets = new Set<import("node:net").Socket>();
  const server: Server = createServer(() => {
    // Never answers.
  });
  server.on("connection", (s) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  try {
    const started = startProgram(
      work,
      `public function main()
  purpose: Wait on a server that never answers.
  needs console, network.http("127.0.0.1")
  console.print("asking")
  let r be http.get("http://127.0.0.1:${port}/hang") otherwise crash with "failed"
  console.print("answered {r.status}")
end
`,
    );
    const ended = await ctrlC(started, "asking", 200);
    assert.equal(ended.status, 130, ended.stderr);
    assert.doesNotMatch(ended.stdout, /answered/);
    assert.ok(ended.ms < LATENCY_MS, `ended ${ended.ms.toFixed(0)} ms after Ctrl-C`);
    console.log(`request in flight: ended ${ended.ms.toFixed(0)} ms after Ctrl-C`);
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("Ctrl-C ends a sleep, and every concurrent task the program started", async () => {
  const started = startProgram(
    work,
    `function nap(hours: Int) returns Int
  purpose: Sleep for hours.
  needs time
  time.sleep(time.hours(hours))
  return hours
end

public function main()
  purpose: Sleep in two tasks at once.
  needs console, time
  console.print("sleeping")
  run concurrently
    let a be nap(1)
    let b be nap(2)
  end
  console.print("woke {a} {b}")
end
`,
  );
  const ended = await ctrlC(started, "sleeping");
  assert.equal(ended.status, 130, ended.stderr);
  assert.doesNotMatch(ended.stdout, /woke/);
  assert.ok(ended.ms < LATENCY_MS, `ended ${ended.ms.toFixed(0)} ms after Ctrl-C`);
  assert.match(ended.stderr, /^cancelled: interrupted\n/);
  console.log(`two sleeping tasks: ended ${ended.ms.toFixed(0)} ms after Ctrl-C`);
});

test("Ctrl-C ends the wait for a database another connection holds", async () => {
  const file = join(work, "held.db");
  const holder = new Database(file);
  holder.exec("CREATE TABLE IF NOT EXISTS t (x INTEGER)");
  holder.exec("BEGIN EXCLUSIVE");
  try {
    // Each try waits up to a second for the lock; the program tries for ever.
    const started = startProgram(
      work,
      `public function main()
  purpose: Write to a database another connection holds, until stopped.
  needs console, filesystem.database("held.db")
  let db be database.open("held.db") otherwise crash with "no database"
  console.print("writing")
  var tries be 0
  while true
    let changed be database.execute(db, "INSERT INTO t (x) VALUES (1)") otherwise -1
    set tries to tries + 1
  end
end
`,
    );
    const ended = await ctrlC(started, "writing", 50);
    assert.equal(ended.status, 130, ended.stderr);
    // SQLite's own busy wait would hold the thread for the rest of its second.
    assert.ok(ended.ms < LATENCY_MS, `ended ${ended.ms.toFixed(0)} ms after Ctrl-C`);
    console.log(`busy database: ended ${ended.ms.toFixed(0)} ms after Ctrl-C`);
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
  }
});

/**
 * A program that cannot see a cancellation for a second or more at a time: each sort of three million items runs to its
 * end.
 */
const SORTING = `public function main()
  purpose: Sort long lists until stopped.
  needs console
  let scrambled be list.map(list.range(0, 3_000_000), function (i: Int) returns Int
    return (i * 7919) mod 3_000_017
  end)
  console.print("sorting")
  var n be 0
  while true
    let s be scrambled.sort()
    set n to n + s.length()
  end
end
`;

test("a second Ctrl-C stops at once a program that has not yet seen the first; the recording is written", async () => {
  writeFileSync(join(work, "sorting.ry"), SORTING);
  const child = spawn(
    process.execPath,
    [RENYI, "record", "--fuel", "1000000000000", "--to", "sorting.recording.json", "sorting.ry"],
    { cwd: work, env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") } },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<number | null>((resolve) => child.on("exit", resolve));
  await printed(
    { child, done: done.then(() => ({ status: null, stdout, stderr })), output: () => stdout },
    "sorting",
    100,
  );
  child.kill("SIGINT");
  await new Promise((resolve) => setTimeout(resolve, 400));
  const second = performance.now();
  child.kill("SIGINT");
  const status = await done;
  const ms = performance.now() - second;
  assert.equal(status, 130, stderr);
  // Stopped by force, not at a place its own code reached: the first press was not seen.
  assert.equal(stderr.replace(/^recorded .*\n/m, ""), "cancelled: interrupted\n");
  // The thread is stopped in the middle of a sort, with two lists of millions of items to let go:
  // on a loaded machine that alone took over a second. Without the second press the run would end
  // 1.6 s after it at the earliest, when the grace period of the first one ran out, and the sort
  // it waits on after that.
  assert.ok(ms < 1500, `ended ${ms.toFixed(0)} ms after the second Ctrl-C`);
  const recording = JSON.parse(readFileSync(join(work, "sorting.recording.json"), "utf8")) as {
    outcome: string;
    calls: { primitive: string }[];
  };
  assert.equal(recording.outcome, "cancelled");
  assert.deepEqual(
    recording.calls.map((c) => c.primitive),
    ["std.console.print"],
  );
  console.log(`second Ctrl-C: ended ${ms.toFixed(0)} ms after it`);
});

test("the deadline (--timeout) is a limit: the run crashes with E-RT-TIMEOUT at the place it had reached, in text and in the execution record", async () => {
  const source = `public function main()
  purpose: Spin.
  needs console
  var i be 0
  while true
    set i to i + 1
  end
end
`;
  const text = await startProgram(work, source, { before: ["--timeout", "1"] }).done;
  assert.equal(text.status, 2, text.stderr);
  assert.match(
    text.stderr,
    /^error\[E-RT-TIMEOUT\]: the run reached its time limit of 1 s \(--timeout SECONDS allows more\)\n {2}--> [^\n]*\.ry:[56]:\d+\n[\s\S]*= note: in `main` of module `p\w+`\n$/,
  );
  const json = await startProgram(work, source, { before: ["--timeout", "1", "--json"] }).done;
  assert.equal(json.status, 2, json.stderr);
  const record = JSON.parse(json.stdout.trim().split("\n").at(-1)!) as {
    outcome: string;
    exit: number;
    error: { code: string; message: string; line: number | null };
  };
  assert.equal(record.outcome, "crashed");
  assert.equal(record.exit, 2);
  assert.equal(record.error.code, "E-RT-TIMEOUT");
  assert.match(record.error.message, /time limit of 1 s/);
  assert.ok(record.error.line === 5 || record.error.line === 6, `line ${record.error.line}`);
});

test("a program asleep in a wait when its time runs out crashes with E-RT-TIMEOUT at the line of the wait", async () => {
  const source = `public function main()
  purpose: Sleep past the time limit.
  needs console, time
  console.print("sleeping")
  time.sleep(time.hours(1))
  console.print("woke")
end
`;
  const started = performance.now();
  const ran = await startProgram(work, source, { before: ["--timeout", "1", "--json"] }).done;
  const ms = performance.now() - started;
  assert.equal(ran.status, 2, ran.stderr);
  assert.doesNotMatch(ran.stdout, /woke/);
  assert.match(
    ran.stderr,
    /^error\[E-RT-TIMEOUT\]: the run reached its time limit of 1 s \(--timeout SECONDS allows more\)\n {2}--> [^\n]*\.ry:5:3\n/,
  );
  const record = JSON.parse(ran.stdout.trim().split("\n").at(-1)!) as {
    outcome: string;
    error: { code: string; line: number | null; column: number | null };
    hostCalls: { operation: string; outcome: string }[];
  };
  assert.deepEqual(
    { outcome: record.outcome, code: record.error.code, line: record.error.line, column: record.error.column },
    { outcome: "crashed", code: "E-RT-TIMEOUT", line: 5, column: 3 },
  );
  // The sleep itself was cut short, not the run after it.
  assert.equal(record.hostCalls.at(-1)?.operation, "std.time.sleep");
  assert.equal(record.hostCalls.at(-1)?.outcome, "cancelled");
  // Well within the grace period: the wait saw the limit, the thread was not stopped by force.
  assert.ok(ms < 1000 + 1500, `ended after ${ms.toFixed(0)} ms`);
});

// One sort of 9,000,000 Ints: about 7 s on a quiet machine, where the run is stopped by force 4 s
// in (its 2 s limit and the 2 s of grace). What comes before the sort is cheap (ten thousand
// lambda calls and one flatten), so that even a loaded machine is inside the sort when the limit
// comes: with a million lambda calls before it, a loaded machine noticed the limit there. A
// shorter sort (SORTING's 3,000,000, 2 s) ends before the force on a quiet machine, and the
// program notices its limit after it.
const ONE_LONG_SORT = `public function main()
  purpose: Sort one very long list, where a sort cannot notice its time limit.
  needs console
  let part be list.map(list.range(0, 10_000), function (i: Int) returns Int
    return (i * 7919) mod 10_007
  end)
  let scrambled be list.flatten(list.map(list.range(0, 900), function (i: Int) returns List<Int>
    return part
  end))
  console.print("sorting")
  console.print("{scrambled.sort().length()}")
end
`;

test("a program stuck where it cannot notice its time limit is stopped by force, and says its place is not known", async () => {
  const ran = await startProgram(work, ONE_LONG_SORT, {
    before: ["--timeout", "2", "--fuel", "1000000000000", "--json"],
  }).done;
  assert.equal(ran.status, 2, ran.stderr);
  assert.equal(
    ran.stderr,
    "error[E-RT-TIMEOUT]: the run reached its time limit of 2 s and was stopped by force where it could not notice; the place the program had reached is not known (--timeout SECONDS allows more)\n",
  );
  const record = JSON.parse(ran.stdout.trim().split("\n").at(-1)!) as {
    outcome: string;
    exit: number;
    error: { code: string; file: string | null; line: number | null };
  };
  assert.deepEqual(
    {
      outcome: record.outcome,
      exit: record.exit,
      code: record.error.code,
      file: record.error.file,
      line: record.error.line,
    },
    { outcome: "crashed", exit: 2, code: "E-RT-TIMEOUT", file: null, line: null },
  );
});

test("Ctrl-C is no limit: a run interrupted before its time runs out ends cancelled, exit 130, without E-RT-TIMEOUT", async () => {
  const started = startProgram(
    work,
    `public function main()
  purpose: Sleep.
  needs console, time
  console.print("sleeping")
  time.sleep(time.hours(1))
end
`,
    { before: ["--timeout", "60", "--json"] },
  );
  const ended = await ctrlC(started, "sleeping");
  assert.equal(ended.status, 130, ended.stderr);
  assert.match(ended.stderr, /^cancelled: interrupted\n {2}--> [^\n]*\.ry:5:3, in `main` of module `p\w+`\n$/);
  const record = JSON.parse(ended.stdout.trim().split("\n").at(-1)!) as {
    outcome: string;
    exit: number;
    error: { code: string | null; line: number | null };
  };
  assert.deepEqual(
    { outcome: record.outcome, exit: record.exit, code: record.error.code, line: record.error.line },
    { outcome: "cancelled", exit: 130, code: null, line: 5 },
  );
});

test("a recorded or resumed run at its time limit still writes its recording, whose outcome is crashed", async () => {
  const folder = join(work, "timed-recording");
  const cache = join(work, "cache");
  (await import("node:fs")).mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, "nap.ry"),
    `public function main()
  purpose: Print, then sleep past the time limit.
  needs console, time
  console.print("before")
  time.sleep(time.hours(1))
end
`,
  );
  const recorded = await renyiIn(
    folder,
    ["record", "--timeout", "1", "--to", "nap.recording.json", "nap.ry"],
    {},
    cache,
  );
  assert.equal(recorded.status, 2, recorded.stderr);
  assert.match(
    recorded.stderr,
    /^error\[E-RT-TIMEOUT\][\s\S]*recorded 1 call to nap\.recording\.json \(the run crashed\)\n$/,
  );
  const recording = JSON.parse(readFileSync(join(folder, "nap.recording.json"), "utf8")) as {
    outcome: string;
    calls: { primitive: string }[];
  };
  assert.equal(recording.outcome, "crashed");
  assert.deepEqual(
    recording.calls.map((c) => c.primitive),
    ["std.console.print"],
  );
  const resumed = await renyiIn(
    folder,
    ["run", "--timeout", "1", "--resume", "nap.recording.json", "nap.ry"],
    {},
    cache,
  );
  assert.equal(resumed.status, 2, resumed.stderr);
  assert.match(resumed.stderr, /^error\[E-RT-TIMEOUT\][\s\S]*\(the run crashed\)\n$/);
  const again = JSON.parse(readFileSync(join(folder, "nap.recording.resumed.json"), "utf8")) as { outcome: string };
  assert.equal(again.outcome, "crashed");
});

test("a run that stops on an error after its cancellation was asked for ends cancelled (or at its time limit), at the error's place", () => {
  const cancel = new SharedArrayBuffer(4);
  configureLimits({ cancel });
  try {
    // Before the cancellation, an error is the run's outcome.
    assert.equal(runOutcomeOf(new Failure("no")).outcome, "failed");
    Atomics.store(new Int32Array(cancel), 0, 1);
    // A request's crash is reported as it was, whenever the run's cancellation came.
    assert.equal(outcomeOf(new Failure("no")).outcome, "failed");
    const failed = runOutcomeOf(new Failure("no", "x.ry:3:5"));
    assert.deepEqual(
      { ...failed, steps: 0 },
      { outcome: "cancelled", reason: "interrupt", site: "x.ry:3:5", steps: 0 },
    );
    // Past the time limit, the same error is the limit's, at its place.
    Atomics.store(new Int32Array(cancel), 0, 2);
    const crashed = runOutcomeOf(new Crash("E-RT-CRASH", { problem: "crash-with", message: "gone" }, "x.ry:4:1"));
    assert.deepEqual(
      { ...crashed, steps: 0, stack: undefined },
      {
        outcome: "crashed",
        code: "E-RT-TIMEOUT",
        message: "the run reached its time limit (--timeout SECONDS allows more)",
        site: "x.ry:4:1",
        steps: 0,
        stack: undefined,
      },
    );
    configureLimits({ cancel, timeoutMs: 1500 });
    Atomics.store(new Int32Array(cancel), 0, 2);
    const timed = runOutcomeOf(new Failure("no", "x.ry:5:2"));
    assert.equal(
      (timed as { message: string }).message,
      "the run reached its time limit of 1,500 ms (--timeout SECONDS allows more)",
    );
  } finally {
    configureLimits({});
  }
});
