// Property tests: the lexer and the parser never throw, whatever the input;
// every outcome is a tree, diagnostics, or both, and every span is inside the file.

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { parseSource } from "../compiler/index.js";
import { KEYWORD_BY_HASH, lex } from "../compiler/lex/lexer.js";
import { KEYWORDS } from "../compiler/lex/tokens.js";

// Pieces of Renyi, so that random programs get deep into the grammar.
const FRAGMENTS = [
  "function",
  "f",
  "(",
  ")",
  "x",
  ":",
  "Int",
  "returns",
  "or fails with",
  "E",
  "\n",
  "  ",
  "end",
  "let",
  "var",
  "set",
  "be",
  "to",
  "if",
  "then",
  "else",
  "for each",
  "in",
  "while",
  "match",
  "when",
  "otherwise",
  "fail",
  "with",
  "crash",
  "return",
  "stop",
  "skip",
  "check",
  "fails",
  "run concurrently",
  "from",
  "where",
  "sort by",
  "descending",
  "group by",
  "into",
  "select",
  "distinct",
  "take",
  "drop",
  "concurrently at most 4 at a time",
  "needs",
  "console",
  'network.http("a.com")',
  "at most 5 per minute",
  "only to",
  "purpose: p",
  "type",
  "T",
  "is",
  "record",
  "variant",
  "public",
  "use",
  "test",
  '"t"',
  "replays",
  '"{',
  '}"',
  '"""',
  "{",
  "}",
  "[",
  "]",
  ",",
  ".",
  "...",
  "=>",
  "+",
  "-",
  "*",
  "/",
  "<",
  "<=",
  ">",
  ">=",
  "=",
  "mod",
  "and",
  "not",
  "1",
  "2.5",
  "1_000",
  "true",
  "nothing",
  "_",
  "Some(",
  "None",
  "List<",
  ">",
  "--",
  "\\",
  '"a\\n"',
  "@",
  "€",
  "\u0000",
  "\t",
  "\r\n",
];

const programLike = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 200 }).map((parts) => parts.join(" "));
const anyText = fc.string({ unit: "binary", maxLength: 400 });

function assertWellFormed(text: string): void {
  const result = parseSource("p.ry", text);
  assert.equal(result.module.kind, "Module");
  for (const d of result.diagnostics) {
    assert.match(d.code, /^E-SYN-[A-Z-]+$/);
    assert.ok(d.span.start >= 0 && d.span.start <= text.length + 1, `span start ${d.span.start} outside the text`);
    assert.ok(d.span.end >= d.span.start, "span ends before it starts");
  }
}

test("the parser never throws on arbitrary text", () => {
  fc.assert(
    fc.property(anyText, (text) => assertWellFormed(text)),
    { numRuns: 2000 },
  );
});

test("the parser never throws on program-like token soup", () => {
  fc.assert(
    fc.property(programLike, (text) => assertWellFormed(text)),
    { numRuns: 3000 },
  );
});

test("tokens come in order, each inside the text, and end with one eof", () => {
  fc.assert(
    fc.property(fc.oneof(anyText, programLike), (text) => {
      const tokens = lex("p.ry", text).tokens.toArray();
      assert.equal(tokens[tokens.length - 1]!.kind, "eof");
      assert.equal(tokens.filter((t) => t.kind === "eof").length, 1);
      let last = 0;
      for (const token of tokens) {
        assert.ok(token.offset >= last, "tokens out of order");
        assert.ok(token.offset + token.length <= text.length);
        last = token.offset;
      }
      // Texts are balanced: every text_start has its text_end, every interpolation its end.
      let texts = 0;
      let interpolations = 0;
      for (const token of tokens) {
        if (token.kind === "text_start") texts++;
        if (token.kind === "text_end") texts--;
        if (token.kind === "interp_start") interpolations++;
        if (token.kind === "interp_end") interpolations--;
        assert.ok(texts >= 0 && interpolations >= 0);
      }
      assert.equal(texts, 0);
      assert.equal(interpolations, 0);
    }),
    { numRuns: 2000 },
  );
});

test("a program that parses cleanly still parses cleanly with comments and blank lines added", () => {
  const program = 'function main()\n  needs console\n  let x be 1 +\n    2\n  console.print("{x}")\nend\n';
  fc.assert(
    fc.property(fc.array(fc.constantFrom("\n", "  -- a comment\n", "\n\n"), { maxLength: 5 }), (extra) => {
      const lines = program.split("\n");
      const text = lines.map((line, i) => (i === 1 ? extra.join("") + line : line)).join("\n");
      assert.deepEqual(parseSource("p.ry", text).diagnostics, []);
    }),
  );
});

test("every keyword has a hash of its own, so the lexer finds each one", () => {
  assert.equal(KEYWORD_BY_HASH.size, KEYWORDS.length);
  const { tokens } = lex("k.ry", KEYWORDS.join(" "));
  assert.deepEqual(tokens.kinds.slice(0, KEYWORDS.length), [...KEYWORDS]);
  // Near misses stay names.
  assert.deepEqual(lex("k.ry", "lets froms tes").tokens.kinds.slice(0, 3), ["name", "name", "name"]);
});

test("a module's prefix is a JavaScript name, one module's alone, and gives its module back", async () => {
  const { modulePrefix, moduleOfPrefix } = await import("../compiler/lower/names.js");
  // Paths of `use`d modules (names joined by `/`), and entry files' names, which may hold anything.
  const name = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/);
  const module = fc.oneof(
    fc.array(name, { minLength: 1, maxLength: 3 }).map((parts) => parts.join("/")),
    fc.string({ minLength: 1, maxLength: 8, unit: "grapheme" }).filter((s) => !s.includes("/")),
  );
  fc.assert(
    fc.property(module, module, (a, b) => {
      assert.match(modulePrefix(a), /^[A-Za-z_$][\w$]*$/u);
      assert.equal(moduleOfPrefix(modulePrefix(a)), a);
      if (a !== b) assert.notEqual(modulePrefix(a), modulePrefix(b));
    }),
    { numRuns: 2000 },
  );
});
