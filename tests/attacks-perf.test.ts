// Attacks on what the performance work changed: fuel kept as a small "room", depth given back without
// `finally`, replay's recording read twice, the gateway's memo of a grant's answer, the memory limit read
// before effects, and the sealed code caches.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { readStrictJson } from "../report/strict-json.js";
import { ROOT } from "./golden.js";
import { RENYI } from "./support.js";

function workDir(): string {
  return mkdtempSync(join(tmpdir(), "renyi-attack-perf-"));
}

/** `renyi run ARGS FILE` in `dir`, the program written to FILE first, its cache in `dir/cache`. */
function runIn(
  dir: string,
  name: string,
  source: string | undefined,
  args: readonly string[] = [],
  after: readonly string[] = [],
) {
  const file = join(dir, name);
  if (source !== undefined) writeFileSync(file, source);
  const r = spawnSync(process.execPath, [RENYI, "run", ...args, file, ...after], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, RENYI_CACHE_DIR: join(dir, "cache") },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Found by this file: with the clock looked at every 8th effect, seven reads' data came in unread and the run
// finished with about 115 MiB live under --max-memory 32. The clock is looked at before every effect again.
test("the memory limit stops a program that keeps four large reads live (about 115 MiB under --max-memory 32)", () => {
  const dir = workDir();
  try {
    writeFileSync(join(dir, "big.txt"), "a".repeat(30_000_000));
    const r = runIn(
      dir,
      "mem.ry",
      `public function main() or fails with FileError
  purpose: Keep four copies of a big file.
  needs console, filesystem.read("big.txt")
  let a be filesystem.read_text("big.txt") otherwise fail
  let b be filesystem.read_text("big.txt") otherwise fail
  let c be filesystem.read_text("big.txt") otherwise fail
  let d be filesystem.read_text("big.txt") otherwise fail
  console.print("{[a, b, c, d].length()}")
end
`,
      ["--max-memory", "32"],
    );
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /E-RT-LIMIT-MEMORY/);
    assert.equal(r.status, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Found beside the page's reader: JSON.parse builds its whole tree in one step of the engine's, where no reading
// happens, and a text of tiny values is twenty or more times its size once parsed; past the thread's own heap limit,
// Node ended the whole process with a fatal error and a native stack trace (exit 134, no execution record).
test("json.parse of 27 MB of tiny values ends the run with E-RT-LIMIT-MEMORY at the call, not a fatal error", () => {
  const dir = workDir();
  try {
    const r = runIn(
      dir,
      "tiny.ry",
      `public function main()
  purpose: Parse nine million empty objects.
  needs console
  let body be "[" + text.repeat("\\{\\},", 9_000_000) + "\\{\\}]"
  let value be json.parse(body) otherwise return
  console.print("parsed")
end
`,
      ["--max-memory", "32", "--json"],
    );
    assert.doesNotMatch(r.stderr, /FATAL|Isolate|\[node\]/);
    assert.match(r.stderr, /^error\[E-RT-LIMIT-MEMORY\][^\n]*\n {2}--> [^\n]*tiny\.ry:5:16\n/);
    assert.equal(r.status, 2);
    const record = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as { outcome: string; error: { code: string } };
    assert.deepEqual([record.outcome, record.error.code], ["crashed", "E-RT-LIMIT-MEMORY"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The same for a replay: the main thread reads and checks a recording under its own heap, then the program's thread
// reads it again under the run's; a recording of tiny values that fits the first took the second past its limit.
test("a replay whose recording could not be read within the run's thread is refused before it runs, not a fatal error", () => {
  const dir = workDir();
  try {
    copyFileSync(join(ROOT, "examples", "weather.ry"), join(dir, "weather.ry"));
    const recording = readFileSync(join(ROOT, "examples", "fixtures", "weather", "berlin.json"), "utf8");
    const tiny = `[${"{},".repeat(3_500_000)}{}]`;
    writeFileSync(join(dir, "tiny.json"), recording.replace('"arguments": {', `"arguments": {"x": ${tiny}, `));
    const r = runIn(dir, "weather.ry", undefined, ["--max-memory", "8", "--replay", "tiny.json"]);
    assert.doesNotMatch(r.stderr, /FATAL|Isolate|\[node\]/);
    assert.match(
      r.stderr,
      /^error\[E-RT-RECORDING\]: I cannot read the recording tiny\.json: its calls could take about [\d,]+ MiB once read, more than the run's thread may hold with --max-memory 8 \(a heap of 264 MiB\)/,
    );
    assert.equal(r.status, 3);
    // And a command that reads it on its own main thread, under a heap smaller than its bound: refused, not fatal.
    const grant = spawnSync(process.execPath, ["--max-old-space-size=256", RENYI, "grant", "tiny.json"], {
      cwd: dir,
      encoding: "utf8",
    });
    assert.doesNotMatch(grant.stderr, /FATAL|Isolate|\[node\]/);
    assert.match(
      grant.stderr,
      /^error\[E-RT-RECORDING\]: I cannot read the recording tiny\.json: its calls could take about/,
    );
    assert.equal(grant.status, 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("depth is exact after 500 failures caught in a synchronous loop, and recursion then stops at the limit", () => {
  const dir = workDir();
  try {
    const source = `function failing(n: Int) returns Int or fails with Text
  if n is 0 then fail with "bottom"
  return failing(n - 1) otherwise fail
end

function down(n: Int) returns Int
  if n is 0 then return 0
  return down(n - 1) + 1
end

function loop(deep: Int) returns Int
  var t be 0
  for each i in 1 to 500
    set t to t + (failing(20) otherwise 1)
  end
  return t + down(deep)
end

public function main(deep: Int = 10)
  purpose: Catch many failures in a synchronous function, then recurse.
  needs console
  console.print("{loop(deep)}")
end
`;
    // main, loop and down(21)'s 22 calls: 24 deep.
    const enough = runIn(dir, "d.ry", source, ["--max-depth", "24"], ["--deep", "21"]);
    assert.equal(enough.stdout, "521\n");
    assert.equal(enough.status, 0);
    const short = runIn(dir, "d.ry", undefined, ["--max-depth", "23"], ["--deep", "21"]);
    assert.match(short.stderr, /^error\[E-RT-DEPTH\]: calls nested deeper than 23/);
    assert.doesNotMatch(short.stderr, /RangeError|E-RT-INTERNAL|at .*\.js:/);
    assert.equal(short.status, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("recursion through a lambda under a huge --max-depth ends with E-RT-DEPTH, not a RangeError", () => {
  const dir = workDir();
  try {
    const r = runIn(
      dir,
      "deep.ry",
      `function viamap(n: Int) returns Int
  if n is 0 then return 0
  return [n].map((x) => viamap(x - 1) + 1).fold(0, (a, b) => a + b)
end

public function main()
  purpose: Recurse through a lambda a library function calls.
  needs console
  console.print("{viamap(300000)}")
end
`,
      ["--max-depth", "10000000", "--fuel", "100000000"],
    );
    assert.match(r.stderr, /^error\[E-RT-DEPTH\]: calls nested too deeply for the stack/);
    assert.doesNotMatch(r.stderr, /RangeError|E-RT-INTERNAL/);
    assert.equal(r.status, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a permitted environment answer is not reused for a narrowed function value's grant", () => {
  const dir = workDir();
  try {
    const r = runIn(
      dir,
      "g.ry",
      `public function main()
  purpose: A permitted answer is not reused for a narrowed grant.
  needs console, environment
  for each i in 1 to 3
    let p be environment.get("__proto__")
  end
  let read be function (name: Text) returns Optional<Text>
    needs environment("RENYI_NOT_SET")
    return environment.get(name)
  end
  console.print("{read("RENYI_NOT_SET")}")
  console.print("{read("__proto__")}")
end
`,
    );
    assert.equal(r.stdout, "None\n");
    assert.match(r.stderr, /E-RT-PERMISSION.*environment\("__proto__"\)/);
    assert.equal(r.status, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the strict reader refuses what JSON.parse would read differently from a reviewer", () => {
  const refused = [
    '{"a":1,"\\u0061":2}',
    '{"calls":[{"x":1,"\\u0078":2}]}',
    '{"__proto__":1,"\\u005f_proto__":2}',
    '{"\\/":1,"/":2}',
    '{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"\\u006d":14}',
    '{"a":"\\ud800\\u0041"}',
    '{"a":1.7976931348623159e308}',
    '{"a":100000e304}',
    `{"a":${"9".repeat(400)}}`,
    '\ufeff{"a":1}',
  ];
  for (const text of refused) assert.equal(readStrictJson(Buffer.from(text)).ok, false, text);
  const read = readStrictJson(Buffer.from('{"__proto__":{"x":1}}'));
  assert.ok(read.ok);
  assert.equal(Object.getPrototypeOf(read.value), null);
});

test("code caches and compiled programs swapped between two programs in the cache folder do not run", () => {
  const dir = workDir();
  try {
    const a = `public function main()\n  purpose: Say A.\n  needs console\n  console.print("AAAA")\nend\n`;
    const b = a.replace("Say A.", "Say B.").replace("AAAA", "BBBB");
    assert.equal(runIn(dir, "a.ry", a).stdout, "AAAA\n");
    assert.equal(runIn(dir, "b.ry", b).stdout, "BBBB\n");
    const cache = join(dir, "cache");
    const compiled = readdirSync(cache).filter((f) => /^[0-9a-f]{32}\.cjs$/.test(f));
    assert.equal(compiled.length, 2);
    const v8 = (f: string) => readdirSync(cache).find((g) => g.startsWith(`${f}.`) && g.endsWith(".v8cache"))!;
    const [x, y] = compiled as [string, string];
    const swap = (p: string, q: string) => {
      copyFileSync(join(cache, p), join(dir, "tmp"));
      copyFileSync(join(cache, q), join(cache, p));
      copyFileSync(join(dir, "tmp"), join(cache, q));
    };
    swap(v8(x), v8(y));
    swap(x, y);
    assert.equal(runIn(dir, "a.ry", undefined).stdout, "AAAA\n");
    assert.equal(runIn(dir, "b.ry", undefined).stdout, "BBBB\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("fuel is exact through concurrent tasks, callbacks, folds and loops kept in locals: N finishes, N-1 stops", () => {
  const dir = workDir();
  try {
    const source = `function work(n: Int) returns Int
  var t be 0
  for each i in 1 to n
    set t to t + i
  end
  return t
end

function slowwork(n: Int) returns Int
  needs time
  time.sleep(time.milliseconds(3 - n))
  let xs be [1, 2, 3].map((x) => work(x * n * 500))
  time.sleep(time.milliseconds(n))
  return xs.fold(0, (a, b) => a + b) + work(n * 700)
end

public function main()
  purpose: Concurrent tasks.
  needs console, time
  run concurrently
    let a be slowwork(1)
    let b be slowwork(2)
  end
  let squares be from n in [1, 2, 3] concurrently at most 2 at a time select slowwork(n)
  console.print("{a} {b} {squares}")
end
`;
    // Found by bisection (2026-12-06); a change of what a step is changes it.
    const steps = 133717;
    const enough = runIn(dir, "f.ry", source, ["--fuel", String(steps)]);
    assert.equal(enough.stdout, "1996850 7983700 [1996850, 7983700, 17960550]\n");
    assert.equal(enough.status, 0);
    const short = runIn(dir, "f.ry", undefined, ["--fuel", String(steps - 1)]);
    assert.match(short.stderr, /^error\[E-RT-FUEL\]/);
    assert.equal(short.status, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
