// The `random` module: effects, so that a recording can replay them.

import { call } from "../gateway.js";
import type { Grant } from "../grants.js";
import { crypto } from "../builtins.js";

const RANDOM = { path: ["random"] };
import { Crash } from "../errors.js";
import { chargeWork } from "../limits.js";
import { NONE, Some } from "../prelude.js";
import { FLOAT, INT, TEXT } from "../values.js";

// node:crypto is loaded by the first call that needs it (builtins.ts).

export const integer = (grant: Grant, low: number, high: number): Promise<number> =>
  call(grant, { name: "std.random.integer", need: RANDOM, result: INT }, { low, high }, async () => {
    const { randomInt, randomBytes } = await crypto();
    if (high < low) throw new Crash("E-RT-CRASH", { problem: "range", call: "random.integer", low, high });
    // randomInt takes ranges below 2^48; a wider one (any two Ints) is drawn as a BigInt.
    if (high - low < 2 ** 48 - 1) return low + randomInt(0, high - low + 1);
    return Number(BigInt(low) + uniformBelow(BigInt(high) - BigInt(low) + 1n, () => randomBytes(8).readBigUInt64BE()));
  });

/** A uniform draw from [0, n), n at most 2^64, by rejection of the draws past the last whole multiple of n. */
function uniformBelow(n: bigint, draw64: () => bigint): bigint {
  const limit = (1n << 64n) - ((1n << 64n) % n);
  for (;;) {
    const x = draw64();
    if (x < limit) return x % n;
  }
}
export const float = (grant: Grant): Promise<number> =>
  call(grant, { name: "std.random.float", need: RANDOM, result: FLOAT }, {}, () => Math.random());
// choice and shuffle pass the list to the gateway (which records it) and shuffle
// copies it: the list's length is charged as fuel first (spec/runtime.md, "Library work").
export const choice = (grant: Grant, items: unknown[]): Promise<unknown> => {
  chargeWork(items.length);
  return call(grant, { name: "std.random.choice", need: RANDOM }, { items }, async () =>
    items.length === 0 ? NONE : new Some(items[(await crypto()).randomInt(0, items.length)]),
  );
};
export const shuffle = (grant: Grant, items: unknown[]): Promise<unknown[]> => {
  chargeWork(items.length);
  return call(grant, { name: "std.random.shuffle", need: RANDOM }, { items }, async () => {
    const { randomInt } = await crypto();
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = randomInt(0, i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  });
};
export const uuid = (grant: Grant): Promise<string> =>
  call(grant, { name: "std.random.uuid", need: RANDOM, result: TEXT }, {}, async () => (await crypto()).randomUUID());
