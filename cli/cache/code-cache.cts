// Loading CommonJS modules as Node's require would, but with a V8 code cache:
// in the program's worker thread, the runtime (about half of its 6 ms load was
// compiling it) and the programs `renyi run` compiled (a 5,000-line program's
// bundle took 13-19 ms to load, 5-7 with its cache), on the path of every run,
// their caches kept in the cache folder; on the main thread, the compile path
// of a program not yet compiled (compile-path.ts), its cache made by the build
// (bench/RESULTS.md, start-up). Node 22 does the same
// for every module with module.enableCompileCache(); Node 20 has no such switch.
//
// A module is put in require's cache under its real path, so that a program's
// `require` of the runtime, and the ES module runtime.js that re-exports it,
// find this instance and load no other. Code compiled this way cannot import();
// the runtime imports through dist/runtime-import.cjs, which Node loads itself,
// and compiled programs never import.
//
// V8 checks a cache against its own version and flags, and rejects one that
// does not fit (the module then compiles as usual and the cache is written
// again); it checks the source only by its length, and runs the code a cache
// holds, whatever the source says: a cache made from other code of the same
// length runs that code. Nor does it check the cache's bytes, and a damaged
// cache stopped the process. So every cache in the cache folder is sealed with
// an HMAC under a key kept outside that folder (sealing-key.cts), of the
// source it is for and its bytes: the runtime's by the build's hash, a
// program's and the compile path's by the SHA-256 of the source loaded. One
// whose seal does not match is taken for none, and without the key no cache is
// read or written. The build's own cache of the compile path, kept in the
// installation beside the file it is for, is sealed with a plain hash: who can
// write there can write the file too.

import { createHash, timingSafeEqual } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, rmSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import { cacheDirectory, writeAtomically } from "./cache.cjs";
import { sealingKey, sealOf } from "./sealing-key.cjs";
import { BUILD_ID } from "../host/version.cjs";
import { COMPILE_PATH, RUN_BUNDLED, RUNTIME_PATH } from "../host/places.cjs";

type ModuleFunction = (
  exports: unknown,
  require: NodeJS.Require,
  module: Module,
  filename: string,
  dirname: string,
) => void;

/** The runtime (dist/runtime.cjs), with its code cache named after this build. */
export function loadRuntime(): unknown {
  const file = realpathSync(RUNTIME_PATH);
  let cacheFile: string | undefined;
  try {
    if (BUILD_ID !== "unknown")
      cacheFile = join(cacheDirectory(), `runtime-${BUILD_ID}-${process.version}-${process.arch}.v8cache`);
  } catch {
    // No cache folder (the main thread says so): the runtime compiles as usual.
  }
  // The runtime is the installation's: the build's hash says which source it is.
  const source = readFileSync(file, "utf8");
  return requireWithCodeCache(file, source, cacheFile, `runtime ${BUILD_ID} ${file}`);
}

/**
 * A program `renyi run` compiled (`KEY.cjs` in the cache folder), from its text
 * `source` as the main thread read it and checked it against its seal (the file
 * is not read again: what was checked is what runs), under the file's name (for
 * its source map), with its code cache beside it, sealed for that text.
 */
export function loadProgram(file: string, source: string): unknown {
  return requireWithCodeCache(
    file,
    source,
    `${file}.${process.version}-${process.arch}.v8cache`,
    `program ${sourceKey(source)}`,
  );
}

function requireWithCodeCache(file: string, source: string, cacheFile: string | undefined, binding: string): unknown {
  const key = cacheFile === undefined ? undefined : sealingKey(dirname(cacheFile));
  const kept = key === undefined ? undefined : unsealKept(readCache(cacheFile), key, binding);
  const loaded = requireWithCachedData(file, source, kept);
  if (key !== undefined && loaded.stale)
    keepCodeCache(cacheFile!, loaded.script, (data) => sealKept(data, key, binding));
  return loaded.exports;
}

/**
 * The compile path of `renyi run` (compile-path.ts, bundled as compile-bundled.cjs),
 * with the code cache the build made beside it, or, where this Node rejects that
 * one, a cache of its own in the cache folder. `keep` is called once the program
 * is compiled: a cache made then holds every function the compile ran, where one
 * made at load would hold the module's top level alone.
 */
export function loadCompilePath(): CodeCached {
  const file = COMPILE_PATH;
  let own: string | undefined;
  try {
    // V8 refuses a cache made under other flags: each set of flags keeps its own.
    const flags = createHash("sha256")
      .update(`${process.execArgv.join(" ")}\n${process.env["NODE_OPTIONS"] ?? ""}`)
      .digest("hex")
      .slice(0, 8);
    if (BUILD_ID !== "unknown")
      own = join(cacheDirectory(), `compiler-${BUILD_ID}-${process.version}-${process.arch}-${flags}.v8cache`);
  } catch {
    // No cache folder: the compile path compiles as usual.
  }
  return requireWithCaches(file, `${file}.v8cache`, own);
}

/**
 * `renyi run`'s own code on the main thread (run-bundled.cjs), with the code cache the build
 * made beside it after running a program twice (scripts/compile-cache.mjs), sealed as the
 * compile path's is: about a third of the time it took to load. A Node that rejects it compiles
 * the file as usual; no cache of its own is kept for it.
 */
export function loadRunCommand(): unknown {
  return requireWithCaches(RUN_BUNDLED, `${RUN_BUNDLED}.v8cache`, undefined).exports;
}

export interface CodeCached {
  readonly exports: unknown;
  /** Whether no cache was given or V8 took none of them: `keep` then writes one. */
  readonly stale: boolean;
  readonly keep: () => void;
}

/**
 * A module with the cache `own` when there is one that is whole, else `shipped`; `keep`
 * writes `own` when neither fit. `shipped`, the build's, is sealed with the source's hash
 * (`sealCodeCache`); `own`, in the cache folder, under the key kept outside it (`sealKept`).
 */
export function requireWithCaches(file: string, shipped: string, own: string | undefined): CodeCached {
  const source = readFileSync(file, "utf8");
  // Sealed with the source's hash too: V8 tells sources apart by their length alone, and the
  // build's cache has no hash in its name (a bundle rebuilt without its cache would otherwise
  // run the old bundle's code).
  const hash = sourceKey(source);
  // A cache of its own is in the cache folder: sealed under the key, or not kept at all.
  const key = own === undefined ? undefined : sealingKey(dirname(own));
  const binding = `compiler ${hash}`;
  const ownBytes = key === undefined ? undefined : readCache(own);
  const ownData = key === undefined ? undefined : unsealKept(ownBytes, key, binding);
  // A cache of its own that is damaged is let go, not read again at every compile.
  if (ownBytes !== undefined && ownData === undefined) forget(own!);
  const loaded = requireWithCachedData(file, source, ownData ?? unseal(readCache(shipped), hash));
  return {
    exports: loaded.exports,
    stale: loaded.stale,
    keep: () =>
      key !== undefined && loaded.stale && keepCodeCache(own!, loaded.script, (data) => sealKept(data, key, binding)),
  };
}

/** What a cache that names no source of its own is sealed with besides its bytes. */
export function sourceKey(source: string): string {
  return createHash("sha256").update(source).digest("hex");
}

function forget(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Left as it is: it is refused again next time.
  }
}

/**
 * The build's code cache of the compile path, kept in the installation beside
 * the file it is for: a SHA-256 in front, of `key` (the source's hash) and its
 * bytes. V8 checks a cache's version, flags and length, not its bytes, and a
 * damaged one stops the whole process in its deserializer; a sealed cache
 * whose bytes do not match is taken for none (the check: about 2 ms, the
 * source hashed too). A cache in the cache folder is sealed under the key
 * instead (`sealKept`: about 0.5 ms for the runtime's, as this hash was).
 */
export function sealCodeCache(data: Buffer, key: string): Buffer {
  return Buffer.concat([seal(data, key), data]);
}

function seal(data: Buffer, key: string): Buffer {
  return createHash("sha256").update(key).update(data).digest();
}

function unseal(sealed: Buffer | undefined, key: string): Buffer | undefined {
  if (sealed === undefined || sealed.length <= 32) return undefined;
  const data = sealed.subarray(32);
  return seal(data, key).equals(sealed.subarray(0, 32)) ? data : undefined;
}

/**
 * A cache kept in the cache folder, sealed: the HMAC-SHA256, under the key kept
 * outside the folder, of what it is for (`binding`: which module, and the
 * source's hash or the build's) and of its bytes, in front.
 */
function sealKept(data: Buffer, key: Buffer, binding: string): Buffer {
  return Buffer.concat([sealOf(key, binding, data), data]);
}

function unsealKept(sealed: Buffer | undefined, key: Buffer, binding: string): Buffer | undefined {
  if (sealed === undefined || sealed.length <= 32) return undefined;
  const data = sealed.subarray(32);
  return timingSafeEqual(sealOf(key, binding, data), sealed.subarray(0, 32)) ? data : undefined;
}

/** Larger than any code cache the project makes by far: a bigger file is no cache of ours. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * A cache's bytes, when it is a regular file of a sane size. Opened without
 * waiting (a FIFO put in its place would block a read for ever) and checked
 * by the descriptor read (`/dev/zero` behind a link would never end).
 */
function readCache(cacheFile: string | undefined): Buffer | undefined {
  if (cacheFile === undefined) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(cacheFile, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    return stat.isFile() && stat.size <= MAX_CACHE_BYTES ? readFileSync(fd) : undefined;
  } catch {
    // None yet: the module compiles as usual, and its cache is made after.
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * `stale`: no cache was given, or V8 rejected it (another version, other flags, damaged).
 * @public scripts/compile-cache.mjs requires it from the built file.
 */
export function requireWithCachedData(
  file: string,
  source: string,
  cachedData: Buffer | undefined,
): { readonly exports: unknown; readonly script: Script; readonly stale: boolean } {
  // The function Node wraps every CommonJS module in; the source starts on the wrapper's
  // first line, so that the module's line numbers (and its source map) stay its own.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
  const script = new Script(wrapped, { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
  const module = new Module(file);
  module.filename = file;
  (script.runInThisContext() as ModuleFunction).call(
    module.exports,
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  );
  module.loaded = true;
  require.cache[file] = module;
  return { exports: module.exports, script, stale: cachedData === undefined || script.cachedDataRejected === true };
}

function keepCodeCache(cacheFile: string, script: Script, sealed: (data: Buffer) => Buffer): void {
  try {
    writeAtomically(cacheFile, sealed(script.createCachedData()));
  } catch {
    // Without a cache the next load compiles again; nothing is lost.
  }
}
