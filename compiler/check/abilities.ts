// Derived abilities (spec/types.md, section 3): equality, compare, hash, to_text,
// to_json and from_json exist for every data type, and for no type that holds a
// function. compare also leaves out Map, Set and Json, which have no natural order.

import type { Ability } from "../../vocabulary/problems/types.js";
import { resolve, substitute, type Param, type Type, type TypeDecl } from "./types.js";
import { spendTypeSteps } from "./work.js";

export type { Ability } from "../../vocabulary/problems/types.js";

const UNORDERED = new Set(["Map", "Set", "Json"]);

/**
 * The part of `type` that stops it having `ability`, written as a user would
 * (`function(Int) returns Int`, `Map<Text, Int>`), or undefined when it has it.
 * A type parameter is not decided here: `onParam` hears of each one the
 * ability reaches, which then becomes a bound of the generic function (see
 * bounds.ts), checked against the type each call fills it with.
 */
export function lacksAbility(type: Type, ability: Ability, onParam?: (param: Param) => void): Type | undefined {
  return lacks(type, ability, onParam, { decls: undefined, parts: undefined });
}

/**
 * What a walk has seen: the declarations whose fields it has looked into, and
 * the parts of the type it has found to have the ability. Types are shared, so
 * without the second a walk over `(a, a)` nested forty deep would look at a
 * trillion parts rather than forty (see work.ts).
 */
interface Seen {
  decls: Set<TypeDecl> | undefined;
  parts: Set<Type> | undefined;
}

function lacks(
  type: Type,
  ability: Ability,
  onParam: ((param: Param) => void) | undefined,
  seen: Seen,
): Type | undefined {
  const t = resolve(type);
  // Most values checked are of a plain built-in type: answer those without allocating.
  if (t.kind === "Con" && t.args.length === 0 && t.decl === undefined)
    return ability === "compare" && UNORDERED.has(t.name) ? t : undefined;
  switch (t.kind) {
    case "Function":
      return t;
    case "Param":
      onParam?.(t);
      return undefined;
    case "Con": {
      if (ability === "compare" && UNORDERED.has(t.name)) return t;
      if (seen.parts?.has(t)) return undefined;
      spendTypeSteps();
      for (const arg of t.args) {
        const bad = lacks(arg, ability, onParam, seen);
        if (bad !== undefined) return bad;
      }
      const decl = t.decl;
      if (decl !== undefined && !seen.decls?.has(decl)) {
        (seen.decls ??= new Set()).add(decl);
        const map = new Map(decl.params.map((p, i) => [p.id, t.args[i]!] as const));
        const fields = decl.shape === "record" ? decl.fields : decl.cases.flatMap((c) => c.fields);
        for (const field of fields) {
          const bad = lacks(substitute(field.type, map), ability, onParam, seen);
          if (bad !== undefined) return bad;
        }
      }
      (seen.parts ??= new Set()).add(t);
      return undefined;
    }
    default:
      return undefined;
  }
}
