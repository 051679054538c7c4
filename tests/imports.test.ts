// The project's folders and what each may import (spec/security.md, "One
// vocabulary"): vocabulary/ imports nothing else of the project; report/ (what
// shows problems and outcomes) only vocabulary/; the compiler nothing of the
// runtime or the command line; the runtime nothing of the compiler or the
// command line; the command line anything. Read from the sources themselves,
// every import, export-from, import(), require() and the runtime's
// hostImport() (rtlib/host-import.ts), whose relative specifiers are resolved
// from the root: in the runtime's one file they are resolved beside
// dist/runtime-import.cjs.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "./golden.js";

const FOLDERS = ["vocabulary", "report", "compiler", "rtlib", "cli"] as const;
type Folder = (typeof FOLDERS)[number];

/** The project's folders each folder must not import. */
const FORBIDDEN: Record<Folder, readonly string[]> = {
  vocabulary: ["report", "compiler", "rtlib", "cli", "tests", "bench", "scripts"],
  report: ["compiler", "rtlib", "cli", "tests", "bench", "scripts"],
  compiler: ["rtlib", "cli", "tests", "bench", "scripts"],
  rtlib: ["compiler", "cli", "tests", "bench", "scripts"],
  cli: ["tests", "bench", "scripts"],
};

interface Import {
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

/** The folder of the project a relative import lands in, from a file's path relative to the root. */
function folderOf(i: Import): string | undefined {
  if (!i.specifier.startsWith(".")) return undefined;
  const target = relative(ROOT, resolve(ROOT, i.fromRoot ? "." : dirname(i.file), i.specifier));
  return target.split("/")[0];
}

/** Every import that breaks the rules, as `file:line imports specifier (folder may not import other)`. */
export function brokenRules(imports: readonly Import[]): string[] {
  const broken: string[] = [];
  for (const i of imports) {
    const from = i.file.split("/")[0] as Folder;
    const to = folderOf(i);
    const isPackage = !i.specifier.startsWith(".") && !i.specifier.startsWith("node:");
    if (from === "vocabulary" && isPackage) broken.push(`${i.file}:${i.line} imports ${i.specifier} (vocabulary imports no package)`);
    // The protocol's SDK is loaded by `renyi mcp` alone, whose files are cli/mcp*.ts.
    if (/^(@modelcontextprotocol\/sdk|zod)(\/|$)/.test(i.specifier) && !/^cli\/mcp[^/]*\.ts$/.test(i.file)) broken.push(`${i.file}:${i.line} imports ${i.specifier} (only cli/mcp*.ts imports the protocol's SDK)`);
    if (to !== undefined && FORBIDDEN[from]?.includes(to)) broken.push(`${i.file}:${i.line} imports ${i.specifier} (${from} may not import ${to})`);
  }
  return broken;
}

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(join(ROOT, folder))) {
    const path = join(folder, name);
    if (statSync(join(ROOT, path)).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.c?ts$/.test(name) && !name.endsWith(".d.ts")) files.push(path);
  }
  return files;
}

test("the rules catch an import across a forbidden line, and pass an allowed one", () => {
  const made = [
    ...importsOf("compiler/check/grants.ts", 'import { coveredBy } from "../../rtlib/capabilities.js";\nimport { needText } from "../../vocabulary/needs.js";'),
    ...importsOf("rtlib/grants.ts", 'const { x } = require("../cli/exit.js");\nimport type { Span } from "../compiler/source.js";'),
    ...importsOf("vocabulary/needs.ts", 'export { y } from "../rtlib/index.js";\nimport "acorn";\nimport { z } from "./capabilities.js";'),
    ...importsOf("cli/run.ts", 'const m = await import("../rtlib/index.js");\nimport { w } from "../compiler/build.js";'),
    ...importsOf("rtlib/entry.ts", 'const { f } = await hostImport<{ f: (o: Outcome) => number }>("./cli/bundle-outcome.js");\nawait hostImport("./report/bundle-outcome.js");\nhostImport<typeof import("node:fs")>("node:fs");'),
    ...importsOf("report/outcome-text.ts", 'import { renderText } from "./diagnostics.js";\nimport { moduleOfPrefix } from "../compiler/lower/names.js";\nimport { EXIT } from "../vocabulary/outcomes.js";'),
    ...importsOf("compiler/index.ts", 'import { z } from "zod";'),
    ...importsOf("cli/run.ts", 'import { Client } from "@modelcontextprotocol/sdk/client/index.js";'),
    ...importsOf("cli/mcp.ts", 'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { z } from "zod";'),
  ];
  assert.equal(made.length, 20);
  assert.deepEqual(brokenRules(made), [
    "compiler/check/grants.ts:1 imports ../../rtlib/capabilities.js (compiler may not import rtlib)",
    "rtlib/grants.ts:1 imports ../cli/exit.js (rtlib may not import cli)",
    "rtlib/grants.ts:2 imports ../compiler/source.js (rtlib may not import compiler)",
    "vocabulary/needs.ts:1 imports ../rtlib/index.js (vocabulary may not import rtlib)",
    "vocabulary/needs.ts:2 imports acorn (vocabulary imports no package)",
    "rtlib/entry.ts:1 imports ./cli/bundle-outcome.js (rtlib may not import cli)",
    "report/outcome-text.ts:2 imports ../compiler/lower/names.js (report may not import compiler)",
    "compiler/index.ts:1 imports zod (only cli/mcp*.ts imports the protocol's SDK)",
    "cli/run.ts:1 imports @modelcontextprotocol/sdk/client/index.js (only cli/mcp*.ts imports the protocol's SDK)",
  ]);
});

test("every source file imports only what its folder may", () => {
  const files = FOLDERS.flatMap(sourceFiles);
  const imports = files.flatMap((file) => importsOf(file, readFileSync(join(ROOT, file), "utf8")));
  console.log(`imports: ${files.length} files, ${imports.length} imports checked`);
  assert.ok(files.some((f) => f.startsWith("vocabulary/")), "the vocabulary's files are found");
  assert.deepEqual(brokenRules(imports), []);
});
