// The compile cache's compiled modules, one file each (compiler/emit/module-cache.ts):
// what lets an edit of one module of a program compile that module alone. A
// file that cannot be read, is not sealed under its name (cache-seal.ts) or is
// not JSON is a miss; the compiler checks the shape of what it is given and
// compiles again what does not fit it.

import { join } from "node:path";
import { cacheDirectory, cacheKey, writeAtomically } from "./cache.cjs";
import { readSealed, sealFor } from "./seal.js";
import type { CompiledModule, ModuleCache } from "../../compiler/emit/module-cache.js";

/**
 * A compiled module is kept as JSON beside its program; a module's source has at most 16 MiB, its compiled form a few
 * times that.
 */
const MODULE_LIMIT = 128 << 20;

/** The store for compiles by `toolchain` (the compiler's build is part of every key). */
export function moduleStore(toolchain: readonly string[]): ModuleCache {
  // Beside the programs' bundles: `m-KEY.json`.
  const dir = cacheDirectory();
  const name = (key: string) => `m-${cacheKey([...toolchain, key])}.json`;
  return {
    get(key: string): unknown {
      // Read only if it is a regular file within the bound (a FIFO put there would block the run for ever), and sealed.
      const text = readSealed(name(key), MODULE_LIMIT);
      if (text === undefined) return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return undefined;
      }
    },
    put(key: string, compiled: CompiledModule): void {
      try {
        writeAtomically(join(dir, name(key)), sealFor(name(key), JSON.stringify(compiled)));
      } catch {
        // A module not kept is compiled again next time; the run goes on.
      }
    },
  };
}
