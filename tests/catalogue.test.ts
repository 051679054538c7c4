// The catalogue of problems is closed, and what is written about it is current:
// every code the compiler, the runtime and the command line can produce is a
// row of vocabulary/problems/; every row is produced somewhere; the goldens
// name only codes of the catalogue; spec/diagnostics.md and the table of
// run-time codes in spec/runtime.md are what the catalogue generates.

import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ROOT } from "./golden.js";
import { CODES, isCode } from "../vocabulary/problems/index.js";
import { regeneratedDiagnostics, regeneratedRuntime } from "../report/diagnostics-reference.js";

/** A code: `E-` or `W-`, then capitalised words joined by `-`; not a family's pattern (`E-RT-*`). */
const CODE = /(?<![A-Za-z0-9-])[EW]-[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*(?![A-Za-z0-9*-])/g;

function filesUnder(folder: string, keep: (name: string) => boolean): string[] {
  const found: string[] = [];
  for (const name of readdirSync(join(ROOT, folder))) {
    const path = join(folder, name);
    if (statSync(join(ROOT, path)).isDirectory()) found.push(...filesUnder(path, keep));
    else if (keep(name)) found.push(path);
  }
  return found;
}

/** A source without its comment lines: a code named in a comment is not produced there. */
function withoutComments(text: string): string {
  return text
    .split("\n")
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join("\n");
}

/** Each code found, with the files it was found in. */
function codesIn(files: readonly string[], read: (file: string) => string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of files) {
    for (const m of read(file).matchAll(CODE)) {
      const where = found.get(m[0]) ?? [];
      if (!where.includes(file)) where.push(file);
      found.set(m[0], where);
    }
  }
  return found;
}

const SOURCES = ["compiler", "rtlib", "cli"].flatMap((folder) =>
  filesUnder(folder, (name) => /\.c?ts$/.test(name) && !name.endsWith(".d.ts")),
);
const produced = codesIn(SOURCES, (file) => withoutComments(readFileSync(join(ROOT, file), "utf8")));

/** The codes found that are not rows of the catalogue, with where they were found. */
function outsideCatalogue(found: ReadonlyMap<string, readonly string[]>): string[] {
  return [...found.keys()].filter((code) => !isCode(code)).map((code) => `${code} (${found.get(code)!.join(", ")})`);
}

test("the code pattern finds codes and passes over families and other words", () => {
  const text =
    'throw new Crash("E-RT-FUEL", f); // E-RT-* and W-* are families\n' +
    'const s = `error[E-INTERNAL]: x`; "UTF-8" "E-SYN-" E-TYPE-MISMATCH.';
  assert.deepEqual(
    [...text.matchAll(CODE)].map((m) => m[0]),
    ["E-RT-FUEL", "E-INTERNAL", "E-TYPE-MISMATCH"],
  );
  assert.equal(withoutComments("// E-RT-DEPTH\n  * E-RT-FUEL\nx('E-RT-INDEX')"), "x('E-RT-INDEX')");
});

test("every code the compiler, the runtime and the command line produce is a row of the catalogue", () => {
  console.log(`catalogue: ${SOURCES.length} source files read, ${produced.size} codes found, ${CODES.length} rows`);
  assert.deepEqual(outsideCatalogue(produced), []);
});

test("every row of the catalogue is produced somewhere outside the catalogue", () => {
  const unproduced = CODES.filter((code) => !produced.has(code));
  assert.deepEqual(
    unproduced,
    [],
    "rows no source produces (remove the row, or the code is made where this test cannot see it)",
  );
});

test("the goldens name only codes of the catalogue", () => {
  const goldens = filesUnder("fixtures", (name) => name.endsWith(".golden"));
  // A golden names a code where it is reported: `error[CODE]`, `warning[CODE]`, `"code": "CODE"`.
  const reported = /(?:error|warning)\[([^\]]+)\]|"code":\s*"([^"]+)"/g;
  const found = new Map<string, string[]>();
  for (const file of goldens) {
    for (const m of readFileSync(join(ROOT, file), "utf8").matchAll(reported)) {
      const code = m[1] ?? m[2]!;
      found.set(code, [...(found.get(code) ?? []), file]);
    }
  }
  console.log(`catalogue: ${goldens.length} goldens read, ${found.size} codes named`);
  assert.deepEqual(outsideCatalogue(found), []);
});

test("spec/diagnostics.md is generated from the catalogue", () => {
  const written = readFileSync(join(ROOT, "spec", "diagnostics.md"), "utf8");
  assert.ok(
    written === regeneratedDiagnostics(written),
    "spec/diagnostics.md is stale: run npm run diagnostics-reference",
  );
});

test("the table of run-time codes in spec/runtime.md is generated from the catalogue", () => {
  const written = readFileSync(join(ROOT, "spec", "runtime.md"), "utf8");
  const made = regeneratedRuntime(written);
  assert.ok(made !== undefined, "spec/runtime.md has lost the markers around its table of run-time codes");
  assert.ok(written === made, "spec/runtime.md's table of run-time codes is stale: run npm run diagnostics-reference");
});
