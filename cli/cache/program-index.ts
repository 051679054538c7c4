// The program index: for an entry file with a given text, the modules it
// brought in when it was last compiled. With it, `renyi run` finds an
// unchanged program's compiled bundle by reading and hashing its files, without
// loading the parser to follow its `use` lines (about 12 ms of start-up).
//
// Why this is sound: the modules a program brings in depend only on the texts
// of its files (a module is `NAME.ry` beside the entry). The bundle's cache key
// covers every module's name, file and text, so if any listed file has changed,
// the key names no bundle, and the run takes the slow path, which parses the
// program again and writes the index anew. A program whose `use` names a file
// that does not exist never compiles, so it is never in the index.
//
// The index keeps the program's code hash (cli/host/code-hash.ts) too, with the
// bundle key it was made for: the hash is a function of the modules' names and
// texts, which the key covers, so a key that is the one computed now names the
// hash of these very texts. An index whose key is another (a module changed and
// changed back, with the index written in between) is a miss.

import { decodeSource } from "../../report/source.js";
import { cacheDirectory, cacheKey, writeAtomically } from "./cache.cjs";
import { join } from "node:path";
import { readBounded } from "../../report/read-bounded.js";
import { readProgram } from "./cached-program.js";
import { readSealed, sealFor } from "./seal.js";

export interface IndexedModule {
  readonly name: string;
  readonly file: string;
  readonly text: string;
}

interface IndexEntry {
  readonly entry: string;
  readonly modules: readonly { name: string; file: string }[];
  /** The bundle key of the texts `code` was made from, and the code hash. */
  readonly key: string;
  readonly code: string;
}

/** The parts of a bundle's cache key, in the order `renyi run` has always hashed them. */
export function bundleKey(toolchain: readonly string[], entry: string, modules: readonly IndexedModule[]): string {
  return cacheKey([...toolchain, entry, ...modules.flatMap((m) => [m.name, m.file, m.text])]);
}

function indexName(toolchain: readonly string[], entryFile: string, entryText: string): string {
  return `${cacheKey([...toolchain, "index", entryFile, entryText])}.index.json`;
}

/**
 * A source file's text, read as loadSource reads it (a regular file, within the bound); undefined sends the run the
 * slow way, which reports why.
 */
function readText(file: string): string | undefined {
  const read = readBounded(file);
  if (!read.ok) return undefined;
  const decoded = decodeSource(read.bytes);
  return decoded.ok ? decoded.text : undefined;
}

/**
 * The index `name`, or undefined (a miss) when it is not a regular file within the bound, not
 * sealed under its name (cache-seal.ts), not JSON, or not of the shape writeIndex writes: the
 * cache folder may hold anything.
 */
function readIndex(name: string): IndexEntry | undefined {
  const sealed = readSealed(name, INDEX_LIMIT);
  if (sealed === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(sealed);
  } catch {
    return undefined;
  }
  const text = (x: unknown): x is string => typeof x === "string";
  const isModule = (m: unknown) =>
    typeof m === "object" && m !== null && text((m as { name?: unknown }).name) && text((m as { file?: unknown }).file);
  if (typeof value !== "object" || value === null) return undefined;
  const { entry, modules, key, code } = value as { entry?: unknown; modules?: unknown; key?: unknown; code?: unknown };
  return text(entry) && Array.isArray(modules) && modules.every(isModule) && text(key) && text(code)
    ? { entry, modules: modules as { name: string; file: string }[], key, code }
    : undefined;
}

/** An index names a program's modules and files: far below this. */
const INDEX_LIMIT = 1 << 20;

/**
 * The compiled bundle of an unchanged program, found without parsing it, with its text (read once
 * and checked against its seal); undefined when it must be compiled or looked up the slow way.
 */
export function lookUpByIndex(
  toolchain: readonly string[],
  entryFile: string,
): { key: string; entry: string; modules: IndexedModule[]; source: string; code: string } | undefined {
  const entryText = readText(entryFile);
  if (entryText === undefined) return undefined;
  const index = readIndex(indexName(toolchain, entryFile, entryText));
  if (index === undefined) return undefined;
  const modules: IndexedModule[] = [];
  for (const { name, file } of index.modules) {
    const text = file === entryFile ? entryText : readText(file);
    if (text === undefined) return undefined;
    modules.push({ name, file, text });
  }
  const key = bundleKey(toolchain, index.entry, modules);
  if (key !== index.key) return undefined;
  const source = readProgram(key);
  return source === undefined ? undefined : { key, entry: index.entry, modules, source, code: index.code };
}

/** Records which modules the entry file brings in, and their code hash, once its bundle is in the cache. */
export function writeIndex(
  toolchain: readonly string[],
  entryFile: string,
  entry: string,
  modules: readonly IndexedModule[],
  code: string,
): void {
  const entryText = modules.find((m) => m.file === entryFile)?.text;
  if (entryText === undefined) return;
  const index: IndexEntry = {
    entry,
    modules: modules.map(({ name, file }) => ({ name, file })),
    key: bundleKey(toolchain, entry, modules),
    code,
  };
  try {
    const name = indexName(toolchain, entryFile, entryText);
    writeAtomically(join(cacheDirectory(), name), sealFor(name, JSON.stringify(index)));
  } catch {
    // Without its index the next run reads and hashes the program's modules again; nothing else is lost.
  }
}
