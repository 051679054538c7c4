// Values a program can make, and the commands' own inputs, end the way the
// language says: each case that once reached E-RT-INTERNAL, an engine error, a
// V8 fatal error or a read that never ended, run through `renyi run` and
// `renyi check` as a user would.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, mock, test } from "node:test";
import { longTimeout, MAX_TIMER_MS, timerSlices } from "../rtlib/waits.js";
import { ROOT } from "./golden.js";

const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const work = mkdtempSync(join(tmpdir(), "renyi-values-"));
after(() => rmSync(work, { recursive: true, force: true }));
const env = { ...process.env, RENYI_CACHE_DIR: join(work, "cache"), toString: "shadowed" };

function program(name: string, body: string, needs = "console"): string {
  const path = join(work, `${name}.ry`);
  writeFileSync(path, `function main()\n  needs ${needs}\n${body.replace(/^/gm, "  ")}\nend\n`);
  return path;
}

function renyi(...args: string[]) {
  const result = spawnSync(process.execPath, [RENYI, ...args], { cwd: work, encoding: "utf8", env, timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A run that must end with the given code, and nothing of JavaScript's own on stderr. */
function crashesWith(file: string, code: string, ...options: string[]): string {
  const r = renyi("run", ...options, file);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, new RegExp(`error\\[${code}\\]`));
  assert.doesNotMatch(r.stderr, /E-RT-INTERNAL|RangeError|TypeError|PromiseRejectCallback|\.cjs|FATAL|node:internal/);
  return r.stderr;
}

test("environment.get reads only variables the process has: `toString` and `__proto__` are None", () => {
  const r = renyi(
    "run",
    program(
      "names",
      'console.print("{environment.get("toString")} {environment.get("__proto__")} {environment.get("constructor")}")',
      'console, environment("toString"), environment("__proto__"), environment("constructor")',
    ),
  );
  assert.equal(r.stderr, "");
  // The test's environment sets `toString`: an own variable is read like any other.
  assert.equal(r.stdout, 'Some("shadowed") None None\n');
});

test("an instant past the years ISO 8601 can write: made by time.add, written by to_iso or json.encode, it crashes with E-RT-OVERFLOW", () => {
  crashesWith(
    program(
      "far_add",
      'let i be time.add(Instant(milliseconds: 0), time.milliseconds(8700000000000000))\nconsole.print("made")',
    ),
    "E-RT-OVERFLOW",
  );
  const iso = crashesWith(
    program("far_iso", "console.print(time.to_iso(Instant(milliseconds: 9000000000000000)))"),
    "E-RT-OVERFLOW",
  );
  assert.match(iso, /outside the range of Instant/);
  crashesWith(
    program("far_json", "console.print(json.encode(Instant(milliseconds: -9000000000000000)))"),
    "E-RT-OVERFLOW",
  );
  const edge = renyi("run", program("edge", "console.print(time.to_iso(Instant(milliseconds: 8640000000000000)))"));
  assert.equal(edge.stdout, "+275760-09-13T00:00:00.000Z\n");
});

test("a text doubled past the limit ends with E-RT-LIMIT-COLLECTION, whichever operation builds it", () => {
  const doubling: Record<string, string> = {
    plus: "set t to t + t",
    interpolation: 'set t to "{t}{t}"',
    replace: 'set t to text.replace(t, "a", "aa")',
    pad: "set t to text.pad_start(t, text.length(t) * 2)",
    join: 'set t to text.join([t, t], "")',
    repeat: "set t to text.repeat(t, 2)",
  };
  // Library work is charged as fuel (spec/runtime.md, "Library work"): doubling to 64 MiB
  // walks hundreds of millions of characters, past the default fuel; this test is about the text limit.
  // Room for the work, and for the memory: a text doubled by text.replace to 32 Mi characters is held by the engine in
  // pieces that take over 512 MiB.
  const roomForWork = ["--fuel", "2000000000", "--max-memory", "2048"];
  for (const [name, step] of Object.entries(doubling)) {
    const stderr = crashesWith(
      program(
        `double_${name}`,
        `var t be "abcdefgh"\nfor each i in 1 to 40\n  ${step}\nend\nconsole.print("{text.length(t)}")`,
      ),
      "E-RT-LIMIT-COLLECTION",
      ...roomForWork,
    );
    assert.match(stderr, /more than the limit of 67,108,864/, name);
    assert.match(stderr, new RegExp(`double_${name}\\.ry:5:`), name);
  }
  // A list of long texts written as text stops at the limit too.
  crashesWith(
    program(
      "write_list",
      'let t be text.repeat("abcdefgh", 4000000)\n' +
        'let items be [t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t]\nconsole.print("{items}")',
    ),
    "E-RT-LIMIT-COLLECTION",
  );
});

test("flat_map and joins past the element limit end with E-RT-LIMIT-COLLECTION, never a fatal error of the engine", () => {
  crashesWith(
    program(
      "flat",
      "let xs be list.range(0, 10000)\nlet ys be list.flat_map(xs, (x) => list.range(0, 5000))\n" +
        'console.print("{list.length(ys)}")',
    ),
    "E-RT-LIMIT-COLLECTION",
  );
  // Ten times the limit: this one took the whole process down with a V8 fatal error.
  crashesWith(
    program(
      "flat_more",
      "let xs be list.range(0, 100000)\nlet ys be list.flat_map(xs, (x) => list.range(0, 1000))\n" +
        'console.print("{list.length(ys)}")',
    ),
    "E-RT-LIMIT-COLLECTION",
    "--fuel",
    "100000000000",
  );
  crashesWith(
    program(
      "join",
      "let xs be list.range(0, 4000)\nlet rows be from a in xs from b in xs select a + b\n" +
        'console.print("{list.length(rows)}")',
    ),
    "E-RT-LIMIT-COLLECTION",
  );
});

test("an effectful recursion under --max-depth 999999999 ends with E-RT-DEPTH, with no engine message or compiled code", () => {
  const file = program("deep", 'console.print("{down(100000000)}")');
  writeFileSync(
    file,
    "function down(n: Int) returns Int\n  needs console\n  if n is 0\n    return 0\n  end\n" +
      "  return down(n - 1) + 1\nend\n\n" +
      'function main()\n  needs console\n  console.print("{down(100000000)}")\nend\n',
  );
  const stderr = crashesWith(file, "E-RT-DEPTH", "--max-depth", "999999999");
  assert.match(stderr, /calls nested too deeply for the stack/);
  assert.match(stderr, /deep\.ry:1:1/);
});

test("renyi check and renyi run refuse what is not a regular file, or is too large, with exit 3", () => {
  const fifo = join(work, "pipe.ry");
  spawnSync("mkfifo", [fifo]);
  const folder = join(work, "folder.ry");
  mkdirSync(folder);
  const huge = join(work, "huge.ry");
  writeFileSync(huge, Buffer.alloc(16 * 1024 * 1024 + 1, 0x20));
  const cases: [string, RegExp][] = [
    ["/dev/zero", /it is a device, not a regular file/],
    [fifo, /it is a FIFO \(named pipe\), not a regular file/],
    [folder, /it is a folder, not a regular file/],
    [huge, /it is larger than the 16 MiB a file may have here/],
  ];
  for (const [file, why] of cases) {
    for (const command of ["check", "run"]) {
      const r = renyi(command, file);
      assert.equal(r.status, 3, `${command} ${file}: ${r.stderr}`);
      assert.match(r.stderr, /error\[E-FILE\]/);
      assert.match(r.stderr, why);
    }
  }
});

test("a wait longer than a timer holds is a chain of timers: 3,000,000,000 ms is not cut to 1 ms", () => {
  assert.deepEqual(timerSlices(3_000_000_000), [MAX_TIMER_MS, 3_000_000_000 - MAX_TIMER_MS]);
  assert.deepEqual(timerSlices(-5), [0]);
  assert.equal(
    timerSlices(2 ** 53 - 1).reduce((a, b) => a + b, 0),
    2 ** 53 - 1,
  );
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    let done = false;
    longTimeout(() => (done = true), 3_000_000_000);
    mock.timers.tick(1000);
    assert.equal(done, false);
    mock.timers.tick(MAX_TIMER_MS);
    assert.equal(done, false);
    mock.timers.tick(3_000_000_000 - MAX_TIMER_MS);
    assert.equal(done, true);
  } finally {
    mock.timers.reset();
  }
});

test("a long --timeout and a long sleep print no TimeoutOverflowWarning and are not cut short", () => {
  const quick = renyi("run", "--timeout", "2147484", program("quick", 'console.print("done")'));
  assert.equal(quick.status, 0);
  assert.equal(quick.stderr, "");
  // A sleep of 1,000 hours is still asleep when a 1-second deadline ends the run.
  const sleepy = renyi(
    "run",
    "--timeout",
    "1",
    program("sleepy", 'time.sleep(time.hours(1000))\nconsole.print("woke")', "console, time"),
  );
  assert.equal(sleepy.status, 2, sleepy.stderr);
  assert.match(sleepy.stderr, /^error\[E-RT-TIMEOUT\]/);
  assert.equal(sleepy.stdout, "");
  assert.doesNotMatch(sleepy.stderr, /TimeoutOverflowWarning/);
});

test("what a program writes on stderr has the output limit stdout has", () => {
  const r = renyi("run", program("noisy", 'for each i in 1 to 20000\n  console.error("line {i}")\nend'));
  assert.equal(r.status, 0);
  const lines = r.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 10_001);
  assert.equal(lines[9_999], "line 10000");
  assert.match(
    lines[10_000]!,
    /^\[output truncated: the program wrote on stderr more than 10,000 lines or 4 MiB \(--max-output-lines, --max-output-bytes\)\]$/,
  );
});
