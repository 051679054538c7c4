// A program's V8 code cache is bound to the compiled program it was made from
// and to a key kept outside the cache folder (spec/runtime.md, section 6, and
// spec/security.md, "The cache folder"): V8 tells sources apart by their
// length alone, so a cache forged for other code of the same length would run
// that code in place of the program. A forged cache, sealed the way a plain
// hash seals it, and another program's own cache copied in its place, are both
// refused: the run is the program's. Real child processes, a real cache folder.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { RENYI } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-code-cache-"));
const cache = join(work, "cache");
after(() => rmSync(work, { recursive: true, force: true }));

function run(file: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [RENYI, "run", file], {
      cwd: work,
      env: { ...process.env, RENYI_CACHE_DIR: cache },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** Two programs whose compiled forms have the same length: only the word printed differs. */
function program(word: string): string {
  return `public function main()
  purpose: Say which program this is.
  needs console
  console.print("${word}")
end
`;
}

/** The compiled program in the cache folder that prints `word`, and its code cache. */
function compiled(word: string): { cjs: string; codeCache: string } {
  const cjs = readdirSync(cache)
    .filter((f) => f.endsWith(".cjs"))
    .map((f) => join(cache, f))
    .find((f) => readFileSync(f, "utf8").includes(`"${word}"`));
  assert.ok(cjs !== undefined, `no compiled program prints ${word}`);
  return { cjs, codeCache: `${cjs}.${process.version}-${process.arch}.v8cache` };
}

/**
 * A code cache V8 takes for `cjs` (the same length) that runs other code: it
 * writes `marker`. Made in a plain node process, as the worker compiles, and
 * sealed as a plain hash seals it: SHA-256 of the bytes in front.
 */
const FORGE = `
const { Script } = require("node:vm");
const { createHash } = require("node:crypto");
const { readFileSync, writeFileSync } = require("node:fs");
const [cjs, marker, out] = process.argv.slice(1);
const real = readFileSync(cjs, "utf8");
let forged = 'require("node:fs").writeFileSync(' + JSON.stringify(marker) + ', "forged"); exports.main = async () => undefined;';
forged += " ".repeat(real.length - forged.length);
const wrapped = "(function (exports, require, module, __filename, __dirname) { " + forged + "\\n})";
const script = new Script(wrapped, { filename: cjs });
script.runInThisContext().call({}, {}, () => ({ writeFileSync() {} }), {}, cjs, "");
const data = script.createCachedData();
writeFileSync(out, Buffer.concat([createHash("sha256").update("").update(data).digest(), data]));
`;

test("a forged code cache, or another program's, is refused: the run is the program's own", async () => {
  writeFileSync(join(work, "real.ry"), program("real"));
  writeFileSync(join(work, "fake.ry"), program("fake"));
  for (const file of ["real.ry", "real.ry", "fake.ry"]) assert.equal((await run(file)).status, 0);
  const real = compiled("real");
  const fake = compiled("fake");
  assert.equal(statSync(real.cjs).size, statSync(fake.cjs).size);
  assert.ok(existsSync(real.codeCache) && existsSync(fake.codeCache));

  // The other program's own cache, as it was written.
  copyFileSync(fake.codeCache, real.codeCache);
  const copied = await run("real.ry");
  assert.deepEqual([copied.status, copied.stdout], [0, "real\n"], copied.stderr);

  // A cache of other code, of the program's length, sealed with a plain hash.
  const marker = join(work, "forged-code-ran");
  const forged = spawnSync(process.execPath, ["-e", FORGE, real.cjs, marker, real.codeCache], { encoding: "utf8" });
  assert.equal(forged.status, 0, forged.stderr);
  const ran = await run("real.ry");
  assert.equal(existsSync(marker), false, "the forged cache's code ran");
  assert.deepEqual([ran.status, ran.stdout], [0, "real\n"], ran.stderr);
  // And again, with whatever cache that run left.
  const again = await run("real.ry");
  assert.equal(existsSync(marker), false);
  assert.deepEqual([again.status, again.stdout], [0, "real\n"], again.stderr);
});

test("the key that seals code caches is kept beside the cache folder, not in it, readable by its owner alone", async () => {
  writeFileSync(join(work, "hello.ry"), program("hello"));
  assert.equal((await run("hello.ry")).status, 0);
  const key = `${cache}.key`;
  assert.ok(existsSync(key), readdirSync(dirname(cache)).join(", "));
  assert.equal(statSync(key).mode & 0o777, 0o600);
  assert.ok(!readdirSync(cache).some((f) => f.endsWith(".key")));
  // A key others could read is no key: the run compiles from the source, and keeps no cache.
  chmodSync(key, 0o644);
  const { codeCache } = compiled("hello");
  rmSync(codeCache);
  const open = await run("hello.ry");
  assert.deepEqual([open.status, open.stdout], [0, "hello\n"], open.stderr);
  assert.equal(existsSync(codeCache), false);
  assert.equal(statSync(key).mode & 0o777, 0o644, "the key file is left as it is");
});
