// The `text` module (spec/library.md, "text"). Positions count characters (code points).

import { Failure } from "../errors.js";
import { checkInt } from "../ints.js";
import { checkCollection, checkedText, checkText, MAX_ELEMENTS, MAX_TEXT } from "../limits-collections.js";
import { chargeWork, S } from "../limits.js";
import { NONE, ParseError, Some } from "../prelude.js";

const chars = (t: string): string[] => Array.from(t);

// Every function that walks a text charges its length in UTF-16 units as fuel,
// once, before it starts (spec/runtime.md, "Library work"); one that builds a
// text also charges the length it builds where that is known first.

/** Characters, not UTF-16 units: a surrogate pair counts once. */
export const length = (t: string): number => {
  chargeWork(t.length);
  return characterCount(t);
};
function characterCount(t: string): number {
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
}
export const is_empty = (t: string): boolean => t.length === 0;
// Upper and lower case can lengthen a text ("ß" is "SS"): checked once built, at most three times the limit.
export const upper = (t: string): string => checkedText(walked(t).toUpperCase(), "text.upper");
export const lower = (t: string): string => checkedText(walked(t).toLowerCase(), "text.lower");
export const trim = (t: string): string => walked(t).trim();
export const trim_start = (t: string): string => walked(t).trimStart();
export const trim_end = (t: string): string => walked(t).trimEnd();

/** `t`, its length charged. */
function walked(t: string): string {
  chargeWork(t.length);
  return t;
}

/** How many times `part` occurs in `t`, not overlapping, counting at most `enough`. */
function occurrences(t: string, part: string, enough: number): number {
  let n = 0;
  for (let at = t.indexOf(part); at >= 0 && n < enough; at = t.indexOf(part, at + part.length)) n++;
  return n;
}

/** By code points, as length and slice count: "é" written as e and a combining accent is two characters. */
export const characters = (t: string): string[] => {
  if (t.length >= MAX_ELEMENTS) checkCollection(characterCount(t), "text.characters");
  chargeWork(t.length);
  return chars(t);
};
/**
 * `t.split("")` splits into characters. A split that would give more items than a list may hold is refused before it is
 * made.
 */
export const split = (t: string, separator: string): string[] => {
  if (t.length >= MAX_ELEMENTS) {
    const items = separator === "" ? characterCount(t) : occurrences(t, separator, MAX_ELEMENTS) + 1;
    checkCollection(items, "text.split");
  }
  chargeWork(t.length);
  return separator === "" ? chars(t) : t.split(separator);
};
export const join = (parts: string[], separator: string): string => {
  let total = parts.length > 0 ? (parts.length - 1) * separator.length : 0;
  for (let i = 0; i < parts.length && total <= MAX_TEXT; i++) total += parts[i]!.length;
  checkText(total, "text.join");
  chargeWork(parts.length + total);
  return parts.join(separator);
};
export const lines = (t: string): string[] => {
  if (t === "") return [];
  if (t.length >= MAX_ELEMENTS) checkCollection(occurrences(t, "\n", MAX_ELEMENTS) + 1, "text.lines");
  chargeWork(t.length);
  return t.replace(/\r?\n$/, "").split(/\r?\n/);
};
export const contains = (t: string, part: string): boolean => walked(t).includes(part);
export const starts_with = (t: string, prefix: string): boolean => t.startsWith(walked(prefix));
export const ends_with = (t: string, suffix: string): boolean => t.endsWith(walked(suffix));
/**
 * Every occurrence of `old`, without special patterns in `replacement`; the result's length is known before it is
 * built.
 */
export const replace = (t: string, old: string, replacement: string): string => {
  chargeWork(t.length);
  if (old === "" || t.length < old.length) return t;
  if (replacement.length > old.length) {
    const room = Math.floor((MAX_TEXT - t.length) / (replacement.length - old.length));
    const found = occurrences(t, old, room + 1);
    checkText(t.length + found * (replacement.length - old.length), "text.replace");
    chargeWork(found * (replacement.length - old.length));
  }
  return t.replaceAll(old, () => replacement);
};
export const index_of = (t: string, part: string): unknown => {
  chargeWork(t.length);
  const i = t.indexOf(part);
  return i < 0 ? NONE : new Some(characterCount(t.slice(0, i)));
};

/** The offset in UTF-16 units of the `n`th character of `t` (its length when there are fewer). */
function offsetOf(t: string, n: number, from = 0, fromChar = 0): number {
  let i = from;
  for (let c = fromChar; c < n && i < t.length; c++) {
    const unit = t.charCodeAt(i);
    const next = t.charCodeAt(i + 1);
    i += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return i;
}

export const slice = (t: string, start: number, end: number): string => {
  const from = Math.max(0, start);
  const to = Math.max(0, end);
  if (to <= from) return "";
  // Walks to the end of the slice: at most `to` characters, at most the text.
  chargeWork(Math.min(to, t.length));
  const begin = offsetOf(t, from);
  return t.slice(begin, offsetOf(t, to, begin, from));
};
export const repeat = (t: string, times: number): string => {
  const n = Math.max(0, times);
  if (t.length === 0 || n === 0) return "";
  checkText(t.length * n, "text.repeat");
  chargeWork(t.length * n);
  return t.repeat(n);
};
/** Characters in reverse order; a surrogate pair stays a pair. */
export const reverse = (t: string): string => {
  chargeWork(t.length);
  const units: string[] = [];
  for (let i = t.length - 1; i >= 0; i--) {
    const unit = t.charCodeAt(i);
    const before = t.charCodeAt(i - 1);
    if (unit >= 0xdc00 && unit <= 0xdfff && before >= 0xd800 && before <= 0xdbff) {
      units.push(t.slice(i - 1, i + 1));
      i--;
    } else {
      units.push(t[i]!);
    }
  }
  return units.join("");
};

/**
 * `missing` characters of `fill`, repeated: the padding of pad_start and pad_end, its length checked before it is
 * built.
 */
function padding(t: string, width: number, fill: string, what: string): string {
  chargeWork(t.length);
  const missing = width - characterCount(t);
  if (missing <= 0 || fill === "") return "";
  const fillChars = characterCount(fill);
  const whole = Math.floor(missing / fillChars);
  const restEnd = offsetOf(fill, missing % fillChars);
  checkText(t.length + whole * fill.length + restEnd, what);
  chargeWork(whole * fill.length + restEnd);
  return fill.repeat(whole) + fill.slice(0, restEnd);
}
export const pad_start = (t: string, width: number, fill = " "): string =>
  padding(t, width, fill, "text.pad_start") + t;
export const pad_end = (t: string, width: number, fill = " "): string => t + padding(t, width, fill, "text.pad_end");
export const to_int = (t: string): number => {
  const s = walked(t).trim();
  if (!/^[+-]?\d+$/.test(s)) throw new Failure(ParseError.desc.make([t, "Int"]));
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw new Failure(ParseError.desc.make([t, "Int"]));
  return checkInt(n, "text.to_int");
};
export const to_float = (t: string): number => {
  const s = walked(t).trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) throw new Failure(ParseError.desc.make([t, "Float"]));
  return Number(s);
};
export const to_bytes = (t: string): Uint8Array => new Uint8Array(Buffer.from(walked(t), "utf8"));
/**
 * A UTF-8 character of three bytes is one UTF-16 unit: more bytes than three times the limit cannot be a text within
 * it.
 */
export const from_bytes = (bytes: Uint8Array): string => {
  checkText(Math.ceil(bytes.length / 3), "text.from_bytes");
  chargeWork(bytes.length);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // The failure shows the bytes as base64, at most as many as keep it within the text limit.
    const shown = bytes.length > (MAX_TEXT / 4) * 3 ? bytes.subarray(0, (MAX_TEXT / 4) * 3) : bytes;
    throw new Failure(ParseError.desc.make([Buffer.from(shown).toString("base64"), "UTF-8 text"]));
  }
  return checkedText(text, "text.from_bytes");
};

// Kinds of characters by Unicode's properties: a letter is \p{L} (any script's: é, ß, Ω, 漢),
// a digit \p{Nd} (any script's decimal digits: ٣, ४), white space \p{White_Space} (a
// no-break space, an ideographic space, a line break). Each asks of every character of
// the text, so that it answers for one character from `characters` and for a word alike;
// an empty text is none of them. The regular expressions walk the text once: charged so.
const LETTERS = /^\p{L}+$/u;
const DIGITS = /^\p{Nd}+$/u;
const WHITE_SPACE = /^\p{White_Space}+$/u;
export const is_letter = (t: string): boolean => LETTERS.test(walked(t));
export const is_digit = (t: string): boolean => DIGITS.test(walked(t));
export const is_whitespace = (t: string): boolean => WHITE_SPACE.test(walked(t));

type Separates = (character: string) => unknown;

/**
 * The parts between the characters `separator` holds for, those characters
 * dropped; empty parts kept, as `split` keeps them. The text's length is charged
 * before the walk, and each call of `separator` charges its own steps. The parts
 * are counted as they are made: a list past its limit ends the run.
 */
export const split_where = (t: string, separator: Separates): string[] => {
  chargeWork(t.length);
  const splitter = new Splitter(t);
  for (const c of t) splitter.next(c, separator(c) === true);
  return splitter.end();
};
export const split_whereAsync = async (
  t: string,
  separator: (character: string) => Promise<unknown>,
): Promise<string[]> => {
  chargeWork(t.length);
  const depth = S.depth;
  const splitter = new Splitter(t);
  for (const c of t) {
    // Every call starts at the depth split_where was called at, whatever other tasks did meanwhile.
    S.depth = depth;
    splitter.next(c, (await separator(c)) === true);
  }
  return splitter.end();
};

/** The parts of a text walked a character at a time: each part a slice of the text, found by its offsets. */
class Splitter {
  private readonly parts: string[] = [];
  private start = 0;
  private at = 0;

  constructor(private readonly t: string) {}

  next(character: string, separates: boolean): void {
    if (separates) {
      // This part and the last one at least: the list is refused before it passes the limit.
      checkCollection(this.parts.length + 2, "text.split_where");
      this.parts.push(this.t.slice(this.start, this.at));
      this.start = this.at + character.length;
    }
    this.at += character.length;
  }

  end(): string[] {
    this.parts.push(this.t.slice(this.start));
    return this.parts;
  }
}
