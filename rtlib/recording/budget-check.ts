// A replays test's recording checked against the test's budgets (spec/testing.md,
// "Replays tests"). A replay takes no budget: its calls are answered, not made.
// But a recording whose calls exceed a budget of the test's needs stands for a
// run that the live program could not have made, so the test fails before it
// runs. The window is the gateway's (rtlib/grants.ts, Budgets): a call is over
// budget when `count` calls of the capability were made less than the unit's
// length before it, measured by each recorded call's `at_ms`.

import { covers } from "../../vocabulary/capabilities.js";
import { grantText, type BudgetUnit, type GrantItem, type Need } from "../../vocabulary/needs.js";
import { readNeedText } from "../../vocabulary/grant-text.js";
import type { RecordedCall } from "../../vocabulary/recording.js";
import type { RunFacts } from "../../vocabulary/problems/run.js";

const WINDOW_MS: Record<Exclude<BudgetUnit, "run">, number> = {
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

/**
 * The first budget of `items` that the recorded `calls` exceed, as the facts of
 * E-RT-REPLAY-BUDGET, or undefined. Linear in the number of calls per budget
 * (two pointers over the calls in the order they were made); calls without an
 * `at_ms` count towards a `per run` budget only.
 */
export function recordedOverBudget(
  calls: readonly RecordedCall[],
  items: readonly GrantItem[],
): RunFacts<"E-RT-REPLAY-BUDGET"> | undefined {
  // A recording names few capabilities many times: each text is read once.
  const read = new Map<string, Need>();
  const needs = calls.map((c) => {
    let need = read.get(c.capability);
    // The reader has checked each.
    if (need === undefined) read.set(c.capability, (need = readNeedText(c.capability) as Need));
    return need;
  });
  for (const item of items) {
    const budget = item.budget;
    if (budget === undefined) continue;
    const counted = calls.filter((_, i) => covers(item, needs[i]!));
    const facts = { budget: grantText(item), capability: counted[0]?.capability ?? "" };
    if (budget.unit === "run") {
      if (counted.length > budget.count)
        return {
          ...facts,
          calls: counted.length,
          first: counted[0]!.sequence,
          last: counted[budget.count]!.sequence,
          span: -1,
        };
      continue;
    }
    const timed = counted.filter((c) => c.at_ms !== undefined);
    // Sequences number the calls in the order they completed; at_ms is when each was made.
    if (timed.some((c, i) => i > 0 && c.at_ms! < timed[i - 1]!.at_ms!)) timed.sort((a, b) => a.at_ms! - b.at_ms!);
    const window = WINDOW_MS[budget.unit];
    let start = 0;
    for (let end = 0; end < timed.length; end++) {
      while (timed[end]!.at_ms! - timed[start]!.at_ms! >= window) start++;
      if (end - start + 1 > budget.count) {
        return {
          ...facts,
          calls: end - start + 1,
          first: timed[start]!.sequence,
          last: timed[end]!.sequence,
          span: timed[end]!.at_ms! - timed[start]!.at_ms!,
        };
      }
    }
  }
  return undefined;
}
