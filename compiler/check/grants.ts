// `needs` lines: each grant item checked against the capability tree, budgets
// and guards allowed only where a run's grant is declared (spec/types.md, section 6, "Grant clauses").

import { error, warning, type Diagnostic } from "../diagnostics.js";
import type * as S from "../parse/tree.js";
import { capabilityInfo, coveredBy, knownCapabilities } from "../../vocabulary/capabilities.js";
import { isBudgetUnit, needText, type GrantItem } from "../../vocabulary/needs.js";
import type { CheckedGrantItem } from "./checked.js";
import { didYouMean } from "./scope.js";
import type { Need } from "./types.js";

/** Where a `needs` line stands: only a run's grant (main, a test) may carry budgets and guards. */
export type GrantPlace = "entry" | "function" | "type";

export function checkNeeds(needs: S.Needs | undefined, place: GrantPlace, diagnostics: Diagnostic[]): CheckedGrantItem[] {
  if (needs === undefined) return [];
  const items: CheckedGrantItem[] = [];
  for (const item of needs.items) {
    const capability = checkCapability(item.capability, diagnostics);
    if (capability === undefined) continue;
    const granted: { -readonly [K in keyof CheckedGrantItem]: CheckedGrantItem[K] } = { capability, span: item.span };
    if (item.budget !== undefined) {
      const budget = checkBudget(item, capability, place, diagnostics);
      if (budget !== undefined) granted.budget = budget;
    }
    if (item.guard !== undefined) {
      if (place !== "entry") {
        diagnostics.push(grantClauseError(item.guard.span, "guard", place));
      } else {
        const sinks = item.guard.sinks.map((s) => checkCapability(s, diagnostics)).filter((s): s is Need => s !== undefined);
        granted.guard = { sinks };
      }
    }
    items.push(granted);
  }
  // A guard whose sinks the grant itself never allows keeps its data in forever.
  for (const item of items) {
    if (item.guard === undefined || item.guard.sinks.length === 0) continue;
    const grant = items.map((i) => i.capability);
    if (!item.guard.sinks.some((sink) => coveredBy(grant, sink, sink.scope === undefined) !== undefined)) {
      diagnostics.push(
        warning("W-GUARD-NO-SINK", item.span, "No sink of this guard is in the grant, so its data can never leave", {
          label: "guarded data can go nowhere",
          notes: ["A guard lets data through only to its sinks, and a sink is used only if the grant also allows it."],
          hint: `Add a sink to the \`needs\` line, for example \`${item.guard.sinks.map(needText).join("`, `")}\`, or remove the guard if that is what you meant.`,
        }),
      );
    }
  }
  return items;
}

/** The vocabulary's grant item a checked one stands for: what the manifest and the runtime's grant hold. */
export function grantItemOf(item: CheckedGrantItem): GrantItem {
  const { path, scope } = item.capability;
  return {
    path,
    ...(scope === undefined ? {} : { scope }),
    ...(item.budget === undefined ? {} : { budget: item.budget }),
    ...(item.guard === undefined ? {} : { guard: { sinks: item.guard.sinks.map((s) => (s.scope === undefined ? { path: s.path } : { path: s.path, scope: s.scope })) } }),
  };
}

export function checkCapability(ref: S.CapabilityRef, diagnostics: Diagnostic[]): Need | undefined {
  const path = ref.path.map((i) => i.name);
  const info = capabilityInfo(path);
  if (info === undefined) {
    diagnostics.push(
      error("E-CAP-UNKNOWN", ref.span, `\`${path.join(".")}\` is not a capability`, {
        label: "unknown capability",
        notes: [`The capabilities are ${knownCapabilities().map((c) => `\`${c}\``).join(", ")}.`],
        ...didYouMean(path.join("."), knownCapabilities()),
      }),
    );
    return undefined;
  }
  if (ref.scope === undefined) return { path, span: ref.span };
  const scope = ref.scope.kind === "IntLiteral" ? ref.scope.value : ref.scope.value;
  const wanted = info.scope;
  const fits =
    wanted === "port" ? typeof scope === "number" : wanted === "none" ? false : typeof scope === "string" && scope !== "";
  if (!fits) {
    const what =
      wanted === "none"
        ? `\`${path.join(".")}\` takes no scope`
        : wanted === "port"
          ? `\`${path.join(".")}\` is scoped by a port number, such as \`network.socket(8080)\``
          : `\`${path.join(".")}\` is scoped by a ${wanted === "host" ? "host" : wanted === "path" ? "path" : "name"} in a text, such as \`${path.join(".")}(${wanted === "host" ? '"api.example.com"' : wanted === "path" ? '"data"' : '"NAME"'})\``;
    diagnostics.push(error("E-CAP-SCOPE", ref.scope.span, `This scope does not fit: ${what}`, { label: "wrong scope" }));
    return { path, span: ref.span };
  }
  return { path, scope, span: ref.span };
}

function checkBudget(item: S.GrantItem, capability: Need, place: GrantPlace, diagnostics: Diagnostic[]): CheckedGrantItem["budget"] {
  const budget = item.budget!;
  if (place !== "entry") {
    diagnostics.push(grantClauseError(budget.span, "budget", place));
    return undefined;
  }
  const info = capabilityInfo(capability.path)!;
  if (!info.budgets) {
    diagnostics.push(
      error("E-CAP-BUDGET", budget.span, `\`${capability.path.join(".")}\` takes no budget`, {
        label: "a budget here counts nothing",
        notes: ["Budgets apply to network, process and filesystem and their children; console, time, random, environment, foreign and python take none."],
      }),
    );
    return undefined;
  }
  if (budget.count.value === 0) {
    diagnostics.push(
      error("E-CAP-BUDGET", budget.count.span, "A budget of 0 allows no call at all", {
        hint: `Leave \`${capability.path.join(".")}\` out of the \`needs\` line instead.`,
      }),
    );
    return undefined;
  }
  // The parser takes only a unit of the vocabulary's.
  return isBudgetUnit(budget.unit.name) ? { count: budget.count.value, unit: budget.unit.name } : undefined;
}

function grantClauseError(span: S.Budget["span"], what: "budget" | "guard", place: GrantPlace): Diagnostic {
  const clause = what === "budget" ? "`at most N per UNIT`" : "`only to`";
  return error("E-CAP-GRANT-CLAUSE", span, `A ${what} belongs on \`main\` or a test, not on ${place === "type" ? "a function type" : "this function"}`, {
    label: `${clause} is not allowed here`,
    notes: [`A ${what} is a property of the whole run, like the grant: it is declared where the run starts, so a reviewer reads it in one place.`],
    hint: `Move ${clause} to the matching capability in the \`needs\` line of \`main\` (or of the test), and keep the capability here without it.`,
  });
}
