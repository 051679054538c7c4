// What a program with guards compiles to where values are built or read apart
// (rtlib/origin-ops.ts): used by the lowering of expressions and of failures.

import * as t from "./js.js";
import type { Lowerer } from "./context.js";
import { propertyName } from "./names.js";

/** `record.field`; with guards, the field carries the record's origins. */
export function fieldOf(lw: Lowerer, record: t.Expression, name: string): t.Expression {
  const read = t.memberExpression(record, t.identifier(propertyName(name)));
  if (!lw.guarded) return read;
  // A name is read twice at no cost: the field is then read right here, where its record's shape
  // is known, rather than in one runtime function that every record type goes through.
  if (record.type !== "Identifier")
    return t.callExpression(lw.g("field"), [record, t.stringLiteral(propertyName(name))]);
  const inner = t.memberExpression(t.memberExpression(record, t.identifier("value")), t.identifier(propertyName(name)));
  const guarded = t.callExpression(lw.g("tag"), [inner, t.memberExpression(record, t.identifier("origins"))]);
  return t.conditionalExpression(recordIsGuarded(record), guarded, read);
}

/**
 * Whether a value of a record type carries origins: `r.guarded$ === true`, a
 * property only a Guarded has (on its prototype; a field of a record is never
 * named so, Renyi names hold no `$`). A property read the engine caches per
 * record type, where `instanceof` against the imported class measured three
 * times slower on a sort by a record's field. Only for values of record types:
 * a Json object can have any key, and Nothing is null.
 */
function recordIsGuarded(record: t.Expression): t.Expression {
  return t.binaryExpression("===", t.memberExpression(record, t.identifier("guarded$")), t.booleanLiteral(true));
}

/** The plain value of a value of a record type (an identifier): see recordIsGuarded. */
export function plainRecord(record: t.Identifier): t.Expression {
  return t.conditionalExpression(recordIsGuarded(record), t.memberExpression(record, t.identifier("value")), record);
}

/** `new Cls(fields)`; with guards, built from plain fields and carrying their origins. */
export function construct(lw: Lowerer, cls: t.Expression, fields: t.Expression[]): t.Expression {
  return lw.guarded && fields.length > 0
    ? t.callExpression(lw.g("make"), [cls, t.arrayExpression(fields)])
    : t.newExpression(cls, fields);
}

/**
 * The plain value of `value` (an identifier or a member of one: read twice at no
 * cost), tested inline against the runtime's class imported as a constant: the
 * runtime's own test goes through a module-level binding the engine cannot fold,
 * and cost a sort by a record's field 10% of its time.
 */
export function plainOf(lw: Lowerer, value: t.Expression): t.Expression {
  if (value.type !== "Identifier" && value.type !== "MemberExpression") return t.callExpression(lw.g("plain"), [value]);
  return t.conditionalExpression(
    t.binaryExpression("instanceof", value, lw.rt("GuardedValue")),
    t.memberExpression(value, t.identifier("value")),
    value,
  );
}
