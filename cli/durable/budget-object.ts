// The shared budgets of `renyi serve --restate` (spec/durable.md, "Shared
// budgets"): the virtual object `renyi-budget`, one key per budget (its text,
// `network.http=60/minute`), whose exclusive handler `take` allows a call when
// fewer than `count` were allowed within the last `unit`, and keeps the time of
// each call it allowed, as a run keeps its own budgets (rtlib/grants.ts,
// Budgets). Restate runs one `take` of a key at a time, on whichever endpoint,
// so the budget holds across every run of the cluster. Time is Restate's
// (`ctx.date.now()`), journaled, so a retried `take` decides as it did.
//
// The object is private to the ingress: only a run's handler calls it, never
// anyone who can reach the ingress. And a budget is its key: the count and
// the unit are read from the key's text, whatever the request says, so that
// no caller can take with a wider window or a larger count than the budget's.

import "./polyfill.js";
import * as restate from "@restatedev/restate-sdk";
import { BUDGET_OBJECT, type BudgetRequest } from "../../vocabulary/durable.js";

/** Each unit's window, as rtlib/grants.ts counts it. */
const WINDOW_MS: Readonly<Record<string, number>> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

const TIMES = "times";

export interface BudgetAnswer {
  readonly ok: boolean;
}

/** The count and window a budget's key says (`…=N/UNIT`), or undefined for a key of another form. */
function budgetOfKey(key: string): { count: number; window: number } | undefined {
  const m = /=([1-9][0-9]{0,14})\/(second|minute|hour|day)$/.exec(key);
  if (m === null) return undefined;
  return { count: Number(m[1]), window: WINDOW_MS[m[2]!]! };
}

export const budgetObject = restate.object({
  name: BUDGET_OBJECT,
  options: { ingressPrivate: true },
  handlers: {
    // The request is journaled as the run's handler sent it; the budget is the key's (above).
    take: async (ctx: restate.ObjectContext, _request: BudgetRequest): Promise<BudgetAnswer> => {
      const budget = budgetOfKey(ctx.key);
      // A key of another form (none of renyi's) is refused, never counted.
      if (budget === undefined) return { ok: false };
      const { count, window } = budget;
      const now = await ctx.date.now();
      const times = ((await ctx.get<number[]>(TIMES)) ?? []).filter((t) => t > now - window);
      const ok = times.length < count;
      if (ok) times.push(now);
      ctx.set(TIMES, times);
      return { ok };
    },
  },
});

export type BudgetObject = typeof budgetObject;
