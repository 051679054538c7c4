// The editor's name services over a two-module program (fixtures/editor/
// program/: app.ry uses lib/weather.ry as `w`): the checker's name index,
// definitions, references and rename of each kind of name across the two
// modules, each refusal of a rename, and answers at places without a name.

import { test } from "node:test";
import assert from "node:assert/strict";
import { checkSource } from "../compiler/index.js";
import { analyse } from "../editor/analysis.js";
import { definition, references } from "../editor/definition.js";
import { namesOf } from "../editor/name-index.js";
import { prepareRename, rename } from "../editor/rename.js";
import { APP, LIB, applied, offsetOf, program, programTexts, textOf } from "./editor-names-support.js";

const snapshot = program();

test("the program is clean; an editor's checked trees carry their names, the command line's none", () => {
  for (const view of snapshot.modules.values()) {
    assert.deepEqual(view.diagnostics, []);
    assert.ok((view.checked?.names?.length ?? 0) > 0);
    for (const module of checkSource(view.file, view.text).modules) assert.equal(module.names, undefined);
  }
});

test("every name of the index covers exactly an identifier of its text", () => {
  for (const view of snapshot.modules.values()) {
    const names = namesOf(snapshot, view);
    assert.ok(names.length > 40);
    for (const use of names) {
      assert.equal(use.span.file, view.file);
      assert.match(view.text.slice(use.span.start, use.span.end), /^[A-Za-z_][A-Za-z0-9_]*$/);
    }
  }
});

/** The declaration a cursor's name leads to: its file and the text of the line from the name on. */
function definitionAt(file: string, marker: string): { file: string; name: string; after: string } | undefined {
  const span = definition(snapshot, file, offsetOf(snapshot, file, marker));
  if (span === undefined) return undefined;
  const text = snapshot.modules.get(span.file)!.text;
  const lineEnd = text.indexOf("\n", span.end);
  return { file: span.file, name: text.slice(span.start, span.end), after: text.slice(span.end, lineEnd) };
}

test("definition of each kind of name, across the modules", () => {
  assert.deepEqual(definitionAt(APP, "match s|ky"), { file: APP, name: "sky", after: ": w.Sky) returns Text" });
  assert.deepEqual(definitionAt(APP, "set be|st to"), { file: APP, name: "best", after: " be 0.0" });
  assert.deepEqual(definitionAt(APP, "if |f.temperature"), { file: APP, name: "f", after: " in forecasts" });
  assert.deepEqual(definitionAt(APP, "|x.temperature"), { file: APP, name: "x", after: ") => x.temperature)" });
  assert.deepEqual(definitionAt(APP, "{val|ue.length"), {
    file: APP,
    name: "value",
    after: ') then console.print("a token of {value.length()} characters")',
  });
  assert.deepEqual(definitionAt(APP, "{des|cribe("), {
    file: APP,
    name: "describe",
    after: "(sky: w.Sky) returns Text",
  });
  assert.deepEqual(definitionAt(APP, "w.fore|cast(city"), {
    file: LIB,
    name: "forecast",
    after: "(city: Text, days: Int = 1) returns Forecast",
  });
  assert.deepEqual(definitionAt(APP, "forecast(ci|ty: city)"), {
    file: LIB,
    name: "city",
    after: ": Text, days: Int = 1) returns Forecast",
  });
  assert.deepEqual(definitionAt(APP, "List<w.Fore|cast>"), { file: LIB, name: "Forecast", after: " is record" });
  assert.deepEqual(definitionAt(APP, "f.temp|erature > best"), { file: LIB, name: "temperature", after: ": Float" });
  assert.deepEqual(definitionAt(APP, "w.Sky.Cl|ear"), { file: LIB, name: "Clear", after: "" });
  assert.deepEqual(definitionAt(APP, "Cloudy(co|ver: amount)"), { file: LIB, name: "cover", after: ": Int)" });
  assert.deepEqual(definitionAt(LIB, "forecast.wind_|speed"), {
    file: LIB,
    name: "wind_speed",
    after: ': Float from json "windspeed"',
  });
  assert.deepEqual(definitionAt(LIB, "return decoded with temp|erature"), {
    file: LIB,
    name: "temperature",
    after: ": Float",
  });
  // A module's definition is its file; the library and capabilities have none in the program.
  assert.deepEqual(definition(snapshot, APP, offsetOf(snapshot, APP, "|w.forecast")), { file: LIB, start: 0, end: 0 });
  assert.equal(definition(snapshot, LIB, offsetOf(snapshot, LIB, "json.dec|ode")), undefined);
  assert.equal(definition(snapshot, APP, offsetOf(snapshot, APP, "environ|ment(")), undefined);
  assert.equal(definition(snapshot, APP, offsetOf(snapshot, APP, "main(city: Te|xt")), undefined);
});

/** The references as `file:text` pairs, in order. */
function referencesAt(file: string, marker: string, withDeclaration: boolean): string[] {
  return references(snapshot, file, offsetOf(snapshot, file, marker), withDeclaration).map(
    (span) =>
      `${span.file === APP ? "app" : "lib"}:${textOf(snapshot, span)}:${snapshot.modules.get(span.file)!.source.position(span.start).line}`,
  );
}

test("references of each kind of name, across the modules, with and without the declaration", () => {
  assert.deepEqual(referencesAt(APP, "w.fore|cast(city", true), ["app:forecast:22", "lib:forecast:15"]);
  assert.deepEqual(referencesAt(LIB, "public function fore|cast", false), ["app:forecast:22"]);
  assert.deepEqual(referencesAt(APP, "List<w.Fore|cast>", true), [
    "app:Forecast:10",
    "lib:Forecast:3",
    "lib:Forecast:15",
    "lib:Forecast:18",
    "lib:Forecast:19",
    "lib:Forecast:19",
    "lib:Forecast:23",
  ]);
  assert.deepEqual(referencesAt(APP, "f.temp|erature > best", true), [
    "app:temperature:13",
    "app:temperature:13",
    "app:temperature:23",
    "lib:temperature:5",
    "lib:temperature:18",
    "lib:temperature:19",
    "lib:temperature:20",
    "lib:temperature:20",
  ]);
  assert.deepEqual(referencesAt(APP, "w.Sky.Cl|ear", false), ["app:Clear:5", "lib:Clear:26"]);
  assert.deepEqual(referencesAt(APP, "set be|st to", true), [
    "app:best:11",
    "app:best:13",
    "app:best:13",
    "app:best:15",
  ]);
  // A parameter of a public function is named by the labels of calls in other modules.
  assert.deepEqual(referencesAt(LIB, "function forecast(ci|ty", true), ["app:city:22", "lib:city:15", "lib:city:18"]);
  assert.deepEqual(referencesAt(APP, "Cloudy(co|ver", true), ["app:cover:6", "lib:cover:12", "lib:cover:25"]);
  assert.deepEqual(referencesAt(APP, "|w.forecast", false), [
    "app:weather:1",
    "app:w:3",
    "app:w:5",
    "app:w:6",
    "app:w:10",
    "app:w:22",
    "app:w:24",
  ]);
  assert.deepEqual(referencesAt(APP, 'console.pri|nt("{city}', false), [
    "app:print:24",
    "app:print:26",
    "app:print:27",
  ]);
  assert.deepEqual(referencesAt(APP, "needs con|sole", false), ["app:console:20"]);
});

/** Renames at a marker and checks the outcome: every file analysed again is as clean as before. */
function renamed(file: string, marker: string, newName: string): ReturnType<typeof analyse> {
  const answer = rename(snapshot, file, offsetOf(snapshot, file, marker), newName, { allModules: true });
  assert.ok("edits" in answer, `refused: ${"refused" in answer ? answer.refused : ""}`);
  const after = analyse(applied(programTexts(), answer.edits));
  for (const view of after.modules.values()) assert.deepEqual(view.diagnostics, [], view.file);
  return after;
}

function countWord(text: string, word: string): number {
  return text.match(new RegExp(`\\b${word}\\b`, "g"))?.length ?? 0;
}

test("rename of a local, a function, a type, a field and a case, across the modules", () => {
  let after = renamed(APP, "set be|st to", "highest");
  assert.equal(countWord(after.modules.get(APP)!.text, "highest"), 4);
  assert.equal(countWord(after.modules.get(APP)!.text, "best"), 0);

  after = renamed(APP, "w.fore|cast(city", "predict");
  assert.match(after.modules.get(LIB)!.text, /public function predict\(city/);
  assert.match(after.modules.get(APP)!.text, /w\.predict\(city: city\)/);
  // The parameter of sky_of that has the same name is another thing, and keeps it.
  assert.match(after.modules.get(LIB)!.text, /sky_of\(forecast: Forecast\)/);

  after = renamed(APP, "List<w.Fore|cast>", "Weather");
  assert.equal(countWord(after.modules.get(LIB)!.text, "Forecast"), 0);
  assert.equal(countWord(after.modules.get(LIB)!.text, "Weather"), 6);
  assert.match(after.modules.get(APP)!.text, /List<w\.Weather>/);

  after = renamed(APP, "w.Sky.Cl|ear", "Sunny");
  assert.match(after.modules.get(APP)!.text, /when w\.Sky\.Sunny then/);
  assert.match(after.modules.get(LIB)!.text, /return Sky\.Sunny/);

  // A case with fields: its fields are the renamed case's.
  after = renamed(APP, "when w.Sky.Clo|udy", "Overcast");
  assert.match(after.modules.get(APP)!.text, /when w\.Sky\.Overcast\(cover: amount\)/);
  assert.match(after.modules.get(LIB)!.text, /Sky\.Overcast\(cover: 3\)/);

  after = renamed(LIB, "function forecast(ci|ty", "place");
  assert.match(after.modules.get(APP)!.text, /w\.forecast\(place: city\)/);
  assert.match(after.modules.get(LIB)!.text, /example\.com\/\{place\}/);
});

test("a renamed field keeps its JSON key: one without a key gets its old name as one", () => {
  let after = renamed(APP, "f.temp|erature > best", "degrees");
  const lib = after.modules.get(LIB)!.text;
  assert.match(lib, /\n {2}degrees: Float from json "temperature"\n/);
  assert.equal(countWord(lib, "temperature"), 1);
  assert.equal(countWord(after.modules.get(APP)!.text, "degrees"), 3);
  // A field with a key keeps the one it has.
  after = renamed(LIB, "forecast.wind_|speed", "wind");
  assert.match(after.modules.get(LIB)!.text, /\n {2}wind: Float from json "windspeed"\n/);
  // The checked tree reads the same JSON key as before.
  const forecast = after.modules.get(LIB)!.checked!.types.find((t) => t.name === "Forecast")!;
  assert.deepEqual(
    forecast.fields.map((f) => [f.name, f.jsonKey]),
    [
      ["temperature", "temperature"],
      ["wind", "windspeed"],
    ],
  );
});

function refusal(file: string, marker: string, newName: string, allModules = true): string {
  const answer = rename(snapshot, file, offsetOf(snapshot, file, marker), newName, { allModules });
  assert.ok("refused" in answer, `not refused: ${JSON.stringify(answer)}`);
  return answer.refused;
}

test("each refusal of a rename says why", () => {
  assert.match(refusal(APP, "set be|st to", "2x"), /"2x" is not a name for a local: it starts with a small letter/);
  assert.match(refusal(APP, "set be|st to", "Best"), /is not a name for a local/);
  assert.match(
    refusal(APP, "List<w.Fore|cast>", "forecast"),
    /"forecast" is not a name for a type: it starts with a capital/,
  );
  assert.match(refusal(APP, "set be|st to", "then"), /`then` is a keyword of the language/);
  assert.match(refusal(APP, "set be|st to", "_"), /`_` names nothing/);
  // Collisions where the old name stood.
  assert.match(
    refusal(APP, "set be|st to", "forecasts"),
    /`forecasts` is already a name in the same definition \(line 10\)/,
  );
  assert.match(refusal(APP, "{des|cribe(", "warmest"), /`warmest` is already a function of this module \(line 10\)/);
  assert.match(refusal(APP, "{des|cribe(", "w"), /`w` already names a module of this one's `use` lines \(line 1\)/);
  assert.match(refusal(APP, "{des|cribe(", "json"), /`json` is a module of the library/);
  assert.match(refusal(APP, "List<w.Fore|cast>", "Sky"), /`Sky` is already a type of this module \(line 9\)/);
  assert.match(refusal(APP, "List<w.Fore|cast>", "Response"), /`Response` is a type of the library/);
  assert.match(
    refusal(APP, "f.temp|erature > best", "wind_speed"),
    /`wind_speed` is already a field of `Forecast` \(line 6\)/,
  );
  assert.match(refusal(APP, "w.Sky.Cl|ear", "Cloudy"), /`Cloudy` is already a case of `Sky` \(line 12\)/);
  // Names that are not the program's.
  assert.match(refusal(LIB, "json.dec|ode", "read"), /`json.decode` is a function of the library/);
  assert.match(refusal(LIB, "|json.decode", "j"), /`json` is a module of the library/);
  assert.match(refusal(APP, "environ|ment(", "env"), /`environment` is a capability/);
  assert.match(refusal(APP, "when So|me(value)", "Just"), /`Some` is the library's \(a case of `Optional`\)/);
  assert.match(refusal(LIB, "response.bo|dy", "text"), /`body` is the library's \(a field of `Response`\)/);
  assert.match(refusal(APP, "main(city: Te|xt", "Words"), /`Text` is the library's \(a type\)/);
  assert.match(refusal(APP, "|w.forecast", "v"), /is a module, named by its file \(\/w\/lib\/weather.ry\)/);
  assert.match(refusal(APP, "public function ma|in", "start"), /`main` is where a run starts/);
  // A public definition, unless every module is known.
  assert.match(
    refusal(APP, "w.fore|cast(city", "predict", false),
    /`forecast` is public: modules the editor has not read may use it/,
  );
  assert.match(refusal(APP, "f.temp|erature > best", "degrees", false), /`temperature` is public/);
  // Nothing to rename.
  const nothing = rename(snapshot, APP, offsetOf(snapshot, APP, "function| describe"), "x");
  assert.deepEqual(nothing, { refused: "There is no name here to rename." });
});

test("a rename that another check would catch only in the renamed program is refused", () => {
  const texts = [
    {
      file: "/p/main.ry",
      text: "function helper() returns Int\n  return 1\nend\n\nfunction main()\n  let helper_count be 2\n  let total be helper()\n  check total is helper_count\nend\n",
    },
  ];
  const small = analyse(texts);
  const at = (marker: string) => offsetOf(small, "/p/main.ry", marker);
  // A local named as the function it calls would hide it.
  const answer = rename(small, "/p/main.ry", at("let helper_co|unt"), "helper");
  assert.ok("refused" in answer);
  assert.match(answer.refused, /would (change what a name means|have a new problem)/);
});

test("a definition in a module the snapshot does not hold is not renamed from a use", () => {
  // app.ry's names were found with lib/weather.ry beside it; then the snapshot loses lib/weather.ry.
  const app = snapshot.modules.get(APP)!;
  namesOf(snapshot, app);
  const cut = { modules: new Map([[APP, app]]) };
  const answer = prepareRename(cut, APP, offsetOf(cut, APP, "w.fore|cast(city"));
  assert.deepEqual(answer, {
    refused:
      "`forecast` is declared in /w/lib/weather.ry, which the editor has not read: it cannot be renamed from here.",
  });
  // What app.ry declares itself is renamed as ever.
  assert.ok("edits" in rename(cut, APP, offsetOf(cut, APP, "{des|cribe("), "tell"));
});

test("prepareRename gives the name and its span, a refusal, or nothing where no name is", () => {
  const at = offsetOf(snapshot, APP, "let to|day be");
  assert.deepEqual(prepareRename(snapshot, APP, at), {
    span: { file: APP, start: at - 2, end: at + 3 },
    placeholder: "today",
  });
  assert.deepEqual(prepareRename(snapshot, APP, offsetOf(snapshot, APP, "public function ma|in")), {
    refused: "`main` is where a run starts: `renyi run` and `renyi test` find it by that name.",
  });
  assert.equal(prepareRename(snapshot, APP, offsetOf(snapshot, APP, "function| describe")), undefined);
});

test("at no name, past the end, in a comment or on a space: nothing, and nothing thrown", () => {
  const text = snapshot.modules.get(LIB)!.text;
  for (const offset of [-5, text.length + 1, 0.5, Number.NaN, 3, text.indexOf("\n\n") + 1]) {
    assert.equal(definition(snapshot, LIB, offset), undefined);
    assert.deepEqual(references(snapshot, LIB, offset, true), []);
    assert.equal(prepareRename(snapshot, LIB, offset), undefined);
    assert.ok("refused" in rename(snapshot, LIB, offset, "x"));
  }
  for (const [file, view] of snapshot.modules)
    for (let offset = 0; offset <= view.text.length; offset++) {
      definition(snapshot, file, offset);
      references(snapshot, file, offset, true);
      prepareRename(snapshot, file, offset);
    }
});

test("a file with a syntax error has no names, and no answer throws", () => {
  const broken = analyse([{ file: "/b/main.ry", text: "function main()\n  let x be (1 +\nend\n" }]);
  assert.deepEqual(references(broken, "/b/main.ry", 22, true), []);
  assert.equal(definition(broken, "/b/main.ry", 22), undefined);
});

test("a field is named in access, construction, `with` and record patterns, and renamed in all of them", () => {
  const file = "/r/main.ry";
  const text =
    "type Point is record\n  x: Int\n  y: Int\nend\n\nfunction main()\n  needs console\n" +
    '  let p be Point(x: 1, y: 2)\n  match p\n    when Point(x: 0, y: b) then console.print("{b}")\n' +
    '    when _ then console.print("no")\n  end\n  let q be p with x: 3\n  console.print("{q.x}")\nend\n';
  const small = analyse([{ file, text }]);
  assert.deepEqual(small.modules.get(file)!.diagnostics, []);
  const spans = references(small, file, text.indexOf("x: Int"), true);
  assert.deepEqual(
    spans.map((s) => text.slice(s.start - 1, s.end + 1)),
    [" x:", "(x:", "(x:", " x:", ".x}"],
  );
  const answer = rename(small, file, text.indexOf("q.x") + 2, "across");
  assert.ok("edits" in answer);
  const after = analyse(applied([{ file, text }], answer.edits)).modules.get(file)!;
  assert.deepEqual(after.diagnostics, []);
  assert.match(after.text, /across: Int from json "x"\n/);
  assert.match(after.text, /when Point\(across: 0, y: b\)/);
  assert.match(after.text, /p with across: 3/);
});
