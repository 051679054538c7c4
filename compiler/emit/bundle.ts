// One JavaScript bundle for a whole program: the runtime import, every
// module's types, every module's code, then the entry's exports; joined with
// magic-string, under one source map whose mappings point into the .ry files.

import generateModule from "@babel/generator";
import * as t from "../lower/js.js";
import MagicString, { Bundle } from "magic-string";
import type { Program } from "../check/checked.js";
import { grantValue, lowerModule, mainParameters, type LoweredModule } from "../lower/module.js";
import { functionName, modulePrefix } from "../lower/names.js";
import type { SourceFile } from "../source.js";
import { encodeMappings, type Segment, type SourceMapV3 } from "./sourcemap.js";

// @babel/generator is CommonJS; its function is the default export's `default` under ESM.
const generate = ((generateModule as unknown as { default?: typeof generateModule }).default ?? generateModule) as typeof generateModule;

export interface BundleOptions {
  /** The module specifier the bundle imports the runtime from. */
  readonly runtime: string;
  /** The entry module's name. */
  readonly entry: string;
  /** The bundle's file name, for the map's `file`. */
  readonly file: string;
}

export interface BundleResult {
  readonly code: string;
  readonly map: SourceMapV3;
}

interface Chunk {
  readonly code: string;
  /** The .ry file the chunk's mappings point into, and Babel's decoded mappings (one source). */
  readonly file?: string;
  readonly mappings: readonly (readonly (readonly (number | undefined)[])[])[];
}

export function bundleProgram(program: Program, sources: ReadonlyMap<string, SourceFile>, options: BundleOptions): BundleResult {
  const lowered = program.modules.map((m) => lowerModule(m, sources.get(m.name)!));
  const runtime = new Set<string>();
  for (const m of lowered) for (const name of m.runtime) runtime.add(name);
  const hasMain = program.modules.some((m) => m.name === options.entry && m.functions.some((f) => f.name === "main"));
  if (hasMain) runtime.add("runIfMain");
  const header = printPlain(t.program([runtimeImport([...runtime].sort(), options.runtime)]));
  const chunks: Chunk[] = [
    { code: header, mappings: [] },
    ...lowered.map((m) => printMapped(m.types, m, sources)),
    ...lowered.map((m) => printMapped(m.code, m, sources)),
    { code: printPlain(t.program(footer(program, lowered, options))), mappings: [] },
  ];
  const bundle = new Bundle({ separator: "\n" });
  for (const chunk of chunks) bundle.addSource({ content: new MagicString(chunk.code) });
  const code = bundle.toString() + "\n";
  return { code, map: composeMap(chunks, options.file) };
}

function runtimeImport(names: string[], specifier: string): t.Statement {
  return t.importDeclaration(
    names.map((n) => t.importSpecifier(t.identifier(`$${n}`), t.identifier(n))),
    t.stringLiteral(specifier),
  );
}

function footer(program: Program, lowered: LoweredModule[], options: BundleOptions): t.Statement[] {
  const out: t.Statement[] = [];
  const main = program.modules.find((m) => m.name === options.entry)?.functions.find((f) => f.name === "main");
  if (main !== undefined) {
    out.push(t.exportNamedDeclaration(null, [t.exportSpecifier(t.identifier(functionName(main.module, main.name)), t.identifier("main"))]));
    out.push(t.exportNamedDeclaration(t.variableDeclaration("const", [t.variableDeclarator(t.identifier("mainParameters"), mainParameters(main))])));
    // The run's grant is built from main's needs; a pure main takes none.
    out.push(t.exportNamedDeclaration(t.variableDeclaration("const", [t.variableDeclarator(t.identifier("mainGrant"), main.needs.length === 0 ? t.nullLiteral() : grantValue(main.needs))])));
    // `node NAME.mjs` runs main; importing the bundle does not.
    out.push(
      t.expressionStatement(
        t.awaitExpression(
          t.callExpression(t.identifier("$runIfMain"), [
            t.memberExpression(t.metaProperty(t.identifier("import"), t.identifier("meta")), t.identifier("url")),
            t.identifier(functionName(main.module, main.name)),
            t.identifier("mainParameters"),
            t.identifier("mainGrant"),
          ]),
        ),
      ),
    );
  }
  const testLists = program.modules.filter((m) => m.tests.length > 0).map((m) => t.identifier(`${modulePrefix(m.name)}$tests`));
  out.push(
    t.exportNamedDeclaration(
      t.variableDeclaration("const", [t.variableDeclarator(t.identifier("tests"), t.arrayExpression(testLists.map((l) => t.spreadElement(l))))]),
    ),
  );
  void lowered;
  return out;
}

function printPlain(ast: t.Program): string {
  return generate(ast, { comments: false }).code;
}

function printMapped(statements: t.Statement[], module: LoweredModule, sources: ReadonlyMap<string, SourceFile>): Chunk {
  const source = [...sources.values()].find((s) => s.path === module.file)!;
  const result = generate(t.program(statements), { sourceMaps: true, sourceFileName: module.file, comments: false }, { [module.file]: source.text });
  return { code: result.code, file: module.file, mappings: result.decodedMap?.mappings ?? [] };
}

/** The bundle's map: each chunk's mappings moved down by the lines before it (chunks are joined whole). */
function composeMap(chunks: Chunk[], file: string): SourceMapV3 {
  const sources: string[] = [];
  const lines: Segment[][] = [];
  for (const chunk of chunks) {
    const offset = lines.length;
    const count = chunk.code.split("\n").length;
    for (let i = 0; i < count; i++) lines.push([]);
    if (chunk.file === undefined) continue;
    let source = sources.indexOf(chunk.file);
    if (source < 0) source = sources.push(chunk.file) - 1;
    chunk.mappings.forEach((segments, line) => {
      const target = lines[offset + line];
      if (target === undefined) return;
      let lastColumn = -1;
      for (const s of segments) {
        // Babel's chunk has one source; a segment without a source position maps nothing.
        if (s.length < 4 || s[0] === lastColumn) continue;
        target.push([s[0]!, source, s[2]!, s[3]!]);
        lastColumn = s[0]!;
      }
    });
  }
  return { version: 3, file, sources, names: [], mappings: encodeMappings(lines) };
}
