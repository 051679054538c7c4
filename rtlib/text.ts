// to_text (spec/runtime.md, section 2, "to_text"): a Float in its shortest round-trip form,
// always with a decimal point; a Text bare at the top level and quoted inside
// containers; lists `[1, 2]`, maps `{"a": 1}`, pairs `(3, 0)`, records
// `Point(x: 0, y: 0)`, cases `Shape.Circle(radius: 2.0)`, `Some(8)`, `None`.

import { MAX_TEXT, textTooLong } from "./limits-collections.js";
import { chargeWork } from "./limits.js";
import { deepJsonText } from "./json-writer.js";
import { descOf, DYNAMIC, instantiate, Pair, RMap, RSet, type Shape } from "./values.js";

export function floatText(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (Object.is(x, -0)) return "-0.0";
  const s = String(x);
  const e = s.indexOf("e");
  if (e < 0) return s.includes(".") ? s : `${s}.0`;
  const mantissa = s.slice(0, e);
  const exponent = s.slice(e + 1).replace("+", "");
  return `${mantissa.includes(".") ? mantissa : `${mantissa}.0`}e${exponent}`;
}

export function quote(text: string): string {
  return JSON.stringify(text);
}

/**
 * A value as text; `shape` is the value's static type where the compiler knows it.
 * Written with a stack of its own (a list nested a million deep is a value a loop
 * can build), charging fuel as it goes (spec/runtime.md, "Walks over values"): a
 * step for each part it visits below the value, one for each UTF-16 unit of each
 * text it quotes, and the length of the JSON text of each Json part.
 */
export function toText(value: unknown, shape: Shape = DYNAMIC): string {
  room = MAX_TEXT;
  const text = render(value, shape);
  // A quoted text can be longer than the characters counted for it (escapes).
  if (text.length > MAX_TEXT) textTooLong(text.length, "writing a value as text");
  return text;
}

/**
 * Whether the text being written is charged to the program: not when the runtime
 * writes a value for its own reasons (a narration's line, the value a run failed
 * with), so that a program needs the same fuel narrated or not.
 */
let charging = true;

/**
 * toText for the runtime's own use: the same text, charged to no one, and cut at
 * `width` characters, its last three `...`. Charging nothing, the walk must stop by
 * itself: it stops as soon as it has written more than `width` characters, so a value
 * sharing its parts (a tree of 2^40 leaves built in 40 steps) costs no more than its
 * first `width` characters (spec/runtime.md, "Walks over values").
 */
export function toTextUncharged(value: unknown, shape: Shape = DYNAMIC, width: number = UNCHARGED_WIDTH): string {
  charging = false;
  cap = Math.max(width, 3);
  try {
    const text = toText(value, shape);
    return text.length > cap ? `${text.slice(0, cap - 3)}...` : text;
  } finally {
    charging = true;
    cap = Infinity;
  }
}

/** How much of a value the runtime writes for its own reasons unless told otherwise. */
const UNCHARGED_WIDTH = 500;

/** Where an uncharged walk stops: past this many characters written (Infinity when charged). */
let cap = Infinity;

/**
 * What is left of the text limit while a value is written: every text and
 * every container counts against it before it is written, so that writing a
 * list of ten million long texts stops at the limit rather than building them.
 */
let room = MAX_TEXT;

function spend(length: number): void {
  // A capped walk stops at its cap long before the limit.
  if (cap !== Infinity) return;
  room -= length;
  if (room < 0) textTooLong(MAX_TEXT - room, "writing a value as text");
}

/**
 * A value being written: its parts still to write with their shapes, what goes
 * before each, and what closes it. Every piece goes into one list joined once at
 * the end: a text built level by level would be copied again at every level, a
 * million times over for a value nested a million deep.
 */
interface TextFrame {
  readonly children: readonly unknown[];
  readonly shapes: readonly Shape[];
  next: number;
  readonly before: (i: number) => string;
  readonly close: string;
}

function render(root: unknown, rootShape: Shape): string {
  const top = leaf(root, rootShape, true);
  if (top !== undefined) return top;
  const out: string[] = [];
  const frames: TextFrame[] = [open(root, rootShape, out)];
  // Characters written so far, counted only when a cap is set.
  let length = 0;
  let counted = 0;
  for (;;) {
    if (cap !== Infinity) {
      for (let k = counted; k < out.length; k++) length += out[k]!.length;
      counted = out.length;
      // Enough to show: the rest is never visited.
      if (length > cap) return out.join("");
    }
    const frame = frames[frames.length - 1]!;
    if (frame.next < frame.children.length) {
      const i = frame.next++;
      if (charging) chargeWork(1);
      out.push(frame.before(i));
      const child = frame.children[i];
      const shape = frame.shapes[i]!;
      const written = leaf(child, shape, false);
      if (written !== undefined) out.push(written);
      else frames.push(open(child, shape, out));
      continue;
    }
    out.push(frame.close);
    frames.pop();
    if (frames.length === 0) return out.join("");
  }
}

/** The text of a value that has no parts to write, or undefined for one that has. */
function leaf(value: unknown, shape: Shape, top: boolean): string | undefined {
  switch (shape.k) {
    case "int":
      return String(value);
    case "float":
      return floatText(value as number);
    case "text":
      return textPart(value as string, top);
    case "json": {
      const text = jsonText(value);
      if (charging) chargeWork(text.length);
      return text;
    }
    case "function":
      return "<function>";
  }
  if (value === null) return "nothing";
  switch (typeof value) {
    case "string":
      return textPart(value, top);
    case "number":
      // Without a static type, a whole number reads as an Int.
      return Number.isInteger(value) ? String(value) : floatText(value);
    case "boolean":
      return String(value);
    case "function":
      return "<function>";
    case "undefined":
      return "nothing";
  }
  if (value instanceof Uint8Array) {
    if (charging) chargeWork(value.length);
    spend(Math.ceil(value.length / 3) * 4 + 10);
    return `Bytes(${quote(Buffer.from(value.buffer, value.byteOffset, value.length).toString("base64"))})`;
  }
  const desc = descOf(value);
  if (desc !== undefined && desc.fields.length === 0) {
    spend(2);
    return desc.written;
  }
  if (
    desc === undefined &&
    !Array.isArray(value) &&
    !(value instanceof Pair) &&
    !(value instanceof RMap) &&
    !(value instanceof RSet)
  ) {
    spend(2);
    const text = jsonText(value);
    if (charging) chargeWork(text.length);
    return text;
  }
  return undefined;
}

/** A text bare at the top, quoted inside a container. */
function textPart(text: string, top: boolean): string {
  if (top) return text;
  if (charging) chargeWork(text.length);
  spend(text.length + 2);
  // A capped walk quotes no more of a long text than it can show.
  return quote(text.length > cap ? text.slice(0, cap) : text);
}

const commas = (i: number): string => (i === 0 ? "" : ", ");
const entries = (i: number): string => (i === 0 ? "" : i % 2 === 1 ? ": " : ", ");

/**
 * A list, pair, map, set, record or case with fields, opened for its parts to be written: its opening written to `out`.
 */
function open(value: unknown, shape: Shape, out: string[]): TextFrame {
  // Two characters for the brackets and two for each separator, before the items are written.
  spend(2);
  if (Array.isArray(value)) {
    spend(value.length * 2);
    const item = shape.k === "list" ? shape.item : DYNAMIC;
    out.push("[");
    return frame(
      value,
      value.map(() => item),
      commas,
      "]",
    );
  }
  if (value instanceof Pair) {
    const shapes = shape.k === "pair" ? [shape.first, shape.second] : [DYNAMIC, DYNAMIC];
    out.push("(");
    return frame([value.first, value.second], shapes, commas, ")");
  }
  if (value instanceof RMap) {
    spend(value.size * 4);
    const [k, v] = shape.k === "map" ? [shape.key, shape.value] : [DYNAMIC, DYNAMIC];
    const children: unknown[] = [];
    const shapes: Shape[] = [];
    for (const [key, val] of value.entries()) {
      children.push(key, val);
      shapes.push(k, v);
    }
    out.push("{");
    return frame(children, shapes, entries, "}");
  }
  if (value instanceof RSet) {
    spend(value.size * 2 + 5);
    const item = shape.k === "set" ? shape.item : DYNAMIC;
    const items = [...value.values()];
    out.push("Set([");
    return frame(
      items,
      items.map(() => item),
      commas,
      "])",
    );
  }
  const desc = descOf(value)!;
  const args = shape.k === "record" || shape.k === "variant" ? shape.args : [];
  spend(desc.written.length + desc.fields.length * 4);
  const v = value as Record<string, unknown>;
  // The prelude's Some is written as people write it: Some(8).
  if (desc.variant === "Optional") {
    out.push("Some(");
    return frame([v["value"]], [instantiate(desc.fields[0]!.shape, args)], commas, ")");
  }
  const fields = desc.fields;
  out.push(`${desc.written}(`);
  return frame(
    fields.map((f) => v[f.prop]),
    fields.map((f) => instantiate(f.shape, args)),
    (i) => `${i === 0 ? "" : ", "}${fields[i]!.name}: `,
    ")",
  );
}

function frame(
  children: readonly unknown[],
  shapes: readonly Shape[],
  before: (i: number) => string,
  close: string,
): TextFrame {
  return { children, shapes, next: 0, before, close };
}

/** A Json value as compact JSON, within the text limit (the engine's own limit is eight times it). */
function jsonText(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    if (e instanceof RangeError && /string length/i.test(e.message))
      textTooLong(MAX_TEXT * 8, "writing a Json value as text");
    // Nested deeper than the engine's stack goes: written with a stack of its own.
    if (e instanceof RangeError) text = deepJsonText(value);
    else throw e;
  }
  if (text === undefined) return "null";
  if (text.length > MAX_TEXT) textTooLong(text.length, "writing a Json value as text");
  spend(text.length);
  return text;
}
