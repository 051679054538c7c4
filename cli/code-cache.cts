// Loading CommonJS modules in the program's worker thread as Node's require
// would, but with a V8 code cache kept in the cache folder: the runtime (about
// half of its 6 ms load was compiling it) and the programs `renyi run` compiled
// (a 5,000-line program's bundle took 13-19 ms to load, 5-7 with its cache),
// on the path of every run (bench/RESULTS.md, start-up). Node 22 does the same
// for every module with module.enableCompileCache(); Node 20 has no such switch.
//
// A module is put in require's cache under its real path, so that a program's
// `require` of the runtime, and the ES module runtime.js that re-exports it,
// find this instance and load no other. Code compiled this way cannot import();
// the runtime imports through dist/runtime-import.cjs, which Node loads itself,
// and compiled programs never import.
//
// V8 checks a cache against its own version and flags, and rejects one that
// does not fit, or that is damaged (the module then compiles as usual and the
// cache is written again); it checks the source only by its length, so a
// cache's name says which source it is for: the build's hash for the runtime,
// the bundle's own content-addressed name for a program. A cache is no new way
// in: whoever can write the cache folder can already write the compiled
// programs kept there.

import { readFileSync, realpathSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import { cacheDirectory, writeAtomically } from "./cache.cjs";
import { BUILD_ID } from "./version.cjs";

type ModuleFunction = (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;

/** The runtime (dist/runtime.cjs), with its code cache named after this build. */
export function loadRuntime(): unknown {
  const file = realpathSync(join(__dirname, "..", "runtime.cjs"));
  let cacheFile: string | undefined;
  try {
    if (BUILD_ID !== "unknown") cacheFile = join(cacheDirectory(), `runtime-${BUILD_ID}-${process.version}-${process.arch}.v8cache`);
  } catch {
    // No cache folder (the main thread says so): the runtime compiles as usual.
  }
  return requireWithCodeCache(file, cacheFile);
}

/** A program `renyi run` compiled (`KEY.cjs` in the cache folder), with its code cache beside it. */
export function loadProgram(file: string): unknown {
  return requireWithCodeCache(file, `${file}.${process.version}-${process.arch}.v8cache`);
}

function requireWithCodeCache(file: string, cacheFile: string | undefined): unknown {
  const source = readFileSync(file, "utf8");
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile !== undefined) cachedData = readFileSync(cacheFile);
  } catch {
    // The first load: the cache is written below.
  }
  // The function Node wraps every CommonJS module in; the source starts on the wrapper's
  // first line, so that the module's line numbers (and its source map) stay its own.
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
      // Without a cache the next load compiles again; nothing is lost.
    }
  }
  return module.exports;
}
