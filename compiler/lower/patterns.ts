// Patterns as JavaScript: a test on a value and the bindings it makes.
// The value is always a plain identifier or a property of one, so testing it
// several times evaluates nothing twice.

import { plainOf } from "./guarded.js";
import * as t from "./js.js";
import type { CPattern, Local } from "../check/checked.js";
import { caseNamed, resolve, type Type } from "../check/types.js";
import type { Lowerer } from "./context.js";
import { propertyName } from "./names.js";
import { classRef } from "./shapes.js";

export interface PatternCode {
  /** Conditions that must all hold; empty when the pattern matches every value. */
  readonly tests: t.Expression[];
  /** `const name = ...` for each name the pattern binds, valid once the tests hold. */
  readonly binds: t.Statement[];
}

export function lowerPattern(lw: Lowerer, pattern: CPattern, value: t.Expression): PatternCode {
  const tests: t.Expression[] = [];
  const binds: t.Statement[] = [];
  // With guards, a pattern looks into the plain value, and what it binds inside carries the value's origins.
  const looksInside = lw.guarded && pattern.kind !== "Bind" && pattern.kind !== "Wildcard";
  const origins = looksInside ? t.callExpression(lw.g("originsOf"), [value]) : undefined;
  walk(lw, pattern, looksInside ? plainOf(lw, value) : value, tests, binds, origins);
  return { tests, binds };
}

function walk(
  lw: Lowerer,
  pattern: CPattern,
  value: t.Expression,
  tests: t.Expression[],
  binds: t.Statement[],
  origins?: t.Expression,
): void {
  switch (pattern.kind) {
    case "Wildcard":
      return;
    case "Bind":
      if (pattern.local.name !== "_")
        binds.push(
          t.variableDeclaration("const", [
            t.variableDeclarator(
              lw.local(pattern.local),
              origins === undefined ? value : t.callExpression(lw.g("tag"), [value, origins]),
            ),
          ]),
        );
      return;
    case "Literal":
      tests.push(t.binaryExpression("===", value, literal(pattern.value)));
      return;
    case "Pair":
      walk(lw, pattern.first, t.memberExpression(value, t.identifier("first")), tests, binds, origins);
      walk(lw, pattern.second, t.memberExpression(value, t.identifier("second")), tests, binds, origins);
      return;
    case "Record":
      fields(
        lw,
        pattern.decl.fields.map((f) => f.name),
        pattern.args,
        value,
        tests,
        binds,
        origins,
      );
      return;
    case "Case": {
      const c = caseNamed(pattern.decl, pattern.caseName)!;
      // A variant with one case needs no test.
      if (pattern.decl.cases.length > 1)
        tests.push(t.binaryExpression("instanceof", value, classRef(lw, pattern.decl, pattern.caseName)));
      fields(
        lw,
        c.fields.map((f) => f.name),
        pattern.args,
        value,
        tests,
        binds,
        origins,
      );
      return;
    }
    case "List": {
      const n = pattern.items.length;
      const length = t.memberExpression(value, t.identifier("length"));
      tests.push(t.binaryExpression(pattern.rest === undefined ? "===" : ">=", length, t.numericLiteral(n)));
      pattern.items.forEach((item, i) => {
        walk(lw, item, t.memberExpression(value, t.numericLiteral(i), true), tests, binds, origins);
      });
      if (pattern.rest !== undefined) {
        walk(
          lw,
          pattern.rest,
          t.callExpression(t.memberExpression(value, t.identifier("slice")), [t.numericLiteral(n)]),
          tests,
          binds,
          origins,
        );
      }
      return;
    }
  }
}

function fields(
  lw: Lowerer,
  names: string[],
  args: readonly CPattern[],
  value: t.Expression,
  tests: t.Expression[],
  binds: t.Statement[],
  origins: t.Expression | undefined,
): void {
  args.forEach((arg, i) => {
    walk(lw, arg, t.memberExpression(value, t.identifier(propertyName(names[i]!))), tests, binds, origins);
  });
}

function literal(value: number | string | boolean | null): t.Expression {
  if (value === null) return t.nullLiteral();
  if (typeof value === "string") return t.stringLiteral(value);
  if (typeof value === "boolean") return t.booleanLiteral(value);
  return value < 0 ? t.unaryExpression("-", t.numericLiteral(-value)) : t.numericLiteral(value);
}

/** Joins tests with `&&`; `true` when there are none. */
export function allOf(tests: t.Expression[]): t.Expression {
  if (tests.length === 0) return t.booleanLiteral(true);
  return tests.reduce((a, b) => t.logicalExpression("&&", a, b));
}

const PRIMITIVES = new Set(["Int", "Float", "Text", "Boolean", "Nothing"]);

/**
 * The built-in types whose values are JavaScript primitives: they compare with
 * `===` and order with `<` (no structure to look into).
 */
export function isPrimitive(type: Type): boolean {
  const r = resolve(type);
  return r.kind === "Con" && r.decl === undefined && PRIMITIVES.has(r.name);
}

/**
 * Whether a map of this type keys its entries by Ints, Floats, Booleans or
 * Texts, which are their own keys but for a few values the runtime tells
 * (`$mapPutPrimitive`, `$mapGetPrimitiveOr`).
 */
export function hasPrimitiveKeys(mapType: Type): boolean {
  const r = resolve(mapType);
  if (r.kind !== "Con" || r.name !== "Map" || r.decl !== undefined) return false;
  const key = resolve(r.args[0]!);
  return key.kind === "Con" && key.decl === undefined && PRIMITIVE_KEYS.has(key.name);
}

const PRIMITIVE_KEYS = new Set(["Int", "Float", "Text", "Boolean"]);

/** The locals a pattern binds, in order. */
export function collectLocals(pattern: CPattern, out: Local[]): void {
  switch (pattern.kind) {
    case "Bind":
      out.push(pattern.local);
      return;
    case "Pair":
      collectLocals(pattern.first, out);
      collectLocals(pattern.second, out);
      return;
    case "Record":
    case "Case":
      for (const a of pattern.args) collectLocals(a, out);
      return;
    case "List":
      for (const a of pattern.items) collectLocals(a, out);
      if (pattern.rest) collectLocals(pattern.rest, out);
      return;
    default:
      return;
  }
}
