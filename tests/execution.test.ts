// Execution guarantees, tested through the commands users run: fuel counted
// exactly, depth stopped by the language's limit, builds byte-identical with
// --stable, tampered bundles refused, the compile cache used, Ctrl-C honoured.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { sha256 } from "../cli/bundles/validate.js";
import { ROOT } from "./golden.js";

const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const RENYIC = join(ROOT, "dist", "cli", "renyic.js");
const work = mkdtempSync(join(tmpdir(), "renyi-exec-"));
after(() => rmSync(work, { recursive: true, force: true }));
const cache = join(work, "cache");
const env = { ...process.env, RENYI_CACHE_DIR: cache };

function write(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

function run(command: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [command, ...args], { cwd: work, encoding: "utf8", env });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// Steps, counted by hand (spec/runtime.md, "Fuel"):
//   var total be 0                  2  (the statement, the literal)
//   for each i in 1 to 3            4  (the statement, the range and its two literals)
//     set total to total + i        4 a turn (the statement, +, total, i), 3 turns: 12
//   console.print("{total}")        4  (the statement, the call, the text, total)
// 22 in all.
const counted = write(
  "counted.ry",
  "public function main()\n  purpose: Count to six.\n  needs console\n  var total be 0\n  for each i in 1 to 3\n" +
    '    set total to total + i\n  end\n  console.print("{total}")\nend\n',
);

test("fuel is exact: a program of 22 steps runs on 22 and stops on 21", () => {
  const enough = run(RENYI, "run", "--fuel", "22", counted);
  assert.equal(enough.status, 0, enough.stderr);
  assert.equal(enough.stdout, "6\n");
  const short = run(RENYI, "run", "--fuel", "21", counted);
  assert.equal(short.status, 2);
  assert.match(short.stderr, /E-RT-FUEL/);
  assert.equal(short.stdout, "", "a block's steps are charged before it runs");
});

test("deep recursion stops with E-RT-DEPTH at the limit, and never with JavaScript's stack overflow", () => {
  const deep = write(
    "deep.ry",
    "function down(n: Int) returns Int\n  return down(n + 1) + 1\nend\n\npublic function main()\n" +
      '  purpose: Recurse.\n  needs console\n  console.print("{down(0)}")\nend\n',
  );
  const limited = run(RENYI, "run", "--max-depth", "100", deep);
  assert.equal(limited.status, 2);
  assert.match(limited.stderr, /E-RT-DEPTH\]: calls nested deeper than 100/);
  // Past what the thread's stack holds, the run still ends with the language's error.
  const unlimited = run(RENYI, "run", "--max-depth", "100000000", deep);
  assert.equal(unlimited.status, 2);
  assert.match(unlimited.stderr, /E-RT-DEPTH/);
  assert.doesNotMatch(unlimited.stderr, /RangeError|Maximum call stack/);
});

test("--stable builds are byte-identical; without it the manifest records the time", () => {
  const program = join(ROOT, "examples", "weather.ry");
  const a = join(work, "stable-a");
  const b = join(work, "stable-b");
  assert.equal(run(RENYIC, "build", program, "--out", a, "--stable").status, 0);
  assert.equal(run(RENYIC, "build", program, "--out", b, "--stable").status, 0);
  for (const file of ["weather.mjs", "weather.mjs.map", "weather.grant.json"]) {
    assert.deepEqual(
      readFileSync(join(a, file)),
      readFileSync(join(b, file)),
      `${file} differs between two stable builds`,
    );
  }
  const manifest = JSON.parse(readFileSync(join(a, "weather.grant.json"), "utf8"));
  assert.equal(manifest.built_at, undefined);
  assert.equal(manifest.bundle, sha256(readFileSync(join(a, "weather.mjs"), "utf8")));
  assert.deepEqual(manifest.grant, ["console", 'network.http("api.open-meteo.com") at most 60 per minute']);
  assert.doesNotMatch(
    readFileSync(join(a, "weather.mjs"), "utf8") + readFileSync(join(a, "weather.mjs.map"), "utf8"),
    new RegExp(ROOT.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
    "no absolute paths",
  );
  const c = join(work, "unstable");
  assert.equal(run(RENYIC, "build", program, "--out", c).status, 0);
  assert.match(JSON.parse(readFileSync(join(c, "weather.grant.json"), "utf8")).built_at, /^\d{4}-\d{2}-\d{2}T/);
});

test("a built bundle runs with renyi run and with node; a tampered one is refused", () => {
  const hello = join(ROOT, "examples", "hello.ry");
  // Inside the package, so that node resolves renyi/runtime.
  const out = join(ROOT, "tmp", `bundle-${process.pid}`);
  mkdirSync(out, { recursive: true });
  assert.equal(run(RENYIC, "build", hello, "--out", out, "--stable").status, 0);
  const bundle = join(out, "hello.mjs");
  const viaRenyi = run(RENYI, "run", bundle, "--name", "Ada");
  assert.equal(viaRenyi.status, 0, viaRenyi.stderr);
  assert.equal(viaRenyi.stdout, "Hello, Ada!\n");
  const viaNode = spawnSync(process.execPath, [bundle, "--name", "Bea"], { encoding: "utf8" });
  assert.equal(viaNode.status, 0, viaNode.stderr);
  assert.equal(viaNode.stdout, "Hello, Bea!\n");

  const original = readFileSync(bundle, "utf8");
  // Changed bytes: the manifest's hash no longer matches.
  writeFileSync(bundle, original.replace("Hello", "Howdy"));
  const changed = run(RENYI, "run", bundle);
  assert.equal(changed.status, 3);
  assert.match(changed.stderr, /hash does not match its manifest/);
  // Changed bytes with the manifest updated to match: the validator refuses what was added.
  const manifestPath = join(out, "hello.grant.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  for (const [attack, expected] of [
    [
      original.replace('"renyi/runtime";', '"renyi/runtime";\nimport fs from "node:fs";'),
      /may import only renyi\/runtime/,
    ],
    [original.replace("export const tests", "process.exit(7);\nexport const tests"), /names the global `process`/],
    [original.replace("export const tests", "globalThis.x = 1;\nexport const tests"), /names the global `globalThis`/],
    [
      original.replace("export const tests", 'const m = await import("node:fs");\nexport const tests'),
      /never writes \(ImportExpression\)/,
    ],
    [original.replace("export const tests", 'eval("1");\nexport const tests'), /names the global `eval`/],
  ] as const) {
    writeFileSync(bundle, attack);
    writeFileSync(manifestPath, JSON.stringify({ ...manifest, bundle: sha256(attack) }));
    const refused = run(RENYI, "run", bundle);
    assert.equal(refused.status, 3, attack.slice(0, 80));
    assert.match(refused.stderr, expected);
  }
  rmSync(out, { recursive: true, force: true });
});

test("a second run of an unchanged program does not compile it again", () => {
  const cacheDir = join(work, "cache-test");
  const program = write(
    "cached.ry",
    'public function main()\n  purpose: Print.\n  needs console\n  console.print("cached")\nend\n',
  );
  const runWith = () =>
    spawnSync(process.execPath, [RENYI, "run", program], {
      encoding: "utf8",
      env: { ...process.env, RENYI_CACHE_DIR: cacheDir },
    });
  assert.equal(runWith().stdout, "cached\n");
  const files = readdirSync(cacheDir).filter((f) => f.endsWith(".cjs"));
  assert.equal(files.length, 1);
  const written = statSync(join(cacheDir, files[0]!)).mtimeMs;
  assert.equal(runWith().stdout, "cached\n");
  assert.deepEqual(
    readdirSync(cacheDir).filter((f) => f.endsWith(".cjs")),
    files,
  );
  assert.equal(statSync(join(cacheDir, files[0]!)).mtimeMs, written, "the cached bundle was written again");
  // A changed program is a new entry.
  writeFileSync(
    program,
    'public function main()\n  purpose: Print.\n  needs console\n  console.print("changed")\nend\n',
  );
  assert.equal(runWith().stdout, "changed\n");
  assert.equal(readdirSync(cacheDir).filter((f) => f.endsWith(".cjs")).length, 2);
});

test("an unchanged entry whose modules changed is compiled again: the program index never serves a stale bundle", () => {
  const cacheDir = join(work, "cache-index");
  const folder = join(work, "indexed");
  mkdirSync(folder, { recursive: true });
  const entry = join(folder, "main.ry");
  writeFileSync(
    entry,
    "use words\n\npublic function main()\n  purpose: Print a word.\n  needs console\n" +
      "  console.print(words.word())\nend\n",
  );
  const module = (body: string) => writeFileSync(join(folder, "words.ry"), body);
  const runWith = () =>
    spawnSync(process.execPath, [RENYI, "run", entry], {
      encoding: "utf8",
      env: { ...process.env, RENYI_CACHE_DIR: cacheDir },
    });
  module('public function word() returns Text\n  purpose: A word.\n  return "one"\nend\n');
  assert.equal(runWith().stdout, "one\n");
  assert.equal(
    readdirSync(cacheDir).filter((f) => f.endsWith(".index.json")).length,
    1,
    "the first run records the program's modules",
  );
  assert.equal(runWith().stdout, "one\n");
  module('public function word() returns Text\n  purpose: A word.\n  return "two"\nend\n');
  assert.equal(runWith().stdout, "two\n");
  // The module now brings in a module the index has never seen.
  writeFileSync(
    join(folder, "more.ry"),
    'public function other() returns Text\n  purpose: Another word.\n  return "three"\nend\n',
  );
  module("use more\n\npublic function word() returns Text\n  purpose: A word.\n  return more.other()\nend\n");
  assert.equal(runWith().stdout, "three\n");
  // A module that is gone is reported, not served from the cache.
  rmSync(join(folder, "words.ry"));
  const gone = runWith();
  assert.equal(gone.status, 3);
  assert.match(gone.stderr, /words/);
  module('public function word() returns Text\n  purpose: A word.\n  return "one"\nend\n');
  assert.equal(runWith().stdout, "one\n", "the first version's bundle, found again through the index");
});

test("Ctrl-C cancels a program stuck in a pure loop: exit 130", async () => {
  const spin = write(
    "spin.ry",
    'public function main()\n  purpose: Spin.\n  needs console\n  console.print("spinning")\n  var i be 0\n' +
      "  while true\n    set i to i + 1\n  end\nend\n",
  );
  const child = spawn(process.execPath, [RENYI, "run", spin], { cwd: work, env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
    if (stdout.includes("spinning")) child.kill("SIGINT");
  });
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
  assert.equal(code, 130, stderr);
  assert.match(stderr, /cancelled: interrupted/);
});

test("a program that does not compile is refused with exit 3 and its diagnostics", () => {
  const broken = write(
    "broken.ry",
    'public function main()\n  purpose: Break.\n  needs console\n  console.print(1 + "a")\nend\n',
  );
  const result = run(RENYI, "run", broken);
  assert.equal(result.status, 3);
  assert.match(result.stderr, /E-TYPE-OPERATOR/);
});

/** The least fuel a program runs on, found by bisection. */
function leastFuel(path: string): number {
  let low = 1;
  let high = 400;
  assert.equal(run(RENYI, "run", "--fuel", String(high), path).status, 0);
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (run(RENYI, "run", "--fuel", String(middle), path).status === 0) high = middle;
    else low = middle + 1;
  }
  return low;
}

test("a sort by the row's fields charges, per row, what its keys would take", () => {
  // `sort by n` reads the row itself (1 step a row) and is sorted without a
  // key array; `sort by n * 1` (3 steps a row) takes the keyed path. Three
  // rows: the second needs exactly 3 * (3 - 1) = 6 steps more.
  const program = (key: string) =>
    `public function main()\n  purpose: Sort three numbers.\n  needs console\n` +
    `  let xs be from n in [3, 1, 2] sort by ${key} descending select n\n  console.print("{xs}")\nend\n`;
  const byField = write("sort_field.ry", program("n"));
  const byKey = write("sort_key.ry", program("n * 1"));
  assert.equal(run(RENYI, "run", byField).stdout, "[3, 2, 1]\n");
  assert.equal(run(RENYI, "run", byKey).stdout, "[3, 2, 1]\n");
  assert.equal(leastFuel(byKey) - leastFuel(byField), 6);
});

test("a failure caught by `otherwise` gives back the depth of the calls it left", () => {
  // Each turn fails from 51 calls down; were that depth kept, the second turn
  // would pass the limit of 100. The last line recurses to 92 of the 100.
  // (Each function gives its level back in a `finally`, exactly, even when
  // concurrent tasks interleave; restoring a saved depth where a failure is
  // caught would be cheaper but is wrong when tasks interleave.)
  const program = write(
    "caught_deep.ry",
    [
      "function down(n: Int) returns Int or fails with Text",
      '  if n is 0 then fail with "bottom"',
      "  return down(n - 1) otherwise fail",
      "end",
      "",
      "function count(n: Int) returns Int",
      "  if n is 0 then return 0",
      "  return count(n - 1) + 1",
      "end",
      "",
      "public function main()",
      "  purpose: Fail deep, many times.",
      "  needs console",
      "  var total be 0",
      "  for each i in 1 to 100",
      "    let x be down(50) otherwise 1",
      "    set total to total + x",
      "  end",
      '  console.print("{total} {count(90)}")',
      "end",
      "",
    ].join("\n"),
  );
  const result = run(RENYI, "run", "--max-depth", "100", program);
  assert.equal(result.stderr, "");
  assert.equal(result.stdout, "100 90\n");
  assert.equal(result.status, 0);
  // One level less and the last line passes the limit: the limit is exact.
  const short = run(RENYI, "run", "--max-depth", "91", program);
  assert.equal(short.status, 2);
  assert.match(short.stderr, /E-RT-DEPTH/);
});

test("renyic build reports a program's errors at their line, from another folder too", () => {
  const folder = join(work, "build-errors");
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, "broken.ry"),
    'public function main()\n  purpose: Fail.\n  needs console\n  fail with "boom"\nend\n',
  );
  const result = spawnSync(
    process.execPath,
    [RENYIC, "build", join(folder, "broken.ry"), "--out", join(folder, "out")],
    { encoding: "utf8", env },
  );
  assert.equal(result.status, 3);
  assert.match(result.stderr, /error\[E-FAIL-CANNOT\]/);
  assert.match(result.stderr, /broken\.ry:4:13/);
  assert.match(result.stderr, /4 \|   fail with "boom"/);
  assert.equal(readdirSync(folder).includes("out"), false, "nothing is written");
});

test("output whose reader has gone is dropped: the run goes on to its end, with no error", async () => {
  const program = write(
    "many.ry",
    "public function main()\n  purpose: Print many lines.\n  needs console\n  for each i in 1 to 20000\n" +
      '    console.print("line {i}")\n  end\nend\n',
  );
  const child = spawn(process.execPath, [RENYI, "run", program], { env });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  // The reader takes the first lines and goes away, as `| head` does.
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  assert.equal(code, 0);
  assert.equal(stderr, "");
});

test("the worker keeps a code cache of the runtime; a damaged one is set aside and written again", () => {
  const cacheDir = join(work, "cache-v8");
  const program = write(
    "coded.ry",
    'public function main()\n  purpose: Print.\n  needs console\n  console.print("coded")\nend\n',
  );
  const runWith = () =>
    spawnSync(process.execPath, [RENYI, "run", program], {
      encoding: "utf8",
      env: { ...process.env, RENYI_CACHE_DIR: cacheDir },
    });
  assert.equal(runWith().stdout, "coded\n");
  const caches = readdirSync(cacheDir).filter((f) => f.startsWith("runtime-") && f.endsWith(".v8cache"));
  assert.equal(caches.length, 1, "the first run writes the runtime's cache");
  assert.equal(readdirSync(cacheDir).filter((f) => /\.cjs\..*\.v8cache$/.test(f)).length, 1, "and the program's");
  const path = join(cacheDir, caches[0]!);
  const good = readFileSync(path);
  assert.ok(good.length > 1000);
  assert.equal(runWith().stdout, "coded\n");
  assert.deepEqual(readFileSync(path), good, "a run that uses the cache leaves it as it is");
  // Damaged bytes of the same length: V8 refuses them, the runtime compiles as usual.
  writeFileSync(path, Buffer.alloc(good.length, 7));
  const damaged = runWith();
  assert.equal(damaged.stdout, "coded\n");
  assert.equal(damaged.stderr, "");
  assert.notDeepEqual(readFileSync(path), Buffer.alloc(good.length, 7), "the cache is written again");
  // Damaged inside, where V8 does not look (its header is whole): unchecked, V8 stopped the
  // whole process in its deserializer; the hash each cache is sealed with refuses it.
  const programCache = join(cacheDir, readdirSync(cacheDir).find((f) => /\.cjs\..*\.v8cache$/.test(f))!);
  for (const cache of [path, programCache]) {
    const flipped = Buffer.from(readFileSync(cache));
    for (let i = 200; i < flipped.length; i += 997) flipped[i]! ^= 0x5a;
    writeFileSync(cache, flipped);
    const inside = runWith();
    assert.equal(inside.stdout, "coded\n", inside.stderr);
    assert.equal(inside.stderr, "");
    assert.notDeepEqual(readFileSync(cache), flipped, "the cache is written again");
  }
  // A program loaded from its code cache still crashes at its own line.
  const crashing = write(
    "coded-crash.ry",
    "public function main()\n  purpose: Crash.\n  needs console\n  let zero be 0\n" +
      '  console.print("{10 / zero}")\nend\n',
  );
  const crashWith = () =>
    spawnSync(process.execPath, [RENYI, "run", crashing], {
      encoding: "utf8",
      env: { ...process.env, RENYI_CACHE_DIR: cacheDir },
    });
  const first = crashWith();
  const second = crashWith();
  assert.match(first.stderr, /coded-crash\.ry:5:19/);
  assert.equal(second.stderr, first.stderr);
  assert.ok(readdirSync(cacheDir).filter((f) => /\.cjs\..*\.v8cache$/.test(f)).length >= 2);
});

test("the cache folder may be given relative to where renyi runs; one that cannot be made is refused with a clear error", () => {
  const program = write(
    "cached-relative.ry",
    'public function main()\n  purpose: Print.\n  needs console\n  console.print("relative")\nend\n',
  );
  const relative = spawnSync(process.execPath, [RENYI, "run", program], {
    encoding: "utf8",
    cwd: work,
    env: { ...process.env, RENYI_CACHE_DIR: "relative-cache" },
  });
  assert.equal(relative.stdout, "relative\n", relative.stderr);
  assert.ok(readdirSync(join(work, "relative-cache")).some((f) => f.endsWith(".cjs")));
  writeFileSync(join(work, "a-file"), "not a folder");
  const blocked = spawnSync(process.execPath, [RENYI, "run", program], {
    encoding: "utf8",
    env: { ...process.env, RENYI_CACHE_DIR: join(work, "a-file", "cache") },
  });
  assert.equal(blocked.status, 3);
  assert.match(
    blocked.stderr,
    /^error: I cannot make the cache folder .*a-file\/cache \(ENOTDIR\); set RENYI_CACHE_DIR/,
  );
  assert.doesNotMatch(blocked.stderr, /\n\s+at /, "no JavaScript stack");
  const build = spawnSync(process.execPath, [RENYIC, "build", program, "--out", join(work, "a-file", "out")], {
    encoding: "utf8",
    env,
  });
  assert.equal(build.status, 3);
  assert.match(build.stderr, /^error: I cannot write the bundle into .*a-file\/out \(ENOTDIR\)\n$/);
});

test("concurrent tasks each count their own depth; an effectful recursion still stops at the limit", () => {
  const wide = write(
    "wide.ry",
    `function slow_double(n: Int) returns Int
  purpose: Wait, then double.
  needs time
  time.sleep(time.milliseconds(5))
  return n * 2
end

function deep(n: Int) returns Int
  purpose: Recur through waits.
  needs time
  time.sleep(time.milliseconds(0))
  if n is 0
    return 0
  end
  return deep(n - 1) + 1
end

public function main(depth: Int)
  purpose: Many tasks at once, each a call deep, then one deep recursion.
  needs console, time
  let doubled be
    from n in list.range(0, 600)
    concurrently
    select slow_double(n)
  let again be [1, 2, 3].map(function (n: Int) returns Int
    needs time
    return slow_double(n)
  end)
  let deeper be
    from n in [depth, depth]
    concurrently
    select deep(n)
  console.print("{doubled.count()} {again} {deeper}")
end
`,
  );
  const run = (maxDepth: number, depth: number) =>
    spawnSync(process.execPath, [RENYI, "run", "--max-depth", String(maxDepth), wide, "--depth", String(depth)], {
      encoding: "utf8",
      env,
    });
  // 600 tasks in flight at once, each two calls deep, under a limit of 50.
  const ok = run(50, 40);
  assert.equal(ok.stderr, "");
  assert.equal(ok.stdout, "600 [2, 4, 6] [40, 40]\n");
  // main, then deep(48) down to deep(0): 50 calls, the limit exactly; two such at once are each 50 deep.
  assert.equal(run(50, 48).stdout, "600 [2, 4, 6] [48, 48]\n");
  const tooDeep = run(50, 49);
  assert.equal(tooDeep.status, 2);
  assert.match(tooDeep.stderr, /error\[E-RT-DEPTH\]: calls nested deeper than 50/);
});

test("the terminal's input is read only by a program that reads it", async () => {
  const { openSync, readSync, closeSync } = await import("node:fs");
  const input = join(work, "input.txt");
  writeFileSync(input, "line one\nline two\n");
  const hello = write(
    "never-reads.ry",
    'public function main()\n  purpose: Print.\n  needs console\n  console.print("hi")\nend\n',
  );
  const echo = write(
    "reads.ry",
    "public function main()\n  purpose: Echo a line.\n  needs console\n  let line be console.read_line()\n" +
      '  console.print("{line}")\nend\n',
  );
  // The child's input shares the file's position with this process: what it reads, this one no longer can.
  const leftAfter = (program: string): { stdout: string; left: string } => {
    const fd = openSync(input, "r");
    try {
      const result = spawnSync(process.execPath, [RENYI, "run", program], {
        encoding: "utf8",
        env,
        stdio: [fd, "pipe", "pipe"],
      });
      const buffer = Buffer.alloc(100);
      const n = readSync(fd, buffer, 0, 100, null);
      return { stdout: result.stdout, left: buffer.subarray(0, n).toString() };
    } finally {
      closeSync(fd);
    }
  };
  assert.deepEqual(leftAfter(hello), { stdout: "hi\n", left: "line one\nline two\n" });
  const read = leftAfter(echo);
  assert.equal(read.stdout, 'Some("line one")\n');
  assert.notEqual(read.left, "line one\nline two\n");
});
