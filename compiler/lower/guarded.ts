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
  if (record.type !== "Identifier") return t.callExpression(lw.g("field"), [record, t.stringLiteral(propertyName(name))]);
  const inner = t.memberExpression(t.memberExpression(record, t.identifier("value")), t.identifier(propertyName(name)));
  const guarded = t.callExpression(lw.g("tag"), [inner, t.memberExpression(record, t.identifier("origins"))]);
  return t.conditionalExpression(t.binaryExpression("instanceof", record, lw.rt("GuardedValue")), guarded, read);
}

/** `new Cls(fields)`; with guards, built from plain fields and carrying their origins. */
export function construct(lw: Lowerer, cls: t.Expression, fields: t.Expression[]): t.Expression {
  return lw.guarded && fields.length > 0 ? t.callExpression(lw.g("make"), [cls, t.arrayExpression(fields)]) : t.newExpression(cls, fields);
}
