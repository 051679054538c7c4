// The `random` module: effects, so that a recording can replay them.

import { createRequire } from "node:module";
import { call } from "../gateway.js";
import { Crash } from "../errors.js";
import { NONE, Some } from "../prelude.js";

// node:crypto is loaded on the first random call, not when every program starts.
const require = createRequire(import.meta.url);
let crypto: typeof import("node:crypto") | undefined;
const randomInt = (min: number, max: number): number => (crypto ??= require("node:crypto") as typeof import("node:crypto")).randomInt(min, max);
const randomUUID = (): string => (crypto ??= require("node:crypto") as typeof import("node:crypto")).randomUUID();

export const integer = (low: number, high: number): Promise<number> =>
  call("std.random.integer", { low, high }, () => {
    if (high < low) throw new Crash("E-RT-CRASH", `random.integer(${low}, ${high}): the low end is above the high end`);
    return low + randomInt(0, high - low + 1);
  });
export const float = (): Promise<number> => call("std.random.float", {}, () => Math.random());
export const choice = (items: unknown[]): Promise<unknown> =>
  call("std.random.choice", { items }, () => (items.length === 0 ? NONE : new Some(items[randomInt(0, items.length)])));
export const shuffle = (items: unknown[]): Promise<unknown[]> =>
  call("std.random.shuffle", { items }, () => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = randomInt(0, i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  });
export const uuid = (): Promise<string> => call("std.random.uuid", {}, () => randomUUID());
