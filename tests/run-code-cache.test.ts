// `renyi run`'s own code on the main thread: one CommonJS file
// (dist/cli/run-bundled.cjs), loaded with the V8 code cache the build made for
// it (cli/cache/code-cache.cts, scripts/compile-cache.mjs). The build's cache
// must fit the Node that built it; one that is damaged, cut short, not a cache
// or made for another source is taken for none, and the file compiles as usual.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { requireWithCaches, sealCodeCache, sourceKey } from "../cli/cache/code-cache.cjs";
import { damagedCaches } from "./support.js";

const FILE = fileURLToPath(new URL("../cli/run-bundled.cjs", import.meta.url));
const SHIPPED = `${FILE}.v8cache`;

type RunCommand = typeof import("../cli/commands/run.js");

test("the build's code cache of renyi run's own code fits this Node", () => {
  const loaded = requireWithCaches(FILE, SHIPPED, undefined);
  assert.equal(loaded.stale, false, "V8 took the cache the build made");
  assert.equal(typeof (loaded.exports as RunCommand).runCommand, "function");
});

test("a damaged, cut, foreign or other source's cache of renyi run's own code is taken for none", () => {
  const folder = mkdtempSync(join(tmpdir(), "renyi-run-cache-"));
  try {
    const good = readFileSync(SHIPPED);
    // A cache sealed as the build seals one, but for another source: V8 would take it (same length), the seal does not.
    const source = readFileSync(FILE, "utf8");
    const otherSource = sealCodeCache(good.subarray(32), sourceKey(`${source.slice(0, -1)} `));
    const damaged: [string, Buffer][] = [...damagedCaches(good), ["sealed for another source", otherSource]];
    for (const [what, bytes] of damaged) {
      const shipped = join(folder, "shipped.v8cache");
      writeFileSync(shipped, bytes);
      const loaded = requireWithCaches(FILE, shipped, undefined);
      assert.equal(loaded.stale, true, `${what}: taken for no cache`);
      assert.equal(typeof (loaded.exports as RunCommand).runCommand, "function", `${what}: the code loads`);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
