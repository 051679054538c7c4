// Narrowing the run's grant from the command line (spec/effects.md, section 2):
// `--allow-host HOST` (repeatable) and `--at-most CAP=N/UNIT` (repeatable).
// They can only tighten: a host main's needs do not allow, or a budget looser
// than one main declares for the same capability and unit, is refused.

import { covers } from "../vocabulary/capabilities.js";
import type { BudgetUnit, GrantItem, Need } from "../vocabulary/needs.js";
import { budgetsOf, Grant, rootGrant } from "./grants.js";

const UNITS = new Set(["second", "minute", "hour", "day", "run"]);

function parseCapability(text: string): Need | undefined {
  const m = /^([a-z]+(?:\.[a-z]+)*)(?:\((?:"([^"]*)"|(\d+))\))?$/.exec(text);
  if (m === null) return undefined;
  return {
    path: m[1]!.split("."),
    ...(m[2] !== undefined ? { scope: m[2] } : m[3] !== undefined ? { scope: Number(m[3]) } : {}),
  };
}

export function narrowByCommandLine(
  items: readonly GrantItem[],
  allowHosts: readonly string[],
  atMost: readonly string[],
): { ok: true; grant: Grant } | { ok: false; message: string } {
  const root = rootGrant(items, "main");
  let grant = root;
  if (allowHosts.length > 0) {
    for (const host of allowHosts) {
      if (!items.some((item) => covers(item, { path: ["network", "http"], scope: host }))) {
        return { ok: false, message: `--allow-host ${host} would widen the grant: main's needs do not allow ${host}` };
      }
    }
    // A grant of its own around main's: only these hosts, everything else as main has it.
    const kept = items.filter(
      (item) => !(item.path[0] === "network" && (item.path.length === 1 || item.path[1] === "http")),
    );
    const socket = items.some((item) => item.path.length === 1 && item.path[0] === "network")
      ? [{ path: ["network", "socket"] }]
      : [];
    grant = new Grant(
      [...allowHosts.map((host) => ({ path: ["network", "http"], scope: host })), ...kept, ...socket],
      root,
      "the command line",
      budgetsOf(root),
    );
  }
  for (const flag of atMost) {
    const m = /^(.+)=(\d+)\/([a-z]+)$/.exec(flag);
    const need = m === null ? undefined : parseCapability(m[1]!);
    if (m === null || need === undefined || !UNITS.has(m[3]!)) {
      return {
        ok: false,
        message: `--at-most takes CAPABILITY=COUNT/UNIT, such as --at-most 'network.http=60/minute'; not ${flag}`,
      };
    }
    const count = Number(m[2]);
    const unit = m[3] as BudgetUnit;
    if (!items.some((item) => covers(item, need) || covers(need, item))) {
      return { ok: false, message: `--at-most ${flag}: main's needs have no ${m[1]}` };
    }
    const looser = items.find(
      (item) =>
        item.budget !== undefined && item.budget.unit === unit && item.budget.count < count && covers(need, item),
    );
    if (looser !== undefined) {
      return {
        ok: false,
        message: `--at-most ${flag} would widen main's budget of ${looser.budget!.count} per ${unit}; it can only tighten`,
      };
    }
    budgetsOf(root).declare({ ...need }, { count, unit });
  }
  return { ok: true, grant };
}
