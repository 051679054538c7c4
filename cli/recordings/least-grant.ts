// The least grant of a recording (spec/recording.md, "The least grant"): the
// narrowest `needs` line that covers every call the recording holds, with each
// budget main had sized to what the calls' `at_ms` show they needed, and where
// main's needs are wider than what the run used. Pure: the recording and
// main's grant in, the report out; `renyi grant` (grant.ts) prints it.
//
// The covering relation and the text form are the vocabulary's (covers,
// grantText): a least grant is read by the same rules as the grant it narrows.

import { capabilityInfo, covers, knownCapabilities, normalisePath } from "../../vocabulary/capabilities.js";
import { readNeedText } from "../../vocabulary/grant-text.js";
import { grantText, needText, type BudgetUnit, type GrantItem, type Need } from "../../vocabulary/needs.js";
import type { RecordedCall } from "../../vocabulary/recording.js";

/** A budget's window in milliseconds, as the runtime counts it (rtlib/grants.ts); `run` has none. */
const WINDOW_MS: Record<Exclude<BudgetUnit, "run">, number> = {
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

/** One item of the least grant, and the calls that used it. */
interface LeastItem {
  readonly item: GrantItem;
  readonly calls: readonly RecordedCall[];
}

/** A way in which main's needs are wider than the recording used. */
interface Wider {
  /** main's item, as its needs line writes it. */
  readonly item: string;
  readonly kind: "unused" | "scope" | "budget";
  readonly text: string;
}

export interface LeastGrant {
  readonly items: readonly LeastItem[];
  readonly wider: readonly Wider[];
  /** Calls that main's needs do not cover: a replay under them would be refused. */
  readonly uncovered: readonly RecordedCall[];
}

/**
 * The most calls among `times` (milliseconds, any order) that fall in one
 * window of `windowMs`: sorted, then two pointers, each time passed once. The
 * window is closed ([t − W, t]), one millisecond more than the runtime's (t − W,
 * t], because `at_ms` is rounded to whole milliseconds: a count never falls
 * short of what a live run would count.
 */
export function mostInWindow(times: readonly number[], windowMs: number): number {
  const sorted = Float64Array.from(times).sort();
  let best = 0;
  let left = 0;
  for (let right = 0; right < sorted.length; right++) {
    while (sorted[left]! < sorted[right]! - windowMs) left++;
    best = Math.max(best, right - left + 1);
  }
  return best;
}

/**
 * How many of `calls` one budget of `unit` had to allow: all of them for `run`, or when a call has no `at_ms` to place
 * it by.
 */
function neededCount(calls: readonly RecordedCall[], unit: BudgetUnit): number {
  if (unit === "run" || calls.some((c) => c.at_ms === undefined)) return calls.length;
  return mostInWindow(
    calls.map((c) => c.at_ms!),
    WINDOW_MS[unit],
  );
}

/** A scope as the covering relation compares it: hosts without regard to case, paths normalised. */
function scopeKey(need: Need): string {
  if (need.scope === undefined) return need.path.join(".");
  const kind = capabilityInfo(need.path)?.scope;
  const scope =
    kind === "host"
      ? String(need.scope).toLowerCase()
      : kind === "path"
        ? normalisePath(String(need.scope))
        : String(need.scope);
  return `${need.path.join(".")} ${JSON.stringify(scope)}`;
}

/**
 * The needs the calls used, each once, without those another of them covers: a
 * capability used without a scope covers its scoped uses, and a folder read as
 * a whole the files in it. Linear in the calls (a path is checked against its
 * own parent folders, not against every other path).
 */
function usedNeeds(calls: readonly RecordedCall[]): Map<string, { need: Need; calls: RecordedCall[] }> {
  const used = new Map<string, { need: Need; calls: RecordedCall[] }>();
  for (const call of calls) {
    const need = readNeedText(call.capability) as Need; // the reader has checked it
    const key = scopeKey(need);
    const entry = used.get(key);
    if (entry === undefined) used.set(key, { need, calls: [call] });
    else entry.calls.push(call);
  }
  for (const [key, entry] of used) {
    const covering = coveringUse(entry.need, used);
    if (covering === undefined || covering === entry) continue;
    covering.calls.push(...entry.calls);
    used.delete(key);
  }
  return used;
}

/** Another use that covers `need`: the capability (or a parent) without a scope, or a parent folder of a path. */
function coveringUse(
  need: Need,
  used: Map<string, { need: Need; calls: RecordedCall[] }>,
): { need: Need; calls: RecordedCall[] } | undefined {
  for (let n = need.scope === undefined ? need.path.length - 1 : need.path.length; n >= 1; n--) {
    const unscoped = used.get(need.path.slice(0, n).join("."));
    if (unscoped !== undefined) return unscoped;
  }
  if (need.scope === undefined || capabilityInfo(need.path)?.scope !== "path") return undefined;
  const path = normalisePath(String(need.scope));
  const parts = path.split("/");
  for (let n = parts.length - 1; n >= 0; n--) {
    const parent = n === 0 ? (path.startsWith("/") ? "/" : ".") : parts.slice(0, n).join("/");
    if (parent === "" || parent === path) continue;
    const found = used.get(scopeKey({ path: need.path, scope: parent }));
    if (found !== undefined && covers(found.need, need)) return found;
  }
  return undefined;
}

const ORDER = new Map(knownCapabilities().map((name, i) => [name, i]));

function byCapability(a: Need, b: Need): number {
  const byPath = (ORDER.get(a.path.join(".")) ?? 99) - (ORDER.get(b.path.join(".")) ?? 99);
  if (byPath !== 0) return byPath;
  return String(a.scope ?? "").localeCompare(String(b.scope ?? ""), "en");
}

/**
 * The least grant of `calls` against main's grant `main` (from the program's
 * needs, or the recording's grant header). Each item keeps the guard of the
 * first item of main's that covers it, and the budget of the first that has
 * one, sized to the most calls of the item in one window of that budget's unit.
 */
export function leastGrant(calls: readonly RecordedCall[], main: readonly GrantItem[]): LeastGrant {
  const used = [...usedNeeds(calls).values()].sort((a, b) => byCapability(a.need, b.need));
  const items: LeastItem[] = used.map(({ need, calls: its }) => {
    const guarded = main.find((m) => covers(m, need));
    const budgeted = main.find((m) => m.budget !== undefined && covers(m, need));
    const item: GrantItem = {
      ...need,
      ...(budgeted?.budget !== undefined
        ? { budget: { count: neededCount(its, budgeted.budget.unit), unit: budgeted.budget.unit } }
        : {}),
      ...(guarded?.guard !== undefined ? { guard: guarded.guard } : {}),
    };
    return { item, calls: its.sort((a, b) => a.sequence - b.sequence) };
  });
  const uncovered = calls.filter((c) => !main.some((m) => covers(m, readNeedText(c.capability) as Need)));
  return { items, wider: widerThanUsed(main, items), uncovered };
}

const SHOWN = 5;

/** Where each item of main's is wider than the uses it covers: not used, a wider scope, or a larger budget. */
function widerThanUsed(main: readonly GrantItem[], items: readonly LeastItem[]): Wider[] {
  const out: Wider[] = [];
  for (const m of main) {
    const text = grantText(m);
    const its = items.filter((l) => covers(m, l.item));
    if (its.length === 0) {
      out.push({ item: text, kind: "unused", text: "no call used it" });
      continue;
    }
    const exact = its.length === 1 && scopeKey(its[0]!.item) === scopeKey(m);
    if (!exact) {
      const names = its.slice(0, SHOWN).map((l) => needText(l.item));
      const more = its.length > SHOWN ? ` and ${its.length - SHOWN} more` : "";
      out.push({ item: text, kind: "scope", text: `the calls used only ${names.join(", ")}${more}` });
    }
    if (m.budget !== undefined) {
      const needed = neededCount(
        its.flatMap((l) => l.calls),
        m.budget.unit,
      );
      if (needed < m.budget.count)
        out.push({
          item: text,
          kind: "budget",
          text: `it allows ${m.budget.count} per ${m.budget.unit}; the calls needed at most ${needed} per ${m.budget.unit}`,
        });
    }
  }
  return out;
}

/** The least grant as a `needs` line; empty when the recording made no call. */
export function needsLine(least: LeastGrant): string {
  return least.items.length === 0 ? "" : `needs ${least.items.map((l) => grantText(l.item)).join(", ")}`;
}
