// Hover over each kind of name of a two-module program (fixtures/editor/
// program/), against goldens in fixtures/editor/hover/, one file a case: the
// `at` section names the file and the cursor (`|`), the `hover` section is the
// markdown reviewed. RENYI_UPDATE=1 rewrites the `hover` sections.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { hover } from "../editor/hover.js";
import { goldenFiles, readSections, ROOT, UPDATE, writeSections } from "./golden.js";
import { offsetOf, program } from "./editor-names-support.js";

const snapshot = program();

for (const path of goldenFiles(join(ROOT, "fixtures/editor/hover"))) {
  test(`hover: ${path.split("/").pop()}`, () => {
    const sections = readSections(path);
    const at = sections.get("at")!;
    const [file, marker] = [at.slice(0, at.indexOf(": ")), at.slice(at.indexOf(": ") + 2)];
    const answer = hover(snapshot, `/w/${file}`, offsetOf(snapshot, `/w/${file}`, marker));
    assert.ok(answer !== undefined, `no hover at ${at}`);
    if (UPDATE) {
      sections.set("hover", answer.markdown);
      writeSections(path, sections);
      return;
    }
    assert.equal(answer.markdown, sections.get("hover"));
  });
}

test("hover answers nothing past the end, before the start, on a space, in a comment or a keyword", () => {
  const app = "/w/app.ry";
  const text = snapshot.modules.get(app)!.text;
  for (const offset of [text.length + 1, -1, 1.5, Number.NaN, 10 ** 9])
    assert.equal(hover(snapshot, app, offset), undefined);
  assert.equal(hover(snapshot, "/w/nowhere.ry", 0), undefined);
  // `function describe` and its line's indentation, and the comment of the library module.
  assert.equal(hover(snapshot, app, text.indexOf("function describe") + 3), undefined);
  assert.equal(hover(snapshot, app, text.indexOf("  match sky")), undefined);
  const lib = "/w/lib/weather.ry";
  assert.equal(hover(snapshot, lib, 5), undefined);
});

test("hover never throws at any offset of the program", () => {
  for (const [file, view] of snapshot.modules)
    for (let offset = -1; offset <= view.text.length + 1; offset++) hover(snapshot, file, offset);
});
