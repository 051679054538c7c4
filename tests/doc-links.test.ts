// Every relative link of the README, the specification (spec/*.md), the examples'
// READMEs and bench/RESULTS.md leads somewhere: to a file or folder of the
// repository that exists, and, with a `#anchor`, to a heading of that document
// (or an `<a id>` in it), the anchor made from the heading as GitHub makes it.
// Links with a scheme (https:, mailto:) are not followed: tests talk to no one.

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { ROOT } from "./golden.js";

/** The documents whose links are checked, by their paths from the repository's root. */
function documents(): string[] {
  const inFolder = (folder: string) =>
    readdirSync(join(ROOT, folder))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `${folder}/${f}`);
  const fixtures = readdirSync(join(ROOT, "examples", "fixtures"))
    .map((d) => `examples/fixtures/${d}/README.md`)
    .filter((f) => existsSync(join(ROOT, f)));
  return ["README.md", ...inFolder("spec"), "examples/README.md", ...fixtures, "bench/RESULTS.md"];
}

/** A document's text without its fenced blocks and inline code, where a bracket is no link. */
function prose(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, (block) => block.replace(/[^\n]/g, " "))
    .replace(/(`+)[^`\n]*?\1/g, (span) => " ".repeat(span.length));
}

interface Link {
  readonly line: number;
  readonly target: string;
}

/** The links of a document: inline `[text](target)` and reference definitions `[name]: target`. */
function linksOf(markdown: string): Link[] {
  const text = prose(markdown);
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  const links: Link[] = [];
  for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
    links.push({ line: lineOf(m.index), target: m[1]! });
  for (const m of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm))
    links.push({ line: lineOf(m.index), target: m[1]! });
  return links;
}

/** The anchor GitHub gives a heading: its text lower-cased, punctuation dropped, spaces as hyphens. */
function slugOf(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`/g, "")
    .replace(/<[^>]+>/g, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "").replace(/ /g, "-");
}

/** Every anchor of a document: one per heading (a repeated one numbered -1, -2, ...) and each `<a id>`. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = prose(markdown);
  for (const m of text.matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/gm)) {
    // The heading as written: inline code counts for its anchor, blanked out in `text`.
    const written = markdown.slice(m.index, m.index + m[0].length).replace(/^ {0,3}#{1,6}[ \t]+/, "");
    const slug = slugOf(written.replace(/[ \t#]*$/, ""));
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const m of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  return anchors;
}

/** What is wrong with a link from a document, or nothing. */
function problemOf(doc: string, link: Link): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return undefined;
  const hash = link.target.indexOf("#");
  const path = decodeURIComponent(hash < 0 ? link.target : link.target.slice(0, hash));
  const anchor = hash < 0 ? undefined : decodeURIComponent(link.target.slice(hash + 1));
  const target = path === "" ? join(ROOT, doc) : resolve(ROOT, dirname(doc), path);
  const where = `${doc}:${link.line}: ${link.target}`;
  if (path.startsWith("/") || relative(ROOT, target).startsWith("..")) return `${where} leads outside the repository`;
  if (!existsSync(target)) return `${where}: there is no ${relative(ROOT, target)}`;
  if (anchor === undefined) return undefined;
  if (statSync(target).isDirectory() || !target.endsWith(".md"))
    return `${where}: an anchor in ${relative(ROOT, target)}, which is no Markdown document`;
  if (!anchorsOf(readFileSync(target, "utf8")).has(anchor))
    return `${where}: ${relative(ROOT, target)} has no heading whose anchor is #${anchor}`;
  return undefined;
}

test("the anchors are made as GitHub makes them", () => {
  assert.equal(slugOf("6. `renyi run`"), "6-renyi-run");
  assert.equal(slugOf("3. Fuel, depth and the other limits"), "3-fuel-depth-and-the-other-limits");
  assert.equal(slugOf("An agent's walk-through"), "an-agents-walk-through");
  assert.equal(slugOf("renyic build"), "renyic-build");
  assert.deepEqual([...anchorsOf("# A\n\n## B\n\n```\n# not a heading\n```\n## B\n")], ["a", "b", "b-1"]);
});

test("a dead link, a missing anchor and a link out of the repository are found", () => {
  const doc = "README.md";
  const problems = (markdown: string) =>
    linksOf(markdown)
      .map((link) => problemOf(doc, link))
      .filter((p) => p !== undefined);
  assert.deepEqual(problems("[a](spec/README.md) [b](https://example.com/x) `[c](nowhere.md)`\n"), []);
  assert.match(problems("see [it](spec/nowhere.md)\n").join(), /there is no spec\/nowhere\.md/);
  assert.match(problems("[x](spec/mcp.md#no-such-heading)\n").join(), /no heading whose anchor is #no-such-heading/);
  assert.match(problems("[x](../outside.md)\n").join(), /leads outside the repository/);
  assert.match(problems("[x]: spec/gone.md\n").join(), /there is no spec\/gone\.md/);
});

for (const doc of documents()) {
  test(`every relative link of ${doc} leads to a file and heading that exist`, () => {
    const links = linksOf(readFileSync(join(ROOT, doc), "utf8"));
    assert.deepEqual(
      links.map((link) => problemOf(doc, link)).filter((p) => p !== undefined),
      [],
    );
  });
}

test("the README links to every reference and to each command's section of spec/cli.md", () => {
  const targets = new Set(linksOf(readFileSync(join(ROOT, "README.md"), "utf8")).map((l) => l.target));
  for (const reference of [
    "spec/README.md",
    "spec/language.md",
    "spec/library.md",
    "spec/recording.md",
    "spec/security.md",
    "spec/diagnostics.md",
    "spec/mcp.md",
    "spec/cli.md",
    "bench/RESULTS.md",
  ])
    assert.ok(targets.has(reference), `the README links to ${reference}`);
  assert.ok(
    [...targets].some((t) => t.startsWith("spec/cli.md#renyi-run")),
    "the command table links to spec/cli.md#renyi-run",
  );
});

test("the README stays a tour: under 150 lines, the flag lists in spec/cli.md", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const lines = readme.split("\n").length - (readme.endsWith("\n") ? 1 : 0);
  assert.ok(lines < 150, `README.md has ${lines} lines`);
  assert.doesNotMatch(
    readme,
    /--max-output-bytes|--request-timeout|--check-memory/,
    "a flag list belongs in spec/cli.md",
  );
});
