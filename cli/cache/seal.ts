// The seal on what the compile cache keeps and loads again: a compiled program
// (`KEY.cjs`) and its map, a compiled module (`m-KEY.json`), a program index
// (`KEY.index.json`). Whoever can write the cache folder (another user, where
// it is shared; a program granted filesystem.write over it) could otherwise
// put there a program the validator never saw, another program's bundle under
// this one's key, or a module edited by hand, and have it run with the grant
// the reviewer read.
//
// Each file ends with a line `//# renyi-seal=HMAC`: the HMAC-SHA256, under the
// key kept beside the cache folder (sealing-key.cts), of the file's name and
// of everything before that line. The name holds the key the file is stored
// under, itself the hash of all that it was made from (the toolchain, every
// module's name, file and text): a file moved to another name, or made from
// other inputs, does not match. The line comes last so that a program's line
// numbers, and its source map, stay its own.
//
// A file is read once, into memory, and checked there; what is used is those
// bytes, never the file read again (a file swapped between the check and its
// use would run unchecked). A file whose seal does not match is a miss: the
// program or module is compiled again, and the file written anew.

import { timingSafeEqual } from "node:crypto";
import { basename, join } from "node:path";
import { readBounded } from "../../report/read-bounded.js";
import { cacheDirectory } from "./cache.cjs";
import { sealingKey, sealOf } from "./sealing-key.cjs";

const MARK = "\n//# renyi-seal=";
/** The mark, 64 hexadecimal digits and a newline. */
const TRAILER_LENGTH = MARK.length + 64 + 1;

/**
 * `body` sealed to be kept as `name` in the cache folder. Throws when there is no key (cacheDirectory makes sure there
 * is).
 */
export function sealFor(name: string, body: string): string {
  const key = sealingKey(cacheDirectory());
  if (key === undefined) throw new Error(`the cache folder has no key to seal ${name} with`);
  return `${body}${MARK}${sealOf(key, name, body).toString("hex")}\n`;
}

/**
 * What the file `name` in the cache folder holds, read once and checked against
 * its seal; undefined (a miss) when it is missing, not a regular file within
 * `limit` bytes, not UTF-8 text, or not sealed for this name under this key.
 */
export function readSealed(name: string, limit: number): string | undefined {
  const folder = cacheDirectory();
  const key = sealingKey(folder);
  if (key === undefined || basename(name) !== name) return undefined;
  const read = readBounded(join(folder, name), limit);
  if (!read.ok) return undefined;
  return unseal(key, name, read.bytes);
}

function unseal(key: Buffer, name: string, bytes: Buffer): string | undefined {
  if (bytes.length < TRAILER_LENGTH) return undefined;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  const at = text.length - TRAILER_LENGTH;
  const hex = text.slice(at + MARK.length, -1);
  if (text.slice(at, at + MARK.length) !== MARK || !text.endsWith("\n") || !/^[0-9a-f]{64}$/.test(hex))
    return undefined;
  const body = text.slice(0, at);
  return timingSafeEqual(sealOf(key, name, body), Buffer.from(hex, "hex")) ? body : undefined;
}
