// The `time` module. now, today and sleep are effects; durations are plain values.

import { call, durableSleep } from "../gateway.js";
import type { Grant } from "../grants.js";
import type { Primitive } from "../primitive.js";
import { DateRecord, Duration, Instant } from "../prelude.js";
import { checkInt, iadd, imul } from "../ints.js";
import { record } from "../values.js";
import { isoText, MAX_INSTANT_MS } from "../json.js";
import { cancellableWait } from "../limits.js";

type Rec = Record<string, number>;

const TIME = Object.freeze({ path: Object.freeze(["time"]) });

/** time.now as the gateway sees it, made once (its shape made per call was part of a cheap call's cost). */
let NOW: Primitive | undefined;
const nowInstant = () => Instant.desc.make([Date.now()]);
export const now = (grant: Grant): Promise<unknown> =>
  call(
    grant,
    (NOW ??= {
      name: "std.time.now",
      need: TIME,
      result: record(Instant.desc),
      readsClock: true,
      madeConforming: true,
    }),
    {},
    nowInstant,
  );
/** Today's date in UTC, so that a run does not depend on the machine's time zone. */
export const today = (grant: Grant): Promise<unknown> =>
  call(grant, { name: "std.time.today", need: TIME, readsClock: true }, {}, () => {
    const d = new Date();
    return DateRecord.desc.make([d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]);
  });
/**
 * A sleep longer than a timer can hold is a chain of timers (waits.ts): a long sleep is long; a cancellation ends it.
 * A durable run sleeps on its endpoint's durable timer instead (spec/durable.md).
 */
export const sleep = (grant: Grant, duration: unknown): Promise<null> =>
  call(grant, { name: "std.time.sleep", need: TIME }, { duration }, async () => {
    const ms = (duration as Rec)["milliseconds"]!;
    await (durableSleep(ms) ?? cancellableWait(ms));
    return null;
  });

export const milliseconds = (n: number): unknown => Duration.desc.make([n]);
export const seconds = (n: number): unknown => Duration.desc.make([imul(n, 1000)]);
export const minutes = (n: number): unknown => Duration.desc.make([imul(n, 60_000)]);
export const hours = (n: number): unknown => Duration.desc.make([imul(n, 3_600_000)]);
export const since = (start: unknown, finish: unknown): unknown =>
  Duration.desc.make([checkInt((finish as Rec)["milliseconds"]! - (start as Rec)["milliseconds"]!, "time.since")]);
/** An instant is refused when it is made outside the range ISO 8601 can write (the years -271821 to 275760). */
export const add = (instant: unknown, duration: unknown): unknown => {
  const ms = iadd((instant as Rec)["milliseconds"]!, (duration as Rec)["milliseconds"]!);
  if (Math.abs(ms) > MAX_INSTANT_MS) isoText(ms, "time.add");
  return Instant.desc.make([ms]);
};
/**
 * An Instant made by its record (`Instant(milliseconds: ...)`) can still be out of range: writing it crashes with
 * E-RT-OVERFLOW.
 */
export const to_iso = (instant: unknown): string => isoText((instant as Rec)["milliseconds"]!, "time.to_iso");
