// What a compiled program in the cache was compiled by and for: part of every
// key under which `renyi run` and `renyi test` keep one (cache.cts).

import { RUNTIME_PATH } from "../host/places.cjs";
import { BUILD_ID, VERSION } from "../host/version.cjs";

const TOOLCHAIN = [VERSION, BUILD_ID, RUNTIME_PATH, "commonjs"];
/** The narrated variant of a program (--explain) is cached under keys of its own. */
const NARRATED_TOOLCHAIN = [...TOOLCHAIN, "narrated"];

/** The toolchain a program is compiled and cached under: narrated or not, with the origin operators or not (--redact). */
export function toolchainOf(narrate: boolean, origins: boolean): string[] {
  const base = narrate ? NARRATED_TOOLCHAIN : TOOLCHAIN;
  return origins ? [...base, "origins"] : base;
}
