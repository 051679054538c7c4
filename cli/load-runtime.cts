// Loads the runtime (dist/runtime.cjs) in the program's worker thread as
// Node's require would, but with a V8 code cache kept in the cache folder:
// compiling the runtime's 100 KB took about half of its 6 ms load, on the path
// of every run (bench/RESULTS.md, start-up). Node 22 does the same for every
// module with module.enableCompileCache(); Node 20 has no such switch.
//
// The module is put in require's cache under its real path, so that the
// program's `require` of the runtime, and the ES module runtime.js that
// re-exports it, find this instance and load no other. Code compiled this way
// cannot import(); the runtime imports through dist/runtime-import.cjs, which
// Node loads itself.
//
// V8 checks a cache against its own version and flags, and rejects one that
// does not fit, or that is damaged (the runtime then compiles as usual and the
// cache is written again); it checks the source only by its length, so the
// cache's name holds the build's hash. A cache is no new way in: whoever can
// write the cache folder can already write the compiled programs kept there.

import { readFileSync, realpathSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import { cacheDirectory, writeAtomically } from "./cache.cjs";
import { BUILD_ID } from "./version.cjs";

type ModuleFunction = (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;

export function loadRuntime(): unknown {
  const file = realpathSync(join(__dirname, "..", "runtime.cjs"));
  const source = readFileSync(file, "utf8");
  let cacheFile: string | undefined;
  let cachedData: Buffer | undefined;
  try {
    if (BUILD_ID !== "unknown") cacheFile = join(cacheDirectory(), `runtime-${BUILD_ID}-${process.version}-${process.arch}.v8cache`);
    if (cacheFile !== undefined) cachedData = readFileSync(cacheFile);
  } catch {
    // The first run of this build (the cache is written below), or no cache folder
    // (the main thread says so): the runtime compiles as usual.
  }
  // The function Node wraps every CommonJS module in; the source starts on the wrapper's
  // first line, so that the runtime's line numbers stay its own.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
  const script = new Script(wrapped, { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
  const module = new Module(file);
  module.filename = file;
  (script.runInThisContext() as ModuleFunction).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  require.cache[file] = module;
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    try {
      writeAtomically(cacheFile, script.createCachedData());
    } catch {
      // Without a cache the next run compiles the runtime again; nothing is lost.
    }
  }
  return module.exports;
}
