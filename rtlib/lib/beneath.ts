// A path resolved beneath its scope on disk (spec/security.md, "Path scopes,
// live and in replay"). The grant decides by a path's text (spec/types.md,
// section 6, "Covering"); a live call must in addition never leave the scope on disk. The path is
// walked a component at a time from the real folder of its scope, as WASI's
// resolve-beneath (openat2 with RESOLVE_BENEATH) does it: each component is
// looked at with lstat, and a symbolic link is followed only while its target
// stays beneath the scope. Node has no openat2, so what is opened afterwards is
// checked again through /proc/self/fd where the system has it.

import { dirname, join } from "node:path";
import { fsPromises } from "../builtins.js";
import { normalisePath } from "../../vocabulary/capabilities.js";
import type { Need } from "../../vocabulary/needs.js";
import { pathRoots, type Grant } from "../grants.js";

/** Thrown when a path would leave its scope on disk; the module turns it into its PermissionDenied. */
export class OutOfScope {
  constructor(readonly path: string) {}
}

/** As many links as Linux follows before ELOOP. */
const MAX_LINKS = 40;

function isBeneath(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

function components(path: string): string[] {
  return path.split("/").filter((part) => part !== "" && part !== ".");
}

/** The components of `path` after `prefix`, both normalised and `prefix` a prefix of `path`. */
function after(prefix: string, path: string): string[] {
  if (prefix === ".") return components(path);
  return components(path.slice(prefix.length));
}

function notFound(): Error {
  return Object.assign(new Error("no such file or folder"), { code: "ENOENT" });
}

/**
 * Walks `names` down from `base`, a real folder with no link in it. What does
 * not exist yet is joined on as it is (a write makes it; a read finds it
 * missing). The last component is followed only when `followLast`.
 */
async function walk(
  base: string,
  names: readonly string[],
  followLast: boolean,
  hops: { count: number },
  path: string,
): Promise<string> {
  const { lstat, readlink } = await fsPromises();
  let current = base;
  const pending = [...names];
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === "" || name === ".") continue;
    if (name === "..") {
      // Only a link's target brings `..` here: the program's path was normalised by its text.
      if (current === base) throw new OutOfScope(path);
      current = dirname(current);
      continue;
    }
    const next = join(current, name);
    let link: boolean;
    try {
      link = (await lstat(next)).isSymbolicLink();
    } catch {
      // Missing (or under a file): the call itself reports it. A link's `..` past a missing folder finds nothing, as
      // the system's lookup would.
      if (pending.includes("..")) throw notFound();
      return join(next, ...pending);
    }
    if (!link || (pending.length === 0 && !followLast)) {
      current = next;
      continue;
    }
    if (++hops.count > MAX_LINKS) throw Object.assign(new Error("too many symbolic links"), { code: "ELOOP" });
    const target = await readlink(next);
    if (target.startsWith("/")) {
      const absolute = normalisePath(target);
      if (!isBeneath(absolute, base)) throw new OutOfScope(path);
      current = base;
      pending.unshift(...after(base, absolute));
    } else {
      pending.unshift(...target.split("/"));
    }
  }
  return current;
}

/**
 * Where a path of a live call is on disk, resolved beneath every path scope of
 * the grant that covers it (grants.ts, pathRoots): the widest scope beneath the
 * working folder (an absolute one beneath /), each narrower one beneath the
 * wider, and the path beneath the narrowest. A grant without a scope has
 * nothing to stay beneath: the path is used as it is.
 */
export async function onDisk(grant: Grant, need: Need, path: string, followLast: boolean): Promise<string> {
  const roots = pathRoots(grant, need);
  if (roots.length === 0) return path;
  return resolveBeneath(roots, path, followLast);
}

/** Whether the grant puts the path under a scope at all: only then is what is opened checked. */
export function scoped(grant: Grant, need: Need): boolean {
  return pathRoots(grant, need).length > 0;
}

async function resolveBeneath(roots: readonly string[], path: string, followLast: boolean): Promise<string> {
  const target = normalisePath(path);
  const absolute = target.startsWith("/");
  let done = absolute ? "/" : ".";
  let base = absolute ? "/" : await (await fsPromises()).realpath(".");
  const hops = { count: 0 };
  for (const root of roots) {
    if (root === done) continue;
    base = await walk(base, after(done, root), true, hops, path);
    done = root;
  }
  return walk(base, after(done, target), followLast, hops, path);
}

/**
 * After an open: the descriptor must be the file the walk found, or a link was
 * swapped in meanwhile. Checked through /proc/self/fd where the system has it;
 * elsewhere the walk and O_NOFOLLOW on the last component are all there is.
 */
export async function checkOpened(fd: number, expected: string, path: string): Promise<boolean> {
  let actual: string;
  try {
    actual = await (await fsPromises()).readlink(`/proc/self/fd/${fd}`);
  } catch {
    return false;
  }
  if (actual !== expected) throw new OutOfScope(path);
  return true;
}
