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

import { diagnose } from "../diagnose.js";
import type { Diagnostic } from "../diagnostics.js";
import type { Span } from "../source.js";
import { lacksAbility, type Ability } from "./abilities.js";
import type { AbilityUse, Context, Instantiation } from "./context.js";
import type { FunctionSig } from "./scope.js";
import { typeToText, zonk, type Param, type Type } from "./types.js";

/**
 * Where a bound comes from, shown with the refusal: the use of the ability in
 * the body, or (`via`) the call of another generic function whose parameter
 * the type parameter goes to.
 */
interface Reason {
  readonly span: Span;
  readonly via?: { readonly callee: string; readonly parameter: string };
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
        if (owner !== undefined) this.add(owner, param, use.ability, { span: use.span });
      });
      if (bad !== undefined) ctx.diagnostics.push(abilityError(use, bad));
    }
    for (const call of ctx.instantiations)
      this.calls.push({ caller: owner, call: { ...call, typeArgs: call.typeArgs.map(zonk) } });
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
            if (
              this.add(caller, reached, ability, {
                span: call.span,
                via: { callee: call.calleeName, parameter: param.name },
              })
            )
              changed = true;
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

  private forEachBound(
    call: Instantiation,
    visit: (ability: Ability, typeArg: Type, param: Param, reason: Reason) => void,
  ): void {
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

/** A use of an ability on a type that lacks it (`f is f` for a function `f`). */
function abilityError(use: AbilityUse, bad: Type): Diagnostic {
  return diagnose("E-TYPE-ABILITY", use.span, {
    type: typeToText(use.type),
    ability: use.ability,
    lacking: typeToText(bad),
    because: bad.kind === "Function" ? "function" : "unordered",
  });
}

/** A call that fills a bounded type parameter with a type that lacks the ability. */
function instantiationError(
  call: Instantiation,
  param: Param,
  typeArg: Type,
  bad: Type,
  ability: Ability,
  reason: Reason,
): Diagnostic {
  return diagnose(
    "E-TYPE-GENERIC-ABILITY",
    call.span,
    {
      callee: call.calleeName,
      parameter: param.name,
      ability,
      type: typeToText(typeArg),
      lacking: typeToText(bad),
      because: bad.kind === "Function" ? "function" : "unordered",
      ...(reason.via === undefined ? {} : { via: reason.via }),
    },
    { related: [reason.span] },
  );
}

/** A use of a derived ability, decided at the end of the definition (above). */
export function requireAbility(ctx: Context, type: Type, ability: Ability, span: Span): void {
  ctx.abilityUses.push({ type, ability, span });
}
