// Lowering expressions: one function per kind of checked expression.
//
// An expression becomes a JavaScript expression; when it needs statements
// (an `otherwise`, a `match` giving a value, a query) they go into the
// lowerer's sink before the statement that uses the value, and earlier
// operands are saved in temporaries so that they still run first.

import { dbErrorInto } from "./transaction.js";
import * as t from "./js.js";
import type { CExpr, Callee } from "../check/checked.js";
import { resolve, isCon, type Type } from "../check/types.js";
import type { Lowerer } from "./context.js";
import { chargeExpression, exprSteps } from "./fuel.js";
import { functionName, onlyValueName, typeName } from "./names.js";
import { hasPrimitiveKeys, isPrimitive } from "./patterns.js";
import { classRef, shapeOf } from "./shapes.js";
import { awaited } from "./depth.js";
import { lowerOtherwise } from "./failures.js";
import { lowerLambda } from "./functions.js";
import { lowerMatchValue } from "./match.js";
import { lowerQuery } from "./queries.js";
import { libraryScopes } from "../check/declare.js";
import { construct, fieldOf } from "./guarded.js";
import { fieldHoldsInPlace, lookingChildren } from "../borrow/index.js";
import { decide, heldDecision, joinDecision, saveContext, truth } from "./decisions.js";

export function lowerExpr(lw: Lowerer, e: CExpr): t.Expression {
  return lw.at(lowerExprInner(lw, e), e.span);
}

function lowerExprInner(lw: Lowerer, e: CExpr): t.Expression {
  switch (e.kind) {
    case "Int":
      return e.value < 0 ? t.unaryExpression("-", t.numericLiteral(-e.value)) : t.numericLiteral(e.value);
    case "Float":
      return e.value < 0 || Object.is(e.value, -0)
        ? t.unaryExpression("-", t.numericLiteral(-e.value))
        : t.numericLiteral(e.value);
    case "Boolean":
      return t.booleanLiteral(e.value);
    case "Nothing":
      return t.nullLiteral();
    case "Text":
      return lowerText(lw, e);
    case "Local":
      return lowerLocalRead(lw, e);
    case "FunctionRef":
      return lowerFunctionRef(lw, e);
    case "CaseValue":
      return lowerCaseValue(lw, e);
    case "Call":
      return lowerCall(lw, e);
    case "Field":
      // A field that holds no list, map or set is a plain value or a record of its own: reading it leaves a `var` the
      // owner of its record.
      return fieldOf(lw, fieldHoldsInPlace(e) ? lowerExpr(lw, e.object) : lowerBorrowed(lw, e.object), e.name);
    case "Index": {
      const [object, index] = spillOrder(lw, [e.object, e.index], lookingChildren(e, lw.borrowsParameter));
      return t.callExpression(lw.guarded ? lw.g("index") : lw.rt("index"), [object!, index!]);
    }
    case "With":
      return lowerWith(lw, e);
    case "Unary":
      return lowerUnary(lw, e);
    case "Binary":
      return lowerBinary(lw, e);
    case "Otherwise":
      return lowerOtherwise(lw, e);
    case "List": {
      const items = t.arrayExpression(spillOrder(lw, e.items));
      return lw.guarded && e.items.length > 0 ? t.callExpression(lw.g("list"), [items]) : items;
    }
    case "Map": {
      const flat = spillOrder(
        lw,
        e.entries.flatMap((x) => [x.key, x.value]),
      );
      const pairs: t.Expression[] = [];
      for (let i = 0; i < flat.length; i += 2) pairs.push(t.arrayExpression([flat[i]!, flat[i + 1]!]));
      if (lw.guarded && pairs.length > 0) return t.callExpression(lw.g("map"), [t.arrayExpression(pairs)]);
      return t.newExpression(lw.rt("RMap"), pairs.length === 0 ? [] : [t.arrayExpression(pairs)]);
    }
    case "Pair": {
      const [first, second] = spillOrder(lw, [e.first, e.second]);
      return lw.guarded
        ? t.callExpression(lw.g("pair"), [first!, second!])
        : t.newExpression(lw.rt("Pair"), [first!, second!]);
    }
    case "Lambda":
      return lowerLambda(lw, e);
    case "If":
      return lowerIfValue(lw, e);
    case "Match":
      return lowerMatchValue(lw, e);
    case "Query":
      return lowerQuery(lw, e);
    case "TypeValue":
      return shapeOf(lw, e.of);
    case "Invalid":
      throw new Error("an invalid expression reached the code generator");
  }
}

// ---- reading names ----

/**
 * Reading a `var` whose list, map or set it owns gives the value away: from
 * then on another value may see it, so the next change copies (see statements.ts).
 * Reads that only look (a length, an item, a comparison) keep it owned.
 */
function lowerLocalRead(lw: Lowerer, e: Extract<CExpr, { kind: "Local" }>, borrowing = false): t.Expression {
  const id = lw.local(e.local);
  if (borrowing || !lw.owned.has(e.local.id)) return id;
  return t.sequenceExpression([t.assignmentExpression("=", lw.ownFlag(e.local), t.booleanLiteral(false)), id]);
}

/** A local read that does not keep the value (the callee only looks at it). */
export function lowerBorrowed(lw: Lowerer, e: CExpr): t.Expression {
  if (e.kind === "Local") return lw.at(lowerLocalRead(lw, e, true), e.span);
  // Looking at a record's field looks at the record.
  if (e.kind === "Field") return lw.at(fieldOf(lw, lowerBorrowed(lw, e.object), e.name), e.span);
  return lowerExpr(lw, e);
}

/**
 * A function as a value. An effectful one takes a grant first when called by
 * name; as a value it is wrapped so that it carries the grant where it was taken.
 */
function lowerFunctionRef(lw: Lowerer, e: Extract<CExpr, { kind: "FunctionRef" }>): t.Expression {
  const fn = e.library ? lw.lib(e.module, e.name) : t.identifier(functionName(e.module, e.name));
  const effectful = e.library
    ? libraryTakesGrant(e.module, e.name)
    : e.type.kind === "Function" && e.type.needs.length > 0;
  const shapes = typeShapesOf(lw, e.typeArgs);
  const rest = t.identifier("$a");
  // With guards, a library function as a value is called as the library is called by name: through the origin
  // operators.
  if (lw.guarded && e.library) {
    const operator = libraryOperator(
      e.module,
      e.name,
      effectful,
      e.type.kind === "Function" && e.type.fails !== undefined,
    );
    return t.arrowFunctionExpression(
      [t.restElement(rest)],
      t.callExpression(lw.g(operator), [
        fn,
        t.arrayExpression([...(effectful ? [grantOf(lw)] : []), ...shapes, t.spreadElement(rest)]),
      ]),
    );
  }
  if (!effectful && shapes.length === 0) return fn;
  return t.arrowFunctionExpression(
    [t.restElement(rest)],
    t.callExpression(fn, [...(effectful ? [grantOf(lw)] : []), ...shapes, t.spreadElement(rest)]),
  );
}

/**
 * The shapes a generic function is given for its type arguments (a generic function's own are its hidden parameters).
 */
function typeShapesOf(lw: Lowerer, typeArgs: readonly Type[] | undefined): t.Expression[] {
  return (typeArgs ?? []).map((type) => shapeOf(lw, type));
}

/** The grant in force here (undefined in a pure function, where no effect can be made). */
function grantOf(lw: Lowerer): t.Expression {
  return lw.grant ?? t.identifier("undefined");
}

/** Whether a library function is a primitive with needs of its own (it takes the grant). */
function libraryTakesGrant(module: string, name: string): boolean {
  return (libraryScopes().library.get(module)?.functions.get(name)?.needs.length ?? 0) > 0;
}

function lowerCaseValue(lw: Lowerer, e: Extract<CExpr, { kind: "CaseValue" }>): t.Expression {
  if (e.decl.module === "prelude" && e.decl.name === "Optional") return lw.rt("NONE");
  if (e.decl.module === "prelude") return t.newExpression(classRef(lw, e.decl, e.caseName), []);
  return t.identifier(onlyValueName(typeName(e.decl.module, e.decl.name, e.caseName)));
}

// ---- texts ----

function lowerText(lw: Lowerer, e: Extract<CExpr, { kind: "Text" }>): t.Expression {
  // Writing a value as text only looks at it.
  const values = spillOrder(
    lw,
    e.parts.filter((p): p is CExpr => typeof p !== "string"),
    true,
  );
  // Literal text and values, in order, literal pieces joined.
  const pieces: (string | t.Expression)[] = [];
  let v = 0;
  for (const part of e.parts) {
    if (typeof part !== "string") pieces.push(textOf(lw, values[v++]!, part.type));
    else if (typeof pieces[pieces.length - 1] === "string") pieces[pieces.length - 1] += part;
    else pieces.push(part);
  }
  if (pieces.every((p) => typeof p === "string")) return t.stringLiteral(pieces.join(""));
  // Numbers and Booleans write a few characters each: such a template needs no check.
  const short = (part: CExpr | string) =>
    typeof part === "string" ||
    isCon(resolve(part.type), "Int") ||
    isCon(resolve(part.type), "Float") ||
    isCon(resolve(part.type), "Boolean");
  // With guards, the pieces are joined by the runtime, which carries their origins.
  if (lw.guarded) return guardedTemplate(lw, pieces);
  // One value and no literal text is that value's text, already within the limit.
  const template = checkedTemplate(lw, pieces);
  const unchecked = pieces.length === 1 || (e.parts.every(short) && pieces.length <= 2 * VALUES_PER_TEMPLATE + 1);
  return unchecked && template.type === "CallExpression" ? (template.arguments[0] as t.Expression) : template;
}

/**
 * Values one template may hold: each within the text limit, seven and the source's literal text stay below the engine's
 * own limit.
 */
const VALUES_PER_TEMPLATE = 7;

/**
 * `$tinterp(`...`)`: the template, checked against the text limit once built
 * (spec/runtime.md); more values than a template may hold are nested templates.
 */
function checkedTemplate(lw: Lowerer, pieces: (string | t.Expression)[]): t.Expression {
  const valueCount = pieces.filter((p) => typeof p !== "string").length;
  if (valueCount > VALUES_PER_TEMPLATE) {
    const groups: (string | t.Expression)[] = [];
    let group: (string | t.Expression)[] = [];
    let inGroup = 0;
    for (const p of pieces) {
      group.push(p);
      if (typeof p !== "string" && ++inGroup === VALUES_PER_TEMPLATE) {
        groups.push(checkedTemplate(lw, group));
        group = [];
        inGroup = 0;
      }
    }
    if (group.length > 0) groups.push(...group);
    return checkedTemplate(lw, groups);
  }
  const quasis: t.TemplateElement[] = [];
  const expressions: t.Expression[] = [];
  let text = "";
  for (const p of pieces) {
    if (typeof p === "string") {
      text += p;
      continue;
    }
    quasis.push(t.templateElement({ raw: escapeTemplate(text), cooked: text }));
    text = "";
    expressions.push(p);
  }
  quasis.push(t.templateElement({ raw: escapeTemplate(text), cooked: text }, true));
  if (lw.onlyFuel) return t.templateLiteral(quasis, expressions);
  return t.callExpression(lw.rt("tinterp"), [t.templateLiteral(quasis, expressions)]);
}

/** `$origins.interp(["a ", " b"], [x])`: the literal pieces around the values. */
function guardedTemplate(lw: Lowerer, pieces: (string | t.Expression)[]): t.Expression {
  const strings: string[] = [""];
  const values: t.Expression[] = [];
  for (const p of pieces) {
    if (typeof p === "string") strings[strings.length - 1] += p;
    else {
      values.push(p);
      strings.push("");
    }
  }
  // One to three values (the common cases) as arguments of their own, with no arrays made per evaluation.
  if (values.length >= 1 && values.length <= 3) {
    const args: t.Expression[] = [t.stringLiteral(strings[0]!)];
    values.forEach((v, i) => {
      args.push(v, t.stringLiteral(strings[i + 1]!));
    });
    return t.callExpression(lw.g(`interp${values.length}`), args);
  }
  return t.callExpression(lw.g("interp"), [
    t.arrayExpression(strings.map((x) => t.stringLiteral(x))),
    t.arrayExpression(values),
  ]);
}

function escapeTemplate(text: string): string {
  // U+2028 and U+2029 escaped too: the engine counts them as line breaks, and every position
  // after one, in a stack trace and so in the map, would be a line off.
  return text
    .replace(/\\/g, "\\\\")
    .replace(/`/g, "\\`")
    .replace(/\$\{/g, "\\${")
    .replace(/\r/g, "\\r")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A value as text: Int and Text as they are, Float with its decimal point, the rest by shape. */
export function textOf(lw: Lowerer, value: t.Expression, type: Type): t.Expression {
  const r = resolve(type);
  if (isCon(r, "Text") || isCon(r, "Int") || isCon(r, "Boolean")) return value;
  if (isCon(r, "Float")) return t.callExpression(lw.guarded ? lw.g("floatText") : lw.rt("floatText"), [value]);
  return t.callExpression(lw.guarded ? lw.g("toText") : lw.rt("toText"), [value, shapeOf(lw, type)]);
}

// ---- operators ----

function lowerUnary(lw: Lowerer, e: Extract<CExpr, { kind: "Unary" }>): t.Expression {
  // A negative number literal is a number, not a subtraction.
  if (e.op === "-" && (e.operand.kind === "Int" || e.operand.kind === "Float")) {
    const value = -e.operand.value;
    return value < 0 || Object.is(value, -0)
      ? t.unaryExpression("-", t.numericLiteral(-value))
      : t.numericLiteral(value);
  }
  const operand = lowerExpr(lw, e.operand);
  // With guards, a Boolean carries the origins of what it was computed from.
  if (e.op === "not") return lw.guarded ? t.callExpression(lw.g("not"), [operand]) : t.unaryExpression("!", operand);
  if (lw.guarded) return t.callExpression(lw.g(isCon(e.type, "Int") ? "ineg" : "neg"), [operand]);
  if (isCon(e.type, "Int")) return t.callExpression(lw.rt("isub"), [t.numericLiteral(0), operand]);
  return t.unaryExpression("-", operand);
}

const INT_OPS: Record<string, string> = { "+": "iadd", "-": "isub", "*": "imul", "/": "idiv", mod: "imod" };

function lowerBinary(lw: Lowerer, e: Extract<CExpr, { kind: "Binary" }>): t.Expression {
  if (e.op === "and" || e.op === "or") return lowerShortCircuit(lw, e);
  const [left, right] = spillOrder(lw, [e.left, e.right], true);
  const type = resolve(e.operand);
  if (lw.guarded) return guardedBinary(lw, e.op, type, left!, right!);
  switch (e.op) {
    case "is":
    case "is not": {
      const same = isPrimitive(type)
        ? t.binaryExpression("===", left!, right!)
        : t.callExpression(lw.rt("equals"), [left!, right!]);
      return e.op === "is"
        ? same
        : t.unaryExpression("!", same.type === "BinaryExpression" ? t.parenthesizedExpression(same) : same);
    }
    case "<":
    case "<=":
    case ">":
    case ">=":
      if (isCon(type, "Int") || isCon(type, "Float") || isCon(type, "Text"))
        return t.binaryExpression(e.op, left!, right!);
      return t.binaryExpression(e.op, t.callExpression(lw.rt("compare"), [left!, right!]), t.numericLiteral(0));
    case "to":
      return t.callExpression(lw.rt("rangeInclusive"), [left!, right!]);
    case "until":
      return t.callExpression(lw.lib("list", "range"), [left!, right!]);
    default: {
      if (isCon(type, "Int")) return t.callExpression(lw.rt(INT_OPS[e.op]!), [left!, right!]);
      if (isCon(type, "List")) return t.callExpression(lw.rt("concat"), [left!, right!]);
      if (isCon(type, "Text") && e.op === "+")
        return lw.onlyFuel ? t.binaryExpression("+", left!, right!) : t.callExpression(lw.rt("tadd"), [left!, right!]);
      if (e.op === "mod") return t.binaryExpression("%", left!, right!);
      return t.binaryExpression(e.op as "+" | "-" | "*" | "/", left!, right!);
    }
  }
}

const DECIDED_COMPARISONS: Record<string, string> = { "<": "isLt", "<=": "isLe", ">": "isGt", ">=": "isGe" };
const FLOAT_OPS: Record<string, string> = { "+": "add", "-": "sub", "*": "mul", "/": "div", mod: "rem" };

/** An operator with guards: through the runtime's origin operators (rtlib/origin-ops.ts). */
function guardedBinary(lw: Lowerer, op: string, type: Type, left: t.Expression, right: t.Expression): t.Expression {
  const g = (name: string, ...args: t.Expression[]) => t.callExpression(lw.g(name), args);
  switch (op) {
    case "is":
      return g(isPrimitive(type) ? "isSame" : "isEqual", left, right);
    case "is not":
      return g(isPrimitive(type) ? "isNotSame" : "isNotEqual", left, right);
    case "<":
    case "<=":
    case ">":
    case ">=":
      // The result carries the operands' origins: a comparison is how data is chosen.
      if (isCon(type, "Int") || isCon(type, "Float") || isCon(type, "Text"))
        return g(DECIDED_COMPARISONS[op]!, left, right);
      return g(
        "isOrdered",
        left,
        right,
        t.numericLiteral(op.startsWith("<") ? -1 : 1),
        t.booleanLiteral(op.endsWith("=")),
      );
    case "to":
      return g("rangeInclusive", left, right);
    case "until":
      return g("range", left, right);
    default:
      if (isCon(type, "Int")) return g(INT_OPS[op]!, left, right);
      if (isCon(type, "List")) return g("concat", left, right);
      if (isCon(type, "Text") && op === "+") return g("tadd", left, right);
      return g(FLOAT_OPS[op]!, left, right);
  }
}

/** `a and b`: b runs (and is charged) only when it decides the result. */
function lowerShortCircuit(lw: Lowerer, e: Extract<CExpr, { kind: "Binary" }>): t.Expression {
  if (lw.guarded && lw.cx !== undefined) return guardedShortCircuit(lw, e);
  const left = lowerExpr(lw, e.left);
  let right: t.Expression | undefined;
  const rightStatements = lw.collect(() => {
    right = lowerExpr(lw, e.right);
  });
  const op = e.op === "and" ? "&&" : "||";
  const steps = exprSteps(e.right);
  if (rightStatements.length === 0)
    return t.logicalExpression(op, left, t.sequenceExpression([chargeExpression(lw, steps), right!]));
  const temp = lw.temp("b");
  lw.emit(t.variableDeclaration("let", [t.variableDeclarator(temp, left)]));
  const test = e.op === "and" ? temp : t.unaryExpression("!", temp);
  lw.emit(
    t.ifStatement(
      test,
      t.blockStatement([
        t.expressionStatement(chargeExpression(lw, steps)),
        ...rightStatements,
        t.expressionStatement(t.assignmentExpression("=", temp, right!)),
      ]),
    ),
  );
  return temp;
}

/**
 * `a and b` with guards: when `a` decides that `b` runs, `b` runs under `a`'s
 * origins (an effect in it is checked with them) and the result carries them.
 */
function guardedShortCircuit(lw: Lowerer, e: Extract<CExpr, { kind: "Binary" }>): t.Expression {
  const temp = lw.temp("b");
  lw.emit(t.variableDeclaration("let", [t.variableDeclarator(temp, lowerExpr(lw, e.left))]));
  const context = saveContext(lw);
  lw.emit(context.statement);
  let right: t.Expression | undefined;
  const rightStatements = lw.collect(() => {
    lw.emit(decide(lw, temp));
    lw.emit(t.expressionStatement(chargeExpression(lw, exprSteps(e.right))));
    right = lowerExpr(lw, e.right);
  });
  const held = truth(lw, temp);
  const test = e.op === "and" ? held : t.unaryExpression("!", held);
  lw.emit(
    t.ifStatement(
      test,
      t.blockStatement([
        ...rightStatements,
        t.expressionStatement(t.assignmentExpression("=", temp, t.callExpression(lw.g("after"), [temp, right!]))),
      ]),
    ),
  );
  lw.emit(joinDecision(lw, context.saved, [e.right]));
  return temp;
}

function lowerIfValue(lw: Lowerer, e: Extract<CExpr, { kind: "If" }>): t.Expression {
  if (lw.guarded && lw.cx !== undefined) return guardedIfValue(lw, e);
  const condition = lowerExpr(lw, e.condition);
  let then: t.Expression | undefined;
  let otherwise: t.Expression | undefined;
  const thenStatements = lw.collect(() => (then = lowerExpr(lw, e.then)));
  const elseStatements = lw.collect(() => (otherwise = lowerExpr(lw, e.else)));
  const thenSteps = exprSteps(e.then);
  const elseSteps = exprSteps(e.else);
  if (thenStatements.length === 0 && elseStatements.length === 0) {
    return t.conditionalExpression(
      condition,
      t.sequenceExpression([chargeExpression(lw, thenSteps), then!]),
      t.sequenceExpression([chargeExpression(lw, elseSteps), otherwise!]),
    );
  }
  const temp = lw.temp("v");
  lw.emit(t.variableDeclaration("let", [t.variableDeclarator(temp)]));
  const branch = (steps: number, statements: t.Statement[], value: t.Expression) =>
    t.blockStatement([
      t.expressionStatement(chargeExpression(lw, steps)),
      ...statements,
      t.expressionStatement(t.assignmentExpression("=", temp, value)),
    ]);
  lw.emit(
    t.ifStatement(condition, branch(thenSteps, thenStatements, then!), branch(elseSteps, elseStatements, otherwise!)),
  );
  return temp;
}

/** `if c then a else b` as a value with guards: the arms under `c`'s origins, and the value carrying them. */
function guardedIfValue(lw: Lowerer, e: Extract<CExpr, { kind: "If" }>): t.Expression {
  const lowered = lowerExpr(lw, e.condition);
  const context = saveContext(lw);
  lw.emit(context.statement);
  const condition = heldDecision(lw, lowered, "c");
  const temp = lw.temp("v");
  lw.emit(t.variableDeclaration("let", [t.variableDeclarator(temp)]));
  const branch = (value: CExpr) =>
    t.blockStatement(
      lw.collect(() => {
        lw.emit(t.expressionStatement(chargeExpression(lw, exprSteps(value))));
        lw.emit(t.expressionStatement(t.assignmentExpression("=", temp, lowerExpr(lw, value))));
      }),
    );
  lw.emit(t.ifStatement(truth(lw, condition), branch(e.then), branch(e.else)));
  lw.emit(joinDecision(lw, context.saved, [e.then, e.else], [temp]));
  return temp;
}

function lowerWith(lw: Lowerer, e: Extract<CExpr, { kind: "With" }>): t.Expression {
  const record = lw.temp("r");
  const values = spillOrder(lw, [e.record, ...e.updates.map((u) => u.value)]);
  lw.emit(t.variableDeclaration("const", [t.variableDeclarator(record, values[0]!)]));
  const args = e.decl.fields.map((f) => {
    const i = e.updates.findIndex((u) => u.name === f.name);
    return i >= 0 ? values[i + 1]! : fieldOf(lw, record, f.name);
  });
  return construct(lw, classRef(lw, e.decl), args);
}

// ---- calls ----

function lowerCall(lw: Lowerer, e: Extract<CExpr, { kind: "Call" }>): t.Expression {
  const callee = e.callee;
  const present = e.args.filter((a): a is CExpr => a !== undefined);
  const calleeValue = callee.kind === "Value" ? [callee.expr] : [];
  const lowered = spillOrder(lw, [...calleeValue, ...present], lookingChildren(e, lw.borrowsParameter));
  const fn = callee.kind === "Value" ? lowered.shift()! : undefined;
  // Arguments in parameter order; a left-out argument is `undefined`, so the parameter's default applies.
  let k = 0;
  const args = e.args.map((a) => (a === undefined ? t.identifier("undefined") : lowered[k++]!));
  while (args.length > 0 && e.args[args.length - 1] === undefined) args.pop();
  const call = callExpression(lw, e, callee, fn, args);
  return e.needs.length > 0 && isAwaited(callee) ? awaited(lw, call) : call;
}

function isAwaited(callee: Callee): boolean {
  return callee.kind === "Function" || callee.kind === "Library" || callee.kind === "Value";
}

function callExpression(
  lw: Lowerer,
  e: Extract<CExpr, { kind: "Call" }>,
  callee: Callee,
  fn: t.Expression | undefined,
  args: t.Expression[],
): t.Expression {
  switch (callee.kind) {
    case "Function":
      return t.callExpression(t.identifier(functionName(callee.module, callee.name)), [
        ...(e.needs.length > 0 ? [grantOf(lw)] : []),
        ...typeShapesOf(lw, e.typeArgs),
        ...args,
      ]);
    case "Value":
      // With guards, a function value chosen by a decision carries its origins (rtlib/origin-ops.ts, callValue).
      return lw.guarded
        ? t.callExpression(lw.g("callValue"), [fn!, t.arrayExpression(args)])
        : t.callExpression(fn!, args);
    case "Record":
      return construct(lw, classRef(lw, callee.decl), args);
    case "Case":
      return construct(lw, classRef(lw, callee.decl, callee.caseName), args);
    case "Ability":
      if (callee.ability === "to_text") {
        // An Int or a Boolean is written as it is inside a template literal, but `n.to_text()` is a Text.
        const r = resolve(callee.of);
        if (isCon(r, "Int") || isCon(r, "Boolean")) {
          if (lw.guarded) return guardedTemplate(lw, ["", args[0]!, ""]);
          return t.templateLiteral([t.templateElement({ raw: "" }), t.templateElement({ raw: "" }, true)], [args[0]!]);
        }
        return textOf(lw, args[0]!, callee.of);
      }
      if (callee.ability === "to_json") {
        if (lw.guarded) return t.callExpression(lw.g("toJson"), [args[0]!, shapeOf(lw, callee.of)]);
        return t.callExpression(t.memberExpression(t.identifier("JSON"), t.identifier("parse")), [
          t.callExpression(lw.rt("encodeJson"), [args[0]!, shapeOf(lw, callee.of)]),
        ]);
      }
      return t.callExpression(lw.guarded ? lw.g("fromJson") : lw.rt("decodeJson"), [args[0]!, shapeOf(lw, callee.of)]);
    case "Library":
      return libraryCall(lw, e, callee.module, callee.name, args);
  }
}

/** Library calls, with the variants the static types choose. */
function libraryCall(
  lw: Lowerer,
  e: Extract<CExpr, { kind: "Call" }>,
  module: string,
  name: string,
  args: t.Expression[],
): t.Expression {
  const first = e.args[0]?.type;
  const itemOfFirst = first !== undefined ? resolve(first) : undefined;
  const listOfFloat =
    itemOfFirst?.kind === "Con" && itemOfFirst.name === "List" && isCon(itemOfFirst.args[0]!, "Float");
  let fn = name;
  if (module === "list" && name === "sum" && listOfFloat) fn = "sumFloat";
  if (module === "math" && name === "abs" && first !== undefined && isCon(first, "Float")) fn = "absFloat";
  if (module === "json" && name === "encode") args = [args[0]!, shapeOf(lw, e.args[0]!.type)];
  // A library function given an effectful function awaits it: the `...Async` twin.
  const takesAsync =
    e.needs.length > 0 && (module === "list" || module === "optional" || (module === "text" && name === "split_where"));
  if (takesAsync) fn = `${fn}Async`;
  // `m.get(k).or_else(x)`: one call that makes no Some (the map is a value: reading it after x is the same).
  const inner = args[0];
  if (
    !lw.guarded &&
    module === "optional" &&
    name === "or_else" &&
    e.args[0]?.kind === "Call" &&
    e.args[0].callee.kind === "Library" &&
    e.args[0].callee.module === "map" &&
    e.args[0].callee.name === "get" &&
    inner?.type === "CallExpression" &&
    args.length === 2
  ) {
    const keyed = hasPrimitiveKeys(e.args[0].args[0]!.type) ? "mapGetPrimitiveOr" : "mapGetOr";
    return t.callExpression(lw.rt(keyed), [...(inner.arguments as t.Expression[]), args[1]!]);
  }
  if (module === "database" && name === "transaction") {
    const into = dbErrorInto(lw, e.fails);
    if (into !== undefined) args = [...args, into];
  }
  const primitive = libraryTakesGrant(module, name);
  if (primitive) args = [grantOf(lw), ...args];
  const callee = lw.lib(module === "process" ? "process" : module, fn);
  // With guards, the arguments go in plain and the result carries their origins; a primitive's grant carries them to
  // the gateway.
  if (lw.guarded)
    return t.callExpression(lw.g(libraryOperator(module, name, primitive, e.fails !== undefined)), [
      callee,
      t.arrayExpression(args),
    ]);
  return t.callExpression(callee, args);
}

// ---- evaluation order ----

function isConstant(e: t.Expression): boolean {
  return t.isLiteral(e) && !t.isTemplateLiteral(e);
}

/**
 * Lowers expressions that are evaluated left to right. When a later one needs
 * statements, the earlier ones are saved in temporaries before those
 * statements, so that they still run first.
 */
export function spillOrder(
  lw: Lowerer,
  exprs: readonly CExpr[],
  borrowing: boolean | ReadonlySet<CExpr> = false,
): t.Expression[] {
  const out: t.Expression[] = [];
  const ends: number[] = [];
  let lastWithStatements = -1;
  exprs.forEach((e, i) => {
    const before = lw.sink.length;
    out.push(borrowing === true || (borrowing !== false && borrowing.has(e)) ? lowerBorrowed(lw, e) : lowerExpr(lw, e));
    ends.push(lw.sink.length);
    if (lw.sink.length > before) lastWithStatements = i;
  });
  for (let i = lastWithStatements - 1; i >= 0; i--) {
    if (isConstant(out[i]!)) continue;
    const temp = lw.temp();
    lw.sink.splice(ends[i]!, 0, t.variableDeclaration("const", [t.variableDeclarator(temp, out[i]!)]));
    out[i] = temp;
  }
  return out;
}

/** The origin operator a library function is called through in a program with guards (rtlib/origin-ops.ts). */
function libraryOperator(module: string, name: string, effectful: boolean, fallible: boolean): string {
  if (module === "server" && name === "serve") return "serve";
  return effectful ? "effect" : fallible ? "pureFallible" : "pure";
}
