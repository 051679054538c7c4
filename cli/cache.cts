// The compile cache: a compiled program is kept under a key made of the
// toolchain's version, the runtime it imports and every module's text, so that
// running an unchanged program again does not compile it again. CommonJS, for
// the program's worker (code-cache.cts) as well as the commands.

import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Refusal } from "./refusal.cjs";

/**
 * The cache folder, made if need be. Absolute, whatever the variable says: the
 * worker `require`s compiled programs by their path, and a relative one would
 * be taken for a package's name.
 */
export function cacheDirectory(): string {
  const base = resolve(process.env["RENYI_CACHE_DIR"] ?? join(process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "renyi"));
  try {
    makeFolders(base);
  } catch (e) {
    throw new Refusal(`I cannot make the cache folder ${base} (${(e as NodeJS.ErrnoException).code ?? String(e)}); set RENYI_CACHE_DIR to a folder you can write`);
  }
  return base;
}

/**
 * `mkdir -p`, a folder at a time. Node's own recursive mkdir loops for ever
 * where a file system answers ENOENT for a folder it will not make (under
 * /proc); made one by one, that is an error like any other.
 */
export function makeFolders(path: string): void {
  const missing: string[] = [];
  for (let at = resolve(path); !existsSync(at); at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (e) {
      // Made meanwhile by another process: as good as made here.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || !statSync(folder).isDirectory()) throw e;
    }
  }
}

export function cacheKey(parts: readonly string[]): string {
  // Loaded here, not at the top: the program's worker uses this module and never hashes.
  const { createHash } = require("node:crypto") as typeof import("node:crypto");
  const hash = createHash("sha256");
  for (const part of parts) {
    hash.update(String(part.length));
    hash.update(":");
    hash.update(part);
  }
  return hash.digest("hex").slice(0, 32);
}

/**
 * Writes a file whole or not at all: a temporary file, then a rename. The temporary file is
 * made new, never opened where something already is (O_EXCL), and its name is not guessable in
 * advance: a symbolic link planted at a guessed name in a folder others can write would
 * otherwise be written through, onto whatever file it names.
 */
export function writeAtomically(path: string, content: string | Uint8Array): void {
  const temporary = `${path}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  try {
    writeFileSync(temporary, content, { flag: "wx" });
    renameSync(temporary, path);
  } catch (e) {
    // Nothing half-written is left behind (a folder where the file should be refuses the rename).
    rmSync(temporary, { force: true });
    throw e;
  }
}

/** Writes a compiled program (`extension`: .cjs for renyi run's own, .mjs for a bundle built by renyic) and its map. */
export function writeCached(key: string, extension: ".cjs" | ".mjs", code: string, map: string): string {
  const dir = cacheDirectory();
  const path = join(dir, `${key}${extension}`);
  try {
    // The map first: a bundle in the cache always has its map.
    writeAtomically(`${path}.map`, map);
    writeAtomically(path, code);
  } catch (e) {
    throw new Refusal(`I cannot write the compiled program into the cache folder ${dir} (${(e as NodeJS.ErrnoException).code ?? String(e)}); set RENYI_CACHE_DIR to a folder you can write`);
  }
  return path;
}

export function cachedPath(key: string, extension: ".cjs" | ".mjs"): string {
  return join(cacheDirectory(), `${key}${extension}`);
}
