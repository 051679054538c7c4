// Which files `renyi test` reads (spec/testing.md, "Discovery"): the .ry files
// named, and those under the folders named, found recursively, without
// node_modules, dot-folders or symbolic links to folders (which could loop).

import { lstatSync, readdirSync, type Stats, statSync } from "node:fs";
import { join, relative } from "node:path";

export type FoundFiles = { ok: true; files: string[] } | { ok: false; problem: string };

/** The .ry files of `paths`, in a stable order (each folder's files sorted by name), each once. */
export function findTestFiles(paths: readonly string[]): FoundFiles {
  const files: string[] = [];
  for (const path of paths) {
    let stat: Stats;
    try {
      stat = statSync(path);
    } catch (e) {
      return {
        ok: false,
        problem: `${path}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file or folder" : `cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`}`,
      };
    }
    if (stat.isDirectory()) walk(path, files);
    else if (stat.isFile() && path.endsWith(".ry")) files.push(path);
    else return { ok: false, problem: `${path} is neither a .ry file nor a folder` };
  }
  const seen = new Set<string>();
  return {
    ok: true,
    files: files.filter((f) => !seen.has(relative(".", f)) && seen.add(relative(".", f)) !== undefined),
  };
}

function walk(folder: string, into: string[]): void {
  let names: string[];
  try {
    names = readdirSync(folder).sort();
  } catch {
    // A folder that cannot be read holds no tests that can be run; the ones that can are.
    return;
  }
  for (const name of names) {
    if (name.startsWith(".") || name === "node_modules") continue;
    const path = join(folder, name);
    let stat: Stats;
    try {
      stat = lstatSync(path);
    } catch {
      continue;
    }
    if (stat.isDirectory()) walk(path, into);
    else if (stat.isFile() && name.endsWith(".ry")) into.push(path);
  }
}

/**
 * Whether a file's text may hold a test: a line that begins with `test`. Only
 * such files are compiled, so that a folder of programs, modules and broken
 * examples without tests costs nothing and refuses nothing.
 */
export function mayHoldTests(text: string): boolean {
  return /^test\b/m.test(text);
}
