// Needs and grant items as the compiler checks them, the runtime enforces them
// and the manifest lists them (spec/types.md, section 6; spec/effects.md, sections 2 and 3),
// and the one text form all three write them in.

/** A capability with an optional scope: `network.http("api.example.com")`. */
export interface Need {
  readonly path: readonly string[];
  readonly scope?: string | number;
}

export type BudgetUnit = "second" | "minute" | "hour" | "day" | "run";

export const BUDGET_UNITS: readonly BudgetUnit[] = ["second", "minute", "hour", "day", "run"];

export function isBudgetUnit(text: string): text is BudgetUnit {
  return (BUDGET_UNITS as readonly string[]).includes(text);
}

/** `at most 60 per minute` */
export interface Budget {
  readonly count: number;
  readonly unit: BudgetUnit;
}

/** `only to console or filesystem.write`: where guarded data may go. */
interface Guard {
  readonly sinks: readonly Need[];
}

/** One item of a `needs` line, and of a run's grant: a capability, perhaps with a budget and a guard. */
export interface GrantItem extends Need {
  readonly budget?: Budget;
  readonly guard?: Guard;
}

/** A need as a `needs` line writes it: `network.http("api.example.com")`, `network.socket(8080)`. */
export function needText(need: Need): string {
  const scope =
    need.scope === undefined
      ? ""
      : typeof need.scope === "number"
        ? `(${need.scope})`
        : `(${JSON.stringify(need.scope)})`;
  return need.path.join(".") + scope;
}

/** A grant item as `main`'s needs line writes it, and as the manifest's `grant` lists it. */
export function grantText(item: GrantItem): string {
  let out = needText(item);
  if (item.budget) out += ` at most ${item.budget.count} per ${item.budget.unit}`;
  if (item.guard) out += ` only to ${item.guard.sinks.map(needText).join(" or ")}`;
  return out;
}
