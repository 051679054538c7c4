// The `filesystem` module (spec/effects.md, section 4). A path is checked against
// the grant by its text, normalised lexically, with nothing resolved on disk
// (spec/types.md, section 6, "Covering"); a live call then finds the path on disk beneath its
// scope (beneath.ts), so that a symbolic link cannot take it out. Writes are
// atomic: the new content goes to a temporary file beside the target, which is
// then renamed over it, so that a crash never leaves half a file.

import { basename, dirname, join } from "node:path";
import { fsPromises } from "../builtins.js";
import { call, type Primitive } from "../gateway.js";
import type { Grant } from "../grants.js";
import type { Need } from "../../vocabulary/needs.js";
import { checkOpened, onDisk, OutOfScope, scoped } from "./beneath.js";
import { refuseOffLimits, refuseOpenedOffLimits } from "./off-limits.js";
import { FileError } from "../prelude.js";
import { engineLimit, Failure } from "../errors.js";
import { BOOL, BYTES, INT, list as listOf, TEXT } from "../values.js";
import { Gathered, INCOMING, overLimit } from "./incoming.js";

/** A file past the limit for data coming in: read up to the limit and no further. */
class TooLarge extends Error {}

/** How much one read asks for: a file's whole size when it is small, never more than this. */
const READ_CHUNK = 1024 * 1024;

function primitive(name: string, access: "read" | "write", path: string): Primitive {
  return {
    name: `std.filesystem.${name}`,
    need: { path: ["filesystem", access], scope: path },
    denied: () => FileError.make("PermissionDenied", path),
    overBudget: () => FileError.make("OverBudget", path),
    refusedByGuard: (origin, sink) => FileError.make("Guarded", origin, sink),
  };
}

/** A failure of the file system as the program's FileError. */
function fileError(path: string, e: unknown): Failure {
  if (e instanceof OutOfScope) return new Failure(FileError.make("PermissionDenied", path));
  if (e instanceof TooLarge) return new Failure(FileError.make("Failed", path, overLimit("the file")));
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
    ELOOP: "too many symbolic links",
    ENOTREG: "it is a pipe or a socket, which a read would wait on",
    EAGAIN: "it has nothing to read now, and a read would wait",
  };
  return new Failure(
    FileError.make("Failed", path, reasons[code ?? ""] ?? (e instanceof Error ? e.message : String(e))),
  );
}

async function attempt<T>(path: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    // Memory the process was refused is the run's limit, not the file's failure.
    throw engineLimit(e) ?? fileError(path, e);
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

const readNeed = (path: string): Need => ({ path: ["filesystem", "read"], scope: path });
const writeNeed = (path: string): Need => ({ path: ["filesystem", "write"], scope: path });

/**
 * A file found beneath its scope and opened for reading, without following a last link swapped
 * in since, checked through its descriptor, then given to `use` and closed: what a read and a
 * size see is the file the walk checked.
 */
async function withOpenedForReading<T>(
  grant: Grant,
  path: string,
  use: (handle: import("node:fs/promises").FileHandle) => Promise<T>,
): Promise<T> {
  const fs = await fsPromises();
  const real = await onDisk(grant, readNeed(path), path, true);
  await refuseOffLimits(real, path);
  // Beneath a scope the walk followed every link already: one at the last name now was swapped in since.
  const beneath = scoped(grant, readNeed(path));
  const handle = await openToRead(real, beneath ? fs.constants.O_NOFOLLOW : 0);
  try {
    if (beneath) await checkOpened(handle.fd, real, path);
    await refuseOpenedOffLimits(handle.fd, path);
    return await use(handle);
  } finally {
    await handle.close();
  }
}

/**
 * Opens a file to read without waiting: a pipe (a FIFO) or a socket would hold the open, or the
 * read, until another process writes, and a thread held there cannot notice its run's time
 * limit, so neither is read. O_NONBLOCK makes the open return at once; the kind is then told by
 * the descriptor. A device that has nothing to give now (a terminal) fails rather than waits.
 */
async function openToRead(real: string, flags: number): Promise<import("node:fs/promises").FileHandle> {
  const fs = await fsPromises();
  const handle = await fs.open(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | flags);
  try {
    const kind = await handle.stat();
    if (kind.isFIFO() || kind.isSocket()) throw Object.assign(new Error("a pipe or a socket"), { code: "ENOTREG" });
  } catch (e) {
    await handle.close();
    throw e;
  }
  return handle;
}

/** The whole content of a file found beneath its scope. */
function readWhole(grant: Grant, path: string): Promise<Buffer> {
  return withOpenedForReading(grant, path, readBounded);
}

/**
 * An open file's bytes, read a chunk at a time and counted, so that a file
 * past the limit (or one that grows while it is read, or a device with no end)
 * stops the reading at the limit: no more than the limit is ever held.
 */
async function readBounded(handle: import("node:fs/promises").FileHandle): Promise<Buffer> {
  const { size } = await handle.stat();
  if (size > INCOMING.bytes) throw new TooLarge();
  const gathered = new Gathered();
  // One more byte than the file says it has, so that a small file is read in one go and its end seen.
  // A size of 0 may be a file the system sizes only when read (/proc): read it in full chunks.
  const chunk = size === 0 ? 64 * 1024 : Math.min(size + 1, READ_CHUNK);
  for (;;) {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(chunk), 0, chunk, null);
    if (bytesRead === 0) return gathered.take();
    if (!gathered.add(buffer.subarray(0, bytesRead))) throw new TooLarge();
  }
}

/**
 * Writes create the folders the path names that do not exist yet. The path is
 * found beneath its scope before and after the folders are made (a link planted
 * meanwhile is caught), the temporary file is made new (O_EXCL, O_NOFOLLOW) and
 * checked, and the rename replaces whatever is at the final name, a link
 * included, without following it. `followLast` (append) writes to the file a
 * link at the final name points to, when it stays in the scope.
 */
async function writeWhole(grant: Grant, path: string, content: string | Uint8Array, followLast = false): Promise<void> {
  const fs = await fsPromises();
  const real = await onDisk(grant, writeNeed(path), path, followLast);
  await refuseOffLimits(real, path);
  await makeFolders(dirname(real));
  if ((await onDisk(grant, writeNeed(path), path, followLast)) !== real) throw new OutOfScope(path);
  const temporary = join(dirname(real), `.${basename(real)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  const handle = await fs.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666);
  try {
    try {
      if (scoped(grant, writeNeed(path))) await checkOpened(handle.fd, temporary, path);
      await refuseOpenedOffLimits(handle.fd, path);
      await handle.writeFile(content);
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, real);
  } catch (e) {
    await fs.rm(temporary, { force: true });
    throw e;
  }
}

export const read_text = (grant: Grant, path: string): Promise<string> =>
  call(grant, { ...primitive("read_text", "read", path), result: TEXT }, { path }, () =>
    attempt(path, async () => (await readWhole(grant, path)).toString("utf8")),
  );

export const read_bytes = (grant: Grant, path: string): Promise<Uint8Array> =>
  call(grant, { ...primitive("read_bytes", "read", path), result: BYTES }, { path }, () =>
    attempt(path, async () => new Uint8Array(await readWhole(grant, path))),
  );

/** The names in a folder, sorted, so that a run does not depend on the order the system lists them in. */
export const list = (grant: Grant, path: string): Promise<string[]> =>
  call(grant, { ...primitive("list", "read", path), result: listOf(TEXT) }, { path }, () =>
    attempt(path, async () => {
      const fs = await fsPromises();
      const real = await onDisk(grant, readNeed(path), path, true);
      await refuseOffLimits(real, path);
      if (!scoped(grant, readNeed(path))) return (await fs.readdir(path)).sort();
      // The folder is opened and checked, then listed through its descriptor where the system allows.
      const handle = await fs.open(real, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
      try {
        const checked = await checkOpened(handle.fd, real, path);
        return (await fs.readdir(checked ? `/proc/self/fd/${handle.fd}` : real)).sort();
      } finally {
        await handle.close();
      }
    }),
  );

export const exists = (grant: Grant, path: string): Promise<boolean> =>
  call(grant, { ...primitive("exists", "read", path), result: BOOL }, { path }, () =>
    attempt(path, async () => {
      try {
        const real = await onDisk(grant, readNeed(path), path, false);
        await refuseOffLimits(real, path);
        await (await fsPromises()).lstat(real);
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
        throw e;
      }
    }),
  );

/**
 * The size in bytes of the file a path leads to, found and opened as a read
 * finds and opens it (a link followed only while it stays in the scope), and
 * told by its descriptor: the file measured is the file the walk checked. A
 * folder has no size to tell (EISDIR); a file the system sizes only when it is
 * read (under /proc) is 0, as the system says.
 */
export const size = (grant: Grant, path: string): Promise<number> =>
  call(grant, { ...primitive("size", "read", path), result: INT }, { path }, () =>
    attempt(path, () =>
      withOpenedForReading(grant, path, async (handle) => {
        const found = await handle.stat();
        if (found.isDirectory()) throw Object.assign(new Error("a folder"), { code: "EISDIR" });
        return found.size;
      }),
    ),
  );

export const write_text = (grant: Grant, path: string, text: string): Promise<null> =>
  call(grant, primitive("write_text", "write", path), { path, text }, () =>
    attempt(path, async () => {
      await writeWhole(grant, path, text);
      return null;
    }),
  );

export const write_bytes = (grant: Grant, path: string, bytes: Uint8Array): Promise<null> =>
  call(grant, primitive("write_bytes", "write", path), { path, bytes }, () =>
    attempt(path, async () => {
      await writeWhole(grant, path, bytes);
      return null;
    }),
  );

/** Appending writes the old content and the new into a temporary file and renames it: all or nothing. */
export const append_text = (grant: Grant, path: string, text: string): Promise<null> =>
  call(grant, primitive("append_text", "write", path), { path, text }, () =>
    attempt(path, async () => {
      let before = "";
      try {
        const real = await onDisk(grant, writeNeed(path), path, true);
        await refuseOffLimits(real, path);
        const handle = await openToRead(real, 0);
        try {
          await refuseOpenedOffLimits(handle.fd, path);
          before = (await readBounded(handle)).toString("utf8");
        } finally {
          await handle.close();
        }
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      }
      await writeWhole(grant, path, before + text, true);
      return null;
    }),
  );

export const remove = (grant: Grant, path: string): Promise<null> =>
  call(grant, primitive("remove", "write", path), { path }, () =>
    attempt(path, async () => {
      const real = await onDisk(grant, writeNeed(path), path, false);
      await refuseOffLimits(real, path);
      await (await fsPromises()).unlink(real);
      return null;
    }),
  );
