// The code hash (compiler/hash/code-form.ts, spec/recording.md "What the code
// hash covers") against random edits of generated programs and of the examples:
// an edit that cannot change what main does (a comment, a test, an unused
// function or type, the formatter's layout) keeps the hash; an edit of what main
// reaches (a literal, an operator, the function it calls, a `from json` key, a
// case's place, a `needs` line) changes it.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { formatSource } from "../compiler/format/format.js";
import { parseSource } from "../compiler/frontend.js";
import { CODE_FORM, codeForm, codeHash, reachedDefinitions } from "../compiler/hash/code-form.js";
import { generateProgram } from "./program-generator.js";
import { sha256 } from "../report/sha256.js";
import { ROOT } from "./golden.js";
import { seeded } from "./support.js";

const SEEDS = 60;

/** The hash of a program of the modules given (name to text), the first the entry; undefined when one does not parse. */
function hashOf(modules: Record<string, string>): string | undefined {
  const parsed = Object.entries(modules).map(([name, text]) => ({ name, ...parseSource(`${name}.ry`, text) }));
  if (parsed.some((m) => m.diagnostics.some((d) => d.severity === "error"))) return undefined;
  return codeHash(
    parsed.map((m) => ({ name: m.name, syntax: m.module })),
    parsed[0]!.name,
  );
}

function one(name: string, text: string): string {
  const hash = hashOf({ [name]: text });
  assert.ok(hash !== undefined, `${name} parses:\n${text}`);
  return hash;
}

/** The generated programs that parse, each with two functions of its own: main calls the first, nothing the second. */
function programs(): { seed: number; entry: string; text: string }[] {
  const out: { seed: number; entry: string; text: string }[] = [];
  for (let seed = 1; seed <= SEEDS; seed++) {
    const generated = generateProgram(seed);
    const text = withPicks(generated.source);
    if (text !== undefined && hashOf({ [generated.entry]: text }) !== undefined)
      out.push({ seed, entry: generated.entry, text });
  }
  assert.ok(out.length > SEEDS / 2, `most generated programs parse (${out.length} of ${SEEDS})`);
  return out;
}

const PICKS = `
function code_hash_a() returns Int
  return 1 + 2
end

function code_hash_b() returns Int
  return 3 * 4
end
`;

/** The program with main's first statement a call of `code_hash_a`. */
function withPicks(source: string): string | undefined {
  const lines = source.split("\n");
  const main = lines.findIndex((l) => l.startsWith("public function main("));
  if (main < 0) return undefined;
  // After the header's `purpose:` and `needs` lines.
  let at = main + 1;
  while (at < lines.length && /^ {2}(purpose:|needs )/.test(lines[at]!)) at++;
  lines.splice(at, 0, "  let code_hash_pick be code_hash_a()");
  return `${lines.join("\n")}${PICKS}`;
}

/** Top-level line indexes where a new item or a whole-line comment may go: before a definition starts. */
function itemStarts(text: string): number[] {
  return text
    .split("\n")
    .map((line, i) => (/^(public |function |type |test )/.test(line) ? i : -1))
    .filter((i) => i >= 0);
}

function insertLines(text: string, at: number, added: string): string {
  const lines = text.split("\n");
  lines.splice(at, 0, added);
  return lines.join("\n");
}

const KEEPS: { name: string; edit: (text: string, random: () => number) => string }[] = [
  {
    name: "a comment before a definition",
    edit: (text, random) => {
      const starts = itemStarts(text);
      return insertLines(text, starts[Math.floor(random() * starts.length)]!, '-- A note: "quoted", {braces}.');
    },
  },
  {
    name: "a comment inside main and at the end of its first line",
    edit: (text) =>
      text
        .replace(
          "  let code_hash_pick be code_hash_a()",
          "  -- picked\n\n  let code_hash_pick be code_hash_a() -- here",
        )
        .replace(/^(public function main\(.*)$/m, "$1 -- the entry"),
  },
  {
    name: "a test",
    edit: (text) =>
      `${text}\ntest "code hash: an added test"\n  check code_hash_a() is 3\n  check code_hash_b() is 12\nend\n`,
  },
  {
    name: "an unused function and an unused type",
    edit: (text, random) =>
      insertLines(
        text,
        itemStarts(text)[0]!,
        `type CodeHashUnused is record\n  x: Int from json "y"\nend\n\nfunction code_hash_unused() returns Text\n  return "${Math.floor(random() * 1e6)}"\nend\n`,
      ),
  },
  { name: "a change of the function main does not call", edit: (text) => text.replace("return 3 * 4", "return 3 - 5") },
  {
    name: "the formatter's layout",
    edit: (text) => {
      const formatted = formatSource("program.ry", text).text;
      assert.ok(formatted !== undefined);
      return formatted;
    },
  },
  {
    // Not inside a definition, where a line may be a triple-quoted text's, whose blank lines are its own.
    name: "blank lines and trailing spaces between definitions",
    edit: (text) => text.replace(/^end\n/gm, "end   \n\n\n").replace(/^(public |function |type )/gm, "\n$1"),
  },
];

const CHANGES: { name: string; edit: (text: string) => string | undefined }[] = [
  {
    name: "a literal of main",
    edit: (text) => text.replace("let code_hash_pick be code_hash_a()", "let code_hash_pick be code_hash_a() + 0"),
  },
  {
    name: "a text of main",
    edit: (text) => {
      const main = text.indexOf("public function main(");
      const quote = text.indexOf('console.print("', main);
      return quote < 0
        ? undefined
        : `${text.slice(0, quote)}console.print("!${text.slice(quote + 'console.print("'.length)}`;
    },
  },
  { name: "a literal of the function main calls", edit: (text) => text.replace("return 1 + 2", "return 1 + 3") },
  { name: "an operator of the function main calls", edit: (text) => text.replace("return 1 + 2", "return 1 - 2") },
  {
    name: "the function main calls",
    edit: (text) => text.replace("let code_hash_pick be code_hash_a()", "let code_hash_pick be code_hash_b()"),
  },
  {
    name: "main's needs",
    edit: (text) => {
      const needs = text.indexOf("\n  needs ", text.indexOf("public function main("));
      return needs < 0
        ? undefined
        : `${text.slice(0, needs)}\n  needs random,${text.slice(needs + "\n  needs".length)}`;
    },
  },
];

test("an edit main cannot see keeps the hash: comments, tests, unused definitions, layout", () => {
  const random = seeded(7);
  let edits = 0;
  for (const { seed, entry, text } of programs()) {
    const before = one(entry, text);
    for (const keep of KEEPS) {
      const edited = keep.edit(text, random);
      if (keep.name !== "the formatter's layout")
        assert.notEqual(edited, text, `seed ${seed}: ${keep.name} edits the text`);
      assert.equal(one(entry, edited), before, `seed ${seed}: ${keep.name} keeps the hash\n${edited}`);
      edits++;
    }
  }
  console.log(`code hash: ${edits} edits that keep it`);
});

test("an edit of what main reaches changes the hash: a literal, an operator, the function called, the needs", () => {
  let edits = 0;
  for (const { seed, entry, text } of programs()) {
    const before = one(entry, text);
    for (const change of CHANGES) {
      const edited = change.edit(text);
      if (edited === undefined || edited === text) continue;
      assert.notEqual(one(entry, edited), before, `seed ${seed}: ${change.name} changes the hash\n${edited}`);
      edits++;
    }
  }
  assert.ok(edits > SEEDS * 3, `most changes apply (${edits})`);
});

test("the examples: comments, tests and a formatting keep the hash; a json key, a case's place, a budget change it", () => {
  const weather = readFileSync(join(ROOT, "examples", "weather.ry"), "utf8");
  const before = one("weather", weather);
  const withoutComments = weather
    .split("\n")
    .filter((l) => !l.trimStart().startsWith("--"))
    .join("\n");
  assert.equal(one("weather", withoutComments), before);
  const withoutTests = weather.slice(0, weather.indexOf("\ntest "));
  assert.equal(one("weather", withoutTests), before, "the tests are not in the hash");
  assert.equal(one("weather", formatSource("weather.ry", weather).text!), before);
  const changed = [
    weather.replace('from json "windspeed"', 'from json "wind_speed"'),
    weather.replace(
      "  Network(error: HttpError)\n  Decoding(error: JsonError)",
      "  Decoding(error: JsonError)\n  Network(error: HttpError)",
    ),
    weather.replace("at most 60 per minute", "at most 61 per minute"),
    weather.replace("longitude: 2.35", "longitude: 2.36"),
    weather.replace("purpose: Fetch the forecast for a city.", "purpose: Fetch a forecast."),
    weather.replace("wind_speed: Float", "wind_speed: Int"),
  ];
  for (const text of changed) {
    assert.notEqual(text, weather);
    assert.notEqual(one("weather", text), before, text);
  }
  // A type's purpose is shown nowhere at run time; the hash leaves it out.
  const typed = weather.replace("type Place is record", "type Place is record\n  purpose: A point on the map.");
  assert.equal(one("weather", typed), before);
  for (const example of ["hello", "bookmarks", "currency_tool", "status_api", "assistant", "pagination"]) {
    const text = readFileSync(join(ROOT, "examples", `${example}.ry`), "utf8");
    assert.equal(one(example, formatSource(`${example}.ry`, text).text!), one(example, text), example);
  }
});

test("across modules: what main reaches of a module it uses is in the hash, the rest of that module and unused modules are not", () => {
  const main = `use lib.tools as t
use other

public function main()
  purpose: Call a helper of another module.
  needs console
  console.print("{t.double(2)} {t.Shape.Dot}")
end
`;
  const tools = `public function double(n: Int) returns Int
  purpose: Twice n.
  return twice(n)
end

function twice(n: Int) returns Int
  return n * 2
end

public function unused() returns Int
  purpose: Nothing main calls.
  return 0
end

public type Shape is variant
  Dot
  Line(length: Int)
end
`;
  const other = `public function ignored() returns Int\n  purpose: Never called.\n  return 1\nend\n`;
  const hash = (m: string, tl: string, o: string) => hashOf({ main: m, "lib/tools": tl, other: o });
  const before = hash(main, tools, other);
  assert.ok(before !== undefined);
  assert.equal(
    hash(main, tools.replace("return 0", "return 9"), other),
    before,
    "an unreached function of a used module",
  );
  assert.equal(hash(main, tools, other.replace("return 1", "return 2")), before, "a module main does not call into");
  assert.notEqual(hash(main, tools.replace("n * 2", "n * 3"), other), before, "a function reached through another");
  assert.notEqual(hash(main, tools.replace("  Dot\n  Line(length: Int)", "  Line(length: Int)\n  Dot"), other), before);
  assert.notEqual(hash(main.replace("use lib.tools as t", "use lib.tools2 as t"), tools, other), before);
  const reached = reachedDefinitions(
    [
      { name: "main", syntax: parseSource("main.ry", main).module },
      { name: "lib/tools", syntax: parseSource("lib/tools.ry", tools).module },
      { name: "other", syntax: parseSource("other.ry", other).module },
    ],
    "main",
  );
  assert.deepEqual(
    reached.map((d) => `${d.module}.${d.name}`),
    ["lib/tools.Shape", "lib/tools.double", "lib/tools.twice", "main.main"],
  );
});

test("the form of hello.ry, as hashed: the form tag, the entry, then each reached definition without positions", () => {
  const text = readFileSync(join(ROOT, "examples", "hello.ry"), "utf8");
  const modules = [{ name: "hello", syntax: parseSource("hello.ry", text).module }];
  const form = codeForm(modules, "hello");
  assert.equal(codeHash(modules, "hello"), sha256(form), "the hash is of the form, fed a line at a time");
  assert.ok(form.startsWith(`["${CODE_FORM}","hello"]\n`));
  assert.equal(
    form,
    [
      '["renyi-code-1","hello"]',
      '["hello","main",{"kind":"FunctionDef","public":true,"name":"main","typeParams":[],"params":[{"kind":"Param","name":"name","type":{"kind":"NamedType","path":["Text"],"args":[]},"default":{"kind":"TextLiteral","parts":[{"chunk":"world"}]}}],"purpose":"Greet someone by name.","needs":{"kind":"Needs","items":[{"kind":"GrantItem","capability":{"kind":"CapabilityRef","path":["console"]}}]},"body":{"kind":"Block","statements":[{"kind":"ExprStatement","expr":{"kind":"Call","callee":{"kind":"Member","object":{"kind":"Name","name":"console"},"name":"print"},"args":[{"kind":"Argument","value":{"kind":"TextLiteral","parts":[{"chunk":"Hello, "},{"kind":"Name","name":"name"},{"chunk":"!"}]}}]}}]}}]',
    ].join("\n"),
  );
});
