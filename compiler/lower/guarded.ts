// What a program with guards compiles to where values are built or read apart
// (rtlib/origin-ops.ts): used by the lowering of expressions and of failures.

import * as t from "./js.js";
import type { Lowerer } from "./context.js";
import { propertyName } from "./names.js";

/** `record.field`; with guards, the field carries the record's origins. */
export function fieldOf(lw: Lowerer, record: t.Expression, name: string): t.Expression {
  return lw.guarded ? t.callExpression(lw.g("field"), [record, t.stringLiteral(propertyName(name))]) : t.memberExpression(record, t.identifier(propertyName(name)));
}

/** `new Cls(fields)`; with guards, built from plain fields and carrying their origins. */
export function construct(lw: Lowerer, cls: t.Expression, fields: t.Expression[]): t.Expression {
  return lw.guarded && fields.length > 0 ? t.callExpression(lw.g("make"), [cls, t.arrayExpression(fields)]) : t.newExpression(cls, fields);
}
