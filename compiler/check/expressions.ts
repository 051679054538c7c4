// Expressions: each syntax node checked against the type expected of it (when
// one is known), giving a checked node that carries its type.

import { needText } from "../../vocabulary/needs.js";
import type * as S from "../parse/tree.js";
import type { Span } from "../source.js";
import { requireAbility } from "./bounds.js";
import { addNeedEdit, checkCall, moduleNamed } from "./calls.js";
import { checkCapture } from "./captures.js";
import { blockEnds } from "./ends.js";
import { failWith, wrapFailure } from "./failures.js";
import { coveredBy } from "../../vocabulary/capabilities.js";
import { resolveType } from "./declare.js";
import { checkNeeds as needsOf } from "./grants.js";
import type { CArm, CExpr, CHandler } from "./checked.js";
import type { ValuePlace } from "../../vocabulary/problems/types.js";
import { MATCH_STEPS, PROGRAM_MATCH_STEPS, type Context } from "./context.js";
import { analyseMatch, StepBudget } from "./exhaustive.js";
import { checkPattern } from "./patterns.js";
import { caseTarget, fieldTarget, functionTarget, localTarget, record as recordName, typeTarget } from "./names.js";
import { checkQuery } from "./queries.js";
import type { FunctionSig, ModuleScope } from "./scope.js";
import { replacing, suggest, unknownCase, unknownField, unknownModuleFunction } from "./suggest.js";
import { checkBlock, checkStatement } from "./statements.js";
import {
  BOOLEAN,
  declared,
  ERROR,
  fieldNamed,
  fieldsOf,
  FLOAT,
  freshMeta,
  INT,
  isCon,
  listOf,
  mapOf,
  NOTHING,
  pairOf,
  resolve,
  substitute,
  TEXT,
  typeToText,
  unify,
  type Need,
  type Type,
  caseNamed,
} from "./types.js";

/** A function taken as a value, its type parameters instantiated afresh (their types are inferred where it is used). */
function functionRef(ctx: Context, sig: FunctionSig, span: Span): CExpr {
  const map = new Map(sig.typeParams.map((p) => [p.id, freshMeta() as Type] as const));
  const type: Type = {
    kind: "Function",
    params: sig.params.map((p) => substitute(p.type, map)),
    returns: substitute(sig.returns, map),
    ...(sig.fails ? { fails: substitute(sig.fails, map) } : {}),
    needs: sig.needs,
  };
  const typeArgs = sig.library || sig.typeParams.length === 0 ? undefined : sig.typeParams.map((p) => map.get(p.id)!);
  if (typeArgs !== undefined)
    ctx.instantiations.push({
      callee: sig,
      typeArgs,
      span,
      calleeName: sig.module === ctx.module.name ? sig.name : `${sig.module.split("/").pop()}.${sig.name}`,
    });
  return {
    kind: "FunctionRef",
    module: sig.module,
    name: sig.name,
    library: sig.library,
    ...(typeArgs ? { typeArgs } : {}),
    type,
    span,
  };
}

export function checkExpr(ctx: Context, expr: S.Expr, expected?: Type): CExpr {
  switch (expr.kind) {
    case "IntLiteral":
      return { kind: "Int", value: expr.value, type: INT, span: expr.span };
    case "FloatLiteral":
      return { kind: "Float", value: expr.value, type: FLOAT, span: expr.span };
    case "BooleanLiteral":
      return { kind: "Boolean", value: expr.value, type: BOOLEAN, span: expr.span };
    case "NothingLiteral":
      return { kind: "Nothing", type: NOTHING, span: expr.span };
    case "TextLiteral":
      return checkText(ctx, expr);
    case "Name":
      return checkName(ctx, expr);
    case "UpperName":
      return checkUpperName(ctx, expr, expected);
    case "Member":
      return checkMember(ctx, expr);
    case "Call":
      return checkCall(ctx, expr, expected);
    case "Index":
      return checkIndex(ctx, expr);
    case "With":
      return checkWith(ctx, expr);
    case "Unary":
      return checkUnary(ctx, expr);
    case "Binary":
      return checkBinary(ctx, expr);
    case "Otherwise":
      return checkOtherwise(ctx, expr, expected);
    case "ListLiteral":
      return checkList(ctx, expr, expected);
    case "MapLiteral":
      return checkMap(ctx, expr, expected);
    case "PairLiteral": {
      const e = resolve(expected ?? ERROR);
      const pairArgs = e.kind === "Con" && e.name === "Pair" ? e.args : [];
      const first = checkExpr(ctx, expr.first, pairArgs[0]);
      const second = checkExpr(ctx, expr.second, pairArgs[1]);
      return { kind: "Pair", first, second, type: pairOf(first.type, second.type), span: expr.span };
    }
    case "Lambda":
      return checkLambda(ctx, expr, expected);
    case "FunctionExpr":
      return checkFunctionExpr(ctx, expr);
    case "IfExpr": {
      const condition = checkCondition(ctx, expr.condition, { of: "condition", statement: "if" });
      const then = checkExpr(ctx, expr.then, expected);
      const otherwise = checkExpr(ctx, expr.else, expected ?? then.type);
      ctx.expectType(otherwise.type, then.type, otherwise.span, { of: "else branch" });
      return { kind: "If", condition, then, else: otherwise, type: then.type, span: expr.span };
    }
    case "Match":
      return checkMatch(ctx, expr, true, expected);
    case "Query":
      return checkQuery(ctx, expr);
    case "TypeArgument":
      ctx.problem("E-TYPE-ARGUMENTS", expr.span, { problem: "type not taken" });
      return { kind: "Invalid", type: ERROR, span: expr.span };
    case "ErrorExpr":
      return { kind: "Invalid", type: ERROR, span: expr.span };
  }
}

export function checkCondition(ctx: Context, expr: S.Expr, place: ValuePlace): CExpr {
  const value = checkExpr(ctx, expr, BOOLEAN);
  ctx.expectType(value.type, BOOLEAN, value.span, place);
  return value;
}

function checkText(ctx: Context, expr: S.TextLiteral): CExpr {
  const parts: (string | CExpr)[] = [];
  for (const part of expr.parts) {
    if (part.kind === "TextChunk") {
      parts.push(part.value);
      continue;
    }
    const value = checkExpr(ctx, part);
    requireAbility(ctx, value.type, "to_text", value.span);
    parts.push(value);
  }
  return { kind: "Text", parts, type: TEXT, span: expr.span };
}

// ---- names ----

function checkName(ctx: Context, expr: S.Name): CExpr {
  const found = ctx.lookupLocal(expr.name);
  if (found !== undefined) {
    const { local } = found;
    if (ctx.program.names !== undefined) recordName(ctx.program.names, expr.span, localTarget(local));
    checkCapture(ctx, found.local, found.depth, expr.span);
    return { kind: "Local", local: found.local, type: found.local.type, span: expr.span };
  }
  const sig = ctx.module.functions.get(expr.name);
  if (sig !== undefined) recordName(ctx.program.names, expr.span, functionTarget(sig));
  if (sig !== undefined) return functionRef(ctx, sig, expr.span);
  if (moduleNamed(ctx, expr.name) !== undefined) {
    ctx.problem("E-NAME-MODULE-VALUE", expr.span, { name: expr.name, usedAs: "value" });
    return { kind: "Invalid", type: ERROR, span: expr.span };
  }
  const near = suggest(expr.name, [...ctx.localNames(), ...ctx.module.functions.keys()]);
  ctx.problem(
    "E-NAME-UNKNOWN",
    expr.span,
    { problem: "value", name: expr.name, ...near },
    replacing(expr.span, expr.name, near.suggestion),
  );
  return { kind: "Invalid", type: ERROR, span: expr.span };
}

function checkUpperName(ctx: Context, expr: S.UpperName, expected: Type | undefined): CExpr {
  if (expr.name === "None") {
    const optional = ctx.program.prelude.types.get("Optional")!;
    const type = declared(optional, [freshMeta()]);
    if (expected !== undefined) unify(type, expected);
    recordName(ctx.program.names, expr.span, caseTarget(optional, "None"));
    return { kind: "CaseValue", decl: optional, caseName: "None", type, span: expr.span };
  }
  const decl = ctx.module.types.get(expr.name) ?? ctx.program.prelude.types.get(expr.name);
  if (decl !== undefined) {
    ctx.problem(
      "E-TYPE-NOT-VALUE",
      expr.span,
      decl.shape === "record"
        ? { name: expr.name, shape: "record", fields: decl.fields.map((f) => f.name) }
        : { name: expr.name, shape: "variant", cases: decl.cases.map((c) => c.name) },
    );
  } else {
    const variant = [...ctx.module.types.values()].find((d) => d.cases.some((c) => c.name === expr.name));
    if (variant !== undefined) {
      ctx.problem(
        "E-NAME-UNKNOWN",
        expr.span,
        { problem: "value", name: expr.name, variant: variant.name },
        replacing(expr.span, expr.name, `${variant.name}.${expr.name}`),
      );
    } else {
      const near = suggest(expr.name, [...ctx.module.types.keys()]);
      ctx.problem(
        "E-NAME-UNKNOWN",
        expr.span,
        { problem: "value", name: expr.name, ...near },
        replacing(expr.span, expr.name, near.suggestion),
      );
    }
  }
  return { kind: "Invalid", type: ERROR, span: expr.span };
}

/** `record.field`, `pair.first`, `module.function` as a value, `Shape.Empty`. */
function checkMember(ctx: Context, expr: S.Member): CExpr {
  const object = expr.object;
  if (object.kind === "Name") {
    const scope = moduleNamed(ctx, object.name);
    if (scope !== undefined) {
      recordModule(ctx, object.span, scope);
      const sig = scope.functions.get(expr.name.name);
      if (sig?.public) recordName(ctx.program.names, expr.name.span, functionTarget(sig));
      if (sig?.public) return functionRef(ctx, sig, expr.span);
      unknownModuleFunction(ctx, scope, object.name, expr.name, sig);
      return { kind: "Invalid", type: ERROR, span: expr.span };
    }
  }
  const typeScope =
    object.kind === "UpperName"
      ? ctx.module
      : object.kind === "Member" && object.object.kind === "Name" && /^[A-Z]/.test(object.name.name)
        ? moduleNamed(ctx, object.object.name)
        : undefined;
  if (typeScope !== undefined && (object.kind === "UpperName" || object.kind === "Member")) {
    const typeName = object.kind === "UpperName" ? object.name : object.name.name;
    const decl =
      typeScope.types.get(typeName) ??
      (object.kind === "UpperName" ? ctx.program.prelude.types.get(typeName) : undefined);
    if (decl !== undefined) {
      if (object.kind === "Member") recordModule(ctx, object.object.span, typeScope);
      recordName(ctx.program.names, object.kind === "UpperName" ? object.span : object.name.span, typeTarget(decl));
      const c = caseNamed(decl, expr.name.name);
      if (c !== undefined) recordName(ctx.program.names, expr.name.span, caseTarget(decl, c.name));
      if (c !== undefined && c.fields.length === 0) {
        return {
          kind: "CaseValue",
          decl,
          caseName: c.name,
          type: declared(
            decl,
            decl.params.map(() => freshMeta()),
          ),
          span: expr.span,
        };
      }
      if (c !== undefined) {
        ctx.problem("E-TYPE-ARGUMENTS", expr.span, {
          problem: "case has fields",
          type: decl.name,
          case: c.name,
          fields: c.fields.map((f) => f.name),
        });
        return { kind: "Invalid", type: ERROR, span: expr.span };
      }
      unknownCase(ctx, decl, expr.name);
      return { kind: "Invalid", type: ERROR, span: expr.span };
    }
  }
  const value = checkExpr(ctx, object);
  return fieldOf(ctx, value, expr.name, expr.span);
}

function fieldOf(ctx: Context, value: CExpr, name: S.Ident, span: Span): CExpr {
  const type = resolve(value.type);
  if (type.kind === "Error") return { kind: "Invalid", type: ERROR, span };
  if (type.kind === "Con" && type.name === "Pair" && (name.name === "first" || name.name === "second")) {
    return { kind: "Field", object: value, name: name.name, type: type.args[name.name === "first" ? 0 : 1]!, span };
  }
  if (type.kind === "Con" && type.decl?.shape === "record") {
    const field = fieldNamed(type.decl, type.args, name.name);
    if (field !== undefined && ctx.program.names !== undefined)
      recordName(ctx.program.names, name.span, fieldTarget(type.decl, name.name));
    if (field !== undefined) return { kind: "Field", object: value, name: name.name, type: field.type, span };
    unknownField(
      ctx,
      type.decl.name,
      name,
      type.decl.fields.map((f) => f.name),
    );
    return { kind: "Invalid", type: ERROR, span };
  }
  if (type.kind === "Meta") {
    ctx.problem("E-TYPE-INFER", value.span, { problem: "member", member: name.name });
    return { kind: "Invalid", type: ERROR, span };
  }
  ctx.problem("E-NAME-UNKNOWN-FIELD", name.span, { problem: "not-a-record", type: typeToText(type), field: name.name });
  return { kind: "Invalid", type: ERROR, span };
}

/** A module named in code: one of the program's (by its `use`) or the library's. */
export function recordModule(ctx: Context, span: Span, scope: ModuleScope): void {
  recordName(
    ctx.program.names,
    span,
    scope.library ? { kind: "library", module: scope.name } : { kind: "module", file: scope.file, module: scope.name },
  );
}

// ---- operators ----

function checkIndex(ctx: Context, expr: S.Index): CExpr {
  const object = checkExpr(ctx, expr.object);
  const index = checkExpr(ctx, expr.index, INT);
  const type = resolve(object.type);
  if (type.kind === "Con" && type.name === "List") {
    ctx.expectType(index.type, INT, index.span, { of: "list index" });
    return { kind: "Index", object, index, type: type.args[0]!, span: expr.span };
  }
  if (type.kind !== "Error") {
    ctx.problem("E-TYPE-MISMATCH", expr.span, { problem: "index", found: typeToText(type) });
  }
  return { kind: "Invalid", type: ERROR, span: expr.span };
}

function checkWith(ctx: Context, expr: S.With): CExpr {
  const record = checkExpr(ctx, expr.record);
  const type = resolve(record.type);
  if (type.kind !== "Con" || type.decl?.shape !== "record") {
    if (type.kind !== "Error") {
      ctx.problem("E-TYPE-MISMATCH", expr.record.span, { problem: "with", found: typeToText(type) });
    }
    for (const u of expr.updates) checkExpr(ctx, u.value);
    return { kind: "Invalid", type: ERROR, span: expr.span };
  }
  const decl = type.decl;
  const fields = fieldsOf(decl, type.args);
  const updates = expr.updates.map((u) => {
    const field = fields.find((f) => f.name === u.name.name);
    if (field === undefined) {
      unknownField(
        ctx,
        decl.name,
        u.name,
        fields.map((f) => f.name),
      );
      return { name: u.name.name, value: checkExpr(ctx, u.value) };
    }
    recordName(ctx.program.names, u.name.span, fieldTarget(decl, field.name));
    const value = checkExpr(ctx, u.value, field.type);
    ctx.expectType(value.type, field.type, value.span, { of: "field", field: field.name });
    return { name: u.name.name, value };
  });
  return { kind: "With", record, decl, updates, type: record.type, span: expr.span };
}

function checkUnary(ctx: Context, expr: S.Unary): CExpr {
  if (expr.op === "not") {
    const operand = checkCondition(ctx, expr.operand, { of: "operand", operator: "not" });
    return { kind: "Unary", op: "not", operand, type: BOOLEAN, span: expr.span };
  }
  const operand = checkExpr(ctx, expr.operand);
  const type = resolve(operand.type);
  if (!isNumber(type) && type.kind !== "Error") {
    ctx.problem("E-TYPE-OPERATOR", expr.span, { problem: "negate", found: typeToText(type) });
  }
  return { kind: "Unary", op: "-", operand, type: operand.type, span: expr.span };
}

function isNumber(type: Type): boolean {
  return isCon(type, "Int") || isCon(type, "Float");
}

function checkBinary(ctx: Context, expr: S.Binary): CExpr {
  const op = expr.op;
  if (op === "and" || op === "or") {
    const left = checkCondition(ctx, expr.left, { of: "operand", operator: op, side: "left" });
    const right = checkCondition(ctx, expr.right, { of: "operand", operator: op, side: "right" });
    return { kind: "Binary", op, left, right, operand: BOOLEAN, type: BOOLEAN, span: expr.span };
  }
  const left = checkExpr(ctx, expr.left);
  const right = checkExpr(ctx, expr.right, left.type);
  const operand = left.type;
  const sameTypes = (): boolean => {
    if (unify(right.type, left.type)) return true;
    ctx.problem("E-TYPE-OPERATOR", expr.span, {
      problem: "different types",
      operator: op,
      left: typeToText(left.type),
      right: typeToText(right.type),
    });
    return false;
  };
  const result = (type: Type): CExpr => ({ kind: "Binary", op, left, right, operand, type, span: expr.span });
  switch (op) {
    case "is":
    case "is not":
      if (sameTypes()) requireAbility(ctx, left.type, "equality", expr.span);
      return result(BOOLEAN);
    case "<":
    case "<=":
    case ">":
    case ">=":
      if (sameTypes()) requireAbility(ctx, left.type, "compare", expr.span);
      return result(BOOLEAN);
    case "to":
    case "until":
      ctx.expectType(left.type, INT, left.span, { of: "range", end: "start" });
      ctx.expectType(right.type, INT, right.span, { of: "range", end: "end" });
      return result(listOf(INT));
    case "+": {
      if (!sameTypes()) return result(ERROR);
      const t = resolve(left.type);
      const addable = isNumber(t) || isCon(t, "Text") || isCon(t, "List") || t.kind === "Error" || t.kind === "Meta";
      if (!addable) {
        ctx.problem("E-TYPE-OPERATOR", expr.span, { problem: "add", found: typeToText(t) });
      }
      return result(left.type);
    }
    default: {
      // - * / mod
      if (!sameTypes()) return result(ERROR);
      const t = resolve(left.type);
      if (!isNumber(t) && t.kind !== "Error" && t.kind !== "Meta") {
        ctx.problem("E-TYPE-OPERATOR", expr.span, { problem: "arithmetic", operator: op, found: typeToText(t) });
      }
      return result(left.type);
    }
  }
}

// ---- collections ----

function checkList(ctx: Context, expr: S.ListLiteral, expected: Type | undefined): CExpr {
  const e = resolve(expected ?? ERROR);
  const item: Type = e.kind === "Con" && e.name === "List" ? e.args[0]! : freshMeta();
  const items = expr.items.map((i) => {
    const value = checkExpr(ctx, i, item);
    ctx.expectType(value.type, item, value.span, { of: "list item" });
    return value;
  });
  return { kind: "List", items, type: listOf(item), span: expr.span };
}

function checkMap(ctx: Context, expr: S.MapLiteral, expected: Type | undefined): CExpr {
  const e = resolve(expected ?? ERROR);
  const [key, value]: Type[] =
    e.kind === "Con" && e.name === "Map" ? [e.args[0]!, e.args[1]!] : [freshMeta(), freshMeta()];
  const entries = expr.entries.map((entry) => {
    const k = checkExpr(ctx, entry.key, key);
    ctx.expectType(k.type, key, k.span, { of: "map key" });
    const v = checkExpr(ctx, entry.value, value);
    ctx.expectType(v.type, value, v.span, { of: "map value" });
    return { key: k, value: v };
  });
  // Checked for `{}` too: an empty map of a key type without a hash would take such keys later (`m.put(f, 1)`).
  requireAbility(ctx, key, "hash", entries.length > 0 ? expr.entries[0]!.key.span : expr.span);
  return { kind: "Map", entries, type: mapOf(key, value), span: expr.span };
}

// ---- functions as values ----

function checkLambda(ctx: Context, expr: S.Lambda, expected: Type | undefined): CExpr {
  const e = resolve(expected ?? ERROR);
  const expectedFn = e.kind === "Function" && e.params.length === expr.params.length ? e : undefined;
  const returns: Type = expectedFn?.returns ?? freshMeta();
  const declaredFails = expectedFn?.fails;
  return ctx.withFrame(
    {
      kind: "lambda",
      returns,
      ...(declaredFails ? { fails: declaredFails } : {}),
      failsDeclared: declaredFails !== undefined,
      grant: ctx.frame.grant,
      owner: ctx.frame.owner,
      ...(ctx.frame.needsEdit === undefined ? {} : { needsEdit: ctx.frame.needsEdit }),
    },
    (frame) => {
      const params = expr.params.map((p, i) => {
        const written = p.type === undefined ? undefined : resolveTypeWith(ctx, p.type);
        const type = written ?? expectedFn?.params[i] ?? freshMeta();
        if (written !== undefined && expectedFn !== undefined)
          ctx.expectType(written, expectedFn.params[i]!, p.span, { of: "parameter", parameter: p.name.name });
        return ctx.declare(p.name.name, type, false, p.name.span, "parameter");
      });
      const body = checkExpr(ctx, expr.body, returns);
      ctx.expectType(body.type, returns, body.span, { of: "function value" });
      const needs: Need[] = [...frame.needs];
      const type: Type = {
        kind: "Function",
        params: params.map((p) => p.type),
        returns,
        ...(frame.fails ? { fails: frame.fails } : {}),
        needs,
      };
      return {
        kind: "Lambda",
        params,
        body: { statements: [{ kind: "Return", value: body, span: body.span }] },
        needs,
        declaresNeeds: false,
        type,
        span: expr.span,
      } as CExpr;
    },
  );
}

function resolveTypeWith(ctx: Context, type: S.TypeExpr): Type {
  return resolveType(ctx.program, ctx.module, type, ctx.typeParams, ctx.diagnostics);
}

/** `function (request: Request) returns Response ... end`: a function value with a signature of its own. */
function checkFunctionExpr(ctx: Context, expr: S.FunctionExpr): CExpr {
  const grant = needsOf(expr.needs, "function", ctx.diagnostics, ctx.program.names).map((g) => g.capability);
  // What the function value needs must be within what its surroundings may use.
  for (const need of grant) {
    if (coveredBy(ctx.frame.grant, need) === undefined) {
      ctx.problem(
        "E-CAP-MISSING",
        need.span ?? expr.span,
        { problem: "function value", need: needText(need), owner: ctx.frame.owner },
        addNeedEdit(ctx.frame, needText(need)),
      );
    }
  }
  const returns = expr.returns ? resolveTypeWith(ctx, expr.returns) : NOTHING;
  const fails = expr.fails ? resolveTypeWith(ctx, expr.fails) : undefined;
  return ctx.withFrame(
    {
      kind: "function",
      returns,
      ...(fails ? { fails } : {}),
      failsDeclared: true,
      grant,
      owner: { kind: "function value" },
    },
    () => {
      const params = expr.params.map((p) =>
        ctx.declare(p.name.name, resolveTypeWith(ctx, p.type), false, p.name.span, "parameter"),
      );
      const body = checkBlock(ctx, expr.body);
      if (!isCon(returns, "Nothing") && !blockEnds(ctx, expr.body)) {
        ctx.problem("E-TYPE-NO-RETURN", expr.span, { problem: "function value", returns: typeToText(returns) });
      }
      const type: Type = {
        kind: "Function",
        params: params.map((p) => p.type),
        returns,
        ...(fails ? { fails } : {}),
        needs: grant,
      };
      return { kind: "Lambda", params, body, needs: grant, declaresNeeds: true, type, span: expr.span } as CExpr;
    },
  );
}

// ---- otherwise ----

function checkOtherwise(ctx: Context, expr: S.Otherwise, expected: Type | undefined): CExpr {
  const saved = ctx.collector;
  const collector = { calls: [] as { span: Span; fails: Type }[] };
  ctx.collector = collector;
  let left: CExpr;
  try {
    left = checkExpr(ctx, expr.expr, expected);
  } finally {
    ctx.collector = saved;
  }
  if (collector.calls.length === 0) {
    // The handler's span runs from the `otherwise` keyword to its end: removing it leaves the left as it was.
    ctx.problem(
      "E-FAIL-NOTHING",
      expr.expr.span,
      { problem: "otherwise" },
      { edits: [{ title: "Remove the `otherwise`", span: expr.handler.span, replacement: "" }] },
    );
  } else if (collector.calls.length > 1) {
    ctx.problem(
      "E-FAIL-TWO",
      collector.calls[1]!.span,
      { problem: "otherwise" },
      { related: [collector.calls[0]!.span] },
    );
  }
  const failure = collector.calls[0]?.fails ?? ERROR;
  return ctx.withScope(() => {
    // `error` is the failure being handled, everywhere in the handler.
    const error = ctx.declare("error", failure, false, expr.handler.span, "implicit");
    const handler = checkHandler(ctx, expr.handler, failure, left.type, expr.span);
    return { kind: "Otherwise", expr: left, error, failure, handler, type: left.type, span: expr.span } as CExpr;
  });
}

function checkHandler(ctx: Context, handler: S.OtherwiseHandler, failure: Type, valueType: Type, span: Span): CHandler {
  switch (handler.kind) {
    case "OtherwiseFail": {
      if (handler.value === undefined) {
        const wrap = wrapFailure(ctx, failure, handler.span);
        return { kind: "Fail", ...(wrap ? { wrap } : {}) };
      }
      const target = ctx.frame.fails;
      const value = checkExpr(ctx, handler.value, target);
      failWith(ctx, value, handler.value.span);
      return { kind: "Fail", value };
    }
    case "OtherwiseDefault": {
      const value = checkExpr(ctx, handler.value, valueType);
      ctx.expectType(value.type, valueType, value.span, { of: "otherwise value" });
      return { kind: "Default", value };
    }
    case "OtherwiseLeave":
      return { kind: "Leave", statement: checkStatement(ctx, handler.statement) };
    case "OtherwiseArms": {
      const saved = ctx.handling;
      ctx.handling = { failure, span };
      try {
        return { kind: "Arms", arms: checkArms(ctx, handler.arms, failure, true, valueType, span, "otherwise") };
      } finally {
        ctx.handling = saved;
      }
    }
  }
}

// ---- match ----

/**
 * `match` as a statement (`asValue` false: arms are blocks) or as a value
 * (each arm gives a value with `then EXPR`, or leaves).
 */
export function checkMatch(ctx: Context, expr: S.Match, asValue: boolean, expected?: Type): CExpr {
  const subject = checkExpr(ctx, expr.subject);
  const valueType = asValue ? (expected ?? freshMeta()) : NOTHING;
  const arms = checkArms(ctx, expr.arms, subject.type, asValue, valueType, expr.span, "match");
  return { kind: "Match", subject, arms, type: valueType, span: expr.span };
}

function checkArms(
  ctx: Context,
  arms: readonly S.MatchArm[],
  subject: Type,
  asValue: boolean,
  valueType: Type,
  span: Span,
  owner: "match" | "otherwise",
): CArm[] {
  let patternErrors = 0;
  const checked: CArm[] = arms.map((arm) =>
    ctx.withScope(() => {
      const before = ctx.diagnostics.length;
      const pattern = checkPattern(ctx, arm.pattern, subject);
      patternErrors += ctx.diagnostics.length - before;
      if (!asValue) return { pattern, body: checkBlock(ctx, arm.body) };
      const only = arm.body.statements[0];
      if (arm.inline && only !== undefined && only.kind === "ExprStatement") {
        const value = checkExpr(ctx, only.expr, valueType);
        ctx.expectType(value.type, valueType, value.span, { of: "arm value" });
        return { pattern, body: { statements: [] }, value };
      }
      const body = checkBlock(ctx, arm.body);
      if (!blockEnds(ctx, arm.body)) {
        ctx.problem("E-TYPE-VALUE-ARM", arm.span, { construct: owner });
      }
      return { pattern, body };
    }),
  );
  // A pattern in error says nothing reliable about which values are covered.
  if (patternErrors > 0 || resolve(subject).kind === "Error") return checked;
  // Once the program's matches have spent their steps, one error has been reported and the program will not run.
  if (ctx.work.matchSteps <= 0) return checked;
  const budget = new StepBudget(Math.min(MATCH_STEPS, ctx.work.matchSteps));
  const before = budget.left;
  const analysis = analyseMatch(
    subject,
    checked.map((a) => a.pattern),
    budget,
  );
  ctx.work.matchSteps -= before - budget.left;
  if (analysis.tooComplex) {
    const alone = before >= MATCH_STEPS;
    ctx.problem("E-MATCH-TOO-COMPLEX", span, {
      construct: owner,
      arms: arms.length,
      alone,
      steps: MATCH_STEPS,
      programSteps: PROGRAM_MATCH_STEPS,
    });
    return checked;
  }
  for (const index of analysis.unreachable) {
    ctx.problem("W-MATCH-UNREACHABLE", arms[index]!.pattern.span, {});
  }
  if (analysis.missing !== undefined && resolve(subject).kind !== "Error") {
    ctx.problem("E-MATCH-MISSING", span, { construct: owner, missing: analysis.missing, subject: typeToText(subject) });
  }
  return checked;
}
