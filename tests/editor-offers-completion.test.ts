// Golden tests of completion (fixtures/editor/completion/*.golden): a module
// with `|` where the cursor is, and what completion offers there, an item a
// line (its kind, label, detail and what it inserts). A `module NAME` section
// adds a module beside it that the source can `use`. Then what the goldens do
// not show: documentation, positions outside the text, and the examples.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "node:test";
import { analyse } from "../editor/analysis.js";
import { completions, type Completions } from "../editor/completion.js";
import { goldenFiles, readSections, ROOT, UPDATE, writeSections } from "./golden.js";

const folder = join(ROOT, "fixtures", "editor", "completion");
const CURSOR = "|";

/** The completions at the cursor of `source`, with the modules beside it. */
function completeAt(source: string, modules: readonly [string, string][] = []): Completions & { text: string } {
  const at = source.indexOf(CURSOR);
  assert.ok(at >= 0, "the source marks the cursor with |");
  const text = source.slice(0, at) + source.slice(at + 1);
  const snapshot = analyse([
    { file: "/w/case.ry", text },
    ...modules.map(([name, moduleText]) => ({ file: `/w/${name}.ry`, text: moduleText })),
  ]);
  return { ...completions(snapshot, "/w/case.ry", at), text };
}

function render(result: Completions & { text: string }): string {
  const typed = result.text.slice(result.span.start, result.span.end);
  const lines = [`replaces ${JSON.stringify(typed)}`];
  for (const item of result.items) {
    let line = `${item.kind} ${item.label}`;
    if (item.detail) line += ` : ${item.detail}`;
    if (item.insertText) line += ` => ${JSON.stringify(item.insertText)}${item.snippet ? " (snippet)" : ""}`;
    lines.push(line);
  }
  return lines.join("\n");
}

for (const path of goldenFiles(folder)) {
  const name = basename(path, ".golden");
  test(`completion: ${name}`, () => {
    const sections = readSections(path);
    const modules = [...sections]
      .filter(([key]) => key.startsWith("module "))
      .map(([key, text]) => [key.slice("module ".length), text] as [string, string]);
    const actual = render(completeAt(sections.get("source")!, modules));
    if (UPDATE) {
      const out = new Map([...sections].filter(([key]) => key !== "items"));
      out.set("items", actual);
      writeSections(path, out);
      return;
    }
    assert.equal(actual, sections.get("items"), `${name}: the items differ from the reviewed ones`);
  });
}

test("completion documents a field of the prelude, a library function and a capability", () => {
  const field = completeAt(
    'function f() returns Int\n  let r be http.get("x") otherwise return 0\n  return r.|\nend\n',
  );
  assert.equal(field.items.find((i) => i.label === "status")?.documentation, "The status code (200, 404, ...).");
  const fn = completeAt("function f()\n  let t be http.|\nend\n").items.find((i) => i.label === "get");
  assert.match(fn?.detail ?? "", /^http\.get\(url: Text.*\) returns Response or fails with HttpError$/);
  assert.match(fn?.documentation ?? "", /Needs `network\.http`/);
  const capability = completeAt("public function main()\n  needs |\nend\n").items.find((i) => i.label === "console");
  assert.match(capability?.documentation ?? "", /^Print lines to standard output/);
});

test("completion answers sensibly at any position: before the start, past the end, in the middle of a word", () => {
  const text = "function f(name: Text) returns Text\n  return name\nend\n";
  const snapshot = analyse([{ file: "/w/a.ry", text }]);
  for (const offset of [-5, 0, text.length, text.length + 100, Number.NaN, 1.5, 30, 43])
    assert.doesNotThrow(() => completions(snapshot, "/w/a.ry", offset), `offset ${offset}`);
  const past = completions(snapshot, "/w/a.ry", text.length + 100);
  assert.equal(past.span.end, text.length);
  assert.deepEqual(
    past.items.map((i) => i.label),
    ["use", "public", "function", "type", "test"],
  );
  assert.deepEqual(completions(snapshot, "/w/unknown.ry", 3).items, []);
  // In the middle of `name`: the word so far is `na`, and the parameter is offered.
  const middle = completions(snapshot, "/w/a.ry", text.indexOf("name\nend") + 2);
  assert.equal(text.slice(middle.span.start, middle.span.end), "na");
  assert.ok(middle.items.some((i) => i.label === "name" && i.kind === "parameter" && i.detail === "Text"));
});

test("completion at every position of every example never throws, and offers the locals of main", () => {
  const examples = join(ROOT, "examples");
  for (const file of ["weather.ry", "pagination.ry", "assistant.ry", "bookmarks.ry"]) {
    const text = readFileSync(join(examples, file), "utf8");
    const snapshot = analyse([{ file: `/w/${file}`, text }]);
    for (let offset = 0; offset <= text.length; offset += 7) completions(snapshot, `/w/${file}`, offset);
  }
  const weather = readFileSync(join(examples, "weather.ry"), "utf8");
  const at = weather.indexOf("  console.print", weather.indexOf("public function main"));
  const items = completeAt(`${weather.slice(0, at)}  |${weather.slice(at)}`).items;
  assert.equal(items.find((i) => i.label === "forecast")?.detail, "Forecast");
  assert.equal(items.find((i) => i.label === "city")?.kind, "parameter");
  assert.equal(
    items.find((i) => i.label === "fetch")?.detail,
    "fetch(city: Text) returns Forecast or fails with AppError",
  );
});
