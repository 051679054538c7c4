// Helpers for queries: stable multi-key sorting and grouping in order of first appearance.
// Each charges its work as fuel before it starts (spec/runtime.md, "Library
// work"); the clauses' own steps are charged by the compiled code per row.

import { compare } from "./equality.js";
import { chargeWork, sortSteps } from "./limits.js";
import { Group } from "./prelude.js";
import { keyOf } from "./values.js";

/** Sorts rows by keys computed for each (stable); `descending[i]` flips key i. */
export function sortRows<T>(rows: T[], keys: (row: T) => unknown[], descending: boolean[]): T[] {
  chargeWork(rows.length + sortSteps(rows.length));
  const keyed = rows.map((row) => ({ row, key: keys(row) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < descending.length; i++) {
      const c = compare(a.key[i], b.key[i]);
      if (c !== 0) return descending[i] ? -c : c;
    }
    return 0;
  });
  return keyed.map((k) => k.row);
}

/** Groups rows by key, groups in order of their first row; each group a Group(key, items). */
export function groupBy<T>(rows: T[], key: (row: T) => unknown, item: (row: T) => unknown): unknown[] {
  chargeWork(rows.length);
  const groups = new Map<unknown, [unknown, unknown[]]>();
  for (const row of rows) {
    const k = key(row);
    const canonical = keyOf(k);
    const group = groups.get(canonical);
    if (group === undefined) groups.set(canonical, [k, [item(row)]]);
    else group[1].push(item(row));
  }
  return [...groups.values()].map(([k, items]) => Group.desc.make([k, items]));
}

export const query = { sortRows, groupBy };

/** `concurrently at most N at a time select ...`: at most `limit` tasks at once, results in input order. */
export async function mapConcurrent<T, U>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<U>,
): Promise<U[]> {
  const results = new Array<U>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        results[i] = await task(items[i]!);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, () => worker());
  await Promise.all(workers);
  return results;
}

/** `select distinct`: the first of each equal value, in order. */
export function distinct(items: unknown[]): unknown[] {
  chargeWork(items.length);
  const seen = new Set<unknown>();
  const out: unknown[] = [];
  for (const item of items) {
    const key = keyOf(item);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(item);
    }
  }
  return out;
}
