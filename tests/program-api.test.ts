// The compiler's program API (compiler/program.ts, compiler/build.ts): it
// reads modules only through the reader it is given, returns the checked tree
// of every module it could check beside the diagnostics, and numbers ids per
// compilation.

import assert from "node:assert/strict";
import { test } from "node:test";
import { compile } from "../compiler/build.js";
import { checkProgramFrom, type ReadModule } from "../compiler/index.js";

const texts: Record<string, string> = {
  app: `use helpers

function main()
  needs console
  let greeting be helpers.greet("Ada")
  console.print(greeting)
end
`,
  helpers: `public function greet(name: Text) returns Text
  purpose: Greets someone by name.
  let shout be "Hello, {name}!"
  return shout
end
`,
};

function reader(files: Record<string, string>, asked: string[] = []): ReadModule {
  return (name) => {
    asked.push(name);
    const text = files[name];
    return text === undefined ? undefined : { file: `${name}.ry`, text };
  };
}

/** Every id of a local in a checked tree: the walk follows objects once, as the tree shares types. */
function localIds(tree: unknown): number[] {
  const ids: number[] = [];
  const seen = new WeakSet<object>();
  const visit = (node: unknown): void => {
    if (typeof node !== "object" || node === null || seen.has(node)) return;
    seen.add(node);
    const record = node as Record<string, unknown>;
    if (typeof record.id === "number" && "mutable" in record && "name" in record) ids.push(record.id);
    for (const value of Object.values(record)) visit(value);
  };
  visit(tree);
  return ids;
}

test("program API: the reader is asked for the entry and every module it uses, once each", () => {
  const asked: string[] = [];
  const result = checkProgramFrom({ entry: "app", read: reader(texts, asked) });
  assert.deepEqual(asked, ["app", "helpers"]);
  assert.deepEqual(result.diagnostics, []);
  assert.deepEqual(result.modules.map((m) => m.name).sort(), ["app", "helpers"]);
  assert.ok(result.program !== undefined);
});

test("program API: a syntax error in one module still gives the other module's checked tree, and the diagnostics", () => {
  const broken = { ...texts, app: 'use helpers\n\nfunction main(\n  console.print("no closing paren"\n' };
  const result = checkProgramFrom({ entry: "app", read: reader(broken) });
  assert.ok(
    result.diagnostics.some((d) => d.severity === "error" && d.span.file === "app.ry" && d.code.startsWith("E-SYN")),
  );
  assert.equal(result.program, undefined, "a program with errors is not ready to run");
  const helpers = result.modules.find((m) => m.name === "helpers");
  assert.ok(helpers !== undefined, "the module without errors is checked");
  assert.deepEqual(
    helpers.functions.map((f) => f.name),
    ["greet"],
  );
  assert.equal(
    result.modules.some((m) => m.name === "app"),
    false,
    "a module with a syntax error has no checked tree",
  );
});

test("program API: a type error keeps every checked tree; the bundle is made only without errors", () => {
  const wrong = { ...texts, app: texts.app!.replace('helpers.greet("Ada")', "helpers.greet(42)") };
  const failed = compile({ entry: "app", read: reader(wrong) }, { runtime: "renyi/runtime", file: "app.mjs" });
  assert.ok(failed.diagnostics.some((d) => d.severity === "error"));
  assert.equal(failed.bundle, undefined);
  assert.deepEqual(failed.modules.map((m) => m.name).sort(), ["app", "helpers"]);
  const built = compile({ entry: "app", read: reader(texts) }, { runtime: "renyi/runtime", file: "app.mjs" });
  assert.ok(built.bundle !== undefined && built.bundle.code.length > 0);
});

test("program API: two compilations in one process give the same checked tree (ids are per compilation)", () => {
  const first = checkProgramFrom({ entry: "app", read: reader(texts) });
  const second = checkProgramFrom({ entry: "app", read: reader(texts) });
  const ids = localIds(first.modules);
  assert.ok(ids.length >= 3, `locals found: ${ids.length}`);
  assert.deepEqual(localIds(second.modules), ids);
  const typeIds = (result: typeof first) =>
    result.modules.flatMap((m) => m.functions.map((f) => JSON.stringify(f.typeParams)));
  assert.deepEqual(typeIds(second), typeIds(first));
});
