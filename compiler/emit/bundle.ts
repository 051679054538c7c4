// One JavaScript bundle for a whole program: the runtime import, every
// module's types, every module's code, then the entry's exports; joined with
// magic-string, under one source map whose mappings point into the .ry files.

import * as t from "../lower/js.js";
import MagicString, { Bundle } from "magic-string";
import type { CheckedGrantItem, Program } from "../check/checked.js";
import { grantValue } from "../lower/grants.js";
import { lowerModule, mainParameters, type LoweredPart } from "../lower/module.js";
import { functionName, testTableName } from "../lower/names.js";
import type { SourceFile } from "../source.js";
import { freeNames, topLevelNames } from "./free-names.js";
import {
  asCompiledModule,
  moduleKey,
  type CompiledModule,
  type ModuleCache,
  type PrintedPart,
} from "./module-cache.js";
import { printStatements } from "./print.js";
import { forEachSegment, MappingsWriter, type SourceMapV3 } from "./sourcemap.js";
import { borrowedParameters } from "../borrow/index.js";

/**
 * The reference printer, @babel/generator, given by the caller that wants it (reference-printer.ts, which loads it in
 * Node): this module names no Node module and loads no part of Babel, so that the compiler is bundled for a browser
 * without either (spec/view.md, section 8).
 */
export interface ReferencePrinter {
  readonly name: "babel";
  readonly generate: ReferenceGenerate;
}

/** The part of @babel/generator's API the bundle uses (compiler/lower/babel-generator.d.ts declares the rest). */
type ReferenceGenerate = (
  ast: t.Node,
  options: { sourceMaps?: boolean; sourceFileName?: string; comments?: boolean },
  code?: Record<string, string>,
) => {
  code: string;
  decodedMap?: { mappings: [number, number, number, number, number?][][] };
};

export interface BundleOptions {
  /** The module specifier the bundle imports the runtime from. */
  readonly runtime: string;
  /** The entry module's name. */
  readonly entry: string;
  /** The bundle's file name, for the map's `file`. */
  readonly file: string;
  /**
   * "module" (the default): an ES module, what `renyic build` writes and
   * `node NAME.mjs` runs. "commonjs": the same code as a CommonJS module, which
   * `renyi run` keeps in its cache for its worker thread to `require`: loading
   * it skips Node's ES module loader, about 5 ms of every run's start-up
   * (bench/RESULTS.md). Only the first line (the runtime's import) and the
   * exports at the end differ, so the two have the same source map.
   */
  readonly format?: "module" | "commonjs";
  /**
   * Which printer writes the code: "own" (the default), the compiler's
   * printer (print.ts), for every bundle the commands make (`renyic build`,
   * `renyi run`, `renyi test`), several times faster than Babel's and loading
   * no part of it; or the reference printer, @babel/generator (reference-printer.ts), the one the tests compare
   * the compiler's printer with (tests/printers.test.ts): the same tree, the
   * same module cache keys apart, a finer map (names and ends as well).
   */
  readonly printer?: "own" | ReferencePrinter;
  /**
   * Compile the narrated variant of the program (`renyi run --explain`,
   * spec/runtime.md, "Narrated runs"): each named function tells the runtime's
   * narrator of its calls. Off by default, and then nothing of it is emitted.
   */
  readonly narrate?: boolean;
  /**
   * Compile with the origin operators though no entry point declares a guard:
   * a run recorded with `--redact` (and its replay) follows what a redacted name
   * gives by its origin (spec/runtime.md, section 9). Off by default.
   */
  readonly origins?: boolean;
  /**
   * Emit fuel checks and no other limit's checks in the compiled code (no call
   * depth, no text size): for bench/limits.ts only, which measures what those
   * checks cost against fuel alone. No command compiles this way.
   */
  readonly onlyFuel?: boolean;
  /**
   * Charge every step to the shared counters, in loops too (no fuel kept in
   * locals, compiler/lower/fuel-regions.ts): for tests/fuel-regions.test.ts,
   * which runs programs both ways and compares where their fuel runs out. No
   * command compiles this way.
   */
  readonly sharedFuel?: boolean;
  /**
   * Called now and then while compiling (between phases, between parts of a
   * module, and every few thousand steps of checking): a caller with a
   * deadline (`renyi run --timeout`) throws from it to end the compile there.
   * The compiler itself never looks at a clock.
   */
  readonly stop?: () => void;
  /**
   * Where compiled modules are kept one by one (module-cache.ts): a module
   * compiled from the same inputs in a program of the same facts is taken from
   * it, printed as it was. Used only when the caller names each module's inputs
   * (compileProgram does).
   */
  readonly moduleCache?: ModuleCache;
}

export interface BundleResult {
  readonly code: string;
  readonly map: SourceMapV3;
}

/**
 * A printed part placed in the bundle, with the .ry file its mappings point into (none for the header and the footer).
 */
interface Chunk extends PrintedPart {
  readonly file?: string;
}

/** `inputs`: what each module is compiled from (module-cache.ts, `moduleInputs`), for the module cache. */
export function bundleProgram(
  program: Program,
  sources: ReadonlyMap<string, SourceFile>,
  options: BundleOptions,
  inputs?: ReadonlyMap<string, string>,
): BundleResult {
  const guarded = options.origins === true || declaresGuard(program, options.entry);
  const borrows = borrowedParameters(program);
  const reference = options.printer === undefined || options.printer === "own" ? undefined : options.printer;
  const mapped = reference === undefined ? printOwnMapped : printMapped(reference.generate);
  // Everything besides a module's inputs that its code is written from.
  const facts = [
    reference?.name ?? "own",
    options.narrate === true ? "narrate" : "",
    options.onlyFuel === true ? "only-fuel" : "",
    options.sharedFuel === true ? "shared-fuel" : "",
    guarded ? "guarded" : "",
    options.entry,
    ...[...borrows].sort(),
  ];
  let keptAny = false;
  const compileModules = (takeKept: boolean) =>
    program.modules.map((m): CompiledModule & { readonly file: string } => {
      const cache = options.moduleCache;
      const input = inputs?.get(m.name);
      const key = cache === undefined || input === undefined ? undefined : moduleKey(input, facts);
      const kept = key === undefined || !takeKept ? undefined : asCompiledModule(cache!.get(key), sources.get(m.name)!);
      if (kept !== undefined) {
        keptAny = true;
        return { ...kept, file: m.file };
      }
      const source = sources.get(m.name)!;
      const parts: Record<LoweredPart["kind"], PrintedPart[]> = { types: [], code: [], hoisted: [] };
      const declares = new Set<string>();
      const uses = new Set<string>();
      // Each part printed as it is lowered, and let go: only the printed text and its encoded mappings stay.
      const lowered = lowerModule(
        m,
        source,
        (part) => {
          options.stop?.();
          for (const name of topLevelNames(part.statements)) declares.add(name);
          for (const name of freeNames(part.statements, new Set())) uses.add(name);
          parts[part.kind].push(flat(mapped(part.statements, source)));
        },
        options.narrate === true ? { entry: options.entry } : undefined,
        options.onlyFuel === true,
        guarded,
        borrows,
        options.sharedFuel === true,
      );
      const fresh: CompiledModule = {
        types: parts.types,
        code: [...parts.hoisted, ...parts.code],
        runtime: [...lowered.runtime],
        declares: [...declares],
        uses: [...uses].filter((name) => !declares.has(name)),
      };
      if (key !== undefined) cache!.put(key, fresh);
      return { ...fresh, file: m.file };
    });
  const hasMain = program.modules.some((m) => m.name === options.entry && m.functions.some((f) => f.name === "main"));
  const commonjs = options.format === "commonjs";
  const runtimeOf = (modules: readonly CompiledModule[]): Set<string> => {
    const names = new Set(modules.flatMap((m) => m.runtime));
    if (hasMain && !commonjs) names.add("runIfMain");
    return names;
  };
  const footerStatements = commonjs ? commonjsExports(program, options) : footer(program, options);
  let compiled = compileModules(true);
  let runtime = runtimeOf(compiled);
  let free = undeclaredNames(compiled, footerStatements, runtime, commonjs);
  if (free.length > 0 && keptAny) {
    // A module taken from the cache that does not fit the others (a store that was written to
    // by something else): every module compiled again, and kept anew.
    compiled = compileModules(false);
    runtime = runtimeOf(compiled);
    free = undeclaredNames(compiled, footerStatements, runtime, commonjs);
  }
  // Every name the bundle uses is declared in it or imported from the runtime (spec/security.md).
  if (free.length > 0)
    throw new Error(
      `internal: the compiled program uses ${free.map((n) => `\`${n}\``).join(", ")}, which it does not declare`,
    );
  const plain =
    reference === undefined
      ? (statements: t.Statement[]) => printStatements(statements, false).code
      : (statements: t.Statement[]) => reference.generate(t.program(statements), { comments: false }).code;
  const header = commonjs
    ? runtimeRequire([...runtime].sort(), options.runtime)
    : runtimeImportText([...runtime].sort(), options.runtime);
  const chunks: Chunk[] = [
    { code: header, mappings: "" },
    ...compiled.flatMap((m) => chunksOf(m.types, m.file)),
    ...compiled.flatMap((m) => chunksOf(m.code, m.file)),
    { code: plain(footerStatements), mappings: "" },
  ];
  const bundle = new Bundle({ separator: "\n" });
  for (const chunk of chunks) bundle.addSource({ content: new MagicString(chunk.code) });
  const code = `${bundle.toString()}\n`;
  return { code, map: composeMap(chunks, options.file) };
}

/**
 * Whether an entry point of the program (main of the entry module, or a test)
 * declares a guard: then values may carry origins, and every module is
 * compiled with the origin operators (spec/runtime.md, "Origins: what the
 * compiler emits"). Only an entry point's needs make a run's guards.
 */
function declaresGuard(program: Program, entry: string): boolean {
  const guardIn = (needs: readonly CheckedGrantItem[]) => needs.some((n) => n.guard !== undefined);
  const main = program.modules.find((m) => m.name === entry)?.functions.find((f) => f.name === "main");
  return (
    (main !== undefined && guardIn(main.needs)) ||
    program.modules.some((m) => m.tests.some((test) => guardIn(test.needs)))
  );
}

/**
 * The names the bundle uses that it neither declares nor imports from the
 * runtime: checked before printing, so that no Renyi program can reach a
 * JavaScript global, whatever the lowering did. Each module's names are
 * resolved within it first (`uses`: what it leaves to the program's top level),
 * then against every module's top level and the runtime's imports.
 */
function undeclaredNames(
  modules: readonly CompiledModule[],
  footerStatements: readonly t.Statement[],
  runtime: ReadonlySet<string>,
  commonjs: boolean,
): string[] {
  const outer = new Set([...runtime].map((n) => `$${n}`));
  if (commonjs) outer.add("exports");
  for (const m of modules) for (const name of m.declares) outer.add(name);
  const free = new Set<string>();
  for (const m of modules) for (const name of m.uses) if (!outer.has(name)) free.add(name);
  for (const name of freeNames(footerStatements, outer)) free.add(name);
  return [...free];
}

/**
 * The ES module header: the runtime's names imported as `$$name`, then bound to
 * constants `$name`, the names compiled code uses. An imported binding is read
 * through its module's cell on every use, which the engine does not treat as
 * a constant: calls through the imports (the Int operators, the fuel check's
 * `$S`) measured about 20% slower in a loop of arithmetic (bench/RESULTS.md,
 * "Loops"). The CommonJS header binds constants the same way.
 */
function runtimeImportText(names: string[], specifier: string): string {
  if (names.length === 0) return `import {} from ${JSON.stringify(specifier)};`;
  const imports = names.map((n) => `${n} as $$${n}`).join(", ");
  const constants = names.map((n) => `$${n} = $$${n}`).join(", ");
  // One line, as the CommonJS header is: the two forms then have the same lines below it, and the same map.
  return `import { ${imports} } from ${JSON.stringify(specifier)}; const ${constants};`;
}

/**
 * The CommonJS header, on one line as the import is: strict, as an ES module
 * is, and the runtime's names bound as the import binds them.
 */
function runtimeRequire(names: string[], path: string): string {
  return `"use strict"; const { ${names.map((n) => `${n}: $${n}`).join(", ")} } = require(${JSON.stringify(path)});`;
}

interface Exported {
  /** main's function, when the entry has one. */
  readonly main?: t.Identifier;
  readonly values: readonly { name: string; value: t.Expression }[];
}

/**
 * What a bundle exports: main, its parameters, its grant (built from its needs; a pure main takes none) and its
 * purpose, and the tests.
 */
function exportsOf(program: Program, options: BundleOptions): Exported {
  const values: { name: string; value: t.Expression }[] = [];
  const main = program.modules.find((m) => m.name === options.entry)?.functions.find((f) => f.name === "main");
  if (main !== undefined) {
    values.push({ name: "mainParameters", value: mainParameters(main) });
    values.push({ name: "mainGrant", value: main.needs.length === 0 ? t.nullLiteral() : grantValue(main.needs) });
    // What `--help` after the program's file shows above its options.
    if (main.purpose !== undefined) values.push({ name: "mainPurpose", value: t.stringLiteral(main.purpose) });
  }
  // Compiled with the origin operators: a run with guards refuses a program compiled without them.
  if (options.origins === true || declaresGuard(program, options.entry))
    values.push({ name: "origins", value: t.booleanLiteral(true) });
  const testLists = program.modules.filter((m) => m.tests.length > 0).map((m) => t.identifier(testTableName(m.name)));
  values.push({ name: "tests", value: t.arrayExpression(testLists.map((l) => t.spreadElement(l))) });
  return main === undefined ? { values } : { main: t.identifier(functionName(main.module, main.name)), values };
}

/** The exports as properties of `exports`; `renyi run`'s worker runs main itself. */
function commonjsExports(program: Program, options: BundleOptions): t.Statement[] {
  const exported = (name: string, value: t.Expression) =>
    t.expressionStatement(
      t.assignmentExpression("=", t.memberExpression(t.identifier("exports"), t.identifier(name)), value),
    );
  const { main, values } = exportsOf(program, options);
  return [...(main === undefined ? [] : [exported("main", main)]), ...values.map((v) => exported(v.name, v.value))];
}

/** The exports as an ES module's, and `node NAME.mjs` running main (importing the bundle does not). */
function footer(program: Program, options: BundleOptions): t.Statement[] {
  const { main, values } = exportsOf(program, options);
  const constant = (name: string, value: t.Expression) =>
    t.exportNamedDeclaration(t.variableDeclaration("const", [t.variableDeclarator(t.identifier(name), value)]));
  const out: t.Statement[] = [];
  if (main !== undefined) out.push(t.exportNamedDeclaration(null, [t.exportSpecifier(main, t.identifier("main"))]));
  for (const { name, value } of values) out.push(constant(name, value));
  if (main !== undefined) {
    const runIfMain = t.callExpression(t.identifier("$runIfMain"), [
      t.memberExpression(t.metaProperty(t.identifier("import"), t.identifier("meta")), t.identifier("url")),
      main,
      t.identifier("mainParameters"),
      t.identifier("mainGrant"),
      ...(values.some((v) => v.name === "mainPurpose")
        ? [t.identifier("mainPurpose")]
        : values.some((v) => v.name === "origins")
          ? [t.identifier("undefined")]
          : []),
      ...(values.some((v) => v.name === "origins") ? [t.identifier("origins")] : []),
    ]);
    // Before the tests' export, where it has always been: the goldens show the order.
    out.splice(out.length - 1, 0, t.expressionStatement(t.awaitExpression(runIfMain)));
  }
  return out;
}

/**
 * A module's printed parts as the bundle's chunks: one empty chunk for none, as a module without types or code always
 * had.
 */
function chunksOf(parts: readonly PrintedPart[], file: string): Chunk[] {
  return parts.length === 0 ? [{ code: "", file, mappings: "" }] : parts.map((part) => ({ ...part, file }));
}

const printMapped =
  (generate: ReferenceGenerate) =>
  (statements: t.Statement[], source: SourceFile): PrintedPart => {
    const result = generate(
      t.program(statements),
      { sourceMaps: true, sourceFileName: source.path, comments: false },
      { [source.path]: source.text },
    );
    // Babel's decoded mappings are an array per segment: encoded at once, as the own printer writes them.
    const writer = new MappingsWriter();
    const lines = lineCount(result.code);
    const decoded = result.decodedMap?.mappings ?? [];
    const mappedLines = Math.min(lines, decoded.length);
    for (let line = 0; line < mappedLines; line++) {
      if (line > 0) writer.nextLine();
      for (const s of decoded[line]!) if (s.length >= 4) writer.segment(s[0]!, 0, s[2]!, s[3]!);
    }
    writer.skipLines(lines - Math.max(mappedLines, 1));
    return { code: result.code, mappings: writer.toString() };
  };

/**
 * The part with its code as one flat string. Both printers grow their text by
 * appending, which the engine keeps as a rope: a node of some 20 to 32 bytes
 * an append, so a part kept until the bundle is joined held about eighteen
 * times its text (a 100,000-line build kept some 200 MB of them). Reading a
 * character makes the engine flatten the rope in place, and lets it go.
 */
function flat(part: PrintedPart): PrintedPart {
  part.code.charCodeAt(0);
  return part;
}

function printOwnMapped(statements: t.Statement[]): PrintedPart {
  return printStatements(statements, true);
}

/** The bundle's map: each chunk's mappings moved down by the lines before it (chunks are joined whole). */
function composeMap(chunks: Chunk[], file: string): SourceMapV3 {
  const sources: string[] = [];
  const writer = new MappingsWriter();
  chunks.forEach((chunk, index) => {
    if (index > 0) writer.nextLine();
    const count = lineCount(chunk.code);
    // The chunk's line the writer is on.
    let at = 0;
    if (chunk.file !== undefined) {
      let source = sources.indexOf(chunk.file);
      if (source < 0) source = sources.push(chunk.file) - 1;
      let lastColumn = -1;
      const read = forEachSegment(chunk.mappings, (line, generated, _source, srcLine, column, fields) => {
        if (line >= count) return;
        for (; at < line; at++) {
          writer.nextLine();
          lastColumn = -1;
        }
        // The chunk has one source; a segment without a source position maps nothing.
        if (fields < 4 || generated === lastColumn) return;
        writer.segment(generated, source, srcLine, column);
        lastColumn = generated;
      });
      if (!read) throw new Error(`internal: the mappings of ${chunk.file} are not well formed`);
    }
    writer.skipLines(count - 1 - at);
  });
  return { version: 3, file, sources, names: [], mappings: writer.toString() };
}

/** Lines in a text: one more than its line breaks. */
function lineCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++;
  return count;
}
