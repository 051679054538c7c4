// The part of Node's Buffer the runtime, the recording reader and the compiler use, for the
// runtime bundled for a browser (spec/view.md, section 8): scripts/browser-seams.mjs puts it in
// place of `node:buffer` and of the global `Buffer` in that bundle alone. UTF-8 and base64 as
// Node reads and writes them (base64 read leniently, as Node does: its URL-safe letters too,
// anything else skipped, reading stopped at `=`).

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8");
const strict = new TextDecoder("utf-8", { fatal: true });
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) VALUES[LETTERS.charCodeAt(i)] = i;
VALUES["-".charCodeAt(0)] = 62;
VALUES["_".charCodeAt(0)] = 63;

type Encoding = "utf8" | "utf-8" | "base64";

/** A Buffer's bytes: a Uint8Array with the methods of Node's the runtime calls. */
class BrowserBuffer extends Uint8Array {
  equals(other: Uint8Array): boolean {
    return compare(this, other) === 0;
  }

  override toString(encoding: Encoding = "utf8"): string {
    return encoding === "base64" ? toBase64(this) : decoder.decode(this);
  }

  readBigUInt64BE(offset = 0): bigint {
    return new DataView(this.buffer, this.byteOffset, this.byteLength).getBigUint64(offset, false);
  }
}

function over(bytes: Uint8Array): BrowserBuffer {
  return new BrowserBuffer(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
}

function from(value: string | ArrayBufferLike | ArrayLike<number>, a?: unknown, b?: unknown): BrowserBuffer {
  if (typeof value === "string") return over(a === "base64" ? fromBase64(value) : encoder.encode(value));
  if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && value instanceof SharedArrayBuffer))
    return new BrowserBuffer(value as ArrayBuffer, (a as number | undefined) ?? 0, b as number | undefined);
  const list = value as ArrayLike<number>;
  const copy = new BrowserBuffer(list.length);
  copy.set(list);
  return copy;
}

/** UTF-8 bytes of a text, counted without making them. */
function byteLength(text: string | Uint8Array, _encoding?: Encoding): number {
  if (typeof text !== "string") return text.byteLength;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

function concat(parts: readonly Uint8Array[], total?: number): BrowserBuffer {
  const size = total ?? parts.reduce((sum, p) => sum + p.length, 0);
  const out = new BrowserBuffer(size);
  let at = 0;
  for (const p of parts) {
    if (at >= size) break;
    const part = p.length <= size - at ? p : p.subarray(0, size - at);
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function compare(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export const Buffer = {
  from,
  byteLength,
  concat,
  compare,
  isBuffer: (value: unknown): value is BrowserBuffer => value instanceof BrowserBuffer,
};

/** Whether `bytes` are UTF-8 text (node:buffer's isUtf8). */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function toBase64(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  for (; i + 3 <= bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += LETTERS[n >>> 18]! + LETTERS[(n >>> 12) & 63]! + LETTERS[(n >>> 6) & 63]! + LETTERS[n & 63]!;
  }
  const left = bytes.length - i;
  if (left === 1) {
    const n = bytes[i]! << 16;
    out += `${LETTERS[n >>> 18]!}${LETTERS[(n >>> 12) & 63]!}==`;
  } else if (left === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += `${LETTERS[n >>> 18]!}${LETTERS[(n >>> 12) & 63]!}${LETTERS[(n >>> 6) & 63]!}=`;
  }
  return out;
}

function fromBase64(text: string): Uint8Array {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4) + 3);
  let n = 0;
  let bits = 0;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 61) break; // `=`
    const v = c < 128 ? VALUES[c]! : -1;
    if (v < 0) continue;
    value = (value << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (value >>> bits) & 0xff;
    }
  }
  return out.subarray(0, n);
}
