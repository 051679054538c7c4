// Every example of the language sketch parses and checks: the code blocks of
// language.md (kept in fixtures/language/ so that the tests stand alone) and,
// where the design folder sits beside the project, the file itself; and every
// program under examples/ checks cleanly.

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { checkSource, parseSource } from "../compiler/index.js";
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

// The sketch's two code blocks leave out what they refer to: the weather
// program calls `coordinates`, and the query is a statement about `people`.
// Given those, each checks cleanly.
const COMPLETIONS: Record<string, (text: string) => string> = {
  "weather.ry": (text) =>
    text +
    "\ntype Place is record\n  latitude: Float\n  longitude: Float\nend\n" +
    "\nfunction coordinates(city: Text) returns Place\n  return Place(latitude: 52.52, longitude: 13.41)\nend\n",
  "query.ry": (text) =>
    "type Person is record\n  name: Text\n  last_name: Text\n  age: Int\nend\n\n" +
    `function adults_of(people: List<Person>) returns List<Text>\n${text}  return adults\nend\n`,
};

for (const [file, complete] of Object.entries(COMPLETIONS)) {
  test(`language.md example ${file} checks cleanly with what it refers to`, () => {
    const result = checkSource(file, complete(readFileSync(join(folder, file), "utf8")));
    assert.deepEqual(result.diagnostics.map((d) => `${d.code}: ${d.message}`), []);
  });
}

const sketch = join(ROOT, "..", "shared", "design", "language.md");
test("the code blocks of language.md parse", { skip: !existsSync(sketch) && "language.md is not beside the project" }, () => {
  const blocks = [...readFileSync(sketch, "utf8").matchAll(/```\n([\s\S]*?)```/g)].map((m) => m[1]!);
  assert.ok(blocks.length >= 2);
  blocks.forEach((block, i) => assert.deepEqual(parsesAsFileOrBody(`block${i}.ry`, block), [], `block ${i}`));
  // The copies the other tests check are the sketch's own blocks.
  assert.equal(readFileSync(join(folder, "weather.ry"), "utf8"), blocks[0]);
  assert.equal(readFileSync(join(folder, "query.ry"), "utf8"), blocks[1]);
});

const examples = join(ROOT, "examples");
for (const file of readdirSync(examples).filter((f) => f.endsWith(".ry")).sort()) {
  test(`examples/${file} checks cleanly`, () => {
    const result = checkSource(file, readFileSync(join(examples, file), "utf8"));
    assert.deepEqual(result.diagnostics.map((d) => `${d.code}: ${d.message}`), []);
    assert.ok(result.program !== undefined);
  });
}
