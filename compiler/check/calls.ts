// Calls: what a call calls (a function of this or another module, a library
// function, a method of the receiver's type, a function value, a record or a
// variant case), its arguments in parameter order, its needs checked against
// the caller's grant, and its failure handed to the `otherwise` around it.

import { needText } from "../../vocabulary/needs.js";
import type * as S from "../parse/tree.js";
import type { Span } from "../source.js";
import type { Ability } from "./abilities.js";
import { requireAbility } from "./bounds.js";
import { coveredBy } from "../../vocabulary/capabilities.js";
import type { CExpr, Callee } from "./checked.js";
import type { Context, Frame } from "./context.js";
import type { Places } from "../diagnostics.js";
import { ownerText } from "../../vocabulary/problems/grants.js";
import type { SlotFact } from "../../vocabulary/problems/types.js";
import { canPassOn } from "./failures.js";
import { checkTransactionFailure, TRANSACTION, workSlot } from "./transaction.js";
import { resolveType } from "./declare.js";
import { checkExpr, recordModule } from "./expressions.js";
import { caseTarget, fieldTarget, functionTarget, parameterTarget, record, typeTarget } from "./names.js";
import {
  ABILITY_FUNCTIONS,
  COMPARING_FUNCTIONS,
  HASHING_FUNCTIONS,
  METHOD_MODULES,
  NUMERIC_FUNCTIONS,
} from "./library.js";
import { closest, type FunctionSig, type ModuleScope } from "./scope.js";
import { replacing, suggest, unknownCase, unknownModuleFunction } from "./suggest.js";
import {
  declared,
  ERROR,
  fieldNamed,
  fieldsOf,
  freshMeta,
  JSON_TYPE,
  resolve,
  substitute,
  TEXT,
  typeToText,
  unify,
  type FunctionType,
  type Need,
  type Type,
  type TypeDecl,
  caseNamed,
  indexByName,
} from "./types.js";

/** One parameter as argument matching sees it. */
interface Slot {
  readonly name: string;
  readonly type: Type;
  readonly optional: boolean;
  readonly typeArgument: boolean;
  /** The type an argument of type `given` is held to, when it is not `type` itself (database.transaction's work). */
  readonly heldTo?: (given: Type) => Type;
}

type Target =
  | { kind: "sig"; sig: FunctionSig; receiver?: CExpr }
  | { kind: "value"; expr: CExpr }
  | { kind: "record"; decl: TypeDecl }
  | { kind: "case"; decl: TypeDecl; caseName: string }
  | { kind: "ability"; ability: "to_text" | "to_json"; receiver: CExpr }
  | { kind: "from_json"; type: Type }
  | { kind: "invalid" };

export function checkCall(ctx: Context, call: S.Call, expected: Type | undefined): CExpr {
  const target = resolveCallee(ctx, call.callee);
  switch (target.kind) {
    case "sig":
      return callSignature(ctx, call, target.sig, target.receiver, expected);
    case "value":
      return callValue(ctx, call, target.expr, expected);
    case "record":
    case "case":
      return construct(ctx, call, target.decl, target.kind === "case" ? target.caseName : undefined, expected);
    case "ability":
      return callAbility(ctx, call, target.ability, target.receiver);
    case "from_json":
      return callFromJson(ctx, call, target.type);
    case "invalid":
      for (const a of call.args) if (a.value.kind !== "TypeArgument") checkExpr(ctx, a.value);
      return { kind: "Invalid", type: ERROR, span: call.span };
  }
}

// ---- what is called ----

/** The module a name means in this scope (an import or a library module), unless a local hides it. */
export function moduleNamed(ctx: Context, name: string): ModuleScope | undefined {
  if (ctx.lookupLocal(name) !== undefined) return undefined;
  return ctx.module.imports.get(name) ?? ctx.program.library.get(name);
}

function resolveCallee(ctx: Context, callee: S.Expr): Target {
  if (callee.kind === "Name") {
    const local = ctx.lookupLocal(callee.name);
    if (local === undefined) {
      const sig = ctx.module.functions.get(callee.name);
      if (sig !== undefined) record(ctx.program.names, callee.span, functionTarget(sig));
      if (sig !== undefined) return { kind: "sig", sig };
      if (moduleNamed(ctx, callee.name) !== undefined) {
        ctx.problem("E-NAME-MODULE-VALUE", callee.span, { name: callee.name, usedAs: "function" });
        return { kind: "invalid" };
      }
    }
  }
  if (callee.kind === "UpperName") return resolveTypeCallee(ctx, ctx.module, callee.name, callee.span, true);
  if (callee.kind === "Member") {
    const object = callee.object;
    if (object.kind === "Name") {
      const scope = moduleNamed(ctx, object.name);
      if (scope !== undefined) recordModule(ctx, object.span, scope);
      if (scope !== undefined) return moduleMember(ctx, scope, object.name, callee.name);
    }
    if (object.kind === "UpperName") return typeMember(ctx, ctx.module, object.name, object.span, callee.name);
    if (object.kind === "Member" && object.object.kind === "Name" && /^[A-Z]/.test(object.name.name)) {
      const scope = moduleNamed(ctx, object.object.name);
      if (scope !== undefined) recordModule(ctx, object.object.span, scope);
      if (scope !== undefined) return typeMember(ctx, scope, object.name.name, object.name.span, callee.name);
    }
    const receiver = checkExpr(ctx, object);
    return method(ctx, receiver, callee.name);
  }
  const value = checkExpr(ctx, callee);
  return { kind: "value", expr: value };
}

function moduleMember(ctx: Context, scope: ModuleScope, written: string, name: S.Ident): Target {
  if (/^[A-Z]/.test(name.name)) return resolveTypeCallee(ctx, scope, name.name, name.span, false, written);
  const sig = scope.functions.get(name.name);
  if (sig === undefined || !sig.public) {
    unknownModuleFunction(ctx, scope, written, name, sig);
    return { kind: "invalid" };
  }
  record(ctx.program.names, name.span, functionTarget(sig));
  return { kind: "sig", sig };
}

/** `Point(...)`, `Some(...)`, `module.Point(...)`. */
function resolveTypeCallee(
  ctx: Context,
  scope: ModuleScope,
  name: string,
  span: Span,
  unqualified: boolean,
  written = "",
): Target {
  if (unqualified && name === "Some") {
    const optional = ctx.program.prelude.types.get("Optional")!;
    record(ctx.program.names, span, caseTarget(optional, "Some"));
    return { kind: "case", decl: optional, caseName: "Some" };
  }
  const decl = scope.types.get(name) ?? (unqualified ? ctx.program.prelude.types.get(name) : undefined);
  if (decl !== undefined && decl.public === false && scope !== ctx.module) {
    ctx.problem("E-NAME-PRIVATE", span, { kind: "type", name, module: written });
    return { kind: "invalid" };
  }
  if (decl !== undefined) record(ctx.program.names, span, typeTarget(decl));
  if (decl !== undefined && decl.shape === "record") return { kind: "record", decl };
  if (decl !== undefined) {
    const firstCase = decl.cases[0]?.name;
    ctx.problem("E-TYPE-NOT-CALLABLE", span, {
      problem: "variant",
      name,
      ...(firstCase === undefined ? {} : { firstCase }),
    });
    return { kind: "invalid" };
  }
  const variantWithCase = [...ctx.module.types.values()].find(
    (d) => d.shape === "variant" && d.cases.some((c) => c.name === name),
  );
  if (variantWithCase !== undefined) {
    const qualified = `${variantWithCase.name}.${name}`;
    ctx.problem(
      "E-NAME-UNKNOWN",
      span,
      { problem: "constructor", name, variant: variantWithCase.name },
      replacing(span, name, qualified),
    );
  } else if (name === "Pair" && unqualified) {
    ctx.problem("E-NAME-UNKNOWN", span, { problem: "constructor", name });
  } else {
    const near = suggest(name, [...scope.types.keys(), ...ctx.program.prelude.types.keys()]);
    ctx.problem(
      "E-NAME-UNKNOWN",
      span,
      { problem: "constructor", name, ...near },
      replacing(span, name, near.suggestion),
    );
  }
  return { kind: "invalid" };
}

/** `Shape.Circle(...)`, `Reading.from_json(text)`. */
function typeMember(ctx: Context, scope: ModuleScope, typeName: string, span: Span, member: S.Ident): Target {
  const decl =
    scope.types.get(typeName) ?? (scope === ctx.module ? ctx.program.prelude.types.get(typeName) : undefined);
  if (decl === undefined) {
    const near = suggest(typeName, [...scope.types.keys()]);
    ctx.problem("E-NAME-UNKNOWN-TYPE", span, { name: typeName, ...near }, replacing(span, typeName, near.suggestion));
    return { kind: "invalid" };
  }
  record(ctx.program.names, span, typeTarget(decl));
  if (member.name === "from_json")
    return {
      kind: "from_json",
      type: declared(
        decl,
        decl.params.map(() => freshMeta()),
      ),
    };
  if (decl.shape === "variant" && caseNamed(decl, member.name) !== undefined) {
    record(ctx.program.names, member.span, caseTarget(decl, member.name));
    return { kind: "case", decl, caseName: member.name };
  }
  unknownCase(ctx, decl, member);
  return { kind: "invalid" };
}

/** `receiver.name(...)`: a field holding a function, a derived ability, or a function of the receiver's module. */
function method(ctx: Context, receiver: CExpr, name: S.Ident): Target {
  const type = resolve(receiver.type);
  if (type.kind === "Error") return { kind: "invalid" };
  if (type.kind === "Con" && type.decl?.shape === "record") {
    const field = fieldNamed(type.decl, type.args, name.name);
    if (field !== undefined) {
      if (ctx.program.names !== undefined) record(ctx.program.names, name.span, fieldTarget(type.decl, name.name));
      return {
        kind: "value",
        expr: {
          kind: "Field",
          object: receiver,
          name: name.name,
          type: field.type,
          span: { ...receiver.span, end: name.span.end },
        },
      };
    }
  }
  if (name.name === "to_text" || name.name === "to_json") return { kind: "ability", ability: name.name, receiver };
  const moduleName = type.kind === "Con" ? METHOD_MODULES.get(type.name) : undefined;
  const scope = moduleName === undefined ? undefined : ctx.program.library.get(moduleName);
  const sig = scope?.functions.get(name.name);
  if (sig === undefined) {
    const near = scope === undefined ? {} : suggest(name.name, scope.functions.keys());
    ctx.problem(
      "E-NAME-UNKNOWN-FUNCTION",
      name.span,
      {
        problem: "method",
        type: typeToText(type),
        name: name.name,
        ...(scope === undefined ? {} : { module: moduleName! }),
        ...near,
      },
      replacing(name.span, name.name, near.suggestion),
    );
    return { kind: "invalid" };
  }
  record(ctx.program.names, name.span, functionTarget(sig));
  return { kind: "sig", sig, receiver };
}

// ---- arguments ----

/**
 * Lines the arguments up with the parameters: positional ones first, in order,
 * then named ones by name. The receiver of a method call is the first
 * parameter. Returns the checked arguments in parameter order.
 */
function matchArguments(
  ctx: Context,
  slots: readonly Slot[],
  call: S.Call,
  receiver: CExpr | undefined,
  calleeName: string,
): { args: (CExpr | undefined)[]; names: string[] } {
  const args: (CExpr | undefined)[] = slots.map(() => undefined);
  const given: boolean[] = slots.map(() => false);
  let position = 0;
  if (receiver !== undefined) {
    ctx.expectType(receiver.type, slots[0]!.type, receiver.span, {
      of: "receiver",
      method: calleeName.slice(calleeName.lastIndexOf(".") + 1),
    });
    args[0] = receiver;
    given[0] = true;
    position = 1;
  }
  for (const arg of call.args) {
    let index: number;
    if (arg.label === undefined) {
      index = position++;
      if (index >= slots.length) {
        ctx.problem("E-TYPE-ARGUMENTS", arg.span, {
          problem: "too many",
          callee: calleeName,
          slots: slotFacts(slots.slice(receiver ? 1 : 0)),
        });
        checkArgumentValue(ctx, arg.value, undefined);
        continue;
      }
    } else {
      index = indexByName(slots, arg.label.name);
      if (index < 0) {
        const suggestion = closest(
          arg.label.name,
          slots.map((s) => s.name),
        );
        ctx.problem("E-TYPE-ARGUMENTS", arg.label.span, {
          problem: "unknown label",
          callee: calleeName,
          label: arg.label.name,
          slots: slotFacts(slots.slice(receiver ? 1 : 0)),
          ...(suggestion === undefined ? {} : { suggestion }),
        });
        checkArgumentValue(ctx, arg.value, undefined);
        continue;
      }
      if (given[index]) {
        ctx.problem("E-TYPE-ARGUMENTS", arg.label.span, { problem: "repeated", label: arg.label.name });
        continue;
      }
    }
    const slot = slots[index]!;
    given[index] = true;
    if (slot.typeArgument) {
      if (arg.value.kind !== "TypeArgument") {
        ctx.problem("E-TYPE-ARGUMENTS", arg.value.span, { problem: "type expected", parameter: slot.name });
        continue;
      }
      const type = resolveType(ctx.program, ctx.module, arg.value.type, ctx.typeParams, ctx.diagnostics);
      ctx.expectType(type, slot.type, arg.value.span, { of: "type argument" });
      args[index] = { kind: "TypeValue", of: type, type, span: arg.value.span };
      continue;
    }
    const value = checkArgumentValue(ctx, arg.value, slot.type);
    const heldTo = slot.heldTo?.(value.type) ?? slot.type;
    ctx.expectType(value.type, heldTo, value.span, { of: "argument", parameter: slot.name, callee: calleeName });
    args[index] = value;
  }
  const missing = slots.filter((s, i) => !given[i] && !s.optional);
  if (missing.length > 0) {
    ctx.problem("E-TYPE-ARGUMENTS", call.span, {
      problem: "missing",
      callee: calleeName,
      missing: missing.map((s) => s.name),
      slots: slotFacts(slots.slice(receiver ? 1 : 0)),
    });
  }
  const names = slots.map((s, i) => (given[i] ? s.name : "")).filter((n) => n !== "");
  return { args, names };
}

function checkArgumentValue(ctx: Context, value: S.Expr, expected: Type | undefined): CExpr {
  if (value.kind === "TypeArgument") {
    ctx.problem("E-TYPE-ARGUMENTS", value.span, { problem: "type not taken" });
    return { kind: "Invalid", type: ERROR, span: value.span };
  }
  return checkExpr(ctx, value, expected);
}

function slotFacts(slots: readonly Slot[]): SlotFact[] {
  return slots.map((s) => ({ name: s.name, type: typeToText(s.type), optional: s.optional }));
}

// ---- the kinds of call ----

function callSignature(
  ctx: Context,
  call: S.Call,
  sig: FunctionSig,
  receiver: CExpr | undefined,
  expected: Type | undefined,
): CExpr {
  const map = new Map(sig.typeParams.map((p) => [p.id, freshMeta() as Type] as const));
  const transaction = sig.library && `${sig.module}.${sig.name}` === TRANSACTION;
  const slots: Slot[] = sig.params.map((p) => {
    const type = substitute(p.type, map);
    return {
      name: p.name,
      type,
      optional: p.default !== undefined,
      typeArgument: p.typeArgument,
      ...(transaction && p.name === "work" ? { heldTo: (given: Type) => workSlot(ctx, type, given) } : {}),
    };
  });
  const returns = substitute(sig.returns, map);
  // The expected result helps infer type arguments before the arguments are read (`let xs: List<Int> be
  // list.range(...)`).
  if (expected !== undefined && sig.typeParams.length > 0) unifyQuietly(returns, expected);
  const qualified =
    sig.library || sig.module !== ctx.module.name
      ? `${sig.library ? sig.module : sig.module.split("/").pop()}.${sig.name}`
      : sig.name;
  const { args, names } = matchArguments(ctx, slots, call, receiver, qualified);
  for (const arg of call.args) {
    const target = arg.label === undefined ? undefined : parameterTarget(sig, arg.label.name);
    if (target !== undefined) record(ctx.program.names, arg.label!.span, target);
  }
  const key = `${sig.module}.${sig.name}`;
  if (sig.library && sig.typeParams.length > 0)
    checkLibraryConstraints(
      ctx,
      key,
      sig.typeParams.map((p) => map.get(p.id)!),
      call.span,
    );
  if (!sig.library && sig.typeParams.length > 0) {
    ctx.instantiations.push({
      callee: sig,
      typeArgs: sig.typeParams.map((p) => map.get(p.id)!),
      span: call.span,
      calleeName: qualified,
    });
  }
  const needs: Need[] = [...sig.needs];
  // A library function given a function argument needs what that function needs.
  if (sig.library) {
    for (const arg of args) {
      const t = arg === undefined ? undefined : resolve(arg.type);
      if (t?.kind === "Function") needs.push(...t.needs);
    }
  }
  checkNeeds(ctx, needs, qualified, call.span, sig.library);
  const fails = sig.fails === undefined ? undefined : substitute(sig.fails, map);
  if (transaction && fails !== undefined) checkTransactionFailure(ctx, fails, args[1]?.span ?? call.span);
  if (fails !== undefined) registerFailure(ctx, call.span, fails, qualified);
  const callee: Callee = sig.library
    ? { kind: "Library", module: sig.module, name: sig.name }
    : { kind: "Function", module: sig.module, name: sig.name };
  const typeArgs = sig.library || sig.typeParams.length === 0 ? undefined : sig.typeParams.map((p) => map.get(p.id)!);
  return {
    kind: "Call",
    callee,
    args,
    argNames: names,
    needs,
    ...(fails ? { fails } : {}),
    ...(typeArgs ? { typeArgs } : {}),
    type: returns,
    span: call.span,
  };
}

/**
 * Lets an expected type guide inference before the arguments are read. A
 * mismatch is not reported here: it shows up, better placed, where the value is used.
 */
function unifyQuietly(a: Type, b: Type): void {
  unify(a, b);
}

function checkLibraryConstraints(ctx: Context, key: string, typeArgs: readonly Type[], span: Span): void {
  const first = resolve(typeArgs[0]!);
  if (NUMERIC_FUNCTIONS.has(key) && first.kind === "Con" && first.name !== "Int" && first.name !== "Float") {
    ctx.problem("E-TYPE-MISMATCH", span, {
      problem: "numeric function",
      callee: key.replace("list.", "").replace("math.", ""),
      found: typeToText(first),
    });
  }
  const ability: Ability | undefined = COMPARING_FUNCTIONS.has(key)
    ? "compare"
    : HASHING_FUNCTIONS.has(key)
      ? "hash"
      : ABILITY_FUNCTIONS.get(key);
  // `sort_by` orders by the keys its function gives (its `K`), not by the items.
  const ordered = key === "list.sort_by" ? typeArgs[1]! : typeArgs[0]!;
  if (ability !== undefined) requireAbility(ctx, ordered, ability, span);
}

function callValue(ctx: Context, call: S.Call, value: CExpr, expected: Type | undefined): CExpr {
  const type = resolve(value.type);
  if (type.kind === "Error") {
    for (const a of call.args) checkArgumentValue(ctx, a.value, undefined);
    return { kind: "Invalid", type: ERROR, span: call.span };
  }
  if (type.kind === "Meta") {
    // A value whose type is not known yet becomes a function of its arguments.
    const args = call.args.map((a) => checkArgumentValue(ctx, a.value, undefined));
    const result = expected ?? freshMeta();
    unify(type, { kind: "Function", params: args.map((a) => a.type), returns: result, needs: [] });
    return {
      kind: "Call",
      callee: { kind: "Value", expr: value },
      args,
      argNames: [],
      needs: [],
      type: result,
      span: call.span,
    };
  }
  if (type.kind !== "Function") {
    ctx.problem("E-TYPE-NOT-CALLABLE", call.callee.span, { problem: "value", found: typeToText(type) });
    for (const a of call.args) checkArgumentValue(ctx, a.value, undefined);
    return { kind: "Invalid", type: ERROR, span: call.span };
  }
  const fn: FunctionType = type;
  const slots: Slot[] = fn.params.map((p, i) => ({
    name: `argument ${i + 1}`,
    type: p,
    optional: false,
    typeArgument: false,
  }));
  for (const arg of call.args) {
    if (arg.label !== undefined) {
      ctx.problem("E-TYPE-ARGUMENTS", arg.label.span, { problem: "labels on a function value" });
    }
  }
  const unlabelled: S.Call = {
    ...call,
    args: call.args.map((a) => ({ kind: "Argument", value: a.value, span: a.span })),
  };
  const { args } = matchArguments(ctx, slots, unlabelled, undefined, "this function");
  checkNeeds(ctx, fn.needs, "this function value", call.span, false);
  if (fn.fails !== undefined) registerFailure(ctx, call.span, fn.fails, "this function value");
  return {
    kind: "Call",
    callee: { kind: "Value", expr: value },
    args,
    argNames: [],
    needs: [...fn.needs],
    ...(fn.fails ? { fails: fn.fails } : {}),
    type: fn.returns,
    span: call.span,
  };
}

/** `Point(x: 1, y: 2)`, `Shape.Circle(radius: 2.0)`, `Some(3)`: by field name or by position. */
function construct(
  ctx: Context,
  call: S.Call,
  decl: TypeDecl,
  caseName: string | undefined,
  expected: Type | undefined,
): CExpr {
  const typeArgs = decl.params.map(() => freshMeta() as Type);
  const type = declared(decl, typeArgs);
  if (expected !== undefined) unifyQuietly(type, expected);
  const fields = caseName === undefined ? decl.fields : caseNamed(decl, caseName)!.fields;
  const slots: Slot[] = fieldsOf(decl, typeArgs, fields).map((f) => ({
    name: f.name,
    type: f.type,
    optional: false,
    typeArgument: false,
  }));
  const written =
    caseName === undefined
      ? decl.name
      : decl.module === "prelude" && decl.name === "Optional"
        ? caseName
        : `${decl.name}.${caseName}`;
  const { args, names } = matchArguments(ctx, slots, call, undefined, written);
  for (const arg of call.args)
    if (arg.label !== undefined && fields.some((f) => f.name === arg.label!.name))
      if (ctx.program.names !== undefined)
        record(ctx.program.names, arg.label.span, fieldTarget(decl, arg.label.name, caseName));
  const callee: Callee = caseName === undefined ? { kind: "Record", decl } : { kind: "Case", decl, caseName };
  return { kind: "Call", callee, args, argNames: names, needs: [], type, span: call.span };
}

function callAbility(ctx: Context, call: S.Call, ability: "to_text" | "to_json", receiver: CExpr): CExpr {
  if (call.args.length > 0)
    ctx.problem("E-TYPE-ARGUMENTS", call.args[0]!.span, { problem: "ability takes none", ability });
  requireAbility(ctx, receiver.type, ability, receiver.span);
  const type = ability === "to_text" ? TEXT : JSON_TYPE;
  return {
    kind: "Call",
    callee: { kind: "Ability", ability, of: receiver.type },
    args: [receiver],
    argNames: ["value"],
    needs: [],
    type,
    span: call.span,
  };
}

function callFromJson(ctx: Context, call: S.Call, type: Type): CExpr {
  const slots: Slot[] = [{ name: "text", type: TEXT, optional: false, typeArgument: false }];
  const { args, names } = matchArguments(ctx, slots, call, undefined, `${typeToText(type)}.from_json`);
  requireAbility(ctx, type, "from_json", call.span);
  const fails = declared(ctx.program.prelude.types.get("JsonError")!, []);
  registerFailure(ctx, call.span, fails, `${typeToText(type)}.from_json`);
  return {
    kind: "Call",
    callee: { kind: "Ability", ability: "from_json", of: type },
    args,
    argNames: names,
    needs: [],
    fails,
    type,
    span: call.span,
  };
}

// ---- needs and failures ----

/** Every need of a call must be covered by the grant of the function it is made in. */
function checkNeeds(ctx: Context, needs: readonly Need[], calleeName: string, span: Span, primitive: boolean): void {
  const frame = ctx.frame;
  for (const need of needs) {
    frame.needs.push(need);
    if (coveredBy(frame.grant, need, primitive) !== undefined) continue;
    const wanted = needText(need);
    const scoped = primitive && needExample(need) !== wanted ? needExample(need) : undefined;
    ctx.problem(
      "E-CAP-MISSING",
      span,
      {
        problem: "call",
        callee: calleeName,
        need: wanted,
        owner: frame.owner,
        granted: frame.grant.map(needText),
        ...(scoped === undefined ? {} : { scoped }),
      },
      addNeedEdit(frame, wanted),
    );
  }
}

function needExample(need: Need): string {
  const path = need.path.join(".");
  switch (path) {
    case "network.http":
      return 'network.http("api.example.com")';
    case "network.socket":
      return "network.socket(8080)";
    case "filesystem.read":
    case "filesystem.write":
      return `${path}("data")`;
    case "filesystem.database":
      return `${path}("app.db")`;
    default:
      return path;
  }
}

/** The suggested edit that adds `wanted` to the needs of the frame's definition, where it has a place for it. */
export function addNeedEdit(frame: Frame, wanted: string): Places {
  const at = frame.needsEdit;
  if (at === undefined) return {};
  return {
    edits: [
      {
        title: `Add \`${wanted}\` to the needs of ${ownerText(frame.owner)}`,
        span: at.at,
        replacement: `${at.prefix}${wanted}${at.suffix}`,
      },
    ],
  };
}

/** A call that can fail: handed to the `otherwise` being read, or an unhandled failure. */
function registerFailure(ctx: Context, span: Span, fails: Type, calleeName: string): void {
  if (ctx.collector !== undefined) {
    ctx.collector.calls.push({ span, fails });
    return;
  }
  // `otherwise` binds loosest, so appended where the statement ends it handles this call (the only one there that can
  // fail, or E-FAIL-TWO says so).
  const edits =
    span.end === ctx.statementEnd && canPassOn(ctx, fails)
      ? [
          {
            title: "Pass the failure on: add `otherwise fail`",
            span: { file: span.file, start: span.end, end: span.end },
            replacement: " otherwise fail",
          },
        ]
      : [];
  ctx.problem(
    "E-FAIL-UNHANDLED",
    span,
    { callee: calleeName, failure: typeToText(fails) },
    edits.length === 0 ? {} : { edits },
  );
}
