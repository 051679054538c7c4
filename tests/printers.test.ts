// The compiler's own printer (compiler/emit/print.ts), which writes every
// bundle, against @babel/generator, the reference it is held to: both print the
// same lowered tree, so JavaScript's own parser (acorn) must read the same
// program from each, node for node, on every fixture that compiles, every
// example, generated programs and a few trees made by hand. A missing
// parenthesis, a wrong escape or a dropped node shows up as a difference.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "node:test";
import { parse } from "acorn";
import { compileProgram } from "../compiler/build.js";
import { bundleProgram } from "../compiler/emit/bundle.js";
import { babelPrinter } from "../compiler/emit/reference-printer.js";
import { parseSource } from "../compiler/index.js";
import { SourceFile } from "../compiler/source.js";
import { goldenFiles, readSections, ROOT } from "./golden.js";
import { generateProgram } from "./program-generator.js";

/** The tree acorn reads, without positions and spellings: what the program means, not how it is laid out. */
function meaning(code: string): unknown {
  const tree = parse(code, { ecmaVersion: "latest", sourceType: "module" });
  return JSON.parse(
    JSON.stringify(tree, (key, value: unknown) =>
      key === "start" || key === "end" || key === "raw" || key === "loc" || key === "range" ? undefined : value,
    ),
  );
}

interface Compared {
  readonly compiled: boolean;
}

function compare(name: string, text: string): Compared {
  const file = `${name}.ry`;
  const syntax = parseSource(file, text);
  const modules = [{ name, file, text, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics }];
  const checked = compileProgram(modules, { runtime: "renyi/runtime", entry: name, file: `${name}.mjs` });
  if (checked.program === undefined) return { compiled: false };
  const sources = new Map([[name, new SourceFile(file, text)]]);
  for (const narrate of [false, true]) {
    for (const format of ["module", "commonjs"] as const) {
      const options = { runtime: "renyi/runtime", entry: name, file: `${name}.js`, format, narrate };
      const babel = bundleProgram(checked.program, sources, { ...options, printer: babelPrinter });
      const own = bundleProgram(checked.program, sources, { ...options, printer: "own" });
      assert.deepEqual(
        meaning(own.code),
        meaning(babel.code),
        `${name} (${format}${narrate ? ", narrated" : ""}): the two printers print different programs`,
      );
      // The map points into the program's one source.
      assert.ok(own.map.mappings.replace(/;/g, "").length > 0, `${name}: the own printer's map is empty`);
      assert.deepEqual(own.map.sources, [file], `${name}: the map names ${own.map.sources.join(", ")}`);
    }
  }
  return { compiled: true };
}

function sourcesOfFixtures(): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  for (const folder of ["emit", "run", "narrated", "testing", "check"]) {
    for (const path of goldenFiles(join(ROOT, "fixtures", folder))) {
      const text = readSections(path).get("source");
      if (text !== undefined) out.push({ name: basename(path, ".golden").replace(/[^A-Za-z0-9_]/g, "_"), text });
    }
  }
  for (const file of readdirSync(join(ROOT, "examples")).filter((f) => f.endsWith(".ry")))
    out.push({ name: basename(file, ".ry"), text: readFileSync(join(ROOT, "examples", file), "utf8") });
  return out;
}

test("printers: the compiler's printer and Babel's print the same program for every fixture and example that compiles", () => {
  let compiled = 0;
  const all = sourcesOfFixtures();
  for (const { name, text } of all) if (compare(name, text).compiled) compiled++;
  console.log(`printers: ${compiled} of ${all.length} fixtures and examples compiled and compared in 4 forms each`);
  assert.ok(compiled >= 50, `only ${compiled} programs compiled: the comparison says little`);
});

/** How many generated programs are printed both ways: 80 in npm test, RENYI_FUZZ_CASES when it is set. */
const PROGRAMS = Number(process.env["RENYI_FUZZ_CASES"] ?? 80);

test(`printers: the same on ${PROGRAMS} generated programs`, () => {
  let compiled = 0;
  for (let i = 0; i < PROGRAMS; i++) {
    const program = generateProgram(5000 + i, {});
    if (compare(program.entry, program.source).compiled) compiled++;
  }
  console.log(`printers: ${compiled} of ${PROGRAMS} generated programs compiled and compared`);
  assert.ok(compiled >= PROGRAMS * 0.66);
});

test("printers: trees made by hand, in the corners of parenthesising, print the program they are", async () => {
  const t = await import("../compiler/lower/js.js");
  const { printStatements } = await import("../compiler/emit/print.js");
  const x = t.identifier("x");
  const object = () => t.objectExpression([t.objectProperty(t.identifier("k"), x)]);
  const arrow = (body: Parameters<typeof t.arrowFunctionExpression>[1]) =>
    t.expressionStatement(t.callExpression(t.identifier("f"), [t.arrowFunctionExpression([], body)]));
  // Each tree, and the program it is, written out by hand.
  const cases: [Parameters<typeof printStatements>[0][number], string][] = [
    // An arrow's value that starts with an object, which would otherwise open a block.
    [arrow(t.memberExpression(object(), t.identifier("k"))), "f(() => ({ k: x }).k);"],
    [arrow(t.callExpression(t.memberExpression(object(), t.identifier("k")), [])), "f(() => ({ k: x }).k());"],
    [
      arrow(
        t.conditionalExpression(
          t.memberExpression(object(), t.identifier("k")),
          t.numericLiteral(1),
          t.numericLiteral(2),
        ),
      ),
      "f(() => (({ k: x }).k ? 1 : 2));",
    ],
    [
      arrow(t.binaryExpression("+", t.memberExpression(object(), t.identifier("k")), t.numericLiteral(1))),
      "f(() => (({ k: x }).k + 1));",
    ],
    [arrow(t.sequenceExpression([object(), x])), "f(() => ({ k: x }, x));"],
    [arrow(object()), "f(() => ({ k: x }));"],
    // A statement that starts with an object.
    [t.expressionStatement(t.memberExpression(object(), t.identifier("k"))), "({ k: x }).k;"],
    // Grouping that only parentheses keep.
    [
      t.expressionStatement(
        t.logicalExpression("&&", x, t.logicalExpression("&&", t.identifier("y"), t.identifier("z"))),
      ),
      "x && (y && z);",
    ],
    [
      t.expressionStatement(t.binaryExpression("-", x, t.binaryExpression("-", t.identifier("y"), t.identifier("z")))),
      "x - (y - z);",
    ],
    [t.expressionStatement(t.binaryExpression("**", t.unaryExpression("-", x), t.numericLiteral(2))), "(-x) ** 2;"],
    [
      t.expressionStatement(t.callExpression(t.identifier("f"), [t.sequenceExpression([x, t.identifier("y")])])),
      "f((x, y));",
    ],
    [t.expressionStatement(t.newExpression(t.callExpression(t.identifier("g"), []), [])), "new (g())();"],
    [t.expressionStatement(t.unaryExpression("-", t.unaryExpression("-", x))), "- -x;"],
  ];
  for (const [tree, program] of cases) {
    const own = printStatements([tree], false).code;
    assert.deepEqual(meaning(own), meaning(program), `the compiler's printer wrote ${own} for ${program}`);
  }
  console.log(`printers: ${cases.length} trees made by hand compared with the programs they are`);
});
