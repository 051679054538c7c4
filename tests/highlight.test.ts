// The TextMate grammar (editors/renyi.tmLanguage.json) on the engine VS Code
// uses. Golden token dumps of every syntax fixture and every example, in
// fixtures/highlight/ (`RENYI_UPDATE=1` rewrites them: review the diff); the
// grammar agrees with the lexer on all of them that lex cleanly; and the
// forms that are easy to get wrong, one by one.

import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { before, test } from "node:test";
import { KEYWORDS } from "../compiler/lex/tokens.js";
import { goldenFiles, readSections, ROOT, UPDATE, writeSections } from "./golden.js";
import {
  classOfScopes,
  describeDisagreement,
  disagreement,
  dumpTokens,
  loadHighlighter,
  type Highlighter,
  type HighlightToken,
} from "./highlight-support.js";

let highlight: Highlighter;
before(async () => {
  highlight = await loadHighlighter();
});

const GOLDEN = join(ROOT, "fixtures", "highlight");

/** Every input with a golden dump: the syntax fixtures' sources and the examples, by the golden file's path. */
function inputs(): Map<string, string> {
  const all = new Map<string, string>();
  for (const path of goldenFiles(join(ROOT, "fixtures", "syntax"))) {
    const source = readSections(path).get("source");
    if (source === undefined) continue;
    all.set(join("syntax", `${basename(path, ".golden")}.tokens`), `${source}\n`);
  }
  const examples = join(ROOT, "examples");
  for (const name of readdirSync(examples).filter((n) => n.endsWith(".ry"))) {
    all.set(join("examples", `${basename(name, ".ry")}.tokens`), readFileSync(join(examples, name), "utf8"));
  }
  return all;
}

test("the grammar's tokens of every syntax fixture and example match their golden dumps", () => {
  const all = inputs();
  assert.ok(all.size > 60, `the fixtures and examples are found (${all.size})`);
  const stale: string[] = [];
  for (const [name, source] of all) {
    const path = join(GOLDEN, name);
    const tokens = dumpTokens(highlight(source));
    if (UPDATE) {
      mkdirSync(join(path, ".."), { recursive: true });
      writeSections(path, new Map([["tokens", tokens]]));
      continue;
    }
    assert.ok(existsSync(path), `${name} has no golden dump: run with RENYI_UPDATE=1 and review it`);
    assert.equal(tokens, readSections(path).get("tokens"), `${name} differs from its golden dump`);
  }
  for (const folder of ["syntax", "examples"]) {
    for (const name of readdirSync(join(GOLDEN, folder))) {
      if (!all.has(join(folder, name))) stale.push(join(folder, name));
    }
  }
  assert.deepEqual(stale, [], "every golden dump has its input");
});

test("the grammar agrees with the lexer on every fixture and example that lexes without a problem", () => {
  let compared = 0;
  for (const [name, source] of inputs()) {
    const found = disagreement(highlight, source);
    if (found === "lex-error") continue;
    compared++;
    assert.equal(found && `${name} ${describeDisagreement(found)}`, undefined);
  }
  assert.ok(compared > 30, `most inputs are compared (${compared})`);
});

/** The tokens of one line, as `text=class` for the ones that are not spaces. */
function classes(source: string): string[] {
  return highlight(source)
    .filter((t) => t.text.trim() !== "")
    .map((t) => `${t.text}=${classOfScopes(t.scopes)}`);
}

function tokenOf(source: string, text: string, nth = 0): HighlightToken {
  const found = highlight(source).filter((t) => t.text === text);
  assert.ok(found[nth] !== undefined, `${JSON.stringify(text)} is a token of ${JSON.stringify(source)}`);
  return found[nth]!;
}

test("every keyword of the lexer is a keyword of the grammar, and other words are names", () => {
  for (const keyword of KEYWORDS) {
    assert.deepEqual(classes(keyword), [`${keyword}=keyword`], keyword);
  }
  for (const word of ["do", "null", "class", "self", "minute", "time", "json", "is_empty", "to_int", "endpoint"]) {
    assert.deepEqual(classes(word), [`${word}=name`], word);
  }
  assert.deepEqual(classes("true false nothing"), ["true=keyword", "false=keyword", "nothing=keyword"]);
  assert.ok(tokenOf("true", "true").scopes.includes("constant.language.boolean.renyi"));
  assert.ok(tokenOf("nothing", "nothing").scopes.includes("constant.language.null.renyi"));
});

test("keywords fall into control, declaration and word operators", () => {
  const scopeOf = (source: string, text: string) => tokenOf(source, text).scopes.at(-1);
  assert.equal(scopeOf("if a then b else c", "if"), "keyword.control.conditional.renyi");
  assert.equal(scopeOf("for each x in xs", "each"), "keyword.control.loop.renyi");
  assert.equal(scopeOf("end", "end"), "keyword.control.end.renyi");
  assert.equal(scopeOf("let x be 1", "let"), "storage.type.renyi");
  assert.equal(scopeOf("public function main()", "public"), "storage.modifier.public.renyi");
  assert.equal(scopeOf("public function main()", "function"), "storage.type.function.renyi");
  assert.equal(scopeOf("public function main()", "main"), "entity.name.function.renyi");
  assert.equal(scopeOf("a and not b or c is d", "and"), "keyword.operator.word.renyi");
  assert.equal(scopeOf("a and not b or c is d", "not"), "keyword.operator.word.renyi");
  assert.equal(scopeOf("a and not b or c is d", "or"), "keyword.operator.word.renyi");
  assert.equal(scopeOf("a and not b or c is d", "is"), "keyword.operator.word.renyi");
  assert.equal(scopeOf("from p in ps where p.ok select p", "where"), "keyword.control.query.renyi");
  assert.equal(scopeOf("use lib.weather as w", "use"), "keyword.control.import.renyi");
  assert.equal(scopeOf("use lib.weather as w", "weather"), "entity.name.namespace.renyi");
  assert.equal(scopeOf("function f() or fails with E", "or"), "keyword.other.renyi");
  assert.equal(scopeOf("f(x)", "f"), "entity.name.function.call.renyi");
  assert.equal(scopeOf("a.b.upper()", "upper"), "entity.name.function.call.renyi");
  assert.equal(scopeOf("a.b.upper()", "b"), "variable.other.property.renyi");
  assert.equal(scopeOf("let p be Place(latitude: 1)", "Place"), "entity.name.type.renyi");
  assert.equal(scopeOf("let p be Place(latitude: 1)", "latitude"), "variable.other.property.renyi");
});

test("texts nest through interpolations, which hold code, and end on their line", () => {
  const source = 'let d be "a {b + "c {d}"} e" -- done';
  assert.deepEqual(classes(source), [
    "let=keyword",
    "d=name",
    "be=keyword",
    '"=text',
    "a =text",
    "{=interpolation",
    "b=name",
    "+=punctuation",
    '"=text',
    "c =text",
    "{=interpolation",
    "d=name",
    "}=interpolation",
    '"=text',
    "}=interpolation",
    " e=text",
    '"=text',
    "--=comment",
    " done=comment",
  ]);
  // The code inside is embedded, so that VS Code treats it as code, not text (brackets, indentation rules).
  assert.ok(tokenOf(source, "b").scopes.includes("meta.embedded.line.renyi"));
  assert.ok(tokenOf(source, "{").scopes.includes("punctuation.section.interpolation.begin.renyi"));
  // A map literal's `}` inside an interpolation closes the map, and escapes are marked.
  assert.deepEqual(classes('"m {{"k": 1}} \\{ \\n \\u{1F600} \\q"').slice(3, 11), [
    "{=punctuation",
    '"=text',
    "k=text",
    '"=text',
    ":=punctuation",
    "1=number",
    "}=punctuation",
    "}=interpolation",
  ]);
  assert.ok(tokenOf('"\\u{1F600}"', "\\u{1F600}").scopes.includes("constant.character.escape.renyi"));
  assert.ok(tokenOf('"\\q"', "\\q").scopes.includes("invalid.illegal.escape.renyi"));
  // An unclosed one-line text, or interpolation, ends with its line: the next line is code again.
  assert.deepEqual(classes('let a be "open {f("b\nlet c be 1').slice(-4), [
    "let=keyword",
    "c=name",
    "be=keyword",
    "1=number",
  ]);
  // `--` inside an interpolation is a comment, as the lexer reads it.
  assert.deepEqual(classes('"{x -- y}"').slice(2), ["x=name", "--=comment", ' y}"=comment']);
});

test('""" texts span lines, with interpolations that may too', () => {
  const source = 'let body be """\n  {\n    name\n  } and "quoted"\n  """\nlet n be 1';
  assert.deepEqual(classes(source), [
    "let=keyword",
    "body=name",
    "be=keyword",
    '"""=text',
    "{=interpolation",
    "name=name",
    "}=interpolation",
    ' and "quoted"=text',
    '"""=text',
    "let=keyword",
    "n=name",
    "be=keyword",
    "1=number",
  ]);
});

test("numbers: ints and floats with separators; a number running into letters, a foreign operator or character is an error", () => {
  assert.deepEqual(classes("1_000_000 21.5 1.5e-3 2E10 3.to_float()"), [
    "1_000_000=number",
    "21.5=number",
    "1.5e-3=number",
    "2E10=number",
    "3=number",
    ".=punctuation",
    "to_float=name",
    "(=punctuation",
    ")=punctuation",
  ]);
  assert.ok(tokenOf("1_000", "1_000").scopes.includes("constant.numeric.integer.renyi"));
  assert.ok(tokenOf("1.5e-3", "1.5e-3").scopes.includes("constant.numeric.float.renyi"));
  assert.deepEqual(classes("12px 1__0"), ["12px=invalid", "1__0=invalid"]);
  assert.deepEqual(classes("a == b"), ["a=name", "===invalid", "b=name"]);
  // Outside texts and comments a program is ASCII: any other character is an error, as are `@`, `;` and the like.
  assert.deepEqual(classes("a @ b € c;"), ["a=name", "@=invalid", "b=name", "€=invalid", "c=name", ";=invalid"]);
  assert.deepEqual(classes('"€ @" -- € @'), ['"=text', "€ @=text", '"=text', "--=comment", " € @=comment"]);
});

test("a needs line: capabilities, budgets and guards, going on after a comma at the end of a line", () => {
  const source = [
    "  needs console,",
    '    environment("KEY") only to network.http("api.example.com") or network.http("127.0.0.1"),',
    "    network.socket(8080) at most 60 per minute",
    "  let x be console",
  ].join("\n");
  const tokens = highlight(source);
  const scope = (text: string, nth = 0) => tokens.filter((t) => t.text === text)[nth]!.scopes.at(-1);
  assert.equal(scope("needs"), "keyword.other.needs.renyi");
  assert.equal(scope("console"), "support.type.capability.renyi");
  assert.equal(scope("environment"), "support.type.capability.renyi");
  assert.equal(scope("http"), "support.type.capability.renyi");
  assert.equal(scope("only"), "keyword.other.guard.renyi");
  assert.equal(scope("most"), "keyword.other.budget.renyi");
  assert.equal(scope("minute"), "constant.language.unit.renyi");
  assert.equal(scope("8080"), "constant.numeric.integer.renyi");
  assert.equal(scope('"', 0), "punctuation.definition.string.begin.renyi");
  // The line after one that ends without a comma is code again.
  assert.equal(scope("console", 1), "variable.other.readwrite.renyi");
  // In a function type, the list stops before the next parameter.
  const signature = "function serve(h: function() needs console, network.http, port: Int)";
  assert.equal(tokenOf(signature, "http").scopes.at(-1), "support.type.capability.renyi");
  assert.equal(tokenOf(signature, "port").scopes.at(-1), "variable.parameter.renyi");
  // In a test, before `replays`.
  const testLine = 'test "t" needs console replays "fixtures/x.json"';
  assert.equal(tokenOf(testLine, "replays").scopes.at(-1), "keyword.other.renyi");
  assert.equal(tokenOf(testLine, "test").scopes.at(-1), "storage.type.test.renyi");
});

test("purpose: takes the rest of its line as prose, and labels may be keywords", () => {
  const source = '  purpose: Anything -- "quotes" and {braces}\n  from: Text';
  assert.deepEqual(classes(source), [
    "purpose=keyword",
    ":=punctuation",
    'Anything -- "quotes" and {braces}=prose',
    "from=name",
    ":=punctuation",
    "Text=type",
  ]);
  assert.deepEqual(classes("f(x, as: List<Job>) otherwise fail"), [
    "f=name",
    "(=punctuation",
    "x=name",
    ",=punctuation",
    "as=name",
    ":=punctuation",
    "List=type",
    "<=punctuation",
    "Job=type",
    ">=punctuation",
    ")=punctuation",
    "otherwise=keyword",
    "fail=keyword",
  ]);
  assert.equal(tokenOf("List<Job>", "<").scopes.at(-1), "punctuation.definition.typeparameters.begin.renyi");
  assert.equal(tokenOf("a < b", "<").scopes.at(-1), "keyword.operator.comparison.renyi");
});
