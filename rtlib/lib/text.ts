// The `text` module (language.md section 12). Positions count characters (code points).

import { Failure } from "../errors.js";
import { checkInt } from "../ints.js";
import { checkCollection } from "../limits-collections.js";
import { NONE, ParseError, Some } from "../prelude.js";

const chars = (t: string): string[] => Array.from(t);

/** Characters, not UTF-16 units: a surrogate pair counts once. */
export const length = (t: string): number => {
  let n = t.length;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = t.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
};
export const is_empty = (t: string): boolean => t.length === 0;
export const upper = (t: string): string => t.toUpperCase();
export const lower = (t: string): string => t.toLowerCase();
export const trim = (t: string): string => t.trim();
export const trim_start = (t: string): string => t.trimStart();
export const trim_end = (t: string): string => t.trimEnd();
/** `t.split("")` splits into characters. */
export const split = (t: string, separator: string): string[] => (separator === "" ? chars(t) : t.split(separator));
export const join = (parts: string[], separator: string): string => parts.join(separator);
export const lines = (t: string): string[] => (t === "" ? [] : t.replace(/\r?\n$/, "").split(/\r?\n/));
export const contains = (t: string, part: string): boolean => t.includes(part);
export const starts_with = (t: string, prefix: string): boolean => t.startsWith(prefix);
export const ends_with = (t: string, suffix: string): boolean => t.endsWith(suffix);
export const replace = (t: string, old: string, replacement: string): string => (old === "" ? t : t.split(old).join(replacement));
export const index_of = (t: string, part: string): unknown => {
  const i = t.indexOf(part);
  return i < 0 ? NONE : new Some(length(t.slice(0, i)));
};
export const slice = (t: string, start: number, end: number): string => chars(t).slice(Math.max(0, start), Math.max(0, end)).join("");
export const repeat = (t: string, times: number): string => {
  checkCollection(t.length * Math.max(0, times), "text.repeat");
  return t.repeat(Math.max(0, times));
};
export const reverse = (t: string): string => chars(t).reverse().join("");
export const pad_start = (t: string, width: number, fill = " "): string => {
  const missing = width - length(t);
  return missing > 0 && fill !== "" ? fill.repeat(Math.ceil(missing / length(fill))).slice(0, missing) + t : t;
};
export const pad_end = (t: string, width: number, fill = " "): string => {
  const missing = width - length(t);
  return missing > 0 && fill !== "" ? t + fill.repeat(Math.ceil(missing / length(fill))).slice(0, missing) : t;
};
export const to_int = (t: string): number => {
  const s = t.trim();
  if (!/^[+-]?\d+$/.test(s)) throw new Failure(ParseError.desc.make([t, "Int"]));
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw new Failure(ParseError.desc.make([t, "Int"]));
  return checkInt(n, "text.to_int");
};
export const to_float = (t: string): number => {
  const s = t.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) throw new Failure(ParseError.desc.make([t, "Float"]));
  return Number(s);
};
export const to_bytes = (t: string): Uint8Array => new Uint8Array(Buffer.from(t, "utf8"));
export const from_bytes = (bytes: Uint8Array): string => {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Failure(ParseError.desc.make([Buffer.from(bytes).toString("base64"), "UTF-8 text"]));
  }
};
