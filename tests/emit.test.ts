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
    const result = compileProgram(
      [{ name, file, text, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics }],
      { runtime: "renyi/runtime", entry: name, file: `${name}.mjs` },
    );
    assert.deepEqual(
      result.diagnostics.map((d) => d.message),
      [],
    );
    const actual = new Map([["source", text]]);
    actual.set("javascript", result.bundle!.code.trimEnd());
    actual.set("source map", dumpMappings(result.bundle!.code, result.bundle!.map).trimEnd());
    if (UPDATE) {
      writeSections(path, actual);
      return;
    }
    for (const key of ["javascript", "source map"]) {
      assert.equal(
        actual.get(key),
        (sections.get(key) ?? "").trimEnd(),
        `${name}: the ${key} section differs (RENYI_UPDATE=1 rewrites it)`,
      );
    }
  });
}

test("the CommonJS form renyi run keeps has the ES module's code between its first line and its exports, and the same map", async () => {
  const { Script } = await import("node:vm");
  for (const path of goldenFiles(join(ROOT, "fixtures", "emit"))) {
    const name = basename(path, ".golden");
    const text = readSections(path).get("source")!;
    const file = `${name}.ry`;
    const syntax = parseSource(file, text);
    const modules = [{ name, file, text, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics }];
    const esm = compileProgram(modules, { runtime: "renyi/runtime", entry: name, file: `${name}.mjs` }).bundle!;
    const cjs = compileProgram(modules, {
      runtime: "/lib/runtime.cjs",
      entry: name,
      file: `${name}.cjs`,
      format: "commonjs",
    }).bundle!;
    const [esmHeader, ...esmRest] = esm.code.split("\n");
    const [cjsHeader, ...cjsRest] = cjs.code.split("\n");
    assert.match(esmHeader!, /^import \{.*\} from "renyi\/runtime"; const \$\w+ = \$\$\w+(, \$\w+ = \$\$\w+)*;$/);
    assert.match(cjsHeader!, /^"use strict"; const \{.*\} = require\("\/lib\/runtime\.cjs"\);$/);
    // The code is the same up to the exports, which the ES module starts with `export`.
    const firstExport = esmRest.findIndex((line) => line.startsWith("export "));
    assert.ok(firstExport >= 0, name);
    assert.deepEqual(cjsRest.slice(0, firstExport), esmRest.slice(0, firstExport), name);
    assert.ok(
      cjsRest.slice(firstExport).every((line) => !/\bexport\b|\bimport\b/.test(line)),
      `${name}: no ES module syntax is left`,
    );
    assert.match(cjs.code, /^exports\.tests = /m);
    // The same mappings: the exports, which map nothing, differ only in their number of lines.
    const mapped = (mappings: string) => mappings.replace(/;+$/, "");
    assert.equal(mapped(cjs.map.mappings), mapped(esm.map.mappings), `${name}: the same mappings`);
    // It parses as a script, as CommonJS modules are.
    assert.doesNotThrow(() => new Script(`(function (exports, require) {${cjs.code}\n})`), name);
  }
});

test("every bundle's map reads the same through the source-map library as through our own decoder", async () => {
  const { SourceMapConsumer } = await import("source-map");
  const { decodeMappings } = await import("../compiler/emit/sourcemap.js");
  const { generateRenyi } = await import("../bench/programs.js");
  const programs = goldenFiles(join(ROOT, "fixtures", "emit")).map((path) => ({
    name: basename(path, ".golden"),
    text: readSections(path).get("source")!,
  }));
  programs.push({ name: "generated", text: generateRenyi(300) });
  for (const { name, text } of programs) {
    const file = `${name}.ry`;
    const syntax = parseSource(file, text);
    const bundle = compileProgram(
      [{ name, file, text, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics }],
      { runtime: "renyi/runtime", entry: name, file: `${name}.mjs` },
    ).bundle!;
    const ours = decodeMappings(bundle.map).flatMap((segments, line) =>
      segments.map(
        ([column, source, originalLine, originalColumn]) =>
          `${line + 1}:${column} ${bundle.map.sources[source]}:${originalLine + 1}:${originalColumn}`,
      ),
    );
    const theirs: string[] = [];
    await SourceMapConsumer.with(bundle.map as never, null, (consumer) => {
      consumer.eachMapping(
        (m) => theirs.push(`${m.generatedLine}:${m.generatedColumn} ${m.source}:${m.originalLine}:${m.originalColumn}`),
        null,
        SourceMapConsumer.GENERATED_ORDER,
      );
    });
    assert.ok(ours.length > 10, name);
    assert.deepEqual(theirs, ours, name);
  }
});
