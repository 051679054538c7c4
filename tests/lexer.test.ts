// The lexer's details that golden trees do not show: spans, line ends, the
// byte order mark, the error limit.

import assert from "node:assert/strict";
import { test } from "node:test";
import { parseSource } from "../compiler/index.js";
import { lex } from "../compiler/lex/lexer.js";
import { dedentTriple } from "../compiler/lex/text.js";
import { decodeSource } from "../compiler/source.js";

test("every token carries its file, line, column, offset and length", () => {
  const tokens = lex("a.ry", 'let x be\n  "hi {name}"').tokens.toArray();
  const summary = tokens.map((t) => `${t.kind}@${t.line}:${t.column}+${t.length}${t.newlineBefore ? "^" : ""}`);
  assert.deepEqual(summary, [
    "let@1:1+3^",
    "name@1:5+1",
    "be@1:7+2",
    "text_start@2:3+1^",
    "text_part@2:4+3",
    "interp_start@2:7+1",
    "name@2:8+4",
    "interp_end@2:12+1",
    "text_end@2:13+1",
    "eof@2:14+0",
  ]);
  assert.ok(tokens.every((t) => t.file === "a.ry"));
  assert.equal(tokens[6]!.value, "name");
});

test("CR LF line ends read as LF, in code and in texts", () => {
  const result = parseSource("crlf.ry", 'function f()\r\n  let s be """\r\n    a\r\n    b\r\n    """\r\nend\r\n');
  assert.deepEqual(result.diagnostics, []);
  const statement = (result.module.items[0] as { body: { statements: { value: { parts: { value: string }[] } }[] } })
    .body.statements[0]!;
  assert.equal(statement.value.parts[0]!.value, "a\nb");
});

test("a byte order mark is dropped; bytes that are not UTF-8 are found", () => {
  const bom = decodeSource(new Uint8Array([0xef, 0xbb, 0xbf, 0x6c, 0x65, 0x74]));
  assert.deepEqual(bom, { ok: true, text: "let" });
  const bad = decodeSource(new Uint8Array([0x61, 0x0a, 0x62, 0xff, 0x63]));
  assert.equal(bad.ok, false);
  assert.equal(bad.ok === false && bad.badOffset, 3);
});

test("the common indentation of a triple text is removed, interpolations counting as text", () => {
  assert.deepEqual(dedentTriple(["\n    a\n      b\n    "], true, true), ["a\n  b"]);
  // "\n  x = " {v} "\n  y\n  " : the line holding the interpolation counts.
  assert.deepEqual(dedentTriple(["\n  x = ", "\n  y\n  "], true, true), ["x = ", "\ny"]);
  // A blank line inside keeps no stray spaces beyond the common indentation.
  assert.deepEqual(dedentTriple(["\n    a\n\n    b\n    "], true, true), ["a\n\nb"]);
  // The closing line sets the indentation when it is the smallest.
  assert.deepEqual(dedentTriple(["\n    a\n  "], true, true), ["  a"]);
});

test("a file of errors stops at 100 with E-SYN-TOO-MANY", () => {
  const text = `function f()\n${"  let be\n".repeat(500)}end\n`;
  const codes = parseSource("many.ry", text).diagnostics.map((d) => d.code);
  assert.equal(codes.length, 101);
  assert.equal(codes[codes.length - 1], "E-SYN-TOO-MANY");
});

test("a run of unknown characters is one diagnostic", () => {
  const codes = lex("g.ry", "€€€€€€ §§§ ").diagnostics.map((d) => d.code);
  assert.deepEqual(codes, ["E-SYN-CHARACTER", "E-SYN-CHARACTER"]);
});
