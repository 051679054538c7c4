// What the formatter's tests share: the programs of the repository that parse
// (examples/, the .ry files and golden sources of fixtures/), and the checks
// that a formatting kept a program's meaning and its comments.

import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { checkSource, parseSource } from "../compiler/index.js";
import { dumpChecked } from "../compiler/check/dump.js";
import { lex } from "../compiler/lex/lexer.js";
import { formatSource } from "../compiler/format/format.js";
import { readSections, ROOT } from "./golden.js";

/** A syntax tree without its positions, as JSON: two programs with the same tree mean the same. */
function treeWithoutSpans(file: string, text: string): string {
  const { module, diagnostics } = parseSource(file, text);
  assert.deepEqual(
    diagnostics.filter((d) => d.severity === "error").map((d) => d.code),
    [],
    `${file} does not parse:\n${text}`,
  );
  return JSON.stringify(module, (key, value) => (key === "span" ? undefined : value));
}

/** The checked tree's dump (which leaves positions out), when the program checks cleanly; undefined otherwise. */
function checkedDump(file: string, text: string): string | undefined {
  const checked = checkSource(file, text);
  if (checked.program === undefined) return undefined;
  return checked.modules.map((m) => dumpChecked(m)).join("\n");
}

export function commentsOf(file: string, text: string): string[] {
  return lex(file, text).comments.map((c) => text.slice(c.start, c.end).trimEnd());
}

/**
 * Formats `text` and asserts what formatting promises: the result formats to itself, parses to the same tree and
 * checks to the same checked tree, and holds the same comments in the same order. Returns the formatted text.
 */
export function assertFormatsWell(file: string, text: string): string {
  const first = formatSource(file, text);
  assert.ok(first.text !== undefined, `${file} does not parse`);
  const formatted = first.text;
  const second = formatSource(file, formatted);
  assert.equal(second.text, formatted, `${file}: formatting twice differs from formatting once`);
  assert.equal(treeWithoutSpans(file, formatted), treeWithoutSpans(file, text), `${file}: the tree changed`);
  assert.equal(checkedDump(file, formatted), checkedDump(file, text), `${file}: the checked tree changed`);
  assert.deepEqual(commentsOf(file, formatted), commentsOf(file, text), `${file}: the comments changed`);
  return formatted;
}

/** Every program of the repository that parses: examples, fixtures' .ry files and golden sources. */
export function repositoryPrograms(): { name: string; text: string }[] {
  const found: { name: string; text: string }[] = [];
  const visit = (folder: string): void => {
    for (const entry of readdirSync(folder).sort()) {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) visit(path);
      else if (entry.endsWith(".ry")) found.push({ name: relative(ROOT, path), text: readFileSync(path, "utf8") });
      else if (entry.endsWith(".golden")) {
        const source = readSections(path).get("source");
        if (source !== undefined) found.push({ name: relative(ROOT, path), text: `${source}\n` });
      }
    }
  };
  visit(join(ROOT, "examples"));
  visit(join(ROOT, "fixtures"));
  return found.filter((p) => formatSource(p.name, p.text).text !== undefined);
}

/** The documents whose Renyi blocks tests/language-examples.test.ts runs. */
export const DOCUMENTS = ["spec/language.md", "spec/testing.md", "spec/recording.md", "README.md"];

export interface DocumentBlock {
  readonly doc: string;
  /** The line of the block's first line of code, 1-based. */
  readonly line: number;
  /** The words after `renyi` on the fence. */
  readonly words: readonly string[];
  readonly text: string;
}

/** The ```renyi blocks of a document. */
export function renyiBlocks(doc: string, markdown: string): DocumentBlock[] {
  const lines = markdown.split("\n");
  const blocks: DocumentBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```renyi(.*)$/.exec(lines[i]!);
    if (fence === null) continue;
    let end = i + 1;
    while (end < lines.length && lines[end] !== "```") end++;
    const words = fence[1]!
      .trim()
      .split(/\s+/)
      .filter((w) => w !== "");
    blocks.push({ doc, line: i + 2, words, text: `${lines.slice(i + 1, end).join("\n")}\n` });
    i = end;
  }
  return blocks;
}

/**
 * A block's text formatted: a `renyi main` block (statements) as the body of a function, the rest as files.
 * Undefined when the block does not parse (the examples of syntax errors).
 */
export function formatBlock(block: DocumentBlock): string | undefined {
  if (!block.words.includes("main")) return formatSource("block.ry", block.text).text;
  const body = block.text
    .split("\n")
    .map((line) => (line === "" ? "" : `  ${line}`))
    .join("\n");
  const wrapped = formatSource("block.ry", `function main()\n${body}end\n`).text;
  if (wrapped === undefined) return undefined;
  const lines = wrapped.split("\n").slice(1, -2);
  return `${lines.map((line) => line.slice(2)).join("\n")}\n`;
}
