// The VS Code extension as it ships: scripts/vsix.mjs (what `npm run vsix`
// runs) packages editors/vscode into a temporary folder, and the .vsix is read
// back with `unzip`: its manifest names the language, the grammar and the
// server's settings; the grammar inside is editors/renyi.tmLanguage.json; the
// client bundle starts `renyi lsp`. And the language configuration's
// indentation rules, on the block forms of spec/language.md.

import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ROOT } from "./golden.js";

const work = mkdtempSync(join(tmpdir(), "renyi-vsix-"));
after(() => rmSync(work, { recursive: true, force: true }));

const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const VSIX = join(work, `renyi-${VERSION}.vsix`);

// Type-checking the client, bundling it and vsce's packaging take some 5 to 8 seconds together.
before(() => {
  const run = spawnSync(process.execPath, [join(ROOT, "scripts", "vsix.mjs"), "--out", work], {
    cwd: ROOT,
    encoding: "utf8",
  });
  assert.equal(run.status, 0, `scripts/vsix.mjs failed:\n${run.stdout}\n${run.stderr}`);
});

function entries(): string[] {
  return execFileSync("unzip", ["-Z1", VSIX], { encoding: "utf8" }).split("\n").filter(Boolean).sort();
}

function entry(name: string): string {
  return execFileSync("unzip", ["-p", VSIX, name], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
}

interface Manifest {
  name: string;
  publisher: string;
  version: string;
  main: string;
  engines: { vscode: string };
  contributes: {
    languages: { id: string; extensions: string[]; configuration: string }[];
    grammars: { language: string; scopeName: string; path: string }[];
    configuration: { properties: Record<string, { type: string; default: unknown }> };
  };
}

test("the package is a zip of the manifest, the client bundle, the grammar, the language configuration, README and LICENSE", () => {
  assert.equal(readFileSync(VSIX).subarray(0, 4).toString("binary"), "PK\x03\x04", "a zip file");
  assert.deepEqual(entries(), [
    "[Content_Types].xml",
    "extension.vsixmanifest",
    "extension/LICENSE.txt",
    "extension/dist/extension.js",
    "extension/dist/renyi.tmLanguage.json",
    "extension/language-configuration.json",
    "extension/package.json",
    "extension/readme.md",
  ]);
});

test("its manifest contributes the language, the grammar and the server's settings", () => {
  const manifest = JSON.parse(entry("extension/package.json")) as Manifest;
  assert.equal(manifest.name, "renyi");
  assert.equal(manifest.publisher, "renyi");
  assert.equal(manifest.version, VERSION, "the project's version");
  assert.equal(manifest.engines.vscode, "^1.91.0");
  assert.equal(manifest.main, "./dist/extension.js");
  const [language] = manifest.contributes.languages;
  assert.equal(language?.id, "renyi");
  assert.deepEqual(language?.extensions, [".ry"]);
  assert.equal(language?.configuration, "./language-configuration.json");
  const [grammar] = manifest.contributes.grammars;
  assert.equal(grammar?.language, "renyi");
  assert.equal(grammar?.scopeName, "source.renyi");
  assert.ok(
    entries().includes(`extension/${grammar!.path.replace(/^\.\//, "")}`),
    "the grammar's path is in the package",
  );
  const settings = manifest.contributes.configuration.properties;
  assert.deepEqual(settings["renyi.server.path"]?.type, "string");
  assert.equal(settings["renyi.server.path"]?.default, "renyi");
  assert.deepEqual(settings["renyi.server.args"]?.default, []);
});

test("the grammar and the language configuration inside are the project's own", () => {
  assert.equal(
    entry("extension/dist/renyi.tmLanguage.json"),
    readFileSync(join(ROOT, "editors", "renyi.tmLanguage.json"), "utf8"),
  );
  assert.equal(
    entry("extension/language-configuration.json"),
    readFileSync(join(ROOT, "editors", "vscode", "language-configuration.json"), "utf8"),
  );
  const grammar = JSON.parse(entry("extension/dist/renyi.tmLanguage.json")) as { scopeName: string };
  assert.equal(grammar.scopeName, "source.renyi");
});

test("the client bundle starts `renyi lsp` and leaves `vscode` to the editor", () => {
  const bundle = entry("extension/dist/extension.js");
  // Checked with test() and a message of its own: a failing match would print the whole bundle.
  const has = (pattern: RegExp, what: string) => assert.ok(pattern.test(bundle), what);
  has(/"renyi\.server"/, "the bundle reads the renyi.server settings");
  has(
    /args:\[\.\.\.[\w$]+,"lsp"\]/,
    "the server's arguments are the settings' arguments, then lsp, and no transport flag",
  );
  has(/require\("vscode"\)/, "vscode is left to the editor");
  has(/LanguageClient/, "the language client is bundled");
});

interface LanguageConfiguration {
  comments: { lineComment: string };
  brackets: [string, string][];
  autoClosingPairs: { open: string; close: string }[];
  indentationRules: { increaseIndentPattern: string; decreaseIndentPattern: string };
}

test("the language configuration: `--` comments, brackets, quotes, and indentation after Renyi's block openers", () => {
  const config = JSON.parse(
    readFileSync(join(ROOT, "editors", "vscode", "language-configuration.json"), "utf8"),
  ) as LanguageConfiguration;
  assert.equal(config.comments.lineComment, "--");
  assert.deepEqual(
    config.brackets.map((pair) => pair.join("")),
    ["{}", "[]", "()", "<>"],
  );
  assert.ok(config.autoClosingPairs.some((pair) => pair.open === '"' && pair.close === '"'));
  const increase = new RegExp(config.indentationRules.increaseIndentPattern);
  const decrease = new RegExp(config.indentationRules.decreaseIndentPattern);
  const opens = [
    "public function main() or fails with AppError",
    "function first<T>(items: List<T>) returns Optional<T>",
    "type Forecast is record",
    "public type AppError is variant",
    'test "the forecast is read" needs console replays "x.json"',
    "  if response.status is not 200 then",
    "  if total is 16",
    "  else if total > 16",
    "  else",
    "    when Some(choice)",
    "    when (name, Some(age)) then",
    "  for each (key, value) in pairs",
    "  while n > 0",
    "  run concurrently",
    "  match completion.choices.first()",
    "  let label be match items",
    "  let n be parse(text) otherwise",
    "  let handler be function(request: Request) returns Response",
    "  let request be ChatRequest(model: model, messages: [",
    "  let headers be {",
    "  if done then -- the last page",
  ];
  for (const line of opens) assert.match(line, increase, `indents after ${JSON.stringify(line)}`);
  const stays = [
    "  if key.is_empty() then fail with AssistantError.NoKey",
    "    when None then fail with AssistantError.Empty",
    "  let forecast be fetch(city: city) otherwise fail",
    "  console.print(answer.text)",
    '  let size be if total > 10 then "big" else "small"',
    "  return x",
    "  end",
    "  purpose: Print today's weather for a city.",
    '  needs console, network.http("api.open-meteo.com") at most 60 per minute',
  ];
  for (const line of stays) assert.doesNotMatch(line, increase, `no indent after ${JSON.stringify(line)}`);
  for (const line of ["end", "  end", "  else", "  else if x", "  )", "  ]", "}"]) {
    assert.match(line, decrease, `${JSON.stringify(line)} outdents`);
  }
  for (const line of ["  ending", "  when x then y", "  let e be 1", "  elsewhere"]) {
    assert.doesNotMatch(line, decrease, `${JSON.stringify(line)} does not outdent`);
  }
});
