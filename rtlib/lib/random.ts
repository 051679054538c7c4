// The `random` module: effects, so that a recording can replay them.

import { randomInt, randomUUID } from "node:crypto";
import { call } from "../gateway.js";
import { Crash } from "../errors.js";
import { NONE, Some } from "../prelude.js";

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
