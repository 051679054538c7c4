// Capabilities, budgets and guards in words for a hover over a `needs` line.
// The words themselves are the vocabulary's (vocabulary/grant-words.ts), the
// one wording a lens, a completion and a hover share; a hover adds what a
// reader of one item wants beside them: the item as the line writes it, the
// failure its calls give, and how a budget counts and a guard holds.

import { budgetInWords, guardInWords, needInWords } from "../vocabulary/grant-words.js";
import { capabilityInfo } from "../vocabulary/capabilities.js";
import { needText, type Budget, type Need } from "../vocabulary/needs.js";

/** `network.http("api.example.com")` lets the program reach api.example.com over HTTP and HTTPS. */
export function capabilityWords(need: Need): string {
  const info = capabilityInfo(need.path);
  if (info === undefined) return `\`${need.path.join(".")}\` is not a capability`;
  const failure = info.errorType;
  return (
    `\`${needText(need)}\` lets the program ${needInWords(need)}.` +
    (failure === undefined ? "" : ` Its calls fail with \`${failure}\`.`)
  );
}

/** `at most 30 per minute` on `need`. */
export function budgetWords(need: Need, budget: Budget): string {
  const window = budget.unit === "run" ? "" : ` (a sliding window: the calls of the last ${budget.unit} count)`;
  return (
    `Calls through \`${needText(need)}\`: ${budgetInWords(budget)}${window}. A call over the budget is not made: ` +
    "it fails with its module's `OverBudget` case. Every budget whose capability covers a call counts it."
  );
}

/** `only to console or network.http("x")` on `need`. */
export function guardWords(need: Need, sinks: readonly Need[]): string {
  return (
    `Data read through \`${needText(need)}\` is guarded: ${guardInWords(sinks)}. ` +
    "A call that would send it, or anything computed from it, anywhere else is refused when the program runs."
  );
}
