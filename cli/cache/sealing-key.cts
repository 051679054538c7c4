// The key everything in the cache folder is sealed with (code-cache.cts for V8
// code caches, cache-seal.ts for compiled programs, modules and indexes), and
// the seal itself:
// 32 random bytes in a file beside the cache folder, not inside it
// (`~/.cache/renyi.key` for `~/.cache/renyi`), made on first use, readable and
// writable by its owner alone. Whoever can write the cache folder but not this
// file cannot seal a cache the runs take: V8 checks a cache against its source
// by the source's length alone, and a cache sealed by a hash anyone can compute
// would run whatever code it holds.

import { createHmac, randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, linkSync, openSync, readSync, rmSync, writeSync } from "node:fs";

const KEY_BYTES = 32;

const known = new Map<string, Buffer | undefined>();

/**
 * The key for the caches kept in `folder` (the cache folder), made if there is
 * none; undefined when the file is not one this user alone can read (then no
 * code cache is read or written: the modules compile as usual).
 */
export function sealingKey(folder: string): Buffer | undefined {
  const path = `${folder}.key`;
  if (!known.has(path)) {
    let key = readKey(path);
    if (key === undefined) {
      makeKey(path);
      key = readKey(path);
    }
    known.set(path, key);
  }
  return known.get(path);
}

/**
 * The key's bytes when `path` is a regular file (no link followed, opened
 * without waiting) of the key's size, owned by this user and closed to every
 * other: a key others could read would let them seal, one they could write
 * would let them choose it.
 */
function readKey(path: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    const own = process.getuid === undefined || stat.uid === process.getuid();
    if (!stat.isFile() || stat.size !== KEY_BYTES || !own || (stat.mode & 0o077) !== 0) return undefined;
    const key = Buffer.alloc(KEY_BYTES);
    return readSync(fd, key, 0, KEY_BYTES, 0) === KEY_BYTES ? key : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes a new key whole (a temporary file made 0600, then linked into place,
 * which fails if another run made one first: the first one stays). Nothing
 * is replaced: a key file that is not right stays as it is, and is not used.
 */
function makeKey(path: string): void {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const fd = openSync(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      writeSync(fd, randomBytes(KEY_BYTES));
    } finally {
      closeSync(fd);
    }
    linkSync(temporary, path);
  } catch {
    // Another run's key, or a folder that cannot take one: read below, or none.
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** The seal of `data` kept for `binding` (what it is, where it is kept): the HMAC-SHA256 under `key` of both. */
export function sealOf(key: Buffer, binding: string, data: string | Buffer): Buffer {
  return createHmac("sha256", key).update(`${binding}\n`).update(data).digest();
}
