// A compiled program in the compile cache (`KEY.cjs`) and its source map, read
// once and checked against their seals (cache-seal.ts). The text returned is
// what the program's worker compiles and runs: the file is not read again.

import { basename } from "node:path";
import type { SourceMapV3 } from "../../report/source-map.js";
import { readSealed } from "./seal.js";

/** Far above any program's bundle (its modules are 16 MiB of source at most each, and few). */
const PROGRAM_LIMIT = 256 << 20;

/** The text of the program kept under `key`, or undefined (a miss: it is compiled again). */
export function readProgram(key: string): string | undefined {
  return readSealed(`${key}.cjs`, PROGRAM_LIMIT);
}

/**
 * The source map of the compiled program at `path` (in the cache folder). One that is missing,
 * not sealed or not JSON maps nothing: a crash is then shown without its .ry position.
 */
export function readProgramMap(path: string): SourceMapV3 {
  const text = readSealed(`${basename(path)}.map`, PROGRAM_LIMIT);
  try {
    if (text !== undefined) return JSON.parse(text) as SourceMapV3;
  } catch {
    // As if there were none.
  }
  return { version: 3, sources: [], names: [], mappings: "" };
}
