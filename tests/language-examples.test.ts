// Every example of the language sketch parses: the code blocks of
// language.md (kept in fixtures/language/ so that the tests stand alone) and,
// where the design folder sits beside the project, the file itself.

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parseSource } from "../compiler/index.js";
import { ROOT } from "./golden.js";

/** A snippet that is not a whole file (a statement, an expression) is read inside a function. */
function parsesAsFileOrBody(name: string, text: string): string[] {
  const whole = parseSource(name, text).diagnostics.filter((d) => d.severity === "error");
  if (whole.length === 0) return [];
  const body = parseSource(name, `function example()\n${text}\nend\n`).diagnostics.filter((d) => d.severity === "error");
  return body.map((d) => `${d.code}: ${d.message}`);
}

const folder = join(ROOT, "fixtures", "language");
for (const file of readdirSync(folder).filter((f) => f.endsWith(".ry")).sort()) {
  test(`language.md example ${file} parses`, () => {
    assert.deepEqual(parsesAsFileOrBody(file, readFileSync(join(folder, file), "utf8")), []);
  });
}

const sketch = join(ROOT, "..", "shared", "design", "language.md");
test("the code blocks of language.md parse", { skip: !existsSync(sketch) && "language.md is not beside the project" }, () => {
  const blocks = [...readFileSync(sketch, "utf8").matchAll(/```\n([\s\S]*?)```/g)].map((m) => m[1]!);
  assert.ok(blocks.length >= 2);
  blocks.forEach((block, i) => assert.deepEqual(parsesAsFileOrBody(`block${i}.ry`, block), [], `block ${i}`));
});

const examples = join(ROOT, "examples");
for (const file of readdirSync(examples).filter((f) => f.endsWith(".ry")).sort()) {
  test(`examples/${file} parses cleanly`, () => {
    const result = parseSource(file, readFileSync(join(examples, file), "utf8"));
    assert.deepEqual(result.diagnostics.map((d) => `${d.code}: ${d.message}`), []);
  });
}
