// Grants at run time (spec/effects.md, section 2): the run's grant is main's needs
// (a test's in a test), narrowed by the command line; entering a function with
// needs narrows the grant to them. Every primitive call is checked against the
// innermost grant and every grant around it.

import { covers, normalisePath } from "../vocabulary/capabilities.js";
import { needText, type BudgetUnit, type GrantItem, type Need } from "../vocabulary/needs.js";
import type { CallOrigins } from "./origins.js";

export { needText, type BudgetUnit, type GrantItem };

/**
 * A grant: what a function may use, inside its caller's. Compiled code holds
 * grants and passes them on, and must never make or change one (spec/security.md):
 * a grant is frozen with frozen copies of its items, and its budgets are kept
 * where compiled code cannot reach them (budgetsOf).
 */
export class Grant {
  readonly items: readonly GrantItem[];
  constructor(
    items: readonly GrantItem[],
    readonly parent: Grant | undefined,
    /** Whose needs these are, for messages: `main`, `fetch`, "this test". */
    readonly owner: string,
    /** The budgets of the run, shared by every grant of it. */
    budgets: Budgets,
  ) {
    this.items = Object.freeze(items.map(frozenItem));
    BUDGETS.set(this, budgets);
    Object.freeze(this);
  }
}

const BUDGETS = new WeakMap<Grant, Budgets>();

/** The budgets of the run a grant belongs to (a grant carrying a call's origins is its grant's). */
export function budgetsOf(grant: Grant): Budgets {
  return BUDGETS.get(grant) ?? BUDGETS.get(Object.getPrototypeOf(grant) as Grant)!;
}

const CARRIED = new WeakMap<Grant, CallOrigins>();

/**
 * The grant a library call of a guarded run is given (rtlib/origin-ops.ts): the
 * same grant, carrying the call's origins to every call it makes through the
 * gateway, however many and after however many awaits (each hop of a
 * redirected request). It allows exactly what `grant` allows.
 */
export function carrying(grant: Grant, origins: CallOrigins): Grant {
  const carrier = Object.freeze(Object.create(grant) as Grant);
  CARRIED.set(carrier, origins);
  return carrier;
}

/** The origins a grant carries for the library call it was given to, if it is such a grant. */
export function carriedBy(grant: Grant): CallOrigins | undefined {
  return CARRIED.get(grant);
}

function frozenItem(item: GrantItem): GrantItem {
  const need: GrantItem = {
    path: Object.freeze([...item.path]),
    ...(item.scope === undefined ? {} : { scope: item.scope }),
    ...(item.budget === undefined ? {} : { budget: Object.freeze({ ...item.budget }) }),
    ...(item.guard === undefined
      ? {}
      : {
          guard: Object.freeze({
            sinks: Object.freeze(
              item.guard.sinks.map((s) =>
                Object.freeze({
                  path: Object.freeze([...s.path]),
                  ...(s.scope === undefined ? {} : { scope: s.scope }),
                }),
              ),
            ),
          }),
        }),
  };
  return Object.freeze(need);
}

/**
 * The grant a function's needs make inside the grant of its caller. Without a
 * caller's grant (a function value made where there was none), it is inside
 * the empty grant: needs narrow what a caller was given, and never make
 * authority of their own.
 */
export function narrow(parent: Grant | undefined, needs: readonly Need[], owner: string): Grant {
  if (!(parent instanceof Grant)) parent = new Grant([], undefined, "this program", new Budgets());
  return new Grant(needs, parent, owner, budgetsOf(parent));
}

export function rootGrant(items: readonly GrantItem[], owner: string, budgets = new Budgets()): Grant {
  const grant = new Grant(items, undefined, owner, budgets);
  for (const item of items) if (item.budget !== undefined) budgets.declare(item);
  return grant;
}

/**
 * The innermost grant that does not cover the need, or undefined when every
 * grant from the innermost out covers it. A primitive's need carries the actual
 * scope of the call (the host of the URL, the path of the file).
 */
export function refusing(grant: Grant | undefined, need: Need): Grant | undefined {
  // No grant, or something that is not one (compiled code cannot make a Grant): nothing is allowed.
  if (!(grant instanceof Grant)) return new Grant([], undefined, "this program", new Budgets());
  const memo = LAST_ANSWER.get(need);
  if (memo !== undefined && memo.grant === grant) return memo.refused;
  let refused: Grant | undefined;
  for (let g: Grant | undefined = grant; g !== undefined; g = g.parent) {
    if (!anyCovers(g.items, need)) {
      refused = g;
      break;
    }
  }
  if (memo !== undefined) {
    memo.grant = grant;
    memo.refused = refused;
  } else LAST_ANSWER.set(need, { grant, refused });
  return refused;
}

/**
 * The last answer for a need, by the need's identity: a primitive made once (environment.get of a
 * name, time.now) asks the same question of the same grant call after call, and the walk over the
 * grants and their items was a large part of a cheap call. A grant and its items are frozen, and a
 * need is never changed once made, so the answer cannot go stale.
 */
const LAST_ANSWER = new WeakMap<Need, { grant: Grant; refused: Grant | undefined }>();

function anyCovers(items: readonly GrantItem[], need: Need): boolean {
  for (let i = 0; i < items.length; i++) if (covers(items[i]!, need)) return true;
  return false;
}

/**
 * The path scopes a live call on disk must stay beneath (spec/security.md, "Path
 * scopes, live and in replay"): for each grant from the innermost out, the widest
 * of its scoped items that covers the need; a grant that covers it without a
 * scope adds none. Every one of them is a lexical prefix of the call's path, so
 * they nest; they come back widest first, normalised, without repeats.
 */
export function pathRoots(grant: Grant, need: Need): string[] {
  const roots = new Set<string>();
  for (let g: Grant | undefined = grant; g !== undefined; g = g.parent) {
    let widest: string | undefined;
    let unscoped = false;
    for (const item of g.items) {
      if (!covers(item, need)) continue;
      if (item.scope === undefined) unscoped = true;
      else {
        const root = normalisePath(String(item.scope));
        if (widest === undefined || root.length < widest.length) widest = root;
      }
    }
    if (!unscoped && widest !== undefined) roots.add(widest);
  }
  return [...roots].sort((a, b) => (a === "." ? 0 : a.length) - (b === "." ? 0 : b.length));
}

// ---- budgets ----

const WINDOW_MS: Record<Exclude<BudgetUnit, "run">, number> = {
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

interface Counter {
  readonly item: GrantItem;
  readonly count: number;
  readonly unit: BudgetUnit;
  /** Times of the calls still inside the window, oldest first (a plain count for `run`). */
  readonly times: number[];
  head: number;
  used: number;
}

/**
 * Counters per budgeted capability and scope: a sliding window for second,
 * minute, hour and day, a plain count for run. Checking and counting happen
 * together, before the call, in one turn of the event loop, so concurrent
 * tasks can never exceed a budget together. A call takes constant time
 * (amortised: each call's time leaves the window once).
 */
export class Budgets {
  private readonly counters: Counter[] = [];
  private clock: () => number = Date.now;

  setClock(clock: () => number): void {
    this.clock = clock;
  }

  declare(item: GrantItem, extra?: { count: number; unit: BudgetUnit }): void {
    const budget = extra ?? item.budget!;
    this.counters.push({ item, count: budget.count, unit: budget.unit, times: [], head: 0, used: 0 });
  }

  /** Whether a budget counts the call. */
  budgeted(need: Need): boolean {
    return this.counters.some((c) => covers(c.item, need));
  }

  /** Counts a call under every budget whose capability covers it; false (and nothing counted) when one is spent. */
  take(need: Need): { ok: true } | { ok: false; budget: string } {
    if (this.counters.length === 0) return OK;
    const now = this.clock();
    const counters = this.counters;
    for (const c of counters) {
      if (!covers(c.item, need)) continue;
      if (c.unit === "run") {
        if (c.used >= c.count) return { ok: false, budget: describe(c) };
        continue;
      }
      const start = now - WINDOW_MS[c.unit];
      while (c.head < c.times.length && c.times[c.head]! <= start) c.head++;
      if (c.head > 1024 && c.head * 2 > c.times.length) {
        c.times.splice(0, c.head);
        c.head = 0;
      }
      if (c.times.length - c.head >= c.count) return { ok: false, budget: describe(c) };
    }
    this.countAt(need, now);
    return OK;
  }

  /**
   * Counts a call under every budget that covers it, spent or not: a call a durable run was answered from its journal
   * was a live call of the same run in an attempt before, and a live call after it sees the budget spent by it.
   */
  count(need: Need): void {
    if (this.counters.length > 0) this.countAt(need, this.clock());
  }

  /** One call at `now` under every budget that covers it. */
  private countAt(need: Need, now: number): void {
    for (const c of this.counters) {
      if (!covers(c.item, need)) continue;
      if (c.unit === "run") c.used++;
      else c.times.push(now);
    }
  }
}

const OK = { ok: true } as const;

function describe(c: Counter): string {
  return `${needText(c.item)} at most ${c.count} per ${c.unit}`;
}
