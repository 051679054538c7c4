// `renyi run`'s compile path: one CommonJS file (dist/cli/compile-bundled.cjs)
// loaded with the V8 code cache the build made for it (cli/cache/code-cache.cts,
// scripts/compile-cache.mjs). The build's cache must fit the Node that built
// it; a cache that is damaged, cut short or not a cache at all costs a compile,
// never a run, and is replaced by a whole one in the cache folder.

import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { writeCached } from "../cli/cache/cache.cjs";
import { Refusal } from "../cli/host/refusal.cjs";
import { requireWithCaches, sealCodeCache, sourceKey } from "../cli/cache/code-cache.cjs";
import { ROOT } from "./golden.js";
import { damagedCaches } from "./support.js";

const FILE = fileURLToPath(new URL("../cli/compile-bundled.cjs", import.meta.url));
const SHIPPED = `${FILE}.v8cache`;

type CompilePath = typeof import("../cli/cache/compile-path.js");

/** Compiles examples/weather.ry with a loaded compile path, into a cache folder of its own. */
async function compileWith(path: CompilePath, folder: string): Promise<boolean> {
  process.env["RENYI_CACHE_DIR"] = folder;
  const program = path.loadProgram(join(ROOT, "examples", "weather.ry"));
  assert.deepEqual(program.problems, []);
  const result = await path.compileIntoCache({
    modules: program.modules,
    entry: program.entry,
    key: "weather",
    runtime: join(ROOT, "dist", "runtime.cjs"),
    toolchain: [],
    narrate: false,
  });
  return result.compiled;
}

test("the build's code cache of the compile path fits this Node, and nothing more is kept", async () => {
  const folder = mkdtempSync(join(tmpdir(), "renyi-compile-path-"));
  try {
    const own = join(folder, "own.v8cache");
    const loaded = requireWithCaches(FILE, SHIPPED, own);
    assert.equal(loaded.stale, false, "V8 took the cache the build made");
    assert.equal(await compileWith(loaded.exports as CompilePath, folder), true);
    loaded.keep();
    assert.equal(existsSync(own), false, "no cache of its own is written when the build's fits");
  } finally {
    rmSync(folder, { recursive: true, force: true });
    rmSync(`${folder}.key`, { force: true });
  }
});

test("a damaged, cut or foreign cache of the compile path costs a compile, never a run, and a whole one is kept", async () => {
  const folder = mkdtempSync(join(tmpdir(), "renyi-compile-path-"));
  try {
    const good = readFileSync(SHIPPED);
    const damaged = damagedCaches(good);
    for (const [what, bytes] of damaged) {
      const shipped = join(folder, "shipped.v8cache");
      const own = join(folder, `own-${damaged.findIndex(([w]) => w === what)}.v8cache`);
      writeFileSync(shipped, bytes);
      const loaded = requireWithCaches(FILE, shipped, own);
      assert.equal(loaded.stale, true, `${what}: taken for no cache`);
      assert.equal(await compileWith(loaded.exports as CompilePath, folder), true, `${what}: the program compiles`);
      loaded.keep();
      assert.ok(existsSync(own), `${what}: a cache of its own is kept`);
      // The next load takes the cache kept, whatever the damaged one still says.
      const again = requireWithCaches(FILE, shipped, own);
      assert.equal(again.stale, false, `${what}: the kept cache fits`);
      assert.equal(await compileWith(again.exports as CompilePath, folder), true);
      // A kept cache damaged in turn is refused the same way.
      writeFileSync(own, damaged[0]![1]);
      assert.equal(
        requireWithCaches(FILE, shipped, own).stale,
        true,
        `${what}: a damaged kept cache is taken for none`,
      );
    }
    console.log(`compile path: ${damaged.length} damaged caches, each taken for none and replaced`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
    rmSync(`${folder}.key`, { force: true });
  }
});

test("the build's cache is sealed for its source: a cache made for another source of the same length is taken for none", () => {
  const folder = mkdtempSync(join(tmpdir(), "renyi-compile-path-"));
  try {
    const data = readFileSync(SHIPPED).subarray(32);
    const source = readFileSync(FILE, "utf8");
    // The same cache, sealed for the source as it is and for one character changed.
    const right = join(folder, "right.v8cache");
    const other = join(folder, "other.v8cache");
    writeFileSync(right, sealCodeCache(data, sourceKey(source)));
    const changed = source.replace("MAX_NESTING = 128", "MAX_NESTING = 100");
    assert.ok(changed !== source && changed.length === source.length);
    writeFileSync(other, sealCodeCache(data, sourceKey(changed)));
    assert.equal(requireWithCaches(FILE, right, undefined).stale, false);
    assert.equal(
      requireWithCaches(FILE, other, undefined).stale,
      true,
      "V8 alone would have taken it: it checks the length",
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
    rmSync(`${folder}.key`, { force: true });
  }
});

test("a cache of its own that is damaged is let go when the build's fits; what is no file is never read", () => {
  const folder = mkdtempSync(join(tmpdir(), "renyi-compile-path-"));
  try {
    const own = join(folder, "own.v8cache");
    writeFileSync(own, Buffer.from("damaged ".repeat(100)));
    assert.equal(requireWithCaches(FILE, SHIPPED, own).stale, false, "the build's cache is taken");
    assert.equal(existsSync(own), false, "the damaged one is removed, not read at every compile");
    // A FIFO would block a read for ever, /dev/zero would never end, a folder cannot be read.
    const fifo = join(folder, "fifo.v8cache");
    execFileSync("mkfifo", [fifo]);
    const zero = join(folder, "zero.v8cache");
    symlinkSync("/dev/zero", zero);
    const dir = join(folder, "dir.v8cache");
    mkdirSync(dir);
    for (const path of [fifo, zero, dir]) {
      assert.equal(requireWithCaches(FILE, path, undefined).stale, true, `${path}: taken for no cache`);
      assert.equal(requireWithCaches(FILE, SHIPPED, path).stale, false, `${path}: the build's taken instead`);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
    rmSync(`${folder}.key`, { force: true });
  }
});

test("a compiled program the cache folder cannot take is refused with a clear error, and leaves no temporary file", () => {
  const folder = mkdtempSync(join(tmpdir(), "renyi-compile-path-"));
  try {
    process.env["RENYI_CACHE_DIR"] = folder;
    // A folder where the program's map would go: the rename onto it fails.
    mkdirSync(join(folder, "k.cjs.map"));
    assert.throws(
      () => writeCached("k", "code", "map"),
      (e: unknown) =>
        e instanceof Refusal &&
        /cannot write the compiled program into the cache folder .* \(E[A-Z]+\); set RENYI_CACHE_DIR/.test(e.message),
    );
    assert.deepEqual(readdirSync(folder), ["k.cjs.map"], "no temporary file is left");
  } finally {
    rmSync(folder, { recursive: true, force: true });
    rmSync(`${folder}.key`, { force: true });
  }
});
