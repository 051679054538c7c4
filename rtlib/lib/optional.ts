// The `optional` module: the functions of Optional values.

import { NONE, Some } from "../prelude.js";

type Opt = Some | typeof NONE;

export const or_else = (value: Opt, fallback: unknown): unknown => (value instanceof Some ? value.value : fallback);
export const is_some = (value: Opt): boolean => value instanceof Some;
export const is_none = (value: Opt): boolean => !(value instanceof Some);
export const map = (value: Opt, transform: (x: unknown) => unknown): unknown =>
  value instanceof Some ? new Some(transform(value.value)) : NONE;
export const mapAsync = async (value: Opt, transform: (x: unknown) => Promise<unknown>): Promise<unknown> =>
  value instanceof Some ? new Some(await transform(value.value)) : NONE;
export const and_then = (value: Opt, transform: (x: unknown) => unknown): unknown =>
  value instanceof Some ? transform(value.value) : NONE;
export const and_thenAsync = async (value: Opt, transform: (x: unknown) => Promise<unknown>): Promise<unknown> =>
  value instanceof Some ? await transform(value.value) : NONE;
export const to_list = (value: Opt): unknown[] => (value instanceof Some ? [value.value] : []);
