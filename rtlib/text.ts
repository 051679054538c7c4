// to_text (language.md section 6): a Float in its shortest round-trip form,
// always with a decimal point; a Text bare at the top level and quoted inside
// containers; lists `[1, 2]`, maps `{"a": 1}`, pairs `(3, 0)`, records
// `Point(x: 0, y: 0)`, cases `Shape.Circle(radius: 2.0)`, `Some(8)`, `None`.

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
  return render(value, shape, true);
}

function render(value: unknown, shape: Shape, top: boolean): string {
  switch (shape.k) {
    case "int":
      return String(value);
    case "float":
      return floatText(value as number);
    case "text":
      return top ? (value as string) : quote(value as string);
    case "json":
      return JSON.stringify(value) ?? "null";
    case "function":
      return "<function>";
  }
  if (value === null) return "nothing";
  switch (typeof value) {
    case "string":
      return top ? value : quote(value);
    case "number":
      // Without a static type, a whole number reads as an Int.
      return Number.isInteger(value) ? String(value) : floatText(value);
    case "boolean":
      return String(value);
    case "function":
      return "<function>";
  }
  if (Array.isArray(value)) {
    const item = shape.k === "list" ? shape.item : DYNAMIC;
    return `[${value.map((v) => render(v, item, false)).join(", ")}]`;
  }
  if (value instanceof Pair) {
    const [a, b] = shape.k === "pair" ? [shape.first, shape.second] : [DYNAMIC, DYNAMIC];
    return `(${render(value.first, a, false)}, ${render(value.second, b, false)})`;
  }
  if (value instanceof RMap) {
    const [k, v] = shape.k === "map" ? [shape.key, shape.value] : [DYNAMIC, DYNAMIC];
    return `{${[...value.entries()].map(([key, val]) => `${render(key, k, false)}: ${render(val, v, false)}`).join(", ")}}`;
  }
  if (value instanceof RSet) {
    const item = shape.k === "set" ? shape.item : DYNAMIC;
    return `Set([${[...value.values()].map((v) => render(v, item, false)).join(", ")}])`;
  }
  if (value instanceof Uint8Array) return `Bytes(${quote(Buffer.from(value).toString("base64"))})`;
  const desc = descOf(value);
  if (desc !== undefined) {
    const args = shape.k === "record" || shape.k === "variant" ? shape.args : [];
    if (desc.fields.length === 0) return desc.written;
    const v = value as Record<string, unknown>;
    // The prelude's Some is written as people write it: Some(8).
    if (desc.variant === "Optional") return `Some(${render(v["value"], instantiate(desc.fields[0]!.shape, args), false)})`;
    const fields = desc.fields.map((f) => `${f.name}: ${render(v[f.prop], instantiate(f.shape, args), false)}`);
    return `${desc.written}(${fields.join(", ")})`;
  }
  return JSON.stringify(value) ?? "nothing";
}
