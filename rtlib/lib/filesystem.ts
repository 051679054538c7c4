// The `filesystem` module (language.md section 10). A path is checked against
// the grant by its text, normalised lexically, with nothing resolved on disk
// (seed 000, decision Y1). Writes are atomic: the new content goes to a
// temporary file beside the target, which is then renamed over it, so that a
// crash never leaves half a file.

import { basename, dirname, join } from "node:path";
import { fsPromises } from "../builtins.js";
import { call, type Primitive } from "../gateway.js";
import type { Grant } from "../grants.js";
import { FileError } from "../prelude.js";
import { Failure } from "../errors.js";
import { BOOL, BYTES, list as listOf, TEXT } from "../values.js";

function primitive(name: string, access: "read" | "write", path: string): Primitive {
  return {
    name: `std.filesystem.${name}`,
    need: { path: ["filesystem", access], scope: path },
    denied: () => FileError.make("PermissionDenied", path),
    overBudget: () => FileError.make("OverBudget", path),
  };
}

/** A failure of the file system as the program's FileError. */
function fileError(path: string, e: unknown): Failure {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new Failure(FileError.make("NotFound", path));
  const reasons: Record<string, string> = {
    EACCES: "permission denied by the system",
    EPERM: "operation not permitted",
    EISDIR: "it is a folder",
    ENOTDIR: "a part of the path is not a folder",
    ENOTEMPTY: "the folder is not empty",
    EEXIST: "it already exists",
    ENOSPC: "no space left on the device",
    EROFS: "the file system is read-only",
  };
  return new Failure(FileError.make("Failed", path, reasons[code ?? ""] ?? (e instanceof Error ? e.message : String(e))));
}

async function attempt<T>(path: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw fileError(path, e);
  }
}

/**
 * The folders a path names that do not exist yet, made a folder at a time:
 * Node's recursive mkdir loops for ever where a file system answers ENOENT for
 * a folder it will not make (under /proc).
 */
async function makeFolders(folder: string): Promise<void> {
  const { mkdir, stat } = await fsPromises();
  const missing: string[] = [];
  for (let at = folder; ; at = dirname(at)) {
    try {
      if (!(await stat(at)).isDirectory()) throw Object.assign(new Error("not a folder"), { code: "ENOTDIR" });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (const each of missing.reverse()) {
    try {
      await mkdir(each);
    } catch (e) {
      // Made meanwhile by another writer: as good as made here.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || !(await stat(each)).isDirectory()) throw e;
    }
  }
}

/** Writes create the folders the path names that do not exist yet. */
async function writeWhole(path: string, content: string | Uint8Array): Promise<void> {
  const { rename, rm, writeFile } = await fsPromises();
  await makeFolders(dirname(path));
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    await writeFile(temporary, content);
    await rename(temporary, path);
  } catch (e) {
    await rm(temporary, { force: true });
    throw e;
  }
}

export const read_text = (grant: Grant, path: string): Promise<string> =>
  call(grant, { ...primitive("read_text", "read", path), result: TEXT }, { path }, () => attempt(path, async () => (await fsPromises()).readFile(path, "utf8")));

export const read_bytes = (grant: Grant, path: string): Promise<Uint8Array> =>
  call(grant, { ...primitive("read_bytes", "read", path), result: BYTES }, { path }, () => attempt(path, async () => new Uint8Array(await (await fsPromises()).readFile(path))));

/** The names in a folder, sorted, so that a run does not depend on the order the system lists them in. */
export const list = (grant: Grant, path: string): Promise<string[]> =>
  call(grant, { ...primitive("list", "read", path), result: listOf(TEXT) }, { path }, () => attempt(path, async () => (await (await fsPromises()).readdir(path)).sort()));

export const exists = (grant: Grant, path: string): Promise<boolean> =>
  call(grant, { ...primitive("exists", "read", path), result: BOOL }, { path }, () =>
    attempt(path, async () => {
      try {
        await (await fsPromises()).lstat(path);
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
        throw e;
      }
    }),
  );

export const write_text = (grant: Grant, path: string, text: string): Promise<null> =>
  call(grant, primitive("write_text", "write", path), { path, text }, () => attempt(path, async () => (await writeWhole(path, text), null)));

export const write_bytes = (grant: Grant, path: string, bytes: Uint8Array): Promise<null> =>
  call(grant, primitive("write_bytes", "write", path), { path, bytes }, () => attempt(path, async () => (await writeWhole(path, bytes), null)));

/** Appending writes the old content and the new into a temporary file and renames it: all or nothing. */
export const append_text = (grant: Grant, path: string, text: string): Promise<null> =>
  call(grant, primitive("append_text", "write", path), { path, text }, () =>
    attempt(path, async () => {
      let before = "";
      try {
        before = await (await fsPromises()).readFile(path, "utf8");
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      }
      await writeWhole(path, before + text);
      return null;
    }),
  );

export const remove = (grant: Grant, path: string): Promise<null> =>
  call(grant, primitive("remove", "write", path), { path }, () => attempt(path, async () => (await (await fsPromises()).unlink(path), null)));


