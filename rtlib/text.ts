// to_text (spec/runtime.md, section 2, "to_text"): a Float in its shortest round-trip form,
// always with a decimal point; a Text bare at the top level and quoted inside
// containers; lists `[1, 2]`, maps `{"a": 1}`, pairs `(3, 0)`, records
// `Point(x: 0, y: 0)`, cases `Shape.Circle(radius: 2.0)`, `Some(8)`, `None`.

import { MAX_TEXT, textTooLong } from "./limits-collections.js";
import { descOf, DYNAMIC, instantiate, Pair, RMap, RSet, type Shape } from "./values.js";

export function floatText(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (Object.is(x, -0)) return "-0.0";
  const s = String(x);
  const e = s.indexOf("e");
  if (e < 0) return s.includes(".") ? s : s + ".0";
  const mantissa = s.slice(0, e);
  const exponent = s.slice(e + 1).replace("+", "");
  return `${mantissa.includes(".") ? mantissa : mantissa + ".0"}e${exponent}`;
}

export function quote(text: string): string {
  return JSON.stringify(text);
}

/** A value as text; `shape` is the value's static type where the compiler knows it. */
export function toText(value: unknown, shape: Shape = DYNAMIC): string {
  room = MAX_TEXT;
  const text = render(value, shape, true);
  // A quoted text can be longer than the characters counted for it (escapes).
  if (text.length > MAX_TEXT) textTooLong(text.length, "writing a value as text");
  return text;
}

/**
 * What is left of the text limit while a value is written: every text and
 * every container counts against it before it is written, so that writing a
 * list of ten million long texts stops at the limit rather than building them.
 */
let room = MAX_TEXT;

function spend(length: number): void {
  room -= length;
  if (room < 0) textTooLong(MAX_TEXT - room, "writing a value as text");
}

function render(value: unknown, shape: Shape, top: boolean): string {
  switch (shape.k) {
    case "int":
      return String(value);
    case "float":
      return floatText(value as number);
    case "text":
      if (top) return value as string;
      spend((value as string).length + 2);
      return quote(value as string);
    case "json":
      return jsonText(value);
    case "function":
      return "<function>";
  }
  if (value === null) return "nothing";
  switch (typeof value) {
    case "string":
      if (top) return value;
      spend(value.length + 2);
      return quote(value);
    case "number":
      // Without a static type, a whole number reads as an Int.
      return Number.isInteger(value) ? String(value) : floatText(value);
    case "boolean":
      return String(value);
    case "function":
      return "<function>";
  }
  // Two characters for the brackets and two for each separator, before the items are written.
  spend(2);
  if (Array.isArray(value)) {
    spend(value.length * 2);
    const item = shape.k === "list" ? shape.item : DYNAMIC;
    return `[${value.map((v) => render(v, item, false)).join(", ")}]`;
  }
  if (value instanceof Pair) {
    const [a, b] = shape.k === "pair" ? [shape.first, shape.second] : [DYNAMIC, DYNAMIC];
    return `(${render(value.first, a, false)}, ${render(value.second, b, false)})`;
  }
  if (value instanceof RMap) {
    spend(value.size * 4);
    const [k, v] = shape.k === "map" ? [shape.key, shape.value] : [DYNAMIC, DYNAMIC];
    return `{${[...value.entries()].map(([key, val]) => `${render(key, k, false)}: ${render(val, v, false)}`).join(", ")}}`;
  }
  if (value instanceof RSet) {
    spend(value.size * 2 + 5);
    const item = shape.k === "set" ? shape.item : DYNAMIC;
    return `Set([${[...value.values()].map((v) => render(v, item, false)).join(", ")}])`;
  }
  if (value instanceof Uint8Array) {
    spend(Math.ceil(value.length / 3) * 4 + 8);
    return `Bytes(${quote(Buffer.from(value).toString("base64"))})`;
  }
  const desc = descOf(value);
  if (desc !== undefined) {
    const args = shape.k === "record" || shape.k === "variant" ? shape.args : [];
    if (desc.fields.length === 0) return desc.written;
    spend(desc.written.length + desc.fields.length * 4);
    const v = value as Record<string, unknown>;
    // The prelude's Some is written as people write it: Some(8).
    if (desc.variant === "Optional") return `Some(${render(v["value"], instantiate(desc.fields[0]!.shape, args), false)})`;
    const fields = desc.fields.map((f) => `${f.name}: ${render(v[f.prop], instantiate(f.shape, args), false)}`);
    return `${desc.written}(${fields.join(", ")})`;
  }
  return value === undefined ? "nothing" : jsonText(value);
}

/** A Json value as compact JSON, within the text limit (the engine's own limit is eight times it). */
export function jsonText(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    if (e instanceof RangeError && /string length/i.test(e.message)) textTooLong(MAX_TEXT * 8, "writing a Json value as text");
    throw e;
  }
  if (text === undefined) return "null";
  if (text.length > MAX_TEXT) textTooLong(text.length, "writing a Json value as text");
  spend(text.length);
  return text;
}
