// The compile cache's compiled modules, one file each (compiler/emit/module-cache.ts):
// what lets an edit of one module of a program compile that module alone. A
// file that cannot be read or is not JSON is a miss; the compiler checks the
// shape of what it is given and compiles again what does not fit it.

import { join } from "node:path";
import { cacheDirectory, cacheKey, writeAtomically } from "./cache.cjs";
import type { CompiledModule, ModuleCache } from "../compiler/emit/module-cache.js";
import { readBounded } from "../report/read-bounded.js";

/** A compiled module is kept as JSON beside its program; a module's source has at most 16 MiB, its compiled form a few times that. */
const MODULE_LIMIT = 128 << 20;

/** The store for compiles by `toolchain` (the compiler's build is part of every key). */
export function moduleStore(toolchain: readonly string[]): ModuleCache {
  // Beside the programs' bundles: `m-KEY.json`.
  const dir = cacheDirectory();
  const path = (key: string) => join(dir, `m-${cacheKey([...toolchain, key])}.json`);
  return {
    get(key: string): unknown {
      // Read only if it is a regular file within the bound: a FIFO put there would block the run for ever.
      const read = readBounded(path(key), MODULE_LIMIT);
      if (!read.ok) return undefined;
      try {
        return JSON.parse(read.bytes.toString("utf8")) as unknown;
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
