// Makes dist/cli/compile-bundled.cjs.v8cache (and, below, run-bundled.cjs.v8cache):
// the V8 code cache of `renyi run`'s compile path (cli/cache/compile-path.ts),
// made after compiling the examples with it, so that it holds the code of every function a compile runs and not only the
// module's top level. cli/cache/code-cache.cts loads the compile path with it; a Node
// that rejects it (another version, other V8 flags) compiles as usual and keeps
// a cache of its own in the cache folder. Loaded and made the way code-cache.cts
// loads it (the same wrapper, so the same source as far as V8 can tell), and
// sealed with the hash of its bytes and of the source it is for, as that file says.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const dist = join(root, "dist");
// Compiled programs go to a folder of their own, never the user's cache.
const scratch = mkdtempSync(join(tmpdir(), "renyi-compile-cache-"));
process.env["RENYI_CACHE_DIR"] = scratch;
try {
  const require = createRequire(import.meta.url);
  const { requireWithCachedData, sealCodeCache, sourceKey } = require(join(dist, "cli", "cache", "code-cache.cjs"));
  const file = join(dist, "cli", "compile-bundled.cjs");
  const source = readFileSync(file, "utf8");
  const loaded = requireWithCachedData(file, source, undefined);
  const { loadProgram, compileIntoCache } = loaded.exports;
  const examples = readdirSync(join(root, "examples"))
    .filter((name) => name.endsWith(".ry"))
    .sort();
  let compiled = 0;
  for (const name of examples) {
    const program = loadProgram(join(root, "examples", name));
    for (const narrate of [false, true]) {
      const result = await compileIntoCache({
        modules: program.modules,
        entry: program.entry,
        key: `${program.entry}-${narrate}`,
        runtime: join(dist, "runtime.cjs"),
        toolchain: [],
        narrate,
      });
      if (result.compiled) compiled++;
    }
  }
  if (compiled === 0) throw new Error("no example compiled: the code cache would hold nothing of the compiler");
  writeFileSync(`${file}.v8cache`, sealCodeCache(loaded.script.createCachedData(), sourceKey(source)));
} finally {
  rmSync(scratch, { recursive: true, force: true });
  // The key that sealed what was compiled there is kept beside the folder (cli/cache/sealing-key.cts).
  rmSync(`${scratch}.key`, { force: true });
}

// Makes dist/cli/run-bundled.cjs.v8cache the same way: the code cache of `renyi run`'s own
// code on the main thread, made after it has run examples/hello.ry twice (compiled, then from
// the cache), so that it holds the functions of both paths. In a process of its own, whose
// output (the program's) is not the build's.
const makeRunCache = `
const { readFileSync, writeFileSync } = require("node:fs");
const { requireWithCachedData, sealCodeCache, sourceKey } = require(${JSON.stringify(join(dist, "cli", "cache", "code-cache.cjs"))});
const file = ${JSON.stringify(join(dist, "cli", "run-bundled.cjs"))};
const source = readFileSync(file, "utf8");
const loaded = requireWithCachedData(file, source, undefined);
(async () => {
  for (let run = 0; run < 2; run++) {
    const code = await loaded.exports.runCommand([${JSON.stringify(join(root, "examples", "hello.ry"))}]);
    if (code !== 0) throw new Error("hello.ry ended with " + code);
  }
  writeFileSync(file + ".v8cache", sealCodeCache(loaded.script.createCachedData(), sourceKey(source)));
  process.exit(0);
})();
`;
const runScratch = mkdtempSync(join(tmpdir(), "renyi-run-cache-"));
try {
  const made = spawnSync(process.execPath, ["-e", makeRunCache], {
    env: { ...process.env, RENYI_CACHE_DIR: runScratch },
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  if (made.status !== 0) throw new Error(`the code cache of run-bundled.cjs was not made: ${made.stderr}`);
} finally {
  rmSync(runScratch, { recursive: true, force: true });
  rmSync(`${runScratch}.key`, { force: true });
}
