// A program's compiled text under its key in the compile cache: the one kept
// there when its seal holds (seal.ts), else compiled now and kept. `renyi run`
// (cached-compile.ts) and `renyi test` (cli/testing/compile.ts) both take
// their programs this way; each brings the compiler it loaded.

import type { Diagnostic } from "../../report/diagnostics.js";
import type { ParsedModule } from "../../compiler/frontend.js";
import { RUNTIME_PATH } from "../host/places.cjs";
import { cachedPath } from "./cache.cjs";
import { readProgram } from "./cached-program.js";
import type { compileIntoCache } from "./compile-into-cache.js";
import { bundleKey } from "./program-index.js";
import { toolchainOf } from "./toolchain.js";

export type SealedOrCompiled =
  | {
      readonly ok: true;
      readonly path: string;
      readonly source: string;
      readonly warnings: Diagnostic[];
      /** Compiled now, rather than found in the cache. */
      readonly compiled: boolean;
    }
  | { readonly ok: false; readonly diagnostics: Diagnostic[] };

export async function sealedOrCompiled(
  program: { readonly entry: string; readonly modules: readonly ParsedModule[] },
  options: {
    readonly narrate: boolean;
    readonly compile: typeof compileIntoCache;
    readonly stop?: () => void;
    readonly origins?: boolean;
  },
): Promise<SealedOrCompiled> {
  const toolchain = toolchainOf(options.narrate, options.origins === true);
  const key = bundleKey(toolchain, program.entry, program.modules);
  const path = cachedPath(key);
  // A compiled program whose seal does not match is compiled again, and written anew.
  const kept = readProgram(key);
  if (kept !== undefined) return { ok: true, path, source: kept, warnings: [], compiled: false };
  const result = await options.compile({
    modules: program.modules,
    entry: program.entry,
    key,
    runtime: RUNTIME_PATH,
    toolchain,
    narrate: options.narrate,
    ...(options.origins === true ? { origins: true } : {}),
    ...(options.stop ? { stop: options.stop } : {}),
  });
  if (!result.compiled) return { ok: false, diagnostics: result.diagnostics };
  return { ok: true, path, source: result.source!, warnings: result.diagnostics, compiled: true };
}
