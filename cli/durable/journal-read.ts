// The read loop (spec/durable.md, "The journal"): an attempt reads back, entry
// by entry, what earlier attempts journaled, by issuing the same commands in
// the same order. Each `ctx.run` of the loop answers from the journal until
// the first that runs live: that one is this attempt's marker, and the loop
// ends. Each marker of a sleep or a shared budget is followed, as it was, by
// its Sleep or its call of the budget object, issued again and not awaited.

import "./polyfill.js";
import type * as restate from "@restatedev/restate-sdk";
import { JOURNAL_RUN_NAME, type BudgetRequest } from "../../vocabulary/durable.js";
import type { RecordedCall } from "../../vocabulary/recording.js";
import type { BudgetObject } from "./budget-object.js";
import { budgetObject } from "./budget-object.js";
import type { Settler } from "./settle.js";

/** A durable timer an earlier attempt started: a `sleep` of the same length asked again waits on it. */
export interface PendingSleep {
  readonly ms: number;
  readonly fired: restate.RestatePromise<void>;
  /** Whether it has fired. */
  done: boolean;
  /** The id of the `sleep` of this attempt that waits on it. */
  waiter?: number;
}

/** The timers started and not yet spent by a `std.time.sleep` call the journal holds. */
export class PendingSleeps {
  readonly pending: PendingSleep[] = [];

  add(ms: number, fired: restate.RestatePromise<void>): PendingSleep {
    const timer: PendingSleep = { ms, fired, done: false };
    this.pending.push(timer);
    return timer;
  }

  /** A sleep call is in the journal: the oldest timer was its. */
  spend(): void {
    this.pending.shift();
  }

  /** The timer of an earlier attempt for a sleep of `ms` no `sleep` of this attempt waits on yet, or undefined. */
  take(ms: number): PendingSleep | undefined {
    return this.pending.find((p) => p.ms === ms && p.waiter === undefined);
  }
}

export interface JournalRead {
  /** Every call the journal holds, in journal order. */
  readonly calls: RecordedCall[];
  /** This attempt's number (1 for the first). */
  readonly attempt: number;
  /** How the run ended, when an earlier attempt saw it end. */
  readonly ended?: { outcome: string };
}

/** A Sleep command issued again as it was first: it matches the journal's. */
export function durableSleep(ctx: restate.Context, until: number): restate.RestatePromise<void> {
  return ctx.sleep(Math.max(0, until - Date.now()));
}

/** The call of the budget object a marker names, issued again as it was first. */
export function budgetCall(
  ctx: restate.Context,
  key: string,
  request: BudgetRequest,
): restate.RestatePromise<{ ok: boolean }> {
  return ctx.objectClient<BudgetObject>(budgetObject, key).take(request);
}

export async function readJournal(ctx: restate.Context, settler: Settler, sleeps: PendingSleeps): Promise<JournalRead> {
  const calls: RecordedCall[] = [];
  let attempt = 0;
  for (;;) {
    let fresh = false;
    const entry = (await settler.settle(
      ctx.run(JOURNAL_RUN_NAME, () => {
        fresh = true;
        return { attempt: attempt + 1 };
      }),
    )) as Record<string, unknown>;
    if (fresh) return { calls, attempt: attempt + 1 };
    if (Array.isArray(entry["calls"])) {
      for (const call of entry["calls"] as RecordedCall[]) {
        calls.push(call);
        if (call.primitive === "std.time.sleep") sleeps.spend();
      }
    } else if (isObject(entry["sleep"])) {
      const { ms, until } = entry["sleep"] as { ms: number; until: number };
      sleeps.add(ms, durableSleep(ctx, until));
    } else if (isObject(entry["budget"])) {
      const { key, request } = entry["budget"] as { key: string; request: BudgetRequest };
      // Issued, never awaited: its answer was for an earlier attempt.
      budgetCall(ctx, key, request);
    } else if (typeof entry["attempt"] === "number") {
      attempt = entry["attempt"];
    } else if (isObject(entry["ended"])) {
      return { calls, attempt, ended: { outcome: String((entry["ended"] as { outcome: unknown }).outcome) } };
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
