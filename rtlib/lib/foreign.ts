// The `foreign` module: a function exported by a JavaScript module the grant
// names, called with JSON values and answering one. The module runs with
// Node's full authority: that is what granting `foreign("module.mjs")` means.

import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { call } from "../gateway.js";
import { Failure } from "../errors.js";
import type { Grant } from "../grants.js";
import { ForeignError } from "../prelude.js";
import { JSON_SHAPE } from "../values.js";
import { hostImport } from "../host-import.js";

const call_ = (grant: Grant, module: string, name: string, args: unknown[] = []): Promise<unknown> =>
  call(
    grant,
    {
      name: "std.foreign.call",
      need: { path: ["foreign"], scope: module },
      denied: () => ForeignError.make("PermissionDenied", module),
      refusedByGuard: (origin, sink) => ForeignError.make("Guarded", origin, sink),
      result: JSON_SHAPE,
    },
    { module, function: name, ...(args.length > 0 ? { arguments: args } : {}) },
    async () => {
      let exported: unknown;
      try {
        exported = (await hostImport<Record<string, unknown>>(pathToFileURL(resolve(module)).href))[name];
      } catch (e) {
        throw new Failure(
          ForeignError.make(
            "Failed",
            module,
            `the module could not be loaded: ${e instanceof Error ? e.message : String(e)}`,
          ),
        );
      }
      if (typeof exported !== "function")
        throw new Failure(ForeignError.make("Failed", module, `it exports no function ${name}`));
      try {
        const result = await (exported as (...a: unknown[]) => unknown)(...JSON.parse(JSON.stringify(args)));
        // Only JSON crosses the boundary.
        return result === undefined ? null : JSON.parse(JSON.stringify(result));
      } catch (e) {
        throw new Failure(ForeignError.make("Failed", module, e instanceof Error ? e.message : String(e)));
      }
    },
  );

export { call_ as call };
