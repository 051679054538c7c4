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
// again); it checks the source only by its length, so a cache's name says which
// source it is for: the build's hash for the runtime, the bundle's own
// content-addressed name for a program. It does not check the cache's bytes,
// and a damaged cache stopped the process: every cache is sealed with its hash
// (`sealCodeCache`), and one whose bytes do not match is taken for none. A
// cache is no new way in: whoever can write the cache folder can already write
// the compiled programs kept there.

import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, rmSync } from "node:fs";
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
  // The cache's name says which source it is for (the build's hash, the bundle's own name).
  const loaded = requireWithCachedData(file, readFileSync(file, "utf8"), unseal(readCache(cacheFile), ""));
  if (cacheFile !== undefined && loaded.stale) keepCodeCache(cacheFile, loaded.script, "");
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
  const file = join(__dirname, "compile-bundled.cjs");
  let own: string | undefined;
  try {
    // V8 refuses a cache made under other flags: each set of flags keeps its own.
    const flags = createHash("sha256").update(`${process.execArgv.join(" ")}\n${process.env["NODE_OPTIONS"] ?? ""}`).digest("hex").slice(0, 8);
    if (BUILD_ID !== "unknown") own = join(cacheDirectory(), `compiler-${BUILD_ID}-${process.version}-${process.arch}-${flags}.v8cache`);
  } catch {
    // No cache folder: the compile path compiles as usual.
  }
  return requireWithCaches(file, `${file}.v8cache`, own);
}

export interface CodeCached {
  readonly exports: unknown;
  /** Whether no cache was given or V8 took none of them: `keep` then writes one. */
  readonly stale: boolean;
  readonly keep: () => void;
}

/**
 * A module with the cache `own` when there is one that is whole, else `shipped`; `keep`
 * writes `own` when neither fit. Both are sealed (`sealCodeCache`).
 */
export function requireWithCaches(file: string, shipped: string, own: string | undefined): CodeCached {
  const source = readFileSync(file, "utf8");
  // Sealed with the source's hash too: V8 tells sources apart by their length alone, and the
  // build's cache has no hash in its name (a bundle rebuilt without its cache would otherwise
  // run the old bundle's code).
  const key = sourceKey(source);
  const ownBytes = readCache(own);
  const ownData = unseal(ownBytes, key);
  // A cache of its own that is damaged is let go, not read again at every compile.
  if (ownBytes !== undefined && ownData === undefined) forget(own!);
  const loaded = requireWithCachedData(file, source, ownData ?? unseal(readCache(shipped), key));
  return { exports: loaded.exports, stale: loaded.stale, keep: () => own !== undefined && loaded.stale && keepCodeCache(own, loaded.script, key) };
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
 * A code cache with a SHA-256 in front, of `key` and its bytes (`key`: the
 * source's hash, for a cache whose name does not say which source it is for;
 * empty for one whose name does). V8 checks a cache's version, flags and
 * length, not its bytes, and a damaged one stops the whole process in its
 * deserializer; a sealed cache whose bytes do not match is taken for none, and
 * made again (the check: about 0.6 ms for the runtime's cache, node:crypto's
 * load included; about 2 ms for the compile path's, its source hashed too).
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

/** `stale`: no cache was given, or V8 rejected it (another version, other flags, damaged). */
export function requireWithCachedData(file: string, source: string, cachedData: Buffer | undefined): { readonly exports: unknown; readonly script: Script; readonly stale: boolean } {
  // The function Node wraps every CommonJS module in; the source starts on the wrapper's
  // first line, so that the module's line numbers (and its source map) stay its own.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
  const script = new Script(wrapped, { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
  const module = new Module(file);
  module.filename = file;
  (script.runInThisContext() as ModuleFunction).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  require.cache[file] = module;
  return { exports: module.exports, script, stale: cachedData === undefined || script.cachedDataRejected === true };
}

function keepCodeCache(cacheFile: string, script: Script, key: string): void {
  try {
    writeAtomically(cacheFile, sealCodeCache(script.createCachedData(), key));
  } catch {
    // Without a cache the next load compiles again; nothing is lost.
  }
}
