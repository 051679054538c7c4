// The toolchain's version: part of every cache key, manifest and recording.
// CommonJS, for the program's worker (code-cache.cts) as well as the commands.
import { readFileSync } from "node:fs";
import { BUILD_ID_FILE } from "./places.cjs";

export const VERSION = "0.1.0";

/** The hash of this build of the compiler and runtime (dist/build-id.json, written by the build). */
export const BUILD_ID: string = (() => {
  try {
    return (JSON.parse(readFileSync(BUILD_ID_FILE, "utf8")) as { id: string }).id;
  } catch {
    return "unknown";
  }
})();
