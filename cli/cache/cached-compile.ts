// A program `renyi run` is to run, compiled, or taken from the compile cache
// when it was compiled before: found through the program index by reading and
// hashing its modules, without the compiler; else compiled through the compile
// path (compile-path.ts), which loads the compiler with its code cache.

import { renderText, type Diagnostic } from "../../report/diagnostics.js";
import type { SourceMapV3 } from "../../report/source-map.js";
import { SourceFile } from "../../report/source.js";
import { sha256 } from "../../report/sha256.js";
import type { GrantItem } from "../../vocabulary/needs.js";
import { cachedPath } from "./cache.cjs";
// Loaded already on the path of a run: the `renyi` command loads run.ts's own code with it.
import { loadCompilePath } from "./code-cache.cjs";
import { sealedOrCompiled } from "./sealed-or-compiled.js";
import { readProgramMap } from "./cached-program.js";
import { lookUpByIndex, writeIndex, type IndexedModule } from "./program-index.js";
import { toolchainOf } from "./toolchain.js";

/** A program ready to run: compiled by renyi run, or a bundle admitted and copied into the cache. */
export interface Compiled {
  path: string;
  /**
   * A program compiled by renyi run: its text, checked against its seal in the cache (or just compiled), which is what
   * the worker runs.
   */
  source?: string;
  /** The bundle's source map, read only when a crash needs a position. */
  map: () => SourceMapV3;
  /** The program's sources, made only when a failure or crash shows its line. */
  sources: () => ReadonlyMap<string, SourceFile>;
  /** A bundle's grant, from its manifest (null: main needs nothing); a .ry program's is its own. */
  grant?: GrantItem[] | null;
  /** main's module name, and the code hash of main and every definition it reaches (cli/host/code-hash.ts). */
  program: string;
  code: () => string;
  /** The hash of the bundle that runs: the compiled file, or a bundle's as its manifest names it. */
  bundle: () => string;
}

export type NotCompiled = { diagnostics: Diagnostic[]; sources: Map<string, SourceFile> };

/** `stop` is called now and then while the compiler works: it ends the compile by throwing. */
export async function compileWithCache(
  file: string,
  narrate = false,
  stop?: () => void,
  /** With the origin operators though no guard is declared (renyi record --redact, and its replay). */
  origins = false,
): Promise<Compiled | NotCompiled> {
  const toolchain = toolchainOf(narrate, origins);
  const indexed = lookUpByIndex(toolchain, file);
  if (indexed !== undefined) {
    const path = cachedPath(indexed.key);
    const source = indexed.source;
    return {
      path,
      source,
      map: () => readProgramMap(path),
      sources: () => sourcesOf(indexed.modules),
      program: indexed.entry,
      code: () => indexed.code,
      bundle: () => sha256(source),
    };
  }
  // The parser, the compiler and the validator are loaded only when the index does not know the
  // program: one file, with a code cache (compile-path.ts).
  const compilePath = loadCompilePath();
  const { loadProgram, compileIntoCache, programCode } = compilePath.exports as typeof import("./compile-path.js");
  const program = loadProgram(file);
  if (program.problems.length > 0) return { diagnostics: program.problems, sources: program.sources };
  const made = await sealedOrCompiled(program, {
    narrate,
    compile: compileIntoCache,
    ...(stop ? { stop } : {}),
    ...(origins ? { origins } : {}),
  });
  // After a compile, when the cache that came with the build did not fit this Node: one of its own.
  if (!made.ok || made.compiled) compilePath.keep();
  if (!made.ok) return { diagnostics: made.diagnostics, sources: program.sources };
  if (made.warnings.length > 0) process.stderr.write(renderText(made.warnings, program.sources));
  const { path, source: verified } = made;
  // Made now, while the program is parsed, for the index to keep: a later run of the same texts reads it there.
  const code = programCode(program);
  writeIndex(toolchain, file, program.entry, program.modules, code);
  return {
    path,
    source: verified,
    map: () => readProgramMap(path),
    sources: () => program.sources,
    program: program.entry,
    code: () => code,
    bundle: () => sha256(verified),
  };
}

function sourcesOf(modules: readonly IndexedModule[]): Map<string, SourceFile> {
  return new Map(modules.map((m) => [m.file, new SourceFile(m.file, m.text)]));
}
