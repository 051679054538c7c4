// Reading the imports of the project's source files, for the tests of what
// each folder may import (imports.test.ts) and of cycles (import-cycles.test.ts).

import { readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "./golden.js";

export interface Import {
  readonly file: string;
  readonly line: number;
  readonly specifier: string;
  /** A hostImport() specifier: a relative one is resolved from the root, not from the file. */
  readonly fromRoot?: true;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(["'])([^"'\n]+)\1/gm;
/** `hostImport("./report/x.js")`, or with a type argument: `hostImport<{ f: (a: A) => B }>("undici")`. */
const HOST_IMPORT = /\bhostImport\s*(?:<[^;]*?>)?\s*\(\s*(["'])([^"'\n]+)\1/g;

/** The module specifiers a source file names, with their lines. */
export function importsOf(file: string, text: string): Import[] {
  const found: Import[] = [];
  for (const m of text.matchAll(IMPORT)) {
    found.push({ file, line: text.slice(0, m.index).split("\n").length, specifier: m[2]! });
  }
  for (const m of text.matchAll(HOST_IMPORT)) {
    found.push({ file, line: text.slice(0, m.index).split("\n").length, specifier: m[2]!, fromRoot: true });
  }
  return found;
}

/** The source files (.ts, .cts) under a folder of the project, as paths from the root. */
export function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(join(ROOT, folder))) {
    const path = join(folder, name);
    if (statSync(join(ROOT, path)).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.c?ts$/.test(name) && !name.endsWith(".d.ts")) files.push(path);
  }
  return files;
}

/**
 * The source file of the project a relative import names, from the root (`.js` read as `.ts`); undefined for a package.
 */
export function targetOf(i: Import): string | undefined {
  if (!i.specifier.startsWith(".")) return undefined;
  const target = relative(ROOT, resolve(ROOT, i.fromRoot ? "." : dirname(i.file), i.specifier));
  return target.replace(/\.js$/, ".ts").replace(/\.cjs$/, ".cts");
}
