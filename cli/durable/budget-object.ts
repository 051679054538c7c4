// The shared budgets of `renyi serve --restate` (spec/durable.md, "Shared
// budgets"): the virtual object `renyi-budget`, one key per budget (its text,
// `network.http=60/minute`), whose exclusive handler `take` allows a call when
// fewer than `count` were allowed within the last `unit`, and keeps the time of
// each call it allowed, as a run keeps its own budgets (rtlib/grants.ts,
// Budgets). Restate runs one `take` of a key at a time, on whichever endpoint,
// so the budget holds across every run of the cluster. Time is Restate's
// (`ctx.date.now()`), journaled, so a retried `take` decides as it did.

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

export const budgetObject = restate.object({
  name: BUDGET_OBJECT,
  handlers: {
    take: async (ctx: restate.ObjectContext, request: BudgetRequest): Promise<BudgetAnswer> => {
      const window = WINDOW_MS[String(request?.unit)];
      const count = request?.count;
      // A request of another shape (none of renyi's) is refused, never counted.
      if (window === undefined || !Number.isSafeInteger(count) || count < 1) return { ok: false };
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
