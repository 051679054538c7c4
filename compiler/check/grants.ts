// `needs` lines: each grant item checked against the capability tree, budgets
// and guards allowed only where a run's grant is declared (spec/types.md, section 6, "Grant clauses").

import { diagnose } from "../diagnose.js";
import type { Diagnostic } from "../diagnostics.js";
import type { Span } from "../source.js";
import type * as S from "../parse/tree.js";
import { capabilityInfo, coveredBy, knownCapabilities } from "../../vocabulary/capabilities.js";
import { isBudgetUnit, needText, type GrantItem } from "../../vocabulary/needs.js";
import type { CheckedGrantItem } from "./checked.js";
import { closest } from "./scope.js";
import type { Need } from "./types.js";
import { record, type NameUse } from "./names.js";

/** Where a `needs` line stands: only a run's grant (main, a test) may carry budgets and guards. */
export type GrantPlace = "entry" | "function" | "type";

/** `names`: where the capabilities' names are recorded, when asked for (names.ts). */
export function checkNeeds(
  needs: S.Needs | undefined,
  place: GrantPlace,
  diagnostics: Diagnostic[],
  names?: NameUse[],
): CheckedGrantItem[] {
  if (needs === undefined) return [];
  const items: CheckedGrantItem[] = [];
  for (const item of needs.items) {
    const capability = checkCapability(item.capability, diagnostics);
    if (capability === undefined) continue;
    recordCapability(names, item.capability, capability);
    const granted: { -readonly [K in keyof CheckedGrantItem]: CheckedGrantItem[K] } = { capability, span: item.span };
    if (item.budget !== undefined) {
      const budget = checkBudget(item, capability, place, diagnostics);
      if (budget !== undefined) granted.budget = budget;
    }
    if (item.guard !== undefined) {
      if (place !== "entry") {
        diagnostics.push(
          grantClauseError(
            item.guard.span,
            "guard",
            place,
            between(item.budget?.span ?? item.capability.span, item.guard.span),
          ),
        );
      } else {
        const sinks = item.guard.sinks
          .map((s) => {
            const sink = checkCapability(s, diagnostics);
            if (sink !== undefined) recordCapability(names, s, sink);
            return sink;
          })
          .filter((s): s is Need => s !== undefined);
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
        diagnose("W-GUARD-NO-SINK", item.span, {
          capability: needText(item.capability),
          sinks: item.guard.sinks.map(needText),
        }),
      );
    }
  }
  return items;
}

/**
 * A test's `unused console, environment("KEY")`: each capability checked as a `needs` line's is (E-CAP-UNKNOWN,
 * E-CAP-SCOPE), its names recorded for the editor.
 */
export function checkUnusedCalls(unused: S.UnusedCalls, diagnostics: Diagnostic[], names?: NameUse[]): Need[] {
  const needs: Need[] = [];
  for (const ref of unused.items) {
    const need = checkCapability(ref, diagnostics);
    if (need === undefined) continue;
    recordCapability(names, ref, need);
    needs.push(need);
  }
  return needs;
}

/** The vocabulary's grant item a checked one stands for: what the manifest and the runtime's grant hold. */
export function grantItemOf(item: CheckedGrantItem): GrantItem {
  const { path, scope } = item.capability;
  return {
    path,
    ...(scope === undefined ? {} : { scope }),
    ...(item.budget === undefined ? {} : { budget: item.budget }),
    ...(item.guard === undefined
      ? {}
      : {
          guard: {
            sinks: item.guard.sinks.map((s) =>
              s.scope === undefined ? { path: s.path } : { path: s.path, scope: s.scope },
            ),
          },
        }),
  };
}

/** Each part of a known capability's path names the capability up to it; the last names it with its scope. */
function recordCapability(names: NameUse[] | undefined, ref: S.CapabilityRef, need: Need): void {
  if (names === undefined) return;
  ref.path.forEach((part, i) => {
    const path = need.path.slice(0, i + 1);
    const last = i === ref.path.length - 1 && need.scope !== undefined;
    record(names, part.span, { kind: "capability", path, ...(last ? { scope: need.scope! } : {}) });
  });
}

function checkCapability(ref: S.CapabilityRef, diagnostics: Diagnostic[]): Need | undefined {
  const path = ref.path.map((i) => i.name);
  const info = capabilityInfo(path);
  if (info === undefined) {
    const written = path.join(".");
    const suggestion = closest(written, knownCapabilities());
    const pathSpan = between(ref.path[0]!.span, ref.path[ref.path.length - 1]!.span, "whole");
    diagnostics.push(
      diagnose(
        "E-CAP-UNKNOWN",
        ref.span,
        { capability: written, known: knownCapabilities(), ...(suggestion === undefined ? {} : { suggestion }) },
        suggestion === undefined
          ? {}
          : {
              edits: [{ title: `Write \`${suggestion}\``, span: pathSpan, replacement: suggestion }],
            },
      ),
    );
    return undefined;
  }
  if (ref.scope === undefined) return { path, span: ref.span };
  const scope = ref.scope.kind === "IntLiteral" ? ref.scope.value : ref.scope.value;
  const wanted = info.scope;
  const fits =
    wanted === "port"
      ? typeof scope === "number"
      : wanted === "none"
        ? false
        : typeof scope === "string" && scope !== "";
  if (!fits) {
    // A capability that takes no scope loses it: `console("terminal")` becomes `console`.
    const edits =
      wanted === "none"
        ? [{ title: "Remove the scope", span: between(ref.path[ref.path.length - 1]!.span, ref.span), replacement: "" }]
        : [];
    diagnostics.push(
      diagnose(
        "E-CAP-SCOPE",
        ref.scope.span,
        { capability: path.join("."), wanted },
        edits.length === 0 ? {} : { edits },
      ),
    );
    return { path, span: ref.span };
  }
  if (wanted === "host" && typeof scope === "string" && /\P{ASCII}/u.test(scope)) {
    // A letter of another script can pass for a Latin one: a host is written as the network spells it.
    const ascii = asciiHost(scope);
    const written = scope.replace(/\P{ASCII}/gu, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, "0")}`);
    diagnostics.push(
      diagnose(
        "E-CAP-HOST",
        ref.scope.span,
        { capability: path.join("."), host: written, ...(ascii === undefined ? {} : { ascii }) },
        ascii === undefined
          ? {}
          : {
              edits: [
                {
                  title: `Write the host as the network spells it: \`${ascii}\``,
                  span: ref.scope.span,
                  replacement: JSON.stringify(ascii),
                },
              ],
            },
      ),
    );
    return { path, span: ref.span };
  }
  return { path, scope, span: ref.span };
}

/**
 * A host as the network spells it (punycode for a name beyond ASCII, with its port), or nothing when it is not a host
 * at all.
 */
function asciiHost(host: string): string | undefined {
  const m = /^(\*\.)?(.*?)(:\d{1,5})?$/u.exec(host)!;
  try {
    const name = new URL(`http://${m[2]}/`).hostname;
    return /^[\x21-\x7e]+$/.test(name) ? (m[1] ?? "") + name + (m[3] ?? "") : undefined;
  } catch {
    return undefined;
  }
}

function checkBudget(
  item: S.GrantItem,
  capability: Need,
  place: GrantPlace,
  diagnostics: Diagnostic[],
): CheckedGrantItem["budget"] {
  const budget = item.budget!;
  if (place !== "entry") {
    diagnostics.push(grantClauseError(budget.span, "budget", place, between(item.capability.span, budget.span)));
    return undefined;
  }
  const info = capabilityInfo(capability.path)!;
  if (!info.budgets) {
    diagnostics.push(
      diagnose("E-CAP-BUDGET", budget.span, { problem: "takes none", capability: capability.path.join(".") }),
    );
    return undefined;
  }
  if (budget.count.value === 0) {
    diagnostics.push(
      diagnose("E-CAP-BUDGET", budget.count.span, { problem: "zero", capability: capability.path.join(".") }),
    );
    return undefined;
  }
  // The parser takes only a unit of the vocabulary's.
  return isBudgetUnit(budget.unit.name) ? { count: budget.count.value, unit: budget.unit.name } : undefined;
}

/**
 * A budget or guard where only `main` and tests may have one; the edit removes it (`removed`: from the end of what
 * precedes it).
 */
function grantClauseError(span: Span, clause: "budget" | "guard", place: GrantPlace, removed: Span): Diagnostic {
  return diagnose(
    "E-CAP-GRANT-CLAUSE",
    span,
    { clause, place: place === "type" ? "type" : "function" },
    {
      edits: [{ title: `Remove the ${clause} (it belongs on \`main\` or a test)`, span: removed, replacement: "" }],
    },
  );
}

/** The span from the end of `before` to the end of `to` (or, `whole`, from the start of `before`). */
function between(before: Span, to: Span, whole?: "whole"): Span {
  return { file: to.file, start: whole === undefined ? before.end : before.start, end: to.end };
}
