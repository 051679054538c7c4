// The compile cache: a compiled program is kept under a key made of the
// toolchain's version, the runtime it imports and every module's text, so that
// running an unchanged program again does not compile it again. CommonJS, for
// the program's worker (code-cache.cts) as well as the commands.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir, userInfo } from "node:os";
import { dirname, join, resolve } from "node:path";
import { isMainThread } from "node:worker_threads";
import { Refusal } from "../host/refusal.cjs";
import { sealingKey } from "./sealing-key.cjs";
import { cacheFolderNamed } from "../../vocabulary/cache-folder.cjs";

/** The folder each cache folder named was found to be (itself, or a private one in its place), once per process. */
const chosen = new Map<string, string>();

/** The cache folder named by RENYI_CACHE_DIR, XDG_CACHE_HOME or the home folder, made if need be; absolute. */
function namedCacheDirectory(): string {
  // An empty HOME names no home: the password file's is taken, never a folder relative to where the command runs.
  const home = homedir() || userInfo().homedir;
  return resolve(cacheFolderNamed(process.env, home) ?? join(home, ".cache", "renyi"));
}

/**
 * The cache folder, made if need be (mode 0700). Absolute, whatever the
 * variable says: compiled programs are known by their path, and a relative one
 * would be taken for a package's name.
 *
 * Used only when it is this user's alone: a folder that belongs to another
 * user, or that others may write, or whose key (sealing-key.cts) is not this
 * user's alone, is not used. Everything in it is sealed under that key, but a
 * folder others can write is one they can fill or empty at will. The run then
 * goes on without the cache, with one line on stderr saying why: a fresh
 * private folder stands in for it, removed when the process ends. In the
 * program's worker, where nothing is compiled, no folder stands in: the caller
 * does without a code cache.
 */
export function cacheDirectory(): string {
  const base = namedCacheDirectory();
  let folder = chosen.get(base);
  if (folder === undefined) {
    folder = chooseFolder(base);
    chosen.set(base, folder);
  }
  return folder;
}

function chooseFolder(base: string): string {
  try {
    makeFolders(base);
  } catch (e) {
    throw new Refusal(
      `I cannot make the cache folder ${base} (${(e as NodeJS.ErrnoException).code ?? String(e)}); set ` +
        `RENYI_CACHE_DIR to a folder you can write`,
    );
  }
  const problem = notPrivate(base);
  if (problem === undefined) return base;
  if (!isMainThread) throw new Refusal(problem);
  process.stderr.write(
    `renyi: ${problem}, so it is not used: programs are compiled afresh (make it yours alone with chmod 700, or ` +
      `set RENYI_CACHE_DIR)\n`,
  );
  return privateFolder();
}

/** Why `folder` is not this user's alone, or undefined when it is. */
function notPrivate(folder: string): string | undefined {
  const stat = statSync(folder);
  if (!stat.isDirectory()) return `the cache folder ${folder} is not a folder`;
  if (process.getuid !== undefined && stat.uid !== process.getuid())
    return `the cache folder ${folder} belongs to another user`;
  // Modes mean nothing where there are no user ids (Windows): there the folder is taken as it is.
  if (process.getuid !== undefined && (stat.mode & 0o022) !== 0)
    return `the cache folder ${folder} may be written by other users`;
  if (sealingKey(folder) === undefined)
    return `the cache folder's key ${folder}.key is not a file this user alone can read and write`;
  return undefined;
}

/**
 * A cache folder of this process's own, in a folder made new (mkdtemp, 0700), removed at exit,
 * but for the recordings `renyi mcp` keeps there by default: no recording is lost.
 */
function privateFolder(): string {
  const parent = mkdtempSync(join(tmpdir(), "renyi-cache-"));
  const folder = join(parent, "cache");
  process.once("exit", () => {
    if (!existsSync(join(folder, "recordings"))) return rmSync(parent, { recursive: true, force: true });
    for (const name of readdirSync(folder))
      if (name !== "recordings") rmSync(join(folder, name), { recursive: true, force: true });
  });
  mkdirSync(folder, { mode: 0o700 });
  return folder;
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
      // Made for this user alone: a cache others can read shows what programs were run.
      mkdirSync(folder, { mode: 0o700 });
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

/** Writes a program renyi run or renyi test compiled (`KEY.cjs`) and its map. */
export function writeCached(key: string, code: string, map: string): string {
  const dir = cacheDirectory();
  const path = cachedPath(key);
  try {
    // The map first: a bundle in the cache always has its map.
    writeAtomically(`${path}.map`, map);
    writeAtomically(path, code);
  } catch (e) {
    throw new Refusal(
      `I cannot write the compiled program into the cache folder ${dir} ` +
        `(${(e as NodeJS.ErrnoException).code ?? String(e)}); set RENYI_CACHE_DIR to a folder you can write`,
    );
  }
  return path;
}

/** Where the program compiled under `key` is kept. */
export function cachedPath(key: string): string {
  return join(cacheDirectory(), `${key}.cjs`);
}
