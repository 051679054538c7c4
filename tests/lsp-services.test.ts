// The language server's services through a real client (tests/lsp-client.ts),
// one server for the file: hovers, completions, document symbols and code
// lenses of examples (goldens in fixtures/lsp/services/, reviewed: each names
// the places to hover and to complete at, `|` the cursor); definition and
// references across two modules; a rename made through its WorkspaceEdit and a
// refused one; folding ranges and semantic tokens well formed; formatting the
// formatter's own output, and none for a document that does not parse.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { test } from "node:test";
import {
  ResponseError,
  type CodeLens,
  type CompletionItem,
  type CompletionList,
  type DocumentSymbol,
  type FoldingRange,
  type Hover,
  type Location,
  type MarkupContent,
  type Position,
  type Range,
  type SemanticTokens,
  type SemanticTokensLegend,
  type TextEdit,
  type WorkspaceEdit,
  type WorkspaceSymbol,
} from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { formatRange, formatSource } from "../compiler/format/format.js";
import { goldenFiles, readSections, ROOT, UPDATE, writeSections } from "./golden.js";
import { oneServerPerFile, uriOf, type LspClient } from "./lsp-client.js";

const work = mkdtempSync(join(tmpdir(), "renyi-lsp-services-"));
let client: LspClient;
oneServerPerFile(work, (started) => {
  client = started;
});

let versions = 0;
/** Opens `text` at `path` and waits for its diagnostics. */
async function opened(path: string, text: string) {
  const uri = uriOf(path);
  const version = ++versions;
  client.open(uri, text, version);
  const published = await client.diagnosticsOf(uri, version);
  return { uri, published };
}

const at = (r: Range) => `${r.start.line + 1}:${r.start.character + 1}-${r.end.line + 1}:${r.end.character + 1}`;

function positionOf(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  return { line: before.split("\n").length - 1, character: offset - before.lastIndexOf("\n") - 1 };
}

/** The cursor of a `before|after` place: just after the first `before` followed by `after`. */
function cursorOf(text: string, place: string): Position {
  const bar = place.indexOf("|");
  const found = text.indexOf(place.replace("|", ""));
  assert.ok(found >= 0, `no ${JSON.stringify(place)} in the example`);
  return positionOf(text, found + bar);
}

const apply = (text: string, edits: readonly TextEdit[]) =>
  TextDocument.applyEdits(TextDocument.create("file:///x.ry", "renyi", 0, text), [...edits]);

const indented = (text: string) => text.replace(/^/gm, "    ");

async function hoversText(uri: string, text: string, places: readonly string[]): Promise<string> {
  const out: string[] = [];
  for (const place of places) {
    const found = await client.request<Hover | null>("textDocument/hover", {
      textDocument: { uri },
      position: cursorOf(text, place),
    });
    if (found === null) {
      out.push(`at ${JSON.stringify(place)}: none`);
      continue;
    }
    const contents = found.contents as MarkupContent;
    assert.equal(contents.kind, "markdown");
    out.push(
      `at ${JSON.stringify(place)}: ${found.range === undefined ? "no range" : at(found.range)}`,
      indented(contents.value),
    );
  }
  return out.join("\n");
}

async function completionsText(uri: string, text: string, places: readonly string[]): Promise<string> {
  const out: string[] = [];
  for (const place of places) {
    const list = await client.request<CompletionList>("textDocument/completion", {
      textDocument: { uri },
      position: cursorOf(text, place),
    });
    out.push(`at ${JSON.stringify(place)}: ${list.items.length} items`);
    for (const item of list.items.slice(0, 12)) out.push(`  ${itemText(item)}`);
  }
  return out.join("\n");
}

function itemText(item: CompletionItem): string {
  const edit = item.textEdit as TextEdit | undefined;
  const parts = [`${item.label} (kind ${item.kind})`];
  if (item.detail !== undefined) parts.push(`: ${item.detail}`);
  if (edit !== undefined) parts.push(` ${at(edit.range)} ${JSON.stringify(edit.newText)}`);
  if (item.insertTextFormat === 2) parts.push(" snippet");
  if (item.documentation !== undefined) parts.push(` [${(item.documentation as MarkupContent).kind}]`);
  return parts.join("");
}

function symbolsText(symbols: readonly DocumentSymbol[], depth = 0): string[] {
  return symbols.flatMap((s) => [
    `${"  ".repeat(depth)}${s.name} (kind ${s.kind}) ${at(s.range)} name ${at(s.selectionRange)}${s.detail === undefined ? "" : `: ${s.detail}`}`,
    ...symbolsText(s.children ?? [], depth + 1),
  ]);
}

const lensesText = (lenses: readonly CodeLens[]) =>
  lenses
    .map(
      (l) =>
        `${at(l.range)} ${l.command?.title} -> ${l.command?.command || "(none)"} ${JSON.stringify(l.command?.arguments?.map((a) => (typeof a === "string" ? basename(a) : a)) ?? [])}`,
    )
    .join("\n");

for (const path of goldenFiles(join(ROOT, "fixtures", "lsp", "services"))) {
  const name = basename(path, ".golden");
  test(`lsp services golden: examples/${name}.ry`, async () => {
    const sections = readSections(path);
    const text = readFileSync(join(ROOT, "examples", `${name}.ry`), "utf8");
    const { uri, published } = await opened(join(ROOT, "examples", `${name}.ry`), text);
    assert.deepEqual(published.diagnostics, [], "the example has no problem");
    const symbols = await client.request<DocumentSymbol[]>("textDocument/documentSymbol", { textDocument: { uri } });
    const lenses = await client.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri } });
    const got = new Map([
      ["hovers", await hoversText(uri, text, sections.get("hover at")!.split("\n"))],
      ["completions", await completionsText(uri, text, sections.get("complete at")!.split("\n"))],
      ["document symbols", symbolsText(symbols).join("\n")],
      ["code lenses", lensesText(lenses)],
    ]);
    client.close(uri);
    if (UPDATE) {
      writeSections(path, new Map([...[...sections].filter(([k]) => !got.has(k)), ...got]));
      return;
    }
    for (const [section, value] of got) assert.equal(value, sections.get(section), `${name}: ${section}`);
  });
}

const LIB = `public function two() returns Int
  purpose: Two.
  return 2
end
`;
const APP = `use lib

function main()
  needs console
  console.print("{lib.two() + lib.two()}")
end
`;

test("definition and references reach across two open modules", async () => {
  const folder = mkdtempSync(join(work, "two-"));
  writeFileSync(join(folder, "lib.ry"), LIB);
  writeFileSync(join(folder, "app.ry"), APP);
  const lib = await opened(join(folder, "lib.ry"), LIB);
  const app = await opened(join(folder, "app.ry"), APP);
  const use = cursorOf(APP, "lib.|two() +");
  const defined = await client.request<Location | null>("textDocument/definition", {
    textDocument: { uri: app.uri },
    position: use,
  });
  assert.deepEqual(defined, {
    uri: lib.uri,
    range: { start: { line: 0, character: 16 }, end: { line: 0, character: 19 } },
  });
  const found = await client.request<Location[]>("textDocument/references", {
    textDocument: { uri: lib.uri },
    position: { line: 0, character: 17 },
    context: { includeDeclaration: true },
  });
  const places = found.map((l) => `${basename(l.uri)} ${at(l.range)}`).sort();
  assert.deepEqual(places, ["app.ry 5:23-5:26", "app.ry 5:35-5:38", "lib.ry 1:17-1:20"]);
  const withoutDeclaration = await client.request<Location[]>("textDocument/references", {
    textDocument: { uri: app.uri },
    position: use,
    context: { includeDeclaration: false },
  });
  assert.equal(withoutDeclaration.length, 2);
  // A position past the end is the end: an answer, not an error.
  const past = await client.request<Location | null>("textDocument/definition", {
    textDocument: { uri: app.uri },
    position: { line: 1000, character: 1000 },
  });
  assert.equal(past, null);
  const far = { line: 1000, character: 1000 };
  assert.equal(await client.request("textDocument/hover", { textDocument: { uri: app.uri }, position: far }), null);
  const offered = await client.request<CompletionList>("textDocument/completion", {
    textDocument: { uri: app.uri },
    position: far,
  });
  assert.ok(offered.items.length > 0, "at the end of the text, where a definition may start");
  // A public function may be used by modules the server has not read: its rename is refused, with the reason.
  await assert.rejects(
    client.request("textDocument/rename", { textDocument: { uri: app.uri }, position: use, newName: "deux" }),
    (e: unknown) => e instanceof ResponseError && e.code === -32803 && /public/.test(e.message),
  );
  client.close(app.uri);
  client.close(lib.uri);
});

test("a rename made through its WorkspaceEdit leaves the example without problems; a bad new name is refused", async () => {
  const path = join(ROOT, "examples", "weather.ry");
  const text = readFileSync(path, "utf8");
  const { uri } = await opened(path, text);
  const position = cursorOf(text, "let place be |coordinates(city)");
  const prepared = await client.request<{ range: Range; placeholder: string }>("textDocument/prepareRename", {
    textDocument: { uri },
    position,
  });
  assert.equal(prepared.placeholder, "coordinates");
  const edit = await client.request<WorkspaceEdit>("textDocument/rename", {
    textDocument: { uri },
    position,
    newName: "place_of",
  });
  assert.deepEqual(Object.keys(edit.changes ?? {}), [uri]);
  const edits = edit.changes![uri]!;
  assert.equal(edits.length, 2, "the definition and its one use");
  const renamed = apply(text, edits);
  assert.match(renamed, /function place_of\(city: Text\)/);
  assert.doesNotMatch(renamed, /coordinates/);
  const version = ++versions;
  client.change(uri, version, [{ text: renamed }]);
  assert.deepEqual((await client.diagnosticsOf(uri, version)).diagnostics, []);
  // The check that gave the diagnostics recorded the names: a hover after the edit checks nothing again.
  const statistics = () => client.request<{ checks: number }>("renyi/statistics", {});
  const checks = (await statistics()).checks;
  const described = await client.request<Hover>("textDocument/hover", {
    textDocument: { uri },
    position: cursorOf(renamed, "let place be |place_of(city)"),
  });
  assert.match((described.contents as MarkupContent).value, /function place_of\(city: Text\) returns Place/);
  assert.equal((await statistics()).checks, checks);
  await assert.rejects(
    client.request("textDocument/rename", {
      textDocument: { uri },
      position: cursorOf(renamed, "let place be |place_of(city)"),
      newName: "fetch",
    }),
    (e: unknown) => e instanceof ResponseError && e.code === -32803 && /fetch/.test(e.message),
  );
  // Where no name is (a keyword), there is nothing to rename: no range, and no error.
  const none = await client.request("textDocument/prepareRename", {
    textDocument: { uri },
    position: cursorOf(renamed, "|let place"),
  });
  assert.equal(none, null);
  // `main` is where a run starts: refused before a new name is asked for.
  await assert.rejects(
    client.request("textDocument/prepareRename", {
      textDocument: { uri },
      position: cursorOf(renamed, "function |main"),
    }),
    (e: unknown) => e instanceof ResponseError && e.code === -32803 && /main/.test(e.message),
  );
  client.close(uri);
});

test("folding ranges and semantic tokens are well formed, and workspace symbols find a definition", async () => {
  const legend = (client.initialized.capabilities.semanticTokensProvider as { legend: SemanticTokensLegend }).legend;
  for (const name of ["weather", "bookmarks", "currency_tool"]) {
    const path = join(ROOT, "examples", `${name}.ry`);
    const text = readFileSync(path, "utf8");
    const lines = text.split("\n");
    const { uri } = await opened(path, text);
    const folds = await client.request<FoldingRange[]>("textDocument/foldingRange", { textDocument: { uri } });
    assert.ok(folds.length > 0, `${name}: folds`);
    for (const f of folds)
      assert.ok(
        0 <= f.startLine && f.startLine < f.endLine && f.endLine < lines.length,
        `${name}: ${JSON.stringify(f)}`,
      );
    const tokens = await client.request<SemanticTokens>("textDocument/semanticTokens/full", { textDocument: { uri } });
    assert.ok(tokens.data.length > 0 && tokens.data.length % 5 === 0, `${name}: ${tokens.data.length} numbers`);
    let line = 0;
    let character = 0;
    for (let i = 0; i < tokens.data.length; i += 5) {
      const [deltaLine, deltaStart, length, type, modifiers] = tokens.data.slice(i, i + 5) as [
        number,
        number,
        number,
        number,
        number,
      ];
      line += deltaLine;
      character = deltaLine === 0 ? character + deltaStart : deltaStart;
      assert.ok(
        line < lines.length && length > 0 && character + length <= lines[line]!.length,
        `${name}: token ${i / 5}`,
      );
      assert.ok(type < legend.tokenTypes.length && modifiers < 2 ** legend.tokenModifiers.length);
    }
    client.close(uri);
  }
  const weather = readFileSync(join(ROOT, "examples", "weather.ry"), "utf8");
  const { uri } = await opened(join(ROOT, "examples", "weather.ry"), weather);
  const symbols = await client.request<WorkspaceSymbol[]>("workspace/symbol", { query: "coord" });
  assert.deepEqual(
    symbols.map((s) => [s.name, s.containerName, "range" in s.location ? at(s.location.range) : ""]),
    [["coordinates", "weather", "32:10-32:21"]],
  );
  client.close(uri);
});

test("formatting gives compiler/format's text, range formatting its edit, and a document that does not parse none", async () => {
  const weather = readFileSync(join(ROOT, "examples", "weather.ry"), "utf8");
  const unformatted = weather.replace(/^  /gm, "      ").replace(/ be /g, "  be  ");
  const path = join(work, "unformatted.ry");
  const { uri } = await opened(path, unformatted);
  const options = { tabSize: 2, insertSpaces: true };
  const edits = await client.request<TextEdit[]>("textDocument/formatting", { textDocument: { uri }, options });
  const expected = formatSource(path, unformatted).text;
  assert.ok(expected !== undefined && expected !== unformatted);
  assert.equal(apply(unformatted, edits), expected);
  const start = unformatted.indexOf("function coordinates");
  const end = unformatted.indexOf("public function main");
  const range = { start: positionOf(unformatted, start), end: positionOf(unformatted, start + 10) };
  const rangeEdits = await client.request<TextEdit[]>("textDocument/rangeFormatting", {
    textDocument: { uri },
    range,
    options,
  });
  const edit = formatRange(path, unformatted, start, start + 10).edit!;
  const formattedRange = apply(unformatted, rangeEdits);
  assert.equal(formattedRange, unformatted.slice(0, edit.start) + edit.text + unformatted.slice(edit.end));
  assert.equal(
    formattedRange.slice(formattedRange.indexOf("public function main")),
    unformatted.slice(end),
    "only the function touched",
  );
  client.close(uri);
  const broken = await opened(join(work, "broken.ry"), "function main(\n    needs console\nend\n");
  assert.ok(broken.published.diagnostics.length > 0);
  assert.deepEqual(await client.request("textDocument/formatting", { textDocument: { uri: broken.uri }, options }), []);
  assert.deepEqual(
    await client.request("textDocument/rangeFormatting", {
      textDocument: { uri: broken.uri },
      range: { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } },
      options,
    }),
    [],
  );
  client.close(broken.uri);
});
