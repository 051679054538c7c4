// Reading a file the commands were given (a source, a bundle) without trusting
// what it is: only a regular file is read, and never more than a bound. A path
// may name a FIFO (which would block, or never end), a device (/dev/zero never
// ends), a folder, or a file that grows while it is read; the size is taken
// from the open file (fstat) and the read stops one byte past the bound
// whatever fstat said.

import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

import { MAX_SOURCE_BYTES } from "../vocabulary/limits.js";

export { MAX_SOURCE_BYTES };

/** `missing`: there is no file at all (which some callers allow: a bundle without its source map). */
export type Read = { ok: true; bytes: Buffer } | { ok: false; why: string; missing?: true };

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a folder";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

export function readBounded(path: string, maxBytes: number = MAX_SOURCE_BYTES): Read {
  let fd: number;
  try {
    // Without O_NONBLOCK, opening a FIFO waits for a writer, for ever if none comes.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ok: false, why: "there is no such file", missing: true };
    const why = code === "EACCES" ? "permission denied" : code === "EISDIR" ? "it is a folder" : String(code ?? "unreadable");
    return { ok: false, why };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { ok: false, why: `it is ${kindOf(stats)}, not a regular file` };
    if (stats.size > maxBytes) return { ok: false, why: tooLarge(maxBytes) };
    // One byte more than fstat said: reading it means the file grew since.
    let buffer = Buffer.alloc(Math.min(stats.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) return { ok: false, why: tooLarge(maxBytes) };
        const bigger = Buffer.alloc(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(bigger, 0, 0, length);
        buffer = bigger;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) return { ok: true, bytes: buffer.subarray(0, length) };
      length += n;
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, why: code === "EISDIR" ? "it is a folder" : String(code ?? "unreadable") };
  } finally {
    closeSync(fd);
  }
}

function tooLarge(maxBytes: number): string {
  return `it is larger than the ${(maxBytes / 1024 / 1024).toLocaleString("en")} MiB a file may have here`;
}
