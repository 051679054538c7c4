// The `json` module. encode and decode take the value's shape from the compiler.

import { NONE, Some } from "../prelude.js";
import { decode as decodeShape, encode as encodeShape, parseJson } from "../json.js";
import { JSON_SHAPE, type Shape } from "../values.js";
import { toText } from "../text.js";

export const encode = (value: unknown, shape: Shape): string => encodeShape(value, shape);
export const decode = (text: string, shape: Shape): unknown => decodeShape(text, shape);
export const parse = (text: string): unknown => parseJson(text);
export const get = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, key)
    ? new Some((value as Record<string, unknown>)[key])
    : NONE;
export const at = (value: unknown, index: number): unknown => (Array.isArray(value) && index >= 0 && index < value.length ? new Some(value[index]) : NONE);
export const to_text = (value: unknown): string => toText(value, JSON_SHAPE);
