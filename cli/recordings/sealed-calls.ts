// Sealed calls (spec/recording.md, "Sealed calls"): a recording made for
// `renyi mcp` keeps the values of every call that carried guarded data (its
// arguments carried origins, or a guard's capability covers it) encrypted,
// AES-256-GCM, under a key only the person's side holds: the key file in the
// server's recordings folder, which no tool result names or returns. The entry
// shows `"sealed"` where its arguments and outcome were; the server's replay,
// given the key, opens it again and replays as from a plain recording.

import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { closeSync, existsSync, fstatSync, linkSync, openSync, readSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readNeedText } from "../../vocabulary/grant-text.js";
import { needText } from "../../vocabulary/needs.js";
import { SEALED, type RecordedCall } from "../../vocabulary/recording.js";

/** The key file's name in a recordings folder. */
const SEAL_KEY_FILE = "seal.key";

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed entry as the file holds it. */
export interface SealedEntry {
  sequence: number;
  /** A call a server's handler made: its request's number. */
  request?: number;
  capability: string;
  primitive: string;
  arguments: typeof SEALED;
  outcome: typeof SEALED;
  /** base64 of the nonce, the authentication tag and the ciphertext of `{capability, arguments, outcome}`. */
  sealed: string;
  duration_ms?: number;
  at_ms?: number;
  transaction?: number;
}

/** The key in `file`: 32 bytes, or why it cannot be used. */
export function readSealKey(file: string): Buffer | { problem: string } {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (e) {
    return { problem: `I cannot read the seal key ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size !== KEY_BYTES)
      return { problem: `the seal key ${file} is not a key: a key file holds ${KEY_BYTES} bytes` };
    const key = Buffer.alloc(KEY_BYTES);
    if (readSync(fd, key, 0, KEY_BYTES, 0) !== KEY_BYTES)
      return { problem: `the seal key ${file} could not be read whole` };
    return key;
  } finally {
    closeSync(fd);
  }
}

/**
 * The key file of a recordings folder, made (mode 0600) when it has none. It is
 * written beside and then linked into place, so that two servers starting at
 * once agree on one key and neither reads a key half written.
 */
export function sealKeyOf(folder: string): string {
  const file = join(folder, SEAL_KEY_FILE);
  if (existsSync(file)) return file;
  const made = join(folder, `.${SEAL_KEY_FILE}.${process.pid}.${randomBytes(4).toString("hex")}`);
  writeFileSync(made, randomBytes(KEY_BYTES), { mode: 0o600, flag: "wx" });
  try {
    linkSync(made, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  } finally {
    unlinkSync(made);
  }
  return file;
}

/**
 * The entry with its values sealed. When its arguments carried origins, its
 * capability's scope (a host, a path) may be made of them too, and the entry
 * shows the capability alone.
 */
export function sealCall(call: RecordedCall, key: Buffer, part: "arguments" | "result"): SealedEntry {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(call.primitive, "utf8"));
  // `guarded` says what was guarded data, so that a replay compares a call with the arguments of this one only when
  // they were (rtlib/recording/replayer.ts).
  const payload = JSON.stringify({
    capability: call.capability,
    arguments: call.arguments,
    outcome: call.outcome,
    guarded: part,
  });
  const sealed = Buffer.concat([cipher.update(payload, "utf8"), cipher.final()]);
  const need = readNeedText(call.capability);
  const capability = part === "arguments" && typeof need !== "string" ? needText({ path: need.path }) : call.capability;
  return {
    sequence: call.sequence,
    ...(call.request !== undefined ? { request: call.request } : {}),
    capability,
    primitive: call.primitive,
    arguments: SEALED,
    outcome: SEALED,
    sealed: Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64"),
    ...(call.duration_ms !== undefined ? { duration_ms: call.duration_ms } : {}),
    ...(call.at_ms !== undefined ? { at_ms: call.at_ms } : {}),
    ...(call.transaction !== undefined ? { transaction: call.transaction } : {}),
  };
}

/**
 * The bytes of a sealed entry's `{capability, arguments, outcome}`, or undefined when the key does not open them
 * (another key, or an edited entry).
 */
export function unsealBytes(sealed: string, primitive: string, key: Buffer): Buffer | undefined {
  const bytes = Buffer.from(sealed, "base64");
  if (bytes.length < IV_BYTES + TAG_BYTES || bytes.toString("base64") !== sealed) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(primitive, "utf8"));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    return undefined;
  }
}
