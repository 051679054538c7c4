// Expressions: each syntax node checked against the type expected of it (when
// one is known), giving a checked node that carries its type.

import { needText } from "../../vocabulary/needs.js";
import type * as S from "../parse/tree.js";
import type { Span } from "../source.js";
import { requireAbility } from "./bounds.js";
import { checkCall, moduleNamed } from "./calls.js";
import { checkCapture } from "./captures.js";
import { blockEnds } from "./ends.js";
import { failWith, wrapFailure } from "./failures.js";
import { coveredBy } from "../../vocabulary/capabilities.js";
import { resolveType } from "./declare.js";
import { checkNeeds as needsOf } from "./grants.js";
import type { CArm, CExpr, CHandler } from "./checked.js";
import { article, MATCH_STEPS, PROGRAM_MATCH_STEPS, type Context } from "./context.js";
import { analyseMatch, StepBudget } from "./exhaustive.js";
import { checkPattern } from "./patterns.js";
import { checkQuery } from "./queries.js";
import { type FunctionSig } from "./scope.js";
import { replacing, suggest, unknownCase, unknownField, unknownModuleFunction } from "./suggest.js";
import { checkBlock, checkStatement } from "./statements.js";
import {
  BOOLEAN,
  declared,
  ERROR,
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
  if (typeArgs !== undefined) ctx.instantiations.push({ callee: sig, typeArgs, span, calleeName: sig.module === ctx.module.name ? sig.name : `${sig.module.split("/").pop()}.${sig.name}` });
  return { kind: "FunctionRef", module: sig.module, name: sig.name, library: sig.library, ...(typeArgs ? { typeArgs } : {}), type, span };
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
      const condition = checkCondition(ctx, expr.condition, "The condition of `if`");
      const then = checkExpr(ctx, expr.then, expected);
      const otherwise = checkExpr(ctx, expr.else, expected ?? then.type);
      ctx.expectType(otherwise.type, then.type, otherwise.span, "The `else` branch");
      return { kind: "If", condition, then, else: otherwise, type: then.type, span: expr.span };
    }
    case "Match":
      return checkMatch(ctx, expr, true, expected);
    case "Query":
      return checkQuery(ctx, expr);
    case "TypeArgument":
      ctx.error("E-TYPE-ARGUMENTS", expr.span, "A type can only be given to `as:`", { hint: "For example: `json.decode(body, as: Reading)`." });
      return { kind: "Invalid", type: ERROR, span: expr.span };
    case "ErrorExpr":
      return { kind: "Invalid", type: ERROR, span: expr.span };
  }
}

export function checkCondition(ctx: Context, expr: S.Expr, what: string): CExpr {
  const value = checkExpr(ctx, expr, BOOLEAN);
  ctx.expectType(value.type, BOOLEAN, value.span, what);
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
    checkCapture(ctx, found.local, found.depth, expr.span);
    return { kind: "Local", local: found.local, type: found.local.type, span: expr.span };
  }
  const sig = ctx.module.functions.get(expr.name);
  if (sig !== undefined) return functionRef(ctx, sig, expr.span);
  if (moduleNamed(ctx, expr.name) !== undefined) {
    ctx.problem("E-NAME-MODULE-VALUE", expr.span, { name: expr.name, usedAs: "value" });
    return { kind: "Invalid", type: ERROR, span: expr.span };
  }
  const near = suggest(expr.name, [...ctx.localNames(), ...ctx.module.functions.keys()]);
  ctx.problem("E-NAME-UNKNOWN", expr.span, { problem: "value", name: expr.name, ...near }, replacing(expr.span, expr.name, near.suggestion));
  return { kind: "Invalid", type: ERROR, span: expr.span };
}

function checkUpperName(ctx: Context, expr: S.UpperName, expected: Type | undefined): CExpr {
  if (expr.name === "None") {
    const optional = ctx.program.prelude.types.get("Optional")!;
    const type = declared(optional, [freshMeta()]);
    if (expected !== undefined) unify(type, expected);
    return { kind: "CaseValue", decl: optional, caseName: "None", type, span: expr.span };
  }
  const decl = ctx.module.types.get(expr.name) ?? ctx.program.prelude.types.get(expr.name);
  if (decl !== undefined) {
    ctx.error("E-TYPE-NOT-VALUE", expr.span, `\`${expr.name}\` is a type, not a value`, {
      hint: decl.shape === "record" ? `Build one with its fields: \`${expr.name}(${decl.fields.map((f) => `${f.name}: ...`).join(", ")})\`.` : `Use one of its cases: ${decl.cases.map((c) => `\`${expr.name}.${c.name}\``).join(", ")}.`,
    });
  } else {
    const variant = [...ctx.module.types.values()].find((d) => d.cases.some((c) => c.name === expr.name));
    if (variant !== undefined) {
      ctx.problem("E-NAME-UNKNOWN", expr.span, { problem: "value", name: expr.name, variant: variant.name }, replacing(expr.span, expr.name, `${variant.name}.${expr.name}`));
    } else {
      const near = suggest(expr.name, [...ctx.module.types.keys()]);
      ctx.problem("E-NAME-UNKNOWN", expr.span, { problem: "value", name: expr.name, ...near }, replacing(expr.span, expr.name, near.suggestion));
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
      const sig = scope.functions.get(expr.name.name);
      if (sig !== undefined && sig.public) return functionRef(ctx, sig, expr.span);
      unknownModuleFunction(ctx, scope, object.name, expr.name, sig);
      return { kind: "Invalid", type: ERROR, span: expr.span };
    }
  }
  const typeScope = object.kind === "UpperName" ? ctx.module : object.kind === "Member" && object.object.kind === "Name" && /^[A-Z]/.test(object.name.name) ? moduleNamed(ctx, object.object.name) : undefined;
  if (typeScope !== undefined && (object.kind === "UpperName" || object.kind === "Member")) {
    const typeName = object.kind === "UpperName" ? object.name : object.name.name;
    const decl = typeScope.types.get(typeName) ?? (object.kind === "UpperName" ? ctx.program.prelude.types.get(typeName) : undefined);
    if (decl !== undefined) {
      const c = decl.cases.find((x) => x.name === expr.name.name);
      if (c !== undefined && c.fields.length === 0) {
        return { kind: "CaseValue", decl, caseName: c.name, type: declared(decl, decl.params.map(() => freshMeta())), span: expr.span };
      }
      if (c !== undefined) {
        ctx.error("E-TYPE-ARGUMENTS", expr.span, `\`${decl.name}.${c.name}\` has fields, so it is built with them`, {
          hint: `For example: \`${decl.name}.${c.name}(${c.fields.map((f) => `${f.name}: ...`).join(", ")})\`.`,
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
    const field = fieldsOf(type.decl, type.args).find((f) => f.name === name.name);
    if (field !== undefined) return { kind: "Field", object: value, name: name.name, type: field.type, span };
    unknownField(ctx, type.decl.name, name, type.decl.fields.map((f) => f.name));
    return { kind: "Invalid", type: ERROR, span };
  }
  if (type.kind === "Meta") {
    ctx.error("E-TYPE-INFER", value.span, `I cannot tell what type this is, so I cannot look up \`${name.name}\` in it`, {
      hint: "Give the value a type where it is bound: `let item: Item be ...`.",
    });
    return { kind: "Invalid", type: ERROR, span };
  }
  ctx.problem("E-NAME-UNKNOWN-FIELD", name.span, { problem: "not-a-record", type: typeToText(type), field: name.name });
  return { kind: "Invalid", type: ERROR, span };
}

// ---- operators ----

function checkIndex(ctx: Context, expr: S.Index): CExpr {
  const object = checkExpr(ctx, expr.object);
  const index = checkExpr(ctx, expr.index, INT);
  const type = resolve(object.type);
  if (type.kind === "Con" && type.name === "List") {
    ctx.expectType(index.type, INT, index.span, "A list index");
    return { kind: "Index", object, index, type: type.args[0]!, span: expr.span };
  }
  if (type.kind !== "Error") {
    ctx.error("E-TYPE-MISMATCH", expr.span, `Only a list can be indexed with \`[...]\`, and this is ${article(typeToText(type))}`, {
      label: "not a list",
      ...(type.kind === "Con" && type.name === "Map" ? { hint: "Look a key up with `m.get(key)`, which gives an Optional." } : {}),
    });
  }
  return { kind: "Invalid", type: ERROR, span: expr.span };
}

function checkWith(ctx: Context, expr: S.With): CExpr {
  const record = checkExpr(ctx, expr.record);
  const type = resolve(record.type);
  if (type.kind !== "Con" || type.decl?.shape !== "record") {
    if (type.kind !== "Error") {
      ctx.error("E-TYPE-MISMATCH", expr.record.span, `\`with\` copies a record, and this is ${article(typeToText(type))}`, { label: "not a record" });
    }
    expr.updates.forEach((u) => checkExpr(ctx, u.value));
    return { kind: "Invalid", type: ERROR, span: expr.span };
  }
  const decl = type.decl;
  const fields = fieldsOf(decl, type.args);
  const updates = expr.updates.map((u) => {
    const field = fields.find((f) => f.name === u.name.name);
    if (field === undefined) {
      unknownField(ctx, decl.name, u.name, fields.map((f) => f.name));
      return { name: u.name.name, value: checkExpr(ctx, u.value) };
    }
    const value = checkExpr(ctx, u.value, field.type);
    ctx.expectType(value.type, field.type, value.span, `The field \`${field.name}\``);
    return { name: u.name.name, value };
  });
  return { kind: "With", record, decl, updates, type: record.type, span: expr.span };
}

function checkUnary(ctx: Context, expr: S.Unary): CExpr {
  if (expr.op === "not") {
    const operand = checkCondition(ctx, expr.operand, "The value after `not`");
    return { kind: "Unary", op: "not", operand, type: BOOLEAN, span: expr.span };
  }
  const operand = checkExpr(ctx, expr.operand);
  const type = resolve(operand.type);
  if (!isNumber(type) && type.kind !== "Error") {
    ctx.error("E-TYPE-OPERATOR", expr.span, `\`-\` negates an Int or a Float, not ${article(typeToText(type))}`, { label: typeToText(type) });
  }
  return { kind: "Unary", op: "-", operand, type: operand.type, span: expr.span };
}

function isNumber(type: Type): boolean {
  return isCon(type, "Int") || isCon(type, "Float");
}

function checkBinary(ctx: Context, expr: S.Binary): CExpr {
  const op = expr.op;
  if (op === "and" || op === "or") {
    const left = checkCondition(ctx, expr.left, `The left side of \`${op}\``);
    const right = checkCondition(ctx, expr.right, `The right side of \`${op}\``);
    return { kind: "Binary", op, left, right, operand: BOOLEAN, type: BOOLEAN, span: expr.span };
  }
  const left = checkExpr(ctx, expr.left);
  const right = checkExpr(ctx, expr.right, left.type);
  const operand = left.type;
  const sameTypes = (): boolean => {
    if (unify(right.type, left.type)) return true;
    ctx.error("E-TYPE-OPERATOR", expr.span, `\`${op}\` needs two values of the same type, and these are ${article(typeToText(left.type))} and ${article(typeToText(right.type))}`, {
      label: `${typeToText(left.type)} ${op} ${typeToText(right.type)}`,
      ...(isNumber(left.type) && isNumber(right.type) ? { hint: "Renyi does not mix Int and Float by itself: convert one side with `n.to_float()` or `math.round(x)`." } : {}),
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
      ctx.expectType(left.type, INT, left.span, `The start of a range`);
      ctx.expectType(right.type, INT, right.span, `The end of a range`);
      return result(listOf(INT));
    case "+": {
      if (!sameTypes()) return result(ERROR);
      const t = resolve(left.type);
      const addable = isNumber(t) || isCon(t, "Text") || isCon(t, "List") || t.kind === "Error" || t.kind === "Meta";
      if (!addable) {
        ctx.error("E-TYPE-OPERATOR", expr.span, `\`+\` adds numbers and joins texts and lists, not ${typeToText(t)} values`, { label: typeToText(t) });
      }
      return result(left.type);
    }
    default: {
      // - * / mod
      if (!sameTypes()) return result(ERROR);
      const t = resolve(left.type);
      if (!isNumber(t) && t.kind !== "Error" && t.kind !== "Meta") {
        ctx.error("E-TYPE-OPERATOR", expr.span, `\`${op}\` works on Int and Float, not on ${typeToText(t)}`, { label: typeToText(t) });
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
    ctx.expectType(value.type, item, value.span, "This item of the list", "Every item of a list has the type of the first.");
    return value;
  });
  return { kind: "List", items, type: listOf(item), span: expr.span };
}

function checkMap(ctx: Context, expr: S.MapLiteral, expected: Type | undefined): CExpr {
  const e = resolve(expected ?? ERROR);
  const [key, value]: Type[] = e.kind === "Con" && e.name === "Map" ? [e.args[0]!, e.args[1]!] : [freshMeta(), freshMeta()];
  const entries = expr.entries.map((entry) => {
    const k = checkExpr(ctx, entry.key, key);
    ctx.expectType(k.type, key, k.span, "This key of the map");
    const v = checkExpr(ctx, entry.value, value);
    ctx.expectType(v.type, value, v.span, "This value of the map");
    return { key: k, value: v };
  });
  // Checked for `{}` too: an empty map of a key type without a hash would take such keys later (`m.put(f, 1)`).
  requireAbility(ctx, key, "hash", entries.length > 0 ? expr.entries[0]!.key.span : expr.span);
  return { kind: "Map", entries, type: mapOf(key, value), span: expr.span };
}

const steps = (n: number): string => n.toLocaleString("en-US");

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
    },
    (frame) => {
      const params = expr.params.map((p, i) => {
        const written = p.type === undefined ? undefined : resolveTypeWith(ctx, p.type);
        const type = written ?? expectedFn?.params[i] ?? freshMeta();
        if (written !== undefined && expectedFn !== undefined) ctx.expectType(written, expectedFn.params[i]!, p.span, `The parameter \`${p.name.name}\``);
        return ctx.declare(p.name.name, type, false, p.name.span);
      });
      const body = checkExpr(ctx, expr.body, returns);
      ctx.expectType(body.type, returns, body.span, "The value of this function");
      const needs: Need[] = [...frame.needs];
      const type: Type = { kind: "Function", params: params.map((p) => p.type), returns, ...(frame.fails ? { fails: frame.fails } : {}), needs };
      return { kind: "Lambda", params, body: { statements: [{ kind: "Return", value: body, span: body.span }] }, needs, declaresNeeds: false, type, span: expr.span } as CExpr;
    },
  );
}

function resolveTypeWith(ctx: Context, type: S.TypeExpr): Type {
  return resolveType(ctx.program, ctx.module, type, ctx.typeParams, ctx.diagnostics);
}

/** `function (request: Request) returns Response ... end`: a function value with a signature of its own. */
function checkFunctionExpr(ctx: Context, expr: S.FunctionExpr): CExpr {
  const grant = needsOf(expr.needs, "function", ctx.diagnostics).map((g) => g.capability);
  // What the function value needs must be within what its surroundings may use.
  for (const need of grant) {
    if (coveredBy(ctx.frame.grant, need) === undefined) {
      ctx.error("E-CAP-MISSING", need.span ?? expr.span, `This function needs \`${needText(need)}\`, which the needs of ${ctx.frame.owner} do not cover`, {
        hint: `Add \`${needText(need)}\` to the \`needs\` line of ${ctx.frame.owner}.`,
      });
    }
  }
  const returns = expr.returns ? resolveTypeWith(ctx, expr.returns) : NOTHING;
  const fails = expr.fails ? resolveTypeWith(ctx, expr.fails) : undefined;
  return ctx.withFrame({ kind: "function", returns, ...(fails ? { fails } : {}), failsDeclared: true, grant, owner: "this function" }, () => {
    const params = expr.params.map((p) => ctx.declare(p.name.name, resolveTypeWith(ctx, p.type), false, p.name.span));
    const body = checkBlock(ctx, expr.body);
    if (!isCon(returns, "Nothing") && !blockEnds(ctx, expr.body)) {
      ctx.error("E-TYPE-NO-RETURN", expr.span, `This function returns ${article(typeToText(returns))}, but not on every path`, {
        hint: "End every path with `return`, `fail` or `crash`.",
      });
    }
    const type: Type = { kind: "Function", params: params.map((p) => p.type), returns, ...(fails ? { fails } : {}), needs: grant };
    return { kind: "Lambda", params, body, needs: grant, declaresNeeds: true, type, span: expr.span } as CExpr;
  });
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
    ctx.error("E-FAIL-NOTHING", expr.expr.span, "Nothing on the left of `otherwise` can fail", {
      label: "this cannot fail",
      hint: "Remove the `otherwise`.",
    });
  } else if (collector.calls.length > 1) {
    ctx.error("E-FAIL-TWO", collector.calls[1]!.span, "Two calls on the left of this `otherwise` can fail, so it is unclear which failure it handles", {
      label: "a second call that can fail",
      related: [{ span: collector.calls[0]!.span, message: "the first" }],
      hint: "Handle each call where it is made: bind the first with `let x be f() otherwise ...`, then use `x`.",
    });
  }
  const failure = collector.calls[0]?.fails ?? ERROR;
  return ctx.withScope(() => {
    // `error` is the failure being handled, everywhere in the handler.
    const error = ctx.declare("error", failure, false, expr.handler.span);
    const handler = checkHandler(ctx, expr.handler, failure, left.type, expr.span);
    return { kind: "Otherwise", expr: left, error, failure, handler, type: left.type, span: expr.span } as CExpr;
  });
}

function checkHandler(ctx: Context, handler: S.OtherwiseHandler, failure: Type, valueType: Type, span: Span): CHandler {
  {
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
        ctx.expectType(value.type, valueType, value.span, "The value after `otherwise`", "The value after `otherwise` stands in for what the call would have given, so it has the same type.");
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

function checkArms(ctx: Context, arms: readonly S.MatchArm[], subject: Type, asValue: boolean, valueType: Type, span: Span, owner: "match" | "otherwise"): CArm[] {
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
        ctx.expectType(value.type, valueType, value.span, "The value of this arm", "Every arm gives a value of the same type.");
        return { pattern, body: { statements: [] }, value };
      }
      const body = checkBlock(ctx, arm.body);
      if (!blockEnds(ctx, arm.body)) {
        ctx.error("E-TYPE-VALUE-ARM", arm.span, `This arm gives no value, but the ${owner} is used as a value`, {
          label: "no value",
          hint: "Write the arm as `when PATTERN then VALUE`, or end it with `return`, `fail`, `crash`, `stop` or `skip`.",
        });
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
  const analysis = analyseMatch(subject, checked.map((a) => a.pattern), budget);
  ctx.work.matchSteps -= before - budget.left;
  if (analysis.tooComplex) {
    const alone = before >= MATCH_STEPS;
    const armCount = `${arms.length} arm${arms.length === 1 ? "" : "s"}`;
    ctx.error(
      "E-MATCH-TOO-COMPLEX",
      span,
      alone
        ? `This ${owner} is too complex to check for missing cases: its ${armCount} need more than ${steps(MATCH_STEPS)} steps`
        : `This ${owner} (${armCount}) cannot be checked for missing cases: with the ones before it, this program's matches need more than ${steps(PROGRAM_MATCH_STEPS)} steps`,
      {
        label: "too complex to check",
        notes: [
          alone
            ? `Checking that arms cover every value can take time that grows exponentially with their number; each ${owner} may take ${steps(MATCH_STEPS)} steps, and a program's matches ${steps(PROGRAM_MATCH_STEPS)} together.`
            : `Each match may take ${steps(MATCH_STEPS)} steps, and a program's matches ${steps(PROGRAM_MATCH_STEPS)} together.`,
        ],
        hint: "Split it: match on one field or part first, then on the rest in a nested `match` or a helper function.",
      },
    );
    return checked;
  }
  for (const index of analysis.unreachable) {
    ctx.warn("W-MATCH-UNREACHABLE", arms[index]!.pattern.span, "This arm can never be reached: the arms above match every value it would", {
      label: "unreachable",
      hint: "Remove it, or move it above the arm that catches its values.",
    });
  }
  if (analysis.missing !== undefined && resolve(subject).kind !== "Error") {
    ctx.error("E-MATCH-MISSING", span, `This ${owner} does not cover every ${owner === "otherwise" ? "failure" : "value"}: \`${analysis.missing}\` is not handled`, {
      label: `\`${analysis.missing}\` not covered`,
      notes: [`The ${owner === "otherwise" ? "failure" : "value"} is ${article(typeToText(subject))}.`],
      hint: `Add an arm for it: \`when ${analysis.missing} then ...\`, or \`when _ then ...\` for every other ${owner === "otherwise" ? "failure" : "value"}.`,
    });
  }
  return checked;
}
