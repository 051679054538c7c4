// What tests/view-browser-compiler.test.ts compares between Node and chromium: one program
// compiled through the program API (compiler/build.ts) as the playground's worker compiles it,
// its diagnostics, and its code hash. Bundled for the browser by that test, and imported by
// it in Node: the same function both sides. It imports nothing of Node.

import { compile } from "../compiler/build.js";
import { moduleNameOf, parseSource } from "../compiler/index.js";
import { codeHash } from "../compiler/hash/code-form.js";

export interface Program {
  readonly file: string;
  readonly text: string;
}

export interface Compared {
  readonly code?: string;
  readonly map?: string;
  readonly diagnostics: string;
  readonly codeHash: string;
}

export function compileForComparison(program: Program): Compared {
  const entry = moduleNameOf(program.file);
  const result = compile(
    { entry, read: (name) => (name === entry ? { file: program.file, text: program.text } : undefined) },
    { runtime: "renyi/runtime", file: "program.js", format: "commonjs" },
  );
  const syntax = parseSource(program.file, program.text).module;
  return {
    ...(result.bundle !== undefined ? { code: result.bundle.code, map: JSON.stringify(result.bundle.map) } : {}),
    diagnostics: JSON.stringify(result.diagnostics),
    codeHash: codeHash([{ name: entry, syntax }], entry),
  };
}
