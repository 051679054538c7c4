// The `random` module: effects, so that a recording can replay them.

import { call } from "../gateway.js";
import type { Grant } from "../grants.js";
import { crypto } from "../builtins.js";

const RANDOM = { path: ["random"] };
import { Crash } from "../errors.js";
import { NONE, Some } from "../prelude.js";
import { FLOAT, INT, TEXT } from "../values.js";

// node:crypto is loaded by the first call that needs it (builtins.ts).

export const integer = (grant: Grant, low: number, high: number): Promise<number> =>
  call(grant, { name: "std.random.integer", need: RANDOM, result: INT }, { low, high }, async () => {
    const { randomInt } = await crypto();
    if (high < low) throw new Crash("E-RT-CRASH", `random.integer(${low}, ${high}): the low end is above the high end`);
    return low + randomInt(0, high - low + 1);
  });
export const float = (grant: Grant): Promise<number> => call(grant, { name: "std.random.float", need: RANDOM, result: FLOAT }, {}, () => Math.random());
export const choice = (grant: Grant, items: unknown[]): Promise<unknown> =>
  call(grant, { name: "std.random.choice", need: RANDOM }, { items }, async () => (items.length === 0 ? NONE : new Some(items[(await crypto()).randomInt(0, items.length)])));
export const shuffle = (grant: Grant, items: unknown[]): Promise<unknown[]> =>
  call(grant, { name: "std.random.shuffle", need: RANDOM }, { items }, async () => {
    const { randomInt } = await crypto();
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = randomInt(0, i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  });
export const uuid = (grant: Grant): Promise<string> => call(grant, { name: "std.random.uuid", need: RANDOM, result: TEXT }, {}, async () => (await crypto()).randomUUID());
