// spec/library.md is made from the library's declarations and must be current;
// every declared library function has an implementation in rtlib/lib and every
// function rtlib/lib exports is either declared or one of the runtime's helpers below.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import {
  functionsUsing,
  libraryFunctions,
  libraryReference,
  preludeTypes,
} from "../compiler/check/library-reference.js";
import { libraryScopes } from "../compiler/check/declare.js";
import { PRELUDE_RECORDS, PRELUDE_VARIANTS } from "../rtlib/prelude.js";
import * as runtime from "../rtlib/index.js";

const root = new URL("../..", import.meta.url).pathname;

/**
 * What rtlib/lib exports that no Renyi program calls by name: the twins the compiler
 * emits in place of a library function (`...Async` for a function argument that waits,
 * `...InPlace` for a value nobody else sees, `...Float` for Float arithmetic), the
 * lowering's own helpers, and constants and checks shared inside the runtime.
 */
const RUNTIME_HELPERS: Readonly<Record<string, readonly string[]>> = {
  list: [
    "mapAsync",
    "filterAsync",
    "foldAsync",
    "findAsync",
    "anyAsync",
    "allAsync",
    "flat_mapAsync",
    "sort_byAsync",
    "sumFloat",
    "concat",
    "appendInPlace",
    "pushInPlace",
    "pushOneInPlace",
    "pushRow",
    "rangeInclusive",
    "keyOf",
  ],
  map: ["putInPlace", "removeInPlace"],
  sets: ["addInPlace", "removeInPlace"],
  math: ["absFloat"],
  optional: ["mapAsync", "and_thenAsync"],
  text: ["split_whereAsync"],
  server: ["MAX_BODY_BYTES", "responseProblem"],
};

/** Files of rtlib/lib that are no library module: shared by the modules. */
const SUPPORT_FILES = ["beneath.ts", "sql-refusals.ts", "better-sqlite3.d.ts", "incoming.ts", "off-limits.ts"];

const modules = runtime as unknown as Record<string, Record<string, unknown>>;

test("spec/library.md is the reference generated from the declarations", () => {
  const written = readFileSync(`${root}spec/library.md`, "utf8");
  assert.ok(written === libraryReference(), "spec/library.md is stale: run npm run library-reference");
});

test("every declared library function has an implementation in rtlib/lib", () => {
  const functions = libraryFunctions();
  assert.ok(functions.length > 100);
  for (const f of functions) {
    assert.equal(
      typeof modules[f.module]?.[f.name],
      "function",
      `${f.module}.${f.name} is declared but rtlib/lib/${f.module}.ts does not export it`,
    );
  }
});

test("every function rtlib/lib exports is declared or a listed runtime helper", () => {
  const declared = new Set(libraryFunctions().map((f) => `${f.module}.${f.name}`));
  const moduleNames = new Set(libraryFunctions().map((f) => f.module));
  for (const module of moduleNames) {
    const helpers = RUNTIME_HELPERS[module] ?? [];
    for (const name of Object.keys(modules[module] ?? {})) {
      if (helpers.includes(name)) continue;
      assert.ok(
        declared.has(`${module}.${name}`),
        `rtlib/lib/${module}.ts exports ${name}, which compiler/check/library.ts does not declare (nor is it a ` +
          `listed runtime helper)`,
      );
    }
    for (const name of helpers)
      assert.ok(name in (modules[module] ?? {}), `${module}.${name} is listed as a helper but not exported`);
  }
  for (const file of readdirSync(`${root}rtlib/lib`)) {
    if (SUPPORT_FILES.includes(file)) continue;
    assert.ok(moduleNames.has(file.replace(/\.ts$/, "")), `rtlib/lib/${file} is no declared library module`);
  }
});

/** The section of the reference on one prelude type: from its heading to the next. */
function sectionOf(reference: string, type: string): string {
  const start = reference.indexOf(`\n### ${type}\n`);
  assert.ok(start >= 0, `spec/library.md has no section on ${type}`);
  const end = reference.indexOf("\n##", start + 1);
  return reference.slice(start, end < 0 ? undefined : end);
}

test("every prelude type is in the reference with each case and field the checker and the runtime declare, each with its line", () => {
  const reference = readFileSync(`${root}spec/library.md`, "utf8");
  const declared = libraryScopes().prelude.types;
  assert.deepEqual(
    preludeTypes().map((t) => t.name),
    [...declared.keys()],
  );
  for (const [name, decl] of declared) {
    const section = sectionOf(reference, name);
    const members =
      decl.shape === "variant"
        ? decl.cases.map((c) => ({ name: c.name, fields: c.fields.map((f) => f.name) }))
        : decl.fields.map((f) => ({ name: f.name, fields: [] as string[] }));
    // The runtime's own declaration, which builds the values the primitives give and fail with.
    const runtime =
      decl.shape === "variant"
        ? PRELUDE_VARIANTS[name]!.cases.map((c) => c.name)
        : PRELUDE_RECORDS[name]!.fields.map((f) => f.name);
    assert.deepEqual(
      members.map((m) => m.name),
      runtime,
      `${name}: the checker and the runtime declare different members`,
    );
    for (const m of members) {
      const bullet = new RegExp(
        `^- \`${m.name}${decl.shape === "variant" && m.fields.length > 0 ? `\\(${m.fields.map((f) => `${f}: [^,)]+`).join(", ")}\\)` : decl.shape === "record" ? ": [^`]+" : ""}\`: \\S.*$`,
        "m",
      );
      assert.match(section, bullet, `spec/library.md does not describe ${name}.${m.name}`);
    }
    assert.equal(
      section.split("\n").filter((l) => l.startsWith("- `")).length,
      members.length,
      `${name}: the reference lists other members than the declaration`,
    );
  }
});

test("each failure type names the functions that fail with it, read from their signatures", () => {
  const reference = readFileSync(`${root}spec/library.md`, "utf8");
  const functions = libraryFunctions();
  for (const type of [
    "HttpError",
    "FileError",
    "DbError",
    "StartError",
    "ProcessError",
    "ForeignError",
    "JsonError",
    "ParseError",
  ]) {
    const failing = functions
      .filter((f) => new RegExp(`or fails with ${type}$`).test(f.signature))
      .map((f) => `\`${f.module}.${f.name}\``);
    assert.ok(failing.length > 0, `no function fails with ${type}`);
    assert.ok(
      sectionOf(reference, type).includes(`Returned as the error of: ${failing.join(", ")}.`),
      `the section on ${type} does not name ${failing.join(", ")}`,
    );
  }
  assert.deepEqual(functionsUsing("HttpError").failWith, [
    "http.get",
    "http.post",
    "http.put",
    "http.patch",
    "http.delete",
    "http.request",
  ]);
  assert.ok(functionsUsing("ParseError").failWith.includes("text.to_int"));
  assert.ok(functionsUsing("Response").mention.includes("server.respond"));
});
