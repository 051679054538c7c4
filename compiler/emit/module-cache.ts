// Compiled modules kept one by one (spec/runtime.md, "The compile cache"): an
// edit of one module of a program compiles that module again and takes the
// others as they were printed. What a module's JavaScript is made from is
// named by a key (`moduleKey`): its own text and file, the text and file of
// every module it brings in with `use`, directly or not (whose types,
// signatures and records its code is written with), the facts of the whole
// program its code depends on (which parameters only borrow, whether a guard
// is declared, the entry), and how it is compiled. The compiler keeps nothing
// itself: the caller gives it a store (`ModuleCache`), and what the store gives
// back is checked for its shape and otherwise compiled again.

import { sha256 } from "../../report/sha256.js";
import { forEachSegment } from "./sourcemap.js";

/** One printed part of a module (a run of its types, or of its code) and its mappings. */
export interface PrintedPart {
  readonly code: string;
  /** Its mappings, encoded as a source map's (v3), with one source (index 0): the module's file. */
  readonly mappings: string;
}

export interface CompiledModule {
  /**
   * Its types, and its code (its hoisted constants first), each printed in parts, joined by line breaks in the bundle.
   */
  readonly types: readonly PrintedPart[];
  readonly code: readonly PrintedPart[];
  /** The runtime's names the module uses. */
  readonly runtime: readonly string[];
  /**
   * The names its top level declares, and the names it uses without declaring them (another module's, the runtime's).
   */
  readonly declares: readonly string[];
  readonly uses: readonly string[];
}

/** Where compiled modules are kept, by key; `get` gives back what `put` was given, or undefined. */
export interface ModuleCache {
  get(key: string): unknown;
  put(key: string, compiled: CompiledModule): void;
}

/**
 * What a module's code is compiled from besides the options: its text and those of the modules it brings in, named by
 * one hash.
 */
export function moduleInputs(
  modules: readonly { name: string; file: string; text: string; imports: readonly string[] }[],
): Map<string, string> {
  const byName = new Map(modules.map((m) => [m.name, m]));
  const inputs = new Map<string, string>();
  for (const m of modules) {
    const reached = new Set<string>([m.name]);
    const queue = [m.name];
    while (queue.length > 0)
      for (const next of byName.get(queue.shift()!)?.imports ?? [])
        if (!reached.has(next)) {
          reached.add(next);
          queue.push(next);
        }
    const parts = [
      m.name,
      ...[...reached].sort().flatMap((name) => {
        const r = byName.get(name);
        return r === undefined ? [name, "(none)"] : [name, r.file, r.text];
      }),
    ];
    inputs.set(m.name, sha256(parts.map((p) => `${p.length}:${p}`).join("")));
  }
  return inputs;
}

/** The key of a module compiled from `input` in a program of these facts, with these options. */
export function moduleKey(input: string, facts: readonly string[]): string {
  return sha256(["renyi-module-2", input, ...facts].map((p) => `${p.length}:${p}`).join(""));
}

/**
 * What a store gave back, if it has the shape of a compiled module of `source`
 * (its mappings point into that module's lines and columns, in its one source); anything
 * else is compiled again.
 */
export function asCompiledModule(
  value: unknown,
  source: { readonly text: string; readonly lineStarts: readonly number[] },
): CompiledModule | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const names = (x: unknown) => Array.isArray(x) && x.every((n) => typeof n === "string");
  const parts = (x: unknown) => Array.isArray(x) && x.every((p) => isPart(p, source));
  if (!parts(v["types"]) || !parts(v["code"]) || !names(v["runtime"]) || !names(v["declares"]) || !names(v["uses"]))
    return undefined;
  return value as CompiledModule;
}

function isPart(x: unknown, source: { readonly text: string; readonly lineStarts: readonly number[] }): boolean {
  if (typeof x !== "object" || x === null) return false;
  const p = x as Record<string, unknown>;
  if (typeof p["code"] !== "string" || typeof p["mappings"] !== "string") return false;
  // Segments of [generated column], or [generated column, source 0, a line of the module, a column of that line],
  // perhaps with a name.
  const starts = source.lineStarts;
  const within = (line: number, column: number) =>
    line >= 0 &&
    line < starts.length &&
    column >= 0 &&
    column <= (line + 1 < starts.length ? starts[line + 1]! : source.text.length) - starts[line]!;
  let fits = true;
  const read = forEachSegment(p["mappings"], (_line, generated, from, line, column, fields) => {
    if (generated < 0 || (fields > 1 && (from !== 0 || !within(line, column)))) fits = false;
  });
  return read && fits;
}
