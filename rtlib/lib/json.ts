// The `json` module. encode and decode take the value's shape from the compiler.

import { chargeWork } from "../limits.js";
import { NONE, Some } from "../prelude.js";
import { decode as decodeShape, encode as encodeShape, parseJson } from "../json.js";
import { JSON_SHAPE, type Shape } from "../values.js";
import { toText } from "../text.js";

// Fuel for the work (spec/runtime.md, "Library work"): reading charges the
// text's length before it starts; writing charges as the walk over the value
// does (spec/runtime.md, "Walks over values"), the length of the JSON text
// written among it.
export const encode = (value: unknown, shape: Shape): string => encodeShape(value, shape);
export const decode = (text: string, shape: Shape): unknown => {
  chargeWork(text.length);
  return decodeShape(text, shape);
};
export const parse = (text: string): unknown => {
  chargeWork(text.length);
  return parseJson(text);
};
export const get = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.hasOwn(value, key)
    ? new Some((value as Record<string, unknown>)[key])
    : NONE;
export const at = (value: unknown, index: number): unknown =>
  Array.isArray(value) && index >= 0 && index < value.length ? new Some(value[index]) : NONE;
export const to_text = (value: unknown): string => toText(value, JSON_SHAPE);

// Reading a Json value by hand, kind by kind: each gives None (or nothing) for a value of another kind.
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
export const as_text = (value: unknown): unknown => (typeof value === "string" ? new Some(value) : NONE);
// -0 is the Int 0, as json.decode reads it.
export const as_int = (value: unknown): unknown =>
  typeof value === "number" && Number.isSafeInteger(value) ? new Some(value === 0 ? 0 : value) : NONE;
export const as_float = (value: unknown): unknown => (typeof value === "number" ? new Some(value) : NONE);
export const as_boolean = (value: unknown): unknown => (typeof value === "boolean" ? new Some(value) : NONE);
export const as_list = (value: unknown): unknown => (Array.isArray(value) ? new Some(value) : NONE);
export const keys = (value: unknown): string[] => {
  if (!isObject(value)) return [];
  const names = Object.keys(value);
  chargeWork(names.length);
  return names;
};
export const is_null = (value: unknown): boolean => value === null;
