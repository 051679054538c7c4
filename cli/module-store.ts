// The compile cache's compiled modules, one file each (compiler/emit/module-cache.ts):
// what lets an edit of one module of a program compile that module alone. A
// file that cannot be read or is not JSON is a miss; the compiler checks the
// shape of what it is given and compiles again what does not fit it.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cacheDirectory, cacheKey, writeAtomically } from "./cache.cjs";
import type { CompiledModule, ModuleCache } from "../compiler/emit/module-cache.js";

/** The store for compiles by `toolchain` (the compiler's build is part of every key). */
export function moduleStore(toolchain: readonly string[]): ModuleCache {
  // Beside the programs' bundles: `m-KEY.json`.
  const dir = cacheDirectory();
  const path = (key: string) => join(dir, `m-${cacheKey([...toolchain, key])}.json`);
  return {
    get(key: string): unknown {
      try {
        return JSON.parse(readFileSync(path(key), "utf8")) as unknown;
      } catch {
        return undefined;
      }
    },
    put(key: string, compiled: CompiledModule): void {
      try {
        writeAtomically(path(key), JSON.stringify(compiled));
      } catch {
        // A module not kept is compiled again next time; the run goes on.
      }
    },
  };
}
