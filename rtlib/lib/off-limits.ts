// What no program may read or write, whatever its grant: the compile cache's
// folder and the key its files are sealed with (spec/security.md, "The cache
// folder"). A program granted filesystem.write over them could otherwise write
// a compiled program for every later run to load, or read the key and seal one;
// one granted filesystem.read could read what other programs compiled.
//
// The folder is found by the command line's own rule
// (vocabulary/cache-folder.ts): RENYI_CACHE_DIR, else XDG_CACHE_HOME/renyi,
// else ~/.cache/renyi; its key is the file beside it, FOLDER.key. A path is refused
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

/** The cache folder and its key as named, and as they are on disk once links are resolved. */
function offLimitsRoots(): Promise<readonly string[]> {
  roots ??= (async () => {
    const named = cacheFolderNamed(process.env, process.env["HOME"]);
    if (named === undefined) return [];
    const folder = resolve(named);
    const found = new Set<string>([folder, `${folder}.key`]);
    for (const path of [folder, `${folder}.key`]) found.add(await realOf(path));
    return [...found];
  })();
  return roots;
}

function isBeneath(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : root + "/");
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

/** Throws OutOfScope (PermissionDenied) when `onDisk`, the path a call is about to use, is the cache folder, beneath it, or its key. */
export async function refuseOffLimits(onDisk: string, path: string): Promise<void> {
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
