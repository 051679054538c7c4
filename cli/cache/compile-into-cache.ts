// Compiling a program for `renyi run` and `renyi test`: CommonJS, printed by
// the compiler's own printer, its modules kept one by one (module-store.ts),
// validated as a bundle from elsewhere would be, and kept in the compile cache
// under its key. The compiler and the validator are loaded only here, when
// there is something to compile.

import type { Diagnostic } from "../../compiler/diagnostics.js";
import type { ParsedModule } from "../../compiler/frontend.js";
import type { ModuleCache } from "../../compiler/emit/module-cache.js";
import { writeCached } from "./cache.cjs";
import { sealFor } from "./seal.js";
import { moduleStore } from "./module-store.js";

export interface CompileRequest {
  readonly modules: readonly ParsedModule[];
  readonly entry: string;
  /** The bundle's key in the cache. */
  readonly key: string;
  readonly runtime: string;
  readonly toolchain: readonly string[];
  readonly narrate: boolean;
  /** Compile with the origin operators though no guard is declared (a run recorded with --redact, and its replay). */
  readonly origins?: boolean;
  /** Called now and then while compiling: what it throws ends the compile (a run's --timeout passed). */
  readonly stop?: () => void;
}

/**
 * The diagnostics, and the compiled program's text when it was compiled into the cache (no errors):
 * the text the validator passed, which is what runs (the file is not read back).
 */
export async function compileIntoCache(
  request: CompileRequest,
): Promise<{ readonly diagnostics: Diagnostic[]; readonly compiled: boolean; readonly source?: string }> {
  const { compileProgram, nestedTooDeeply } = await import("../../compiler/build.js");
  const { modules, entry, key, runtime, narrate } = request;
  const { stop } = request;
  const compileWith = (moduleCache: ModuleCache) =>
    compileProgram(modules, {
      runtime,
      entry,
      file: `${key}.cjs`,
      format: "commonjs",
      printer: "own",
      narrate,
      ...(request.origins === true ? { origins: true } : {}),
      moduleCache,
      ...(stop ? { stop } : {}),
    });
  const store = moduleStore(request.toolchain);
  let result = compileWith(store);
  if (result.bundle === undefined) return { diagnostics: result.diagnostics, compiled: false };
  const { validateBundle, NESTED_TOO_DEEPLY } = await import("../bundles/validate.js");
  let validation = validateBundle(result.bundle.code, { kind: "commonjs", runtime });
  if (!validation.ok) {
    // What the validator refused may be a module taken from the cache (its folder written to by
    // something else): every module is compiled again, and kept anew.
    result = compileWith({ get: () => undefined, put: (k, compiled) => store.put(k, compiled) });
    validation = validateBundle(result.bundle!.code, { kind: "commonjs", runtime });
  }
  if (!validation.ok) {
    // A program the checker passed whose compiled code nests past what the validator follows is the
    // program's doing (its size), refused as too complex; anything else the validator refuses is Renyi's fault.
    if (validation.problem === NESTED_TOO_DEEPLY) {
      return { diagnostics: [...result.diagnostics, nestedTooDeeply(modules, entry)], compiled: false };
    }
    throw new Error(`the compiled program was refused by the bundle validator: ${validation.problem}`);
  }
  const source = `${result.bundle!.code}//# sourceMappingURL=${key}.cjs.map\n`;
  // Sealed under the key it is kept by (cache-seal.ts): loaded again only if the seal matches.
  writeCached(key, sealFor(`${key}.cjs`, source), sealFor(`${key}.cjs.map`, JSON.stringify(result.bundle!.map)));
  return { diagnostics: result.diagnostics, compiled: true, source };
}
