// Golden tests of code generation (fixtures/emit/*.golden): a program in, the
// bundle's JavaScript and a readable dump of its source map out.

import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { test } from "node:test";
import { compileProgram } from "../compiler/build.js";
import { dumpMappings } from "../compiler/emit/sourcemap.js";
import { parseSource } from "../compiler/index.js";
import { goldenFiles, readSections, ROOT, UPDATE, writeSections } from "./golden.js";

for (const path of goldenFiles(join(ROOT, "fixtures", "emit"))) {
  const name = basename(path, ".golden");
  test(`emit: ${name}`, () => {
    const sections = readSections(path);
    const text = sections.get("source")!;
    const file = `${name}.ry`;
    const syntax = parseSource(file, text);
    const result = compileProgram([{ name, file, text, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics }], { runtime: "renyi/runtime", entry: name, file: `${name}.mjs` });
    assert.deepEqual(result.diagnostics.map((d) => d.message), []);
    const actual = new Map([["source", text]]);
    actual.set("javascript", result.bundle!.code.trimEnd());
    actual.set("source map", dumpMappings(result.bundle!.code, result.bundle!.map).trimEnd());
    if (UPDATE) {
      writeSections(path, actual);
      return;
    }
    for (const key of ["javascript", "source map"]) {
      assert.equal(actual.get(key), (sections.get(key) ?? "").trimEnd(), `${name}: the ${key} section differs (RENYI_UPDATE=1 rewrites it)`);
    }
  });
}
