// The editor's workspace (editor/workspace.ts) against analyse
// (editor/analysis.ts), which checks every module from scratch: the same
// texts give the same views, after any edits; and what an edit did not change
// is kept (a file's parse, a module's checking), counted.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { checkModules, parseSource } from "../compiler/index.js";
import { analyse, programOf, parseFile, viewOf, type TextOf } from "../editor/analysis.js";
import { assertAgrees, opened } from "./workspace-support.js";
import { generateRenyi } from "../bench/programs.js";
import { ROOT } from "./golden.js";

const examples = readdirSync(join(ROOT, "examples"))
  .filter((f) => f.endsWith(".ry"))
  .map((f) => ({ file: `/w/${f}`, text: readFileSync(join(ROOT, "examples", f), "utf8") }));

test("the workspace agrees with analyse on every example, and on each after edits", () => {
  const workspace = opened(examples);
  assertAgrees(workspace, examples, "opened");
  const edited = examples.map((e, i) => ({ file: e.file, text: e.text.replace("end", i % 2 ? "ned" : "end\n") }));
  for (const e of edited) workspace.set(e.file, e.text);
  assertAgrees(workspace, edited, "edited");
  for (const e of examples) workspace.set(e.file, e.text);
  assertAgrees(workspace, examples, "restored");
  assert.ok(examples.length >= 5);
});

test("an example's diagnostics in the editor are renyi check's, though only its own bodies are checked", () => {
  const broken = examples.map((e) => ({ ...e, text: e.text.replace("needs ", "-- ") }));
  let compared = 0;
  for (const e of [...examples, ...broken]) {
    const parsed = parseSource(e.file, e.text);
    const full = checkModules(
      [{ name: e.file.slice(3, -3), file: e.file, syntax: parsed.module, syntaxDiagnostics: parsed.diagnostics }],
      e.file.slice(3, -3),
    );
    const view = viewOf(programOf(e.file, (f) => (f === e.file ? parseFile(e.file, e.text) : undefined)));
    assert.deepEqual(
      view.diagnostics.map((d) => [d.code, d.span.start, d.message]),
      full.diagnostics.map((d) => [d.code, d.span.start, d.message]),
      e.file,
    );
    compared += full.diagnostics.length;
  }
  assert.ok(compared > 0, "some example reports something once its needs lines are gone");
});

/** A program of `count` modules: m0 uses m1, which uses m2...; each module a generated one of `lines` lines. */
function chain(count: number, lines: number): TextOf[] {
  return Array.from({ length: count }, (_, i) => ({
    file: `/p/m${i}.ry`,
    text: `${i + 1 < count ? `use m${i + 1}\n\n` : ""}${generateRenyi(lines).replaceAll("_", `_${i}_`)}`,
  }));
}

test("an edit inside a body is checked again alone; an edit of a signature, with the modules that use it", () => {
  const files = chain(4, 60);
  const workspace = opened(files);
  workspace.snapshot();
  assert.equal(workspace.counts.checks, 4);
  assert.equal(workspace.counts.parses, 4);
  // The last function's body of m2: no offset of what its users see moves.
  const inBody = (t: string) => t.replace(/return "\{label\}([^\n]*)\n(end\n*)$/, 'return "[{label}]$1\n$2');
  const edited = files.map((f, i) => (i === 2 ? { ...f, text: inBody(f.text) } : f));
  assert.notEqual(edited[2]!.text, files[2]!.text);
  workspace.set(edited[2]!.file, edited[2]!.text);
  assertAgrees(workspace, edited, "a body edited");
  assert.equal(workspace.counts.checks, 4 + 1, "only m2 is checked again");
  assert.equal(workspace.counts.parses, 4 + 1);
  // A parameter renamed in m2's first signature: m1 and m0 (through m1) see it.
  const signature = edited.map((f, i) => (i === 2 ? { ...f, text: f.text.replace("retries: Int", "tries: Int") } : f));
  workspace.set(signature[2]!.file, signature[2]!.text);
  const before = workspace.counts.checks;
  assertAgrees(workspace, signature, "a signature edited");
  assert.equal(workspace.counts.checks - before, 3, "m2, m1 and m0 are checked again; m3, which m2 uses, is not");
});

test("a module that is not open is read through the reader, and read again when it changes on disk", () => {
  const disk = new Map([["/d/lib.ry", "public function two() returns Int\n  purpose: Two.\n  return 2\nend\n"]]);
  const app = { file: "/d/app.ry", text: "use lib\n\nfunction main()\n  let x be lib.two()\nend\n" };
  const workspace = opened([app], disk);
  assert.deepEqual(
    workspace
      .snapshot()
      .modules.get(app.file)!
      .diagnostics.map((d) => d.code),
    [],
  );
  disk.set("/d/lib.ry", "function two() returns Int\n  return 2\nend\n");
  assert.deepEqual(
    workspace
      .snapshot()
      .modules.get(app.file)!
      .diagnostics.map((d) => d.code),
    ["E-NAME-PRIVATE"],
  );
  disk.delete("/d/lib.ry");
  assert.deepEqual(
    workspace
      .snapshot()
      .modules.get(app.file)!
      .diagnostics.map((d) => d.code),
    ["E-NAME-MODULE", "E-NAME-UNKNOWN"],
  );
});

test("a module with a syntax error shows its checker's diagnostics in the items without one", () => {
  const text = [
    "function broken() returns Int",
    "  let x be (1 +",
    "  return undefined_here",
    "end",
    "",
    "function whole() returns Int",
    "  return not_declared",
    "end",
    "",
  ].join("\n");
  const view = analyse([{ file: "/s/a.ry", text }]).modules.get("/s/a.ry")!;
  const codes = view.diagnostics.map((d) => d.code);
  assert.ok(
    codes.some((c) => c.startsWith("E-SYN-")),
    codes.join(),
  );
  const unknown = view.diagnostics.filter((d) => d.code === "E-NAME-UNKNOWN");
  assert.deepEqual(
    unknown.map((d) => text.slice(d.span.start, d.span.end)),
    ["not_declared"],
    "the unknown name of the whole function is shown; the broken function's is not",
  );
  assert.ok(view.checked !== undefined, "the recovered tree is checked");
});

test("a name not found in a used module with a syntax error is not reported; the syntax error is the cause", () => {
  const lib = { file: "/b/lib.ry", text: "public function two() returns Int\n  purpose: Two.\n  return (2\nend\n" };
  const app = {
    file: "/b/app.ry",
    text: "use lib\n\nfunction main()\n  let x be lib.three()\n  let y be nowhere\nend\n",
  };
  const view = analyse([lib, app]).modules.get(app.file)!;
  assert.deepEqual(
    view.diagnostics.map((d) => d.code),
    ["E-NAME-UNKNOWN"],
  );
});

test("a text above 16 MiB is refused with one diagnostic, not analysed", () => {
  const text = `-- ${"x".repeat(16 * 1024 * 1024)}\n`;
  const view = analyse([{ file: "/big/a.ry", text }]).modules.get("/big/a.ry")!;
  assert.deepEqual(
    view.diagnostics.map((d) => [d.code, d.message]),
    [["E-FILE", "I cannot read `/big/a.ry`: it is larger than the 16 MiB a file may have here"]],
  );
});
