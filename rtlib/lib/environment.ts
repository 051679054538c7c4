// The `environment` module: variables of the process, read through the gateway.

import { call } from "../gateway.js";
import type { Grant } from "../grants.js";
import { OPTIONAL, optional } from "../prelude.js";
import { TEXT, variant } from "../values.js";

/** A variable the grant does not name is refused: environment.get cannot fail, so the run crashes. */
export const get = (grant: Grant, name: string): Promise<unknown> =>
  call(grant, { name: "std.environment.get", need: { path: ["environment"], scope: name }, result: variant(OPTIONAL, [TEXT]) }, { name }, () => optional(variable(name)));

/**
 * A variable by its own name only: `process.env` is an object, and a name like
 * `toString` or `__proto__` would otherwise read what every object inherits.
 */
function variable(name: string): string | undefined {
  if (!Object.prototype.hasOwnProperty.call(process.env, name)) return undefined;
  const value: unknown = process.env[name];
  return typeof value === "string" ? value : undefined;
}
