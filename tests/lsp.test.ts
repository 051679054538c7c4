// `renyi lsp` through a real client (tests/lsp-client.ts): the diagnostics
// and quick fixes of the programs in fixtures/lsp/*.golden (reviewed), each
// quick fix of every golden of fixtures/ applied and its problem gone, the
// diagnostics of a module that uses an edited one, and the server's views the
// ones analyse gives for the same texts.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import type { CodeAction, Diagnostic, PublishDiagnosticsParams, Range, TextEdit } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { analyse } from "../editor/analysis.js";
import { goldenFiles, readSections, ROOT, UPDATE, writeSections } from "./golden.js";
import { oneServerPerFile, uriOf, type LspClient } from "./lsp-client.js";

const work = mkdtempSync(join(tmpdir(), "renyi-lsp-"));
let client: LspClient;
oneServerPerFile(work, (started) => {
  client = started;
});

let versions = 0;
/** Opens `text` as a new document and waits for its diagnostics. */
async function diagnosticsOf(uri: string, text: string): Promise<PublishDiagnosticsParams> {
  const version = ++versions;
  client.open(uri, text, version);
  const published = await client.diagnosticsOf(uri, version);
  return published;
}

const at = (r: Range) => `${r.start.line + 1}:${r.start.character + 1}-${r.end.line + 1}:${r.end.character + 1}`;

function diagnosticsText(diagnostics: readonly Diagnostic[]): string {
  return diagnostics
    .map((d) => {
      const lines = [`${at(d.range)} ${d.severity === 1 ? "error" : "warning"} ${d.code}`];
      for (const line of String(d.message).split("\n")) lines.push(`  ${line}`);
      for (const r of d.relatedInformation ?? [])
        lines.push(`  related ${basename(r.location.uri)} ${at(r.location.range)}: ${r.message}`);
      return lines.join("\n");
    })
    .join("\n");
}

async function actionsFor(uri: string): Promise<CodeAction[]> {
  return client.request<CodeAction[]>("textDocument/codeAction", {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 1_000_000, character: 0 } },
    context: { diagnostics: [] },
  });
}

function applied(text: string, edits: readonly TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create("file:///x.ry", "renyi", 0, text), [...edits]);
}

function actionsText(text: string, uri: string, actions: readonly CodeAction[]): string {
  return actions
    .map((a) => {
      const edits = a.edit?.changes?.[uri] ?? [];
      return [
        `${a.title} (${a.diagnostics?.map((d) => d.code).join(", ")})`,
        ...edits.map((e) => `  ${at(e.range)} ${JSON.stringify(e.newText)}`),
        ...applied(text, edits)
          .replace(/\n$/, "")
          .split("\n")
          .map((l) => `  | ${l}`),
      ].join("\n");
    })
    .join("\n");
}

for (const path of goldenFiles(join(ROOT, "fixtures", "lsp"))) {
  const name = basename(path, ".golden");
  test(`lsp golden: ${name}`, async () => {
    const sections = readSections(path);
    const folder = mkdtempSync(join(work, `${name}-`));
    // `file NAME.ry` sections are modules on disk beside the document, which its `use` lines reach.
    for (const [section, body] of sections)
      if (section.startsWith("file ")) writeFileSync(join(folder, section.slice(5)), `${body}\n`);
    const source = `${sections.get("source")!}\n`;
    const uri = uriOf(join(folder, `${name}.ry`));
    const published = await diagnosticsOf(uri, source);
    for (const d of published.diagnostics)
      assert.equal(
        d.codeDescription?.href,
        `${pathToFileURL(join(ROOT, "spec", "diagnostics.md")).href}#${String(d.code).toLowerCase()}`,
      );
    const actions = await actionsFor(uri);
    const got = new Map([
      ["diagnostics", diagnosticsText(published.diagnostics)],
      ["code actions", actionsText(source, uri, actions)],
    ]);
    if (UPDATE) {
      writeSections(path, new Map([...[...sections].filter(([k]) => !got.has(k)), ...got]));
      return;
    }
    for (const [section, text] of got) assert.equal(text, sections.get(section), `${name}: ${section}`);
  });
}

/** Every golden under fixtures/ with a source section: the programs whose diagnostics may carry edits. */
function goldenSources(): { name: string; source: string }[] {
  const folders = ["check", "syntax", "bounds", "explain"];
  return folders.flatMap((folder) =>
    existsSync(join(ROOT, "fixtures", folder))
      ? goldenFiles(join(ROOT, "fixtures", folder)).flatMap((path) => {
          const source = readSections(path).get("source");
          return source === undefined
            ? []
            : [{ name: `${folder}/${basename(path, ".golden")}`, source: `${source}\n` }];
        })
      : [],
  );
}

/**
 * Quick fixes that do not fix, each with why. An `end` inserted at the end of a
 * file whose text is never closed goes into the text: the text's own problem
 * (E-SYN-UNCLOSED-TEXT, which has no edit) must be fixed first.
 */
const NOT_FIXED = new Map([["syntax/error_unclosed_triple", "Insert `end`"]]);

test("each quick fix of every golden program leaves it without the problem it fixed", async () => {
  let fixes = 0;
  const fixEach = async ({ name, source }: { name: string; source: string }): Promise<void> => {
    const uri = uriOf(join(work, `fix-${name.replace("/", "-")}.ry`));
    const published = await diagnosticsOf(uri, source);
    const actions = await actionsFor(uri);
    client.close(uri);
    const count = (ds: readonly Diagnostic[], d: Diagnostic) =>
      ds.filter((x) => x.code === d.code && x.message === d.message).length;
    for (const action of actions) {
      const fixed = action.diagnostics![0]!;
      const text = applied(source, action.edit!.changes![uri]!);
      const after = await diagnosticsOf(uri, text);
      client.close(uri);
      const fixedIt = count(after.diagnostics, fixed) < count(published.diagnostics, fixed);
      if (NOT_FIXED.get(name) === action.title) {
        assert.ok(!fixedIt, `${name}: "${action.title}" fixes its problem now: take it off NOT_FIXED`);
        continue;
      }
      assert.ok(fixedIt, `${name}: "${action.title}" leaves ${fixed.code} (${String(fixed.message).split("\n")[0]})`);
      fixes++;
    }
  };
  // Sixteen programs at a time (each its own document), so that the server's pauses for typing overlap.
  const sources = goldenSources();
  for (let start = 0; start < sources.length; start += 16)
    await Promise.all(sources.slice(start, start + 16).map(fixEach));
  assert.ok(fixes >= 10, `only ${fixes} quick fixes found in the goldens`);
  console.log(`quick fixes: ${fixes} applied`);
});

test("a module's diagnostics follow the modules it uses: edited, closed, changed on disk", async () => {
  const folder = mkdtempSync(join(work, "cross-"));
  const lib = join(folder, "lib.ry");
  const libText = "public function two() returns Int\n  purpose: Two.\n  return 2\nend\n";
  writeFileSync(lib, libText);
  const app = uriOf(join(folder, "app.ry"));
  const appText = "use lib\n\nfunction main()\n  let x be lib.two()\nend\n";
  assert.deepEqual((await diagnosticsOf(app, appText)).diagnostics, []);
  // Opened, then renamed in the editor: the user's diagnostics change without its own edit.
  const libUri = uriOf(lib);
  client.open(libUri, libText, 1);
  await client.diagnosticsOf(libUri, 1);
  const appChanged = client.nextDiagnostics(app);
  client.change(libUri, 2, [
    { range: { start: { line: 0, character: 16 }, end: { line: 0, character: 19 } }, text: "three" },
  ]);
  assert.deepEqual(
    (await appChanged).diagnostics.map((d) => d.code),
    ["E-NAME-UNKNOWN-FUNCTION"],
  );
  // Closed unsaved: the file on disk is what the user sees again.
  const appBack = client.nextDiagnostics(app);
  client.close(libUri);
  assert.deepEqual((await appBack).diagnostics, []);
});

test("the server's diagnostics are analyse's for the same texts, through incremental changes", async () => {
  const examples = ["weather", "hello", "pagination", "bookmarks"];
  for (const example of examples) {
    const text = readFileSync(join(ROOT, "examples", `${example}.ry`), "utf8");
    const file = join(work, `same-${example}.ry`);
    const uri = uriOf(file);
    await diagnosticsOf(uri, text);
    // Delete every `needs` line's first word, one incremental change each.
    const doc = TextDocument.create(uri, "renyi", 0, text);
    let version = versions;
    for (const match of [...text.matchAll(/needs /g)].reverse()) {
      const range = { start: doc.positionAt(match.index!), end: doc.positionAt(match.index! + 6) };
      TextDocument.update(doc, [{ range, text: "" }], ++version);
      client.change(uri, version, [{ range, text: "" }]);
    }
    versions = version;
    const published = await client.diagnosticsOf(uri, version);
    const plain = analyse([{ file, text: doc.getText() }]).modules.get(file)!;
    assert.deepEqual(
      published.diagnostics.map((d) => [d.code, doc.offsetAt(d.range.start), doc.offsetAt(d.range.end)]),
      plain.diagnostics.map((d) => [d.code, d.span.start, d.span.end]),
      example,
    );
    assert.ok(plain.diagnostics.length > 0, `${example} has needs to take away`);
    client.close(uri);
  }
});
