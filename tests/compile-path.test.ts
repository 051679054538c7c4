// `renyi run`'s compile path: one CommonJS file (dist/cli/compile-bundled.cjs)
// loaded with the V8 code cache the build made for it (cli/code-cache.cts,
// scripts/compile-cache.mjs). The build's cache must fit the Node that built
// it; a cache that is damaged, cut short or not a cache at all costs a compile,
// never a run, and is replaced by a whole one in the cache folder.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { requireWithCaches } from "../cli/code-cache.cjs";
import { ROOT } from "./golden.js";

const FILE = fileURLToPath(new URL("../cli/compile-bundled.cjs", import.meta.url));
const SHIPPED = `${FILE}.v8cache`;

type CompilePath = typeof import("../cli/compile-path.js");

/** Compiles examples/weather.ry with a loaded compile path, into a cache folder of its own. */
async function compileWith(path: CompilePath, folder: string): Promise<boolean> {
  process.env["RENYI_CACHE_DIR"] = folder;
  const program = path.loadProgram(join(ROOT, "examples", "weather.ry"));
  assert.deepEqual(program.problems, []);
  const result = await path.compileIntoCache({ modules: program.modules, entry: program.entry, key: "weather", runtime: join(ROOT, "dist", "runtime.cjs"), toolchain: [], narrate: false });
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
  }
});

test("a damaged, cut or foreign cache of the compile path costs a compile, never a run, and a whole one is kept", async () => {
  const folder = mkdtempSync(join(tmpdir(), "renyi-compile-path-"));
  try {
    const good = readFileSync(SHIPPED);
    const flipped = Buffer.from(good);
    for (let i = 100; i < flipped.length; i += 997) flipped[i]! ^= 0x5a;
    const damaged: [string, Buffer][] = [
      ["bytes changed through the cache", flipped],
      ["cut in half", good.subarray(0, good.length >> 1)],
      ["its seal alone", good.subarray(0, 32)],
      ["empty", Buffer.alloc(0)],
      ["not a cache", Buffer.from("renyi ".repeat(2000))],
    ];
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
      writeFileSync(own, flipped);
      assert.equal(requireWithCaches(FILE, shipped, own).stale, true, `${what}: a damaged kept cache is taken for none`);
    }
    console.log(`compile path: ${damaged.length} damaged caches, each taken for none and replaced`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
