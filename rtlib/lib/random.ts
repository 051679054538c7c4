// The `random` module: effects, so that a recording can replay them.

import { createRequire } from "node:module";
import { call } from "../gateway.js";
import type { Grant } from "../grants.js";

const RANDOM = { path: ["random"] };
import { Crash } from "../errors.js";
import { NONE, Some } from "../prelude.js";
import { FLOAT, INT, TEXT } from "../values.js";

// node:crypto is loaded on the first random call, not when every program starts.
const require = createRequire(import.meta.url);
let crypto: typeof import("node:crypto") | undefined;
const randomInt = (min: number, max: number): number => (crypto ??= require("node:crypto") as typeof import("node:crypto")).randomInt(min, max);
const randomUUID = (): string => (crypto ??= require("node:crypto") as typeof import("node:crypto")).randomUUID();

export const integer = (grant: Grant, low: number, high: number): Promise<number> =>
  call(grant, { name: "std.random.integer", need: RANDOM, result: INT }, { low, high }, () => {
    if (high < low) throw new Crash("E-RT-CRASH", `random.integer(${low}, ${high}): the low end is above the high end`);
    return low + randomInt(0, high - low + 1);
  });
export const float = (grant: Grant): Promise<number> => call(grant, { name: "std.random.float", need: RANDOM, result: FLOAT }, {}, () => Math.random());
export const choice = (grant: Grant, items: unknown[]): Promise<unknown> =>
  call(grant, { name: "std.random.choice", need: RANDOM }, { items }, () => (items.length === 0 ? NONE : new Some(items[randomInt(0, items.length)])));
export const shuffle = (grant: Grant, items: unknown[]): Promise<unknown[]> =>
  call(grant, { name: "std.random.shuffle", need: RANDOM }, { items }, () => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = randomInt(0, i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  });
export const uuid = (grant: Grant): Promise<string> => call(grant, { name: "std.random.uuid", need: RANDOM, result: TEXT }, {}, () => randomUUID());
