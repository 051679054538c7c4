// What no program may read or write, whatever its grant: the compile cache's
// folder and the key its files are sealed with (spec/security.md, "The cache
// folder"). A program granted filesystem.write over them could otherwise write
// a compiled program for every later run to load, or read the key and seal one;
// one granted filesystem.read could read what other programs compiled.
//
// The folder is the one the command line chose and says (RunConfig's
// cacheFolder: a private folder where the named one could not be used, and a
// relative RENYI_CACHE_DIR made absolute where the command started); as well,
// the one the environment names by the command line's rule
// (vocabulary/cache-folder.ts). Each has its key beside it, FOLDER.key. A path
// holding a NUL is refused outright: SQLite would cut it there and open a file
// the text compared was not. A path is refused
// when it is one of them or beneath the folder, by its text and once every link
// in it is resolved; what is opened is checked again by its descriptor where
// the system shows it (/proc/self/fd), so that a link swapped in meanwhile is
// caught too. The refusal is the grant's own: PermissionDenied(path), a
// FileError's, or a DbError's for filesystem.database (database.ts).

import { basename, dirname, join, resolve } from "node:path";
import { fsPromises } from "../builtins.js";
import { OutOfScope } from "./beneath.js";
import { cacheFolderNamed } from "../../vocabulary/cache-folder.cjs";

let roots: Promise<readonly string[]> | undefined;
let told: string | undefined;

/** The folder the command line keeps its cache in, as it said: refused with the one the environment names. */
export function configureOffLimits(folder: string): void {
  if (folder !== told) roots = undefined;
  told = folder;
}

/** The cache folders and their keys as named, and as they are on disk once links are resolved. */
function offLimitsRoots(): Promise<readonly string[]> {
  roots ??= (async () => {
    const home = process.env["HOME"];
    const named = cacheFolderNamed(process.env, home === "" ? undefined : home);
    const folders = [...(told !== undefined ? [resolve(told)] : []), ...(named !== undefined ? [resolve(named)] : [])];
    const found = new Set<string>();
    for (const folder of folders) {
      for (const path of [folder, `${folder}.key`]) {
        found.add(path);
        found.add(await realOf(path));
      }
    }
    return [...found];
  })();
  return roots;
}

function isBeneath(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

/** `path` with every link resolved, as far as it exists; the rest joined on as it is. */
async function realOf(path: string): Promise<string> {
  const { realpath } = await fsPromises();
  const rest: string[] = [];
  for (let at = resolve(path); ; at = dirname(at)) {
    try {
      return join(await realpath(at), ...rest.reverse());
    } catch {
      if (dirname(at) === at) return resolve(path);
      rest.push(basename(at));
    }
  }
}

/**
 * Throws OutOfScope (PermissionDenied) when `onDisk`, the path a call is about to use, is the cache folder, beneath it,
 * or its key.
 */
export async function refuseOffLimits(onDisk: string, path: string): Promise<void> {
  if (onDisk.includes("\0") || path.includes("\0")) throw new OutOfScope(path);
  const refused = await offLimitsRoots();
  if (refused.length === 0) return;
  const lexical = resolve(onDisk);
  const real = await realOf(onDisk);
  if (refused.some((root) => isBeneath(lexical, root) || isBeneath(real, root))) throw new OutOfScope(path);
}

/** The same for a file or folder already open: what its descriptor names. */
export async function refuseOpenedOffLimits(fd: number, path: string): Promise<void> {
  const refused = await offLimitsRoots();
  if (refused.length === 0) return;
  let actual: string;
  try {
    actual = await (await fsPromises()).readlink(`/proc/self/fd/${fd}`);
  } catch {
    // A system without /proc: the check by path before the open is all there is.
    return;
  }
  if (refused.some((root) => isBeneath(actual, root))) throw new OutOfScope(path);
}
