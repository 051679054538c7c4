// What `renyi view` serves (spec/view.md, section 3): the programs and recordings found under
// its roots, and the one way a request's id becomes a file. An id is `<root index>/<path
// under that root>`; it is read as names, each checked, then joined to its root and resolved
// with realpath, and served only when what it resolves to is a program or a recording found
// under that root as the walk would find it. No other part of a request names a file.

import { closeSync, type Dirent, lstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve, sep } from "node:path";
import { cacheFolderNamed } from "../../vocabulary/cache-folder.cjs";
import type { Item, ItemList } from "../../view/api.js";

/** The most entries (files and folders) a walk looks at, and how deep it goes under a root. */
const MAX_SEEN = 20_000;
const MAX_DEPTH = 12;
/** The bytes of a `.json` file read to tell whether it is a recording, and to find its program and outcome. */
const HEAD_BYTES = 4096;

/** Folders a walk does not enter: the packages of a JavaScript project and the compile cache. */
const SKIPPED_FOLDERS = new Set(["node_modules", ".renyi-cache"]);

/** The compile cache's folder, real, when it exists: wherever RENYI_CACHE_DIR puts it, nothing in it is served. */
const CACHE_FOLDER: string | undefined = (() => {
  const named = cacheFolderNamed(process.env, homedir());
  try {
    return named === undefined ? undefined : realpathSync(resolve(named));
  } catch {
    return undefined;
  }
})();

export type Kind = Item["kind"];

/** A file an id resolved to: its real path, its kind and its size. */
export interface Found {
  readonly id: string;
  readonly path: string;
  readonly kind: Kind;
  readonly bytes: number;
  readonly mtimeMs: number;
}

/** Why an id is not served, in words (the facts of E-VIEW-NOT-FOUND). */
export interface NotFound {
  readonly why: string;
}

/** A root as the server keeps it: the path given, resolved, and its real path, and whether it is a folder. */
export interface Root {
  readonly given: string;
  readonly real: string;
  readonly folder: boolean;
}

export function rootOf(given: string): Root {
  const real = realpathSync(given);
  return { given, real, folder: statSync(real).isDirectory() };
}

function kindOfName(name: string): Kind | undefined {
  if (name.endsWith(".ry")) return "program";
  if (name.endsWith(".json")) return "recording";
  return undefined;
}

/** Whether a name is one the walk passes over: a dot folder or file, node_modules, the compile cache. */
function passedOver(name: string): boolean {
  return name.startsWith(".") || SKIPPED_FOLDERS.has(name);
}

/** Whether `path` (real) is `root` (real) or under it. */
function within(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * A recording's head: its first bytes hold the manifest's first field, `program` (recordings write their
 * manifest first, spec/recording.md), and a `toolchain`. Returns undefined for a file that is not one, else
 * the program and outcome when the head shows them.
 */
function recordingHead(path: string): { program?: string; outcome?: string } | undefined {
  let head: string;
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const bytes = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, bytes, 0, HEAD_BYTES, 0);
    head = bytes.subarray(0, n).toString("utf8");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const program = /^\uFEFF?\s*\{\s*"program"\s*:\s*("(?:[^"\\\n]|\\.)*")/.exec(head);
  if (program === null || !/[^\\]"toolchain"\s*:/.test(head)) return undefined;
  const out: { program?: string; outcome?: string } = {};
  try {
    out.program = JSON.parse(program[1]!) as string;
  } catch {
    // A program's name the head does not show whole: left out.
  }
  const outcome = /[^\\]"outcome"\s*:\s*"(finished|failed|crashed|refused|cancelled)"/.exec(head);
  if (outcome !== null) out.outcome = outcome[1]!;
  return out;
}

/**
 * Whether a real path is one the root serves: the root itself when it is a file (and, for the modules a program
 * uses, a program beside it); else a path under it that passes through no dot folder or node_modules.
 */
export function isServed(root: Root, real: string): boolean {
  if (!root.folder) return real === root.real || (dirname(real) === dirname(root.real) && real.endsWith(".ry"));
  if (!within(root.real, real) || real === root.real) return false;
  if (CACHE_FOLDER !== undefined && within(CACHE_FOLDER, real)) return false;
  return !real
    .slice(root.real.length)
    .split(sep)
    .some((part) => part !== "" && passedOver(part));
}

/** What the walk saw: the items, what it skipped and why, whether it stopped at a bound. */
export function walkRoots(roots: readonly Root[]): ItemList {
  const items: Item[] = [];
  const skipped: { id: string; message: string }[] = [];
  let seen = 0;
  let truncated = false;
  const consider = (index: number, rel: string, path: string, bytes: number) => {
    const kind = kindOfName(rel);
    if (kind === undefined) return;
    const id = `${index}/${rel}`;
    if (kind === "program") {
      items.push({ kind, id, bytes });
      return;
    }
    const head = recordingHead(path);
    if (head !== undefined) items.push({ kind, id, bytes, ...head });
  };
  roots.forEach((root, index) => {
    if (!root.folder) {
      const stat = statSync(root.real, { throwIfNoEntry: false });
      if (stat?.isFile()) consider(index, basename(root.given), root.real, stat.size);
      return;
    }
    // Depth first, names in order, so that the listing is the same from one walk to the next.
    const stack: { rel: string; depth: number }[] = [{ rel: "", depth: 0 }];
    while (stack.length > 0) {
      const { rel, depth } = stack.pop()!;
      let entries: Dirent[];
      try {
        entries = readdirSync(join(root.real, rel), { withFileTypes: true });
      } catch (error) {
        skipped.push({ id: `${index}/${rel}`, message: `unreadable: ${(error as NodeJS.ErrnoException).code}` });
        continue;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const folders: string[] = [];
      for (const entry of entries) {
        if (passedOver(entry.name)) continue;
        if (++seen > MAX_SEEN) {
          truncated = true;
          return;
        }
        const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
        const path = join(root.real, childRel);
        if (entry.isDirectory()) {
          if (path === CACHE_FOLDER) continue;
          if (depth + 1 >= MAX_DEPTH) truncated = true;
          else folders.push(childRel);
          continue;
        }
        if (entry.isSymbolicLink()) {
          if (kindOfName(entry.name) === undefined) continue;
          let real: string;
          try {
            real = realpathSync(path);
          } catch {
            skipped.push({ id: `${index}/${childRel}`, message: "a symbolic link to nothing" });
            continue;
          }
          if (!isServed(root, real)) {
            skipped.push({
              id: `${index}/${childRel}`,
              message:
                "a symbolic link that leaves its root (or leads into a dot folder or node_modules): not followed",
            });
            continue;
          }
          const stat = statSync(real, { throwIfNoEntry: false });
          if (stat?.isFile()) consider(index, childRel, real, stat.size);
          continue;
        }
        if (!entry.isFile() || kindOfName(entry.name) === undefined) continue;
        const stat = lstatSync(path, { throwIfNoEntry: false });
        if (stat !== undefined) consider(index, childRel, path, stat.size);
      }
      for (const folder of folders.reverse()) stack.push({ rel: folder, depth: depth + 1 });
    }
  });
  return { roots: roots.map((r) => r.given), items, skipped, truncated };
}

/**
 * The file an id names, or why it is refused: the id's root index must name a root, its path be names
 * (no `..`, `.`, empty part, NUL, backslash, dot file, node_modules), and the file they name, resolved
 * with realpath, be a file under that root's real path, of the kind asked for (when one is).
 */
export function resolveId(roots: readonly Root[], id: string | null, want?: Kind): Found | NotFound {
  if (id === null || id === "") return { why: "the request names no id" };
  if (id.length > 4096) return { why: "the id is longer than any path served" };
  const slash = id.indexOf("/");
  const indexText = slash < 0 ? id : id.slice(0, slash);
  if (!/^(0|[1-9][0-9]{0,5})$/.test(indexText)) return { why: "an id begins with a root's number" };
  const index = Number(indexText);
  const root = roots[index];
  if (root === undefined) return { why: `there is no root ${index}` };
  const parts = slash < 0 ? [] : id.slice(slash + 1).split("/");
  if (parts.length === 0) return { why: "the id names a root, not a file in it" };
  for (const part of parts) {
    if (part === "" || part === "." || part === "..")
      return { why: "an id's path is names under its root, without `.`, `..` or empty parts" };
    if (part.includes("\u0000") || part.includes("\\")) return { why: "an id's path holds no NUL and no backslash" };
    if (passedOver(part)) return { why: "nothing is served from dot folders or node_modules" };
  }
  const rel = parts.join("/");
  const kind = kindOfName(rel);
  if (kind === undefined) return { why: "only programs (.ry) and recordings (.json) are served" };
  if (want !== undefined && kind !== want) return { why: `the id does not name a ${want}` };
  if (parts.length > MAX_DEPTH) return { why: "the id is deeper than the walk goes" };
  let path: string;
  if (root.folder) {
    try {
      path = realpathSync(join(root.real, ...parts));
    } catch {
      return { why: `no file ${rel} under root ${index}` };
    }
    if (!isServed(root, path)) return { why: `${rel} leads out of root ${index}` };
  } else {
    if (rel !== basename(root.given)) return { why: `root ${index} is one file, ${basename(root.given)}` };
    path = root.real;
  }
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isFile()) return { why: `${rel} is not a file` };
  if (kind === "recording" && recordingHead(path) === undefined)
    return { why: `${rel} is not a recording (its first bytes are not a recording's manifest)` };
  return { id: `${index}/${rel}`, path, kind, bytes: stat.size, mtimeMs: stat.mtimeMs };
}
