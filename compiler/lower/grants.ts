// Needs and grants as data, for the runtime to narrow a grant to and to build main's and a test's grants from.

import * as t from "./js.js";
import type { CheckedGrantItem } from "../check/checked.js";
import type { Need } from "../check/types.js";

/** Needs as data: `[{path: ["network", "http"], scope: "api.example.com"}]`. */
export function needsValue(needs: readonly Need[]): t.Expression {
  return t.arrayExpression(
    needs.map((n) =>
      t.objectExpression([
        t.objectProperty(t.identifier("path"), t.arrayExpression(n.path.map((p) => t.stringLiteral(p)))),
        ...(n.scope === undefined
          ? []
          : [
              t.objectProperty(
                t.identifier("scope"),
                typeof n.scope === "number" ? t.numericLiteral(n.scope) : t.stringLiteral(n.scope),
              ),
            ]),
      ]),
    ),
  );
}

/** A grant as data, budgets and guards included: what main's and a test's grants are built from. */
export function grantValue(items: readonly CheckedGrantItem[]): t.Expression {
  return t.arrayExpression(
    items.map((item) => {
      const need = (needsValue([item.capability]) as t.ArrayExpression).elements[0] as t.ObjectExpression;
      if (item.budget) {
        need.properties.push(
          t.objectProperty(
            t.identifier("budget"),
            t.objectExpression([
              t.objectProperty(t.identifier("count"), t.numericLiteral(item.budget.count)),
              t.objectProperty(t.identifier("unit"), t.stringLiteral(item.budget.unit)),
            ]),
          ),
        );
      }
      if (item.guard)
        need.properties.push(
          t.objectProperty(
            t.identifier("guard"),
            t.objectExpression([t.objectProperty(t.identifier("sinks"), needsValue(item.guard.sinks))]),
          ),
        );
      return need;
    }),
  );
}
