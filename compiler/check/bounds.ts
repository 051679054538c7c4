// Derived abilities through generics. A generic function whose body uses an
// ability of a type parameter (`json.encode(x)` with `x: T`, `a is b`, a map
// keyed by `T`, `json.decode(text, as: T)`, or a call of another generic that
// does) requires that parameter to have the ability: that is a bound of the
// parameter. Bounds are found from the bodies, carried through calls of one
// generic by another until nothing changes, and every call that fills a
// bounded parameter with a type that lacks the ability (a function type, or a
// type that holds one) is refused at the call (E-TYPE-GENERIC-ABILITY).
//
// Ability uses are decided at the end of their definition rather than where
// they are read, so that an inference variable solved later in the body (a
// lambda's parameter, an empty `{}`) is judged by what it turned out to be.

import type { Diagnostic } from "../diagnostics.js";
import { error } from "../diagnostics.js";
import type { Span } from "../source.js";
import { ABILITY_LACK, ABILITY_USE, lacksAbility, type Ability } from "./abilities.js";
import { article, type AbilityUse, type Context, type Instantiation } from "./context.js";
import type { FunctionSig } from "./scope.js";
import { typeToText, zonk, type Param, type Type } from "./types.js";

/** Where a bound comes from, shown with the refusal. */
interface Reason {
  readonly span: Span;
  readonly text: string;
}

/** For one generic function: each type parameter's required abilities (by parameter id), each with its reason. */
type FunctionBounds = Map<number, Map<Ability, Reason>>;

const ABILITY_ORDER: readonly Ability[] = ["equality", "compare", "hash", "to_text", "to_json", "from_json"];

export class Bounds {
  private readonly bounds = new Map<FunctionSig, FunctionBounds>();
  private readonly calls: { readonly caller: FunctionSig | undefined; readonly call: Instantiation }[] = [];

  /**
   * At the end of a definition (`owner`, or a test): decides its ability uses
   * on concrete types now, and keeps those that reach a type parameter as
   * bounds of `owner`, and its generic calls for `finish`.
   */
  settle(ctx: Context, owner: FunctionSig | undefined): void {
    for (const use of ctx.abilityUses) {
      const bad = lacksAbility(use.type, use.ability, (param) => {
        if (owner !== undefined) this.add(owner, param, use.ability, { span: use.span, text: `\`${param.name}\` is ${ABILITY_USE[use.ability]} here` });
      });
      if (bad !== undefined) ctx.diagnostics.push(abilityError(use, bad));
    }
    for (const call of ctx.instantiations) this.calls.push({ caller: owner, call: { ...call, typeArgs: call.typeArgs.map(zonk) } });
  }

  /** After every definition: carries bounds through generic calls, then refuses the calls that break one. */
  finish(diagnostics: Diagnostic[]): void {
    // Each round can only add bounds, of which there are finitely many: this ends.
    let changed = true;
    while (changed) {
      changed = false;
      for (const { caller, call } of this.calls) {
        if (caller === undefined || caller.typeParams.length === 0) continue;
        this.forEachBound(call, (ability, typeArg, param) => {
          lacksAbility(typeArg, ability, (reached) => {
            const text = `\`${reached.name}\` goes to \`${call.calleeName}\` here, whose \`${param.name}\` is ${ABILITY_USE[ability]}`;
            if (this.add(caller, reached, ability, { span: call.span, text })) changed = true;
          });
        });
      }
    }
    for (const { call } of this.calls) {
      const refused = new Set<number>();
      this.forEachBound(call, (ability, typeArg, param, reason) => {
        if (refused.has(param.id)) return;
        const bad = lacksAbility(typeArg, ability);
        if (bad === undefined) return;
        refused.add(param.id);
        diagnostics.push(instantiationError(call, param, typeArg, bad, ability, reason));
      });
    }
  }

  private forEachBound(call: Instantiation, visit: (ability: Ability, typeArg: Type, param: Param, reason: Reason) => void): void {
    const required = this.bounds.get(call.callee);
    if (required === undefined) return;
    call.callee.typeParams.forEach((param, i) => {
      const abilities = required.get(param.id);
      const typeArg = call.typeArgs[i];
      if (abilities === undefined || typeArg === undefined) return;
      for (const ability of ABILITY_ORDER) {
        const reason = abilities.get(ability);
        if (reason !== undefined) visit(ability, typeArg, param, reason);
      }
    });
  }

  /** Records that `param` of `owner` needs `ability`; true when that is new. */
  private add(owner: FunctionSig, param: Param, ability: Ability, reason: Reason): boolean {
    if (!owner.typeParams.some((p) => p.id === param.id)) return false;
    let forFunction = this.bounds.get(owner);
    if (forFunction === undefined) this.bounds.set(owner, (forFunction = new Map()));
    let forParam = forFunction.get(param.id);
    if (forParam === undefined) forFunction.set(param.id, (forParam = new Map()));
    if (forParam.has(ability)) return false;
    forParam.set(ability, reason);
    return true;
  }
}

const FUNCTION_NOTE = "Functions have no equality, order, hash, text or JSON form.";
const UNORDERED_NOTE = "Maps, sets and Json have no order.";

/** A use of an ability on a type that lacks it (`f is f` for a function `f`). */
function abilityError(use: AbilityUse, bad: Type): Diagnostic {
  const text = typeToText(use.type);
  const inner = typeToText(bad) === text ? "" : `, because it holds ${article(typeToText(bad))}`;
  return error("E-TYPE-ABILITY", use.span, `${article(text)} cannot be ${ABILITY_USE[use.ability]}${inner}`, {
    label: `${text} ${ABILITY_LACK[use.ability]}`,
    notes: [bad.kind === "Function" ? FUNCTION_NOTE : UNORDERED_NOTE],
  });
}

/** A call that fills a bounded type parameter with a type that lacks the ability. */
function instantiationError(call: Instantiation, param: Param, typeArg: Type, bad: Type, ability: Ability, reason: Reason): Diagnostic {
  const text = typeToText(typeArg);
  const inner = typeToText(bad) === text ? "" : `, which holds ${article(typeToText(bad))}`;
  return error(
    "E-TYPE-GENERIC-ABILITY",
    call.span,
    `\`${call.calleeName}\` needs its \`${param.name}\` to be ${ABILITY_USE[ability]}, and here \`${param.name}\` is ${article(text)}${inner}`,
    {
      label: `${typeToText(bad)} ${ABILITY_LACK[ability]}`,
      related: [{ span: reason.span, message: reason.text }],
      notes: [
        "A type parameter must have every ability its function's body uses on it, there or through the generic functions it calls.",
        bad.kind === "Function" ? FUNCTION_NOTE : UNORDERED_NOTE,
      ],
      hint:
        bad.kind === "Function"
          ? "Pass data rather than a function: call the function first and pass its result, or a record of the values it needs."
          : "Pass a type with an order, such as a list of pairs sorted by their first item, or a record of ordered fields.",
    },
  );
}

/** A use of a derived ability, decided at the end of the definition (above). */
export function requireAbility(ctx: Context, type: Type, ability: Ability, span: Span): void {
  ctx.abilityUses.push({ type, ability, span });
}
