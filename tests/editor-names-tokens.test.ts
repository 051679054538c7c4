// Semantic tokens of examples/assistant.ry (a grant with a guard, a local read
// through it) against the reviewed golden fixtures/editor/semantic-tokens/
// assistant.golden, a token a line: `line:character text type modifiers`.
// RENYI_UPDATE=1 rewrites it. The protocol's encoded form says the same.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyse } from "../editor/analysis.js";
import { SEMANTIC_TOKEN_LEGEND, semanticTokenList, semanticTokens } from "../editor/semantic-tokens.js";
import { readSections, ROOT, UPDATE, writeSections } from "./golden.js";

const FILE = "/e/assistant.ry";
const text = readFileSync(join(ROOT, "examples/assistant.ry"), "utf8");
const snapshot = analyse([{ file: FILE, text }]);
const lines = text.split("\n");

test("the semantic tokens of examples/assistant.ry are the reviewed ones", () => {
  const list = semanticTokenList(snapshot, FILE);
  const shown = list
    .map((t) => {
      const written = lines[t.line]!.slice(t.character, t.character + t.length);
      return `${t.line + 1}:${t.character + 1} ${written} ${t.type}${t.modifiers.length > 0 ? ` ${t.modifiers.join(",")}` : ""}`;
    })
    .join("\n");
  const path = join(ROOT, "fixtures/editor/semantic-tokens/assistant.golden");
  if (UPDATE) writeSections(path, new Map([["tokens", shown]]));
  assert.equal(shown, readSections(path).get("tokens"));
});

test("the guarded read and the guarded grant item carry the modifier `guarded`", () => {
  const list = semanticTokenList(snapshot, FILE);
  const guarded = list
    .filter((t) => t.modifiers.includes("guarded"))
    .map((t) => lines[t.line]!.slice(t.character, t.character + t.length));
  assert.ok(guarded.includes("environment"));
  assert.ok(guarded.includes("key"));
});

test("the encoded form is the list, relative, with the legend's indexes", () => {
  const list = semanticTokenList(snapshot, FILE);
  const { data } = semanticTokens(snapshot, FILE);
  assert.equal(data.length, list.length * 5);
  let line = 0;
  let character = 0;
  list.forEach((t, i) => {
    const [dl, dc, length, type, bits] = data.slice(i * 5, i * 5 + 5) as [number, number, number, number, number];
    line += dl;
    character = dl === 0 ? character + dc : dc;
    assert.deepEqual([line, character, length], [t.line, t.character, t.length]);
    assert.equal(SEMANTIC_TOKEN_LEGEND.tokenTypes[type], t.type);
    assert.deepEqual(
      SEMANTIC_TOKEN_LEGEND.tokenModifiers.filter((_, b) => (bits & (1 << b)) !== 0),
      [...t.modifiers].sort(
        (a, b) => SEMANTIC_TOKEN_LEGEND.tokenModifiers.indexOf(a) - SEMANTIC_TOKEN_LEGEND.tokenModifiers.indexOf(b),
      ),
    );
  });
  // In order, none overlapping, none across a line.
  for (let i = 1; i < list.length; i++) {
    const [a, b] = [list[i - 1]!, list[i]!];
    assert.ok(b.line > a.line || (b.line === a.line && b.character >= a.character + a.length));
  }
});

test("comments are tokens, and a file unknown or unchecked gives tokens of its own text or none", () => {
  const comments = semanticTokenList(snapshot, FILE).filter((t) => t.type === "comment");
  assert.ok(comments.some((t) => lines[t.line]!.slice(t.character).startsWith("--")));
  assert.deepEqual(semanticTokenList(snapshot, "/e/none.ry"), []);
  const broken = analyse([{ file: "/b/x.ry", text: 'function main()\n  let x be "a\n  -- c\nend\n' }]);
  const tokens = semanticTokenList(broken, "/b/x.ry");
  assert.ok(tokens.some((t) => t.type === "keyword"));
});
