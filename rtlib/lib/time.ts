// The `time` module. now, today and sleep are effects; durations are plain values.

import { call } from "../gateway.js";
import type { Grant } from "../grants.js";
import { DateRecord, Duration, Instant } from "../prelude.js";
import { checkInt, iadd, imul } from "../ints.js";
import { record } from "../values.js";

type Rec = Record<string, number>;

const TIME = { path: ["time"] };

export const now = (grant: Grant): Promise<unknown> =>
  call(grant, { name: "std.time.now", need: TIME, result: record(Instant.desc) }, {}, () => Instant.desc.make([Date.now()]));
/** Today's date in UTC, so that a run does not depend on the machine's time zone. */
export const today = (grant: Grant): Promise<unknown> =>
  call(grant, { name: "std.time.today", need: TIME }, {}, () => {
    const d = new Date();
    return DateRecord.desc.make([d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]);
  });
export const sleep = (grant: Grant, duration: unknown): Promise<null> =>
  call(grant, { name: "std.time.sleep", need: TIME }, { duration }, () => new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.max(0, (duration as Rec)["milliseconds"]!))));

export const milliseconds = (n: number): unknown => Duration.desc.make([n]);
export const seconds = (n: number): unknown => Duration.desc.make([imul(n, 1000)]);
export const minutes = (n: number): unknown => Duration.desc.make([imul(n, 60_000)]);
export const hours = (n: number): unknown => Duration.desc.make([imul(n, 3_600_000)]);
export const since = (start: unknown, finish: unknown): unknown => Duration.desc.make([checkInt((finish as Rec)["milliseconds"]! - (start as Rec)["milliseconds"]!, "time.since")]);
export const add = (instant: unknown, duration: unknown): unknown => Instant.desc.make([iadd((instant as Rec)["milliseconds"]!, (duration as Rec)["milliseconds"]!)]);
export const to_iso = (instant: unknown): string => new Date((instant as Rec)["milliseconds"]!).toISOString();
