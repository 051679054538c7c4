// Golden tests of the checker (fixtures/check/*.golden): a program in, its
// checked tree or its rendered diagnostics out. A `module NAME` section adds
// a module the program can `use`.

import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { test } from "node:test";
import { dumpChecked } from "../compiler/check/dump.js";
import { renderText } from "../compiler/diagnostics.js";
import { checkProgramSources, parseSource } from "../compiler/index.js";
import { SourceFile } from "../compiler/source.js";
import { goldenFiles, readSections, ROOT, UPDATE, writeSections } from "./golden.js";

const folder = join(ROOT, "fixtures", "check");

for (const path of goldenFiles(folder)) {
  const name = basename(path, ".golden");
  test(`check: ${name}`, () => {
    const sections = readSections(path);
    const inputs = [...sections].filter(([key]) => key === "source" || key.startsWith("module "));
    const modules = inputs.map(([key, text]) => {
      const moduleName = key === "source" ? name : key.slice("module ".length);
      const file = `${moduleName}.ry`;
      const syntax = parseSource(file, text);
      return { name: moduleName, file, text, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics };
    });
    const result = checkProgramSources(modules, name);
    const sources = new Map(modules.map((m) => [m.file, new SourceFile(m.file, m.text)]));
    const actual = new Map(inputs);
    const errors = result.diagnostics.filter((d) => d.severity === "error");
    if (result.program !== undefined) {
      actual.set("checked", dumpChecked(result.program.modules.find((m) => m.name === name)));
    }
    if (result.diagnostics.length > 0) actual.set("diagnostics", renderText(result.diagnostics, sources));
    if (UPDATE) {
      writeSections(path, actual);
      return;
    }
    // A fixture named after a code must report that code; any other must check cleanly.
    const code = /^([ew])_([a-z_]+)$/.exec(name);
    if (code !== null && code[1] === "e") {
      const expected = `E-${code[2]!.toUpperCase().replace(/_/g, "-")}`;
      assert.ok(
        errors.some((d) => d.code === expected),
        `${name} should report ${expected}; got ${result.diagnostics.map((d) => d.code).join(", ")}`,
      );
    } else if (code !== null && code[1] === "w") {
      const expected = `W-${code[2]!.toUpperCase().replace(/_/g, "-")}`;
      assert.ok(
        result.diagnostics.some((d) => d.code === expected),
        `${name} should warn ${expected}`,
      );
    } else {
      assert.deepEqual(
        errors.map((d) => `${d.code}: ${d.message}`),
        [],
        `${name} should check cleanly`,
      );
    }
    for (const key of ["checked", "diagnostics"]) {
      assert.equal(
        (actual.get(key) ?? "").trimEnd(),
        (sections.get(key) ?? "").trimEnd(),
        `${name}: the ${key} section differs (RENYI_UPDATE=1 rewrites it)`,
      );
    }
  });
}

test("a diagnostic at a place past its file (a source map that does not fit the file) is shown at the file's end, not with a line of spaces", () => {
  const source = new SourceFile("/p/short.ry", "let x be 1\nlet y be 2\n");
  assert.deepEqual(source.position(2 ** 52), source.position(source.text.length));
  assert.deepEqual(source.position(-5), { line: 1, column: 1 });
  assert.deepEqual(source.position(Number.NaN), { line: 1, column: 1 });
  const text = renderText(
    [
      {
        code: "E-RT-DIVISION",
        severity: "error",
        message: "division by zero",
        span: { file: source.path, start: 2 ** 52, end: 2 ** 52 + 1 },
        notes: [],
      },
    ],
    new Map([[source.path, source]]),
  );
  assert.ok(text.length < 400, text);
});
