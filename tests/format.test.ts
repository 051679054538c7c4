// The formatter (compiler/format): one golden file per construct in
// fixtures/format/, its `source` formatted to its `formatted` section
// (RENYI_UPDATE=1 rewrites them; review the diff). Then what it refuses, the
// edit of formatRange, and that every example and every example of the
// documents is formatted already.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { formatRange, formatSource } from "../compiler/format/format.js";
import { goldenFiles, readSections, ROOT, UPDATE, writeSections } from "./golden.js";
import { assertFormatsWell, commentsOf, DOCUMENTS, formatBlock, renyiBlocks } from "./format-support.js";

for (const path of goldenFiles(join(ROOT, "fixtures", "format"))) {
  const name = path.slice(path.lastIndexOf("/") + 1, -".golden".length);
  test(`format: ${name}`, () => {
    const sections = readSections(path);
    const source = `${sections.get("source")!}\n`;
    const formatted = assertFormatsWell(`${name}.ry`, source);
    if (UPDATE) {
      sections.set("formatted", formatted.replace(/\n$/, ""));
      writeSections(path, sections);
      return;
    }
    assert.equal(formatted, `${sections.get("formatted")!}\n`);
  });
}

test("format: a file that does not parse gets its syntax diagnostics and no text", () => {
  const result = formatSource("bad.ry", "function main(\n  let x be\nend\n");
  assert.equal(result.text, undefined);
  assert.deepEqual(
    result.diagnostics.map((d) => d.code),
    ["E-SYN-EXPECTED"],
  );
});

test("format: a file nested past the parser's bound gets the parser's own diagnostic", () => {
  const deep = `function main()\n  let x be ${"(".repeat(5000)}1${")".repeat(5000)}\nend\n`;
  const result = formatSource("deep.ry", deep);
  assert.equal(result.text, undefined);
  assert.deepEqual(
    result.diagnostics.map((d) => d.code),
    ["E-SYN-TOO-DEEP"],
  );
});

test("format: an empty file and a file of comments", () => {
  assert.equal(formatSource("e.ry", "").text, "");
  assert.equal(formatSource("e.ry", "\n\n").text, "");
  assert.equal(formatSource("c.ry", "  -- one\n\n\n-- two   \n").text, "-- one\n\n-- two\n");
});

test("format: a line ending in \\r\\n is read as a line break, and written as \\n", () => {
  assert.equal(
    formatSource("w.ry", "function main()\r\n  let x be 1 -- one\r\nend\r\n").text,
    "function main()\n  let x be 1 -- one\nend\n",
  );
});

test("format: every comment is kept, in order, wherever it stands", () => {
  const source = [
    "-- a",
    "function main() -- b",
    "  let x be [ -- c",
    "    -- d",
    "    1, -- e",
    "    -- f",
    "  ] -- g",
    "  let y be f(1, -- h",
    "    -- i",
    "    2) -- j",
    "  match x -- k",
    "    -- l",
    "    when _ then -- m",
    "      -- n",
    "      stop -- o",
    "  -- p",
    "  end -- q",
    "  -- r",
    "end -- s",
    "-- t",
    "",
  ].join("\n");
  const formatted = assertFormatsWell("c.ry", source);
  assert.deepEqual(
    commentsOf("c.ry", formatted).map((c) => c.slice(3)),
    "abcdefghijklmnopqrst".split(""),
  );
});

test("formatRange: the edit covers whole top-level items the range touches, and nothing else", () => {
  const source =
    "function a()\n    one()\nend\n\nfunction b()\n      two()   -- kept\nend\nfunction c()\n three()\nend\n";
  const offset = source.indexOf("two");
  const { edit, diagnostics } = formatRange("r.ry", source, offset, offset + 1);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(edit, {
    start: source.indexOf("function b"),
    end: source.indexOf("end\nfunction c") + 3,
    text: "function b()\n  two() -- kept\nend",
  });
  const applied = source.slice(0, edit!.start) + edit!.text + source.slice(edit!.end);
  assert.equal(formatSource("r.ry", applied).text, formatSource("r.ry", source).text);
  // Two items touched: one edit from the first to the last.
  const both = formatRange("r.ry", source, source.indexOf("one"), source.indexOf("two"));
  assert.equal(both.edit?.start, 0);
  assert.equal(both.edit?.end, source.indexOf("end\nfunction c") + 3);
  // A range over an item already formatted, or over nothing but blank lines, gives no edit.
  const formatted = formatSource("r.ry", source).text!;
  assert.equal(formatRange("r.ry", formatted, 0, formatted.length).edit, undefined);
  assert.equal(formatRange("r.ry", source, source.indexOf("\n\n") + 1, source.indexOf("\n\n") + 1).edit, undefined);
  // A file that does not parse gives its diagnostics and no edit.
  const bad = formatRange("r.ry", "function (\n", 0, 3);
  assert.equal(bad.edit, undefined);
  assert.ok(bad.diagnostics.length > 0);
});

test("format: every program under examples/ is formatted already", () => {
  const folder = join(ROOT, "examples");
  const names = readdirSync(folder).filter((f) => f.endsWith(".ry"));
  assert.ok(names.length >= 8);
  for (const name of names) {
    const text = readFileSync(join(folder, name), "utf8");
    assert.equal(formatSource(name, text).text, text, `examples/${name} is not formatted: renyi fmt it`);
  }
});

test("format: every Renyi example of the documents that parses is formatted already", () => {
  let formatted = 0;
  for (const doc of DOCUMENTS) {
    for (const block of renyiBlocks(doc, readFileSync(join(ROOT, doc), "utf8"))) {
      const text = formatBlock(block);
      if (text === undefined) continue;
      assert.equal(text, block.text, `${doc}:${block.line}: this example is not formatted`);
      formatted++;
    }
  }
  assert.ok(formatted > 50, `only ${formatted} examples found`);
  console.log(`${formatted} examples of ${DOCUMENTS.join(", ")} are formatted`);
});
