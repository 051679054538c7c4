// Library modules whose primitives this toolchain does not run yet. Each call
// crashes with a message that names the primitive; a program that does not
// call them runs.

import { Crash } from "../errors.js";

function unavailable(module: string): Record<string, () => never> {
  return new Proxy(
    {},
    {
      get: (_target, name) => () => {
        throw new Crash("E-RT-INTERNAL", `${module}.${String(name)} is not available in this version of Renyi`, "internal");
      },
    },
  );
}

export const server = unavailable("server");
export const database = unavailable("database");
export const processModule = unavailable("process");
export const foreign = unavailable("foreign");
