// Golden tests of the front end: every construct's syntax tree, and every
// syntax error's rendered diagnostic (fixtures/syntax/*.golden).

import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { test } from "node:test";
import { renderText } from "../compiler/diagnostics.js";
import { parseSource } from "../compiler/index.js";
import { dumpTree } from "../compiler/parse/dump.js";
import { SourceFile } from "../compiler/source.js";
import { goldenFiles, readSections, ROOT, UPDATE, writeSections } from "./golden.js";

const folder = join(ROOT, "fixtures", "syntax");

for (const path of goldenFiles(folder)) {
  const name = basename(path, ".golden");
  test(`syntax: ${name}`, () => {
    const sections = readSections(path);
    const source = sections.get("source");
    assert.ok(source !== undefined, `${path} has no source section`);
    const file = `${name}.ry`;
    const result = parseSource(file, source);
    const sourceFile = new SourceFile(file, source);
    const actual = new Map([["source", source]]);
    const errors = result.diagnostics.filter((d) => d.severity === "error");
    if (errors.length === 0) actual.set("tree", dumpTree(result.module, sourceFile));
    if (result.diagnostics.length > 0)
      actual.set("diagnostics", renderText(result.diagnostics, new Map([[file, sourceFile]])));
    if (UPDATE) {
      writeSections(path, actual);
      return;
    }
    // A fixture named error_* must produce errors; any other must parse cleanly.
    if (name.startsWith("error_")) assert.ok(errors.length > 0, `${name} should report a syntax error`);
    else
      assert.deepEqual(
        errors.map((d) => d.code),
        [],
        `${name} should parse without errors`,
      );
    for (const key of ["tree", "diagnostics"]) {
      assert.equal(
        (actual.get(key) ?? "").trimEnd(),
        (sections.get(key) ?? "").trimEnd(),
        `${name}: the ${key} section differs (RENYI_UPDATE=1 rewrites it)`,
      );
    }
  });
}
