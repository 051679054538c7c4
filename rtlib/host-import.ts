// Every module the runtime loads while a program runs (Node's modules on first
// use, undici, better-sqlite3, a foreign module) is imported through here. In
// the runtime's one file this module stays a file of its own
// (dist/runtime-import.cjs, scripts/bundle.mjs), loaded by Node's own
// loader: `renyi run`'s worker compiles the runtime itself, with a V8 code
// cache (cli/cache/code-cache.cts), and code compiled that way has no import().

export function hostImport<T>(specifier: string): Promise<T> {
  return import(specifier) as Promise<T>;
}
