// The `environment` module: variables of the process, read through the gateway.

import { call } from "../gateway.js";
import type { Grant } from "../grants.js";
import type { Primitive } from "../primitive.js";
import { OPTIONAL, optional } from "../prelude.js";
import { TEXT, variant } from "../values.js";

/** What environment.get gives, made once: a shape per call was part of the call's cost. */
let OPTIONAL_TEXT: ReturnType<typeof variant> | undefined;

/** A variable the grant does not name is refused: environment.get cannot fail, so the run crashes. */
export const get = (grant: Grant, name: string): Promise<unknown> =>
  call(grant, primitiveFor(name), { name }, () => optional(variable(name)));

/**
 * The call as the gateway sees it, made once a name: a program reads a few variables many times,
 * and the objects made for each call were a part of a cheap call's cost. The names kept are
 * bounded, so that a program reading ever new names holds no more than this.
 */
const PRIMITIVES = new Map<string, Primitive>();
const PRIMITIVES_KEPT = 256;

function primitiveFor(name: string): Primitive {
  const kept = PRIMITIVES.get(name);
  if (kept !== undefined) return kept;
  const primitive: Primitive = {
    name: "std.environment.get",
    need: Object.freeze({ path: Object.freeze(["environment"]), scope: name }),
    result: (OPTIONAL_TEXT ??= variant(OPTIONAL, [TEXT])),
    madeConforming: true,
  };
  if (PRIMITIVES.size < PRIMITIVES_KEPT) PRIMITIVES.set(name, primitive);
  return primitive;
}

/**
 * A variable's value, a text or nothing. `process.env` is an object, and a name
 * like `toString` or `__proto__` reads what every object inherits: a function or
 * an object, never a text, so the test of the value's type keeps them out with
 * one read of `process.env` (each read crosses into the engine's host, about
 * 100 ns, and an own-property test was a second one).
 */
function variable(name: string): string | undefined {
  const value: unknown = process.env[name];
  return typeof value === "string" ? value : undefined;
}
