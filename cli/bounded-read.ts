// Reading a file a hostile party may have put in place: only a regular file
// (never a FIFO that blocks the reader for ever, nor /dev/zero that never ends),
// and only up to a limit. The file is opened without blocking and checked on
// the opened descriptor, so that it cannot be swapped between check and read.

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

export type BoundedRead = { ok: true; bytes: Buffer } | { ok: false; problem: string; missing?: true };

export function readBounded(path: string, limit: number): BoundedRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ok: false, problem: "there is no such file", missing: true };
    return { ok: false, problem: code === "EACCES" ? "permission denied" : `it cannot be opened (${code ?? String(e)})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, problem: stat.isDirectory() ? "it is a folder" : "it is not a regular file" };
    if (stat.size > limit) return { ok: false, problem: `it is larger than ${limit.toLocaleString("en")} bytes` };
    // One byte more than the limit: a file that grows while it is read is caught too.
    const buffer = Buffer.alloc(Math.min(limit + 1, stat.size + 1));
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length === buffer.length) {
        if (length > limit) return { ok: false, problem: `it is larger than ${limit.toLocaleString("en")} bytes` };
        // Grown since fstat, but within the limit: no room left in this buffer.
        return { ok: false, problem: "it changed while it was read" };
      }
    }
    return { ok: true, bytes: buffer.subarray(0, length) };
  } catch (e) {
    return { ok: false, problem: `it cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})` };
  } finally {
    closeSync(fd);
  }
}
