// The toolchain's version: part of every cache key, manifest and recording.
import { readFileSync } from "node:fs";

export const VERSION = "0.1.0";

/** The hash of this build of the compiler and runtime (dist/build-id.json, written by the build). */
export const BUILD_ID: string = (() => {
  try {
    return (JSON.parse(readFileSync(new URL("../build-id.json", import.meta.url), "utf8")) as { id: string }).id;
  } catch {
    return "unknown";
  }
})();
