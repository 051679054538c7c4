// Grant items have a grammar of their own (spec/grammar.md, section 5):
//   CAP ["(" literal ")"] [at most INT per UNIT] [only to CAP ("or" CAP)*]
// so that their `to` and `or` never reach the expression parser.

import type { Cursor, Tok } from "./cursor.js";
import type { Budget, CapabilityRef, GrantItem, Guard, Ident, Needs, ScopeLiteral, UnusedCalls } from "./tree.js";
import { parseTextValue } from "./texts.js";
import { isBudgetUnit } from "../../vocabulary/needs.js";

/**
 * `needs item, item, ...`. In a definition the items may continue on the next
 * line after a comma. In a type (a parameter's function type) a comma only
 * continues the list when a capability follows, so that `f: function() needs
 * console, g: Int` leaves `g` to the parameter list.
 */
export function parseNeedsClause(p: Cursor, context: "definition" | "type"): Needs {
  const start = p.advance(); // needs
  const items: GrantItem[] = [];
  do {
    items.push(parseGrantItem(p));
  } while (p.at(",") && (context === "definition" || startsCapability(p, p.pos + 1)) && p.advance() >= 0);
  return { kind: "Needs", items, span: p.spanFrom(start) };
}

/**
 * `unused console, environment("KEY")` after a test's recording: capabilities, written as a `needs` line writes
 * them (without budgets or guards), whose recorded entries the test may leave unused. A comma continues the list
 * on the next line, as in a `needs` line.
 */
export function parseUnusedCalls(p: Cursor): UnusedCalls {
  const start = p.advance(); // unused
  if (p.atLineBreak) p.fail("a capability after `unused`, on its line", { guide: "recording-part" });
  const items: CapabilityRef[] = [];
  do items.push(parseCapabilityRef(p));
  while (p.at(",") && p.advance() >= 0);
  return { kind: "UnusedCalls", items, span: p.spanFrom(start) };
}

function startsCapability(p: Cursor, index: number): boolean {
  return p.kindAt(index) === "name" && p.kindAt(index + 1) !== ":";
}

function parseGrantItem(p: Cursor): GrantItem {
  const start = p.pos;
  const capability = parseCapabilityRef(p);
  let budget: Budget | undefined;
  let guard: Guard | undefined;
  if (p.atOnLine("at")) budget = parseBudget(p);
  if (p.atOnLine("only")) guard = parseGuard(p);
  if (p.atOnLine("at") && guard !== undefined) {
    p.failWith("E-SYN-BUDGET", p.missing().span, { problem: "after-guard" });
  }
  return {
    kind: "GrantItem",
    capability,
    ...(budget ? { budget } : {}),
    ...(guard ? { guard } : {}),
    span: p.spanFrom(start),
  };
}

/** `console`, `network.http("api.example.com")`, `network.socket(8080)` */
function parseCapabilityRef(p: Cursor): CapabilityRef {
  const start = p.pos;
  const example = { guide: "capability" } as const;
  const path: Ident[] = [p.expectName("a capability", example)];
  while (p.at(".")) {
    p.advance();
    path.push(p.expectName("a capability after `.`", example));
  }
  let scope: ScopeLiteral | undefined;
  if (p.at("(") && !p.atLineBreak) {
    const open = p.advance();
    scope = p.withLineBreaks(false, () => {
      let literal: ScopeLiteral;
      const token = p.pos;
      if (p.kindAt(token) === "int") {
        p.advance();
        literal = { kind: "IntLiteral", value: p.valueAt(token) as number, span: p.spanOf(token) };
      } else if (p.kindAt(token) === "text_start") {
        literal = parseTextValue(p, "a scope");
      } else {
        return p.fail("a text or a number as the capability's scope", {
          guide: "scope",
        });
      }
      p.expect(")", "`)` after the scope: a capability has one scope", { opened: { at: open, by: "bracket" } });
      return literal;
    });
  }
  return { kind: "CapabilityRef", path, ...(scope ? { scope } : {}), span: p.spanFrom(start) };
}

/** `at most 60 per minute` */
function parseBudget(p: Cursor): Budget {
  const start = p.advance(); // at
  const example = { guide: "budget" } as const;
  p.expect("most", "`most` after `at`", example);
  const countToken = p.pos;
  if (p.kindAt(countToken) !== "int") {
    const { span, found } = p.missing();
    p.failWith("E-SYN-BUDGET", span, { problem: "count", found });
  }
  p.advance();
  p.expect("per", "`per` and a unit after the count", example);
  const unitToken = p.pos;
  if (!isBudgetUnit(p.textAt(unitToken)) || p.atLineBreak) {
    const { span, found } = p.missing();
    p.failWith("E-SYN-BUDGET", span, { problem: "unit", found });
  }
  p.advance();
  return {
    kind: "Budget",
    count: { kind: "IntLiteral", value: p.valueAt(countToken) as number, span: p.spanOf(countToken) },
    unit: identOf(p, unitToken),
    span: p.spanFrom(start),
  };
}

function identOf(p: Cursor, token: Tok): Ident {
  return { kind: "Ident", name: p.textAt(token), span: p.spanOf(token) };
}

/** `only to SINK or SINK` */
function parseGuard(p: Cursor): Guard {
  const start = p.advance(); // only
  p.expect("to", "`to` after `only`", { guide: "guard" });
  const sinks: CapabilityRef[] = [];
  do sinks.push(parseCapabilityRef(p));
  while (p.atOnLine("or") && p.advance() >= 0);
  return { kind: "Guard", sinks, span: p.spanFrom(start) };
}
