// Reading a file the commands were given (a source, a bundle) without trusting
// what it is: only a regular file is read, and never more than a bound. A path
// may name a FIFO (which would block, or never end), a device (/dev/zero never
// ends), a folder, or a file that grows while it is read; the size is taken
// from the open file (fstat) and the read stops one byte past the bound
// whatever fstat said.

import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

import { MAX_SOURCE_BYTES } from "../vocabulary/limits.js";
import { unreadableReason, type Unreadable } from "../vocabulary/problems/syntax.js";

export { MAX_SOURCE_BYTES };

/**
 * `unreadable`: why, as data (E-FILE's facts); `why`: the same in words.
 * `missing`: there is no file at all (which some callers allow: a bundle without its source map).
 */
export type Read = { ok: true; bytes: Buffer } | { ok: false; unreadable: Unreadable; why: string; missing?: true };

function refused(unreadable: Unreadable): Read {
  return {
    ok: false,
    unreadable,
    why: unreadableReason(unreadable),
    ...(unreadable.reason === "missing" ? { missing: true as const } : {}),
  };
}

function kindOf(stats: Stats): Unreadable {
  if (stats.isDirectory()) return { reason: "folder" };
  if (stats.isFIFO()) return { reason: "not-regular", kind: "a FIFO (named pipe)" };
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return { reason: "not-regular", kind: "a device" };
  if (stats.isSocket()) return { reason: "not-regular", kind: "a socket" };
  return { reason: "not-regular", kind: "something else" };
}

function fromError(e: unknown): Unreadable {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return { reason: "missing" };
  if (code === "EACCES") return { reason: "permission" };
  if (code === "EISDIR") return { reason: "folder" };
  return { reason: "system", error: String(code ?? "unreadable") };
}

/**
 * `noFollow`: a path that is itself a symbolic link is refused rather than followed (for a command that
 * writes the file back, where a link would lead it to a file it was not given).
 */
export function readBounded(path: string, maxBytes: number = MAX_SOURCE_BYTES, noFollow = false): Read {
  let fd: number;
  try {
    // Without O_NONBLOCK, opening a FIFO waits for a writer, for ever if none comes.
    const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (noFollow ? (constants.O_NOFOLLOW ?? 0) : 0);
    fd = openSync(path, flags);
  } catch (e) {
    if (noFollow && (e as NodeJS.ErrnoException).code === "ELOOP") return refused(SYMBOLIC_LINK);
    return refused(fromError(e));
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return refused(kindOf(stats));
    if (stats.size > maxBytes) return refused(tooLarge(maxBytes));
    // One byte more than fstat said: reading it means the file grew since.
    let buffer = Buffer.alloc(Math.min(stats.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) return refused(tooLarge(maxBytes));
        const bigger = Buffer.alloc(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(bigger, 0, 0, length);
        buffer = bigger;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) return { ok: true, bytes: buffer.subarray(0, length) };
      length += n;
    }
  } catch (e) {
    const unreadable = fromError(e);
    return refused(
      unreadable.reason === "folder"
        ? unreadable
        : { reason: "system", error: String((e as NodeJS.ErrnoException).code ?? "unreadable") },
    );
  } finally {
    closeSync(fd);
  }
}

const SYMBOLIC_LINK: Unreadable = { reason: "not-regular", kind: "a symbolic link" };

function tooLarge(maxBytes: number): Unreadable {
  return { reason: "too-large", limitMiB: maxBytes / 1024 / 1024 };
}
