// The editor's offers other than completion: document and workspace symbols,
// folding ranges and code lenses, on the examples and on small modules, some
// of which do not parse; and the vocabulary's grant in words they show.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { analyse, type ModuleView } from "../editor/analysis.js";
import { codeLenses } from "../editor/code-lenses.js";
import { completions } from "../editor/completion.js";
import { foldingRanges } from "../editor/folding.js";
import { documentSymbols, subsequenceScore, workspaceSymbols, type DocumentSymbol } from "../editor/symbols.js";
import { knownCapabilities } from "../vocabulary/capabilities.js";
import { capabilitiesInWords, capabilityMeaning, grantInWords } from "../vocabulary/grant-words.js";
import { ROOT } from "./golden.js";

const example = (name: string) => ({ file: `/w/${name}`, text: readFileSync(join(ROOT, "examples", name), "utf8") });

function viewOf(file: string, text: string): ModuleView {
  return analyse([{ file, text }]).modules.get(file)!;
}

function outline(symbols: readonly DocumentSymbol[], indent = ""): string[] {
  return symbols.flatMap((s) => [
    `${indent}${s.kind} ${s.name}${s.detail ? ` (${s.detail})` : ""}`,
    ...outline(s.children, `${indent}  `),
  ]);
}

test("the outline of weather.ry: types with their fields and cases, functions with their purpose, tests", () => {
  const { file, text } = example("weather.ry");
  const view = viewOf(file, text);
  assert.deepEqual(outline(documentSymbols(view)), [
    "record Forecast",
    "  field temperature (Float)",
    "  field wind_speed (Float)",
    "record Reading",
    "  field current_weather (Forecast)",
    "record Place",
    "  field latitude (Float)",
    "  field longitude (Float)",
    "variant AppError",
    "  case Network ((error: HttpError))",
    "  case Decoding ((error: JsonError))",
    "function fetch (Fetch the forecast for a city.)",
    "function coordinates",
    "function main (Print today's weather for a city.)",
    "test the forecast for Berlin is read",
    "test a run for Berlin prints one line",
  ]);
  const fetch = documentSymbols(view).find((s) => s.name === "fetch")!;
  assert.equal(text.slice(fetch.selectionSpan.start, fetch.selectionSpan.end), "fetch");
  assert.ok(text.slice(fetch.span.start, fetch.span.end).startsWith("public function fetch("));
});

test("the outline of a module that does not parse keeps the definitions the parser read", () => {
  const text = [
    "type Point is record",
    "  x: Int",
    "end",
    "",
    "function broken() returns Int",
    "  let x be response.",
    "  return 1",
    "end",
    "",
    'test "still here"',
    "  check 1 is 1",
    "end",
    "",
    "function unclosed()",
    "  if true",
  ].join("\n");
  const view = viewOf("/w/broken.ry", text);
  assert.ok(view.syntaxDiagnostics.length > 0, "the module does not parse");
  assert.deepEqual(
    documentSymbols(view).map((s) => `${s.kind} ${s.name}`),
    ["record Point", "function broken", "test still here"],
  );
  assert.deepEqual(foldingRanges(view).slice(0, 2), [
    { startLine: 0, endLine: 1 },
    { startLine: 4, endLine: 6 },
  ]);
  assert.deepEqual(
    codeLenses(analyse([{ file: "/w/broken.ry", text }]), "/w/broken.ry")[0]?.title,
    "Reaches nothing outside itself",
  );
});

test("workspace symbols: a subsequence of the name, any case, the closest first, at most the limit", () => {
  const snapshot = analyse([example("weather.ry"), example("pagination.ry"), example("currency_tool.ry")]);
  const found = workspaceSymbols(snapshot, "FETCH");
  assert.deepEqual(
    found.slice(0, 2).map((s) => `${s.module}.${s.name}`),
    ["weather.fetch", "pagination.fetch_page"],
  );
  assert.ok(found.every((s) => subsequenceScore(s.name.toLowerCase(), "fetch") !== undefined));
  // The letters in order anywhere: the type first, whose name holds them closest together.
  assert.deepEqual(
    workspaceSymbols(snapshot, "frcst").map((s) => s.name),
    [
      "Forecast",
      "the forecast for Berlin is read",
      "the first page has no cursor and the next ones carry the last page's",
    ],
  );
  assert.equal(workspaceSymbols(snapshot, "", 3).length, 3);
  assert.deepEqual(workspaceSymbols(snapshot, "zzzz"), []);
  assert.equal(subsequenceScore("fetch_weather", "fw"), 5);
  assert.equal(subsequenceScore("fetch", "fetch"), 0);
  assert.equal(subsequenceScore("fetch", "hf"), undefined);
});

test("folding ranges of every block construct, by line", () => {
  const text = readFileSync(join(ROOT, "fixtures", "editor", "folding", "every_block.ry"), "utf8");
  const view = viewOf("/w/every_block.ry", text);
  assert.deepEqual(view.syntaxDiagnostics, []);
  const lines = text.split("\n");
  const shown = foldingRanges(view).map(
    (r) => `${r.startLine}-${r.endLine}${r.kind ? ` ${r.kind}` : ""}: ${lines[r.startLine]!.trim()}`,
  );
  assert.deepEqual(shown, [
    "0-1 imports: use lib.one",
    "3-4 comment: -- Two lines of comment",
    "5-7: type Shape is variant",
    "10-45: function classify(shapes: List<Shape>, limit: Int) returns Text",
    "12-18: for each shape in shapes",
    "13-17: match shape",
    "14-16: when Circle(radius)",
    "20-21: if count > limit",
    "22-23: else if count is 0",
    "24-25: else",
    "27-28: while count > 0",
    "30-32: let names be [",
    "34-35: let text be http.get(",
    "36-39: ) otherwise",
    "37-38: when HttpError.Timeout(url)",
    "41-43: run concurrently",
    '48-49: test "one line test" needs console',
  ]);
});

test("the lenses of main and of each test in assistant.ry: the grant in words, with its budgets and its guard", () => {
  const snapshot = analyse([example("assistant.ry")]);
  const lenses = codeLenses(snapshot, "/w/assistant.ry");
  const text = snapshot.modules.get("/w/assistant.ry")!.text;
  const [grant, run, record, replay] = lenses;
  assert.equal(text.slice(grant!.span.start, grant!.span.end), "main");
  assert.equal(
    grant!.title,
    "May print to the console; may read the environment variable OPENAI_API_KEY, and what comes from it may go only to api.openai.com or 127.0.0.1; may reach api.openai.com over HTTP and HTTPS, at most 20 a minute; may reach 127.0.0.1 over HTTP and HTTPS, at most 20 a minute",
  );
  assert.equal(grant!.command, undefined);
  assert.deepEqual(run, {
    span: grant!.span,
    title: "Run",
    command: { name: "renyi.run", arguments: ["/w/assistant.ry"], commandLine: ["renyi", "run", "/w/assistant.ry"] },
  });
  assert.deepEqual(record!.command?.commandLine, [
    "renyi",
    "record",
    "--to",
    "/w/assistant.recording.json",
    "/w/assistant.ry",
  ]);
  assert.deepEqual(replay!.command?.commandLine, [
    "renyi",
    "run",
    "--replay",
    "/w/assistant.recording.json",
    "/w/assistant.ry",
  ]);
  const name = "the answer is the first choice's message";
  const testLenses = lenses.filter(
    (l) => l.span.start > grant!.span.start && text.slice(l.span.start, l.span.end).includes(name),
  );
  assert.deepEqual(
    testLenses.map((l) => l.title),
    [
      "May print to the console; may read the environment variable OPENAI_API_KEY; may reach api.openai.com over HTTP and HTTPS; may reach 127.0.0.1 over HTTP and HTTPS",
      "Test",
      "Refresh recording",
    ],
  );
  assert.deepEqual(testLenses[1]!.command?.commandLine, ["renyi", "test", "/w/assistant.ry", "--filter", name]);
  assert.deepEqual(testLenses[2]!.command?.commandLine, ["renyi", "test", "/w/assistant.ry", "--refresh", name]);
  // Every lens's command stands for a command line of renyi, and none is run: a lens is data.
  for (const lens of lenses) if (lens.command) assert.equal(lens.command.commandLine[0], "renyi");
});

test("the lens of a main with a syntax error reads its grant from the needs line as written", () => {
  const text = [
    "public function main()",
    "  purpose: Fetch.",
    '  needs console, network.http("public.api.bsky.app") at most 30 per minute',
    "  let x be 1 +",
    "end",
  ].join("\n");
  const snapshot = analyse([{ file: "/w/app.ry", text }]);
  assert.equal(snapshot.modules.get("/w/app.ry")!.syntaxDiagnostics[0]?.code, "E-SYN-EXPECTED");
  assert.equal(
    codeLenses(snapshot, "/w/app.ry")[0]!.title,
    "May print to the console; may reach public.api.bsky.app over HTTP and HTTPS, at most 30 a minute",
  );
  assert.deepEqual(codeLenses(snapshot, "/w/other.ry"), []);
});

test("every capability of the tree has its words, and a grant of each reads as a sentence", () => {
  assert.deepEqual(capabilitiesInWords(), knownCapabilities());
  for (const name of knownCapabilities()) assert.ok((capabilityMeaning(name) ?? "").length > 10, name);
  assert.equal(capabilityMeaning("toString"), undefined);
  assert.equal(
    grantInWords([
      { path: ["filesystem", "write"], scope: "out", budget: { count: 5, unit: "run" } },
      { path: ["network", "socket"], scope: 8080 },
    ]),
    "may write files under out, at most 5 in the whole run; may answer requests on port 8080",
  );
  assert.equal(grantInWords([]), "reaches nothing outside itself");
});

test("every offer answers on modules cut, spliced and garbled at random, and on a line of a megabyte", () => {
  // A fixed generator, so that a failure can be run again.
  let seed = 20261205;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % Math.max(1, n);
  };
  const pieces = [
    "end\n",
    "when ",
    "match x\n",
    '"""',
    '"{',
    "}",
    "--",
    "needs ",
    ".",
    "(",
    ")",
    "if ",
    "\n",
    "let a be ",
  ];
  const sources = ["weather.ry", "assistant.ry", "pagination.ry", "status_api.ry"].map((f) => example(f).text);
  for (let round = 0; round < 120; round++) {
    let text = sources[next(sources.length)]!;
    for (let edit = 0; edit < 4; edit++) {
      const at = next(text.length);
      text =
        next(2) === 0
          ? text.slice(0, at) + text.slice(at + next(200))
          : text.slice(0, at) + pieces[next(pieces.length)]! + text.slice(at);
    }
    const file = "/w/garbled.ry";
    const snapshot = analyse([{ file, text }]);
    const view = snapshot.modules.get(file)!;
    for (let i = 0; i < 8; i++) completions(snapshot, file, next(text.length + 2));
    documentSymbols(view);
    foldingRanges(view);
    codeLenses(snapshot, file);
    workspaceSymbols(snapshot, "a");
  }
  const long = `function f(a: Text) returns Text\n  return ${"a.".repeat(500_000)}\nend\n`;
  const snapshot = analyse([{ file: "/w/long.ry", text: long }]);
  const at = long.indexOf("\nend");
  assert.deepEqual(completions(snapshot, "/w/long.ry", at).items, []);
  foldingRanges(snapshot.modules.get("/w/long.ry")!);
});
