// Every example of the language reference, spec/language.md, is tested: each
// ```renyi block is checked, and run when it is a program with a main, its
// standard output compared with the ```output block that follows it; a block
// marked as an error example must give the code it names. And every program
// under examples/ checks cleanly.
//
// The fence's words after `renyi` say what a block is:
//   renyi                  a whole file: checks cleanly; run when it has a main
//   renyi main             statements: the body of a main that needs console
//   renyi module NAME      a module (NAME.ry, `lib/weather`) for the blocks after it in its section
//   renyi error CODE       checking gives CODE (a whole file, or statements with `main`)
//   renyi crash CODE       checks cleanly, and the run crashes with CODE (exit 2)
//   renyi fails            checks cleanly, and the run ends failed (exit 1)
//   renyi ... -- WORDS     WORDS are the program's command-line words when it runs
// Other fences (sh, text, output) are not Renyi code.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { checkProgramFrom, checkSource, type Diagnostic } from "../compiler/index.js";
import { ROOT } from "./golden.js";
import { RENYI } from "./support.js";

interface Block {
  readonly line: number;
  readonly section: string;
  readonly words: readonly string[];
  readonly args: readonly string[];
  readonly text: string;
  output?: string;
}

const REFERENCE = join(ROOT, "spec", "language.md");
const FENCES = new Set(["renyi", "output", "sh", "text"]);

/** The fenced blocks of the reference, with the section each stands in and the output block after it. */
function blocksOf(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  let section = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("## ")) section = line.slice(3);
    const fence = /^```(.*)$/.exec(line);
    if (fence === null) continue;
    const info = fence[1]!.trim();
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== "```") end++;
    const text = lines.slice(start, end).join("\n") + "\n";
    i = end;
    const [tag = "", ...rest] = info.split(/\s+/);
    assert.ok(FENCES.has(tag), `spec/language.md:${start}: a fence tagged "${info}"; Renyi code is tagged renyi, so that it is tested`);
    if (tag === "output") {
      const previous = blocks[blocks.length - 1];
      assert.ok(previous !== undefined && previous.output === undefined, `spec/language.md:${start}: an output block belongs right after a renyi block`);
      previous.output = text;
    } else if (tag === "renyi") {
      const split = rest.indexOf("--");
      blocks.push({ line: start, section, words: split < 0 ? rest : rest.slice(0, split), args: split < 0 ? [] : rest.slice(split + 1), text });
    }
  }
  return blocks;
}

function asMain(text: string): string {
  const body = text.trimEnd().split("\n").map((l) => (l === "" ? l : `  ${l}`)).join("\n");
  return `public function main()\n  purpose: Run an example of the reference.\n  needs console\n${body}\nend\n`;
}

/** The file a block stands for, with the modules of its section before it. */
function programOf(block: Block, modules: ReadonlyMap<string, string>): { entry: string; files: Map<string, string> } {
  const entry = `example_${block.line}`;
  const files = new Map(modules);
  files.set(entry, block.words.includes("main") ? asMain(block.text) : block.text);
  return { entry, files };
}

function check(program: { entry: string; files: Map<string, string> }): Diagnostic[] {
  const read = (name: string) => {
    const text = program.files.get(name);
    return text === undefined ? undefined : { file: `${name}.ry`, text };
  };
  return checkProgramFrom({ entry: program.entry, read }).diagnostics;
}

const shown = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.code} ${d.span.start}: ${d.message}`);

const markdown = readFileSync(REFERENCE, "utf8");
const blocks = blocksOf(markdown);
const work = mkdtempSync(join(tmpdir(), "renyi-reference-"));
after(() => rmSync(work, { recursive: true, force: true }));

interface Prepared {
  readonly block: Block;
  readonly program: { entry: string; files: Map<string, string> };
}

const prepared: Prepared[] = [];
{
  let modules = new Map<string, string>();
  let section = "";
  for (const block of blocks) {
    if (block.section !== section) {
      section = block.section;
      modules = new Map();
    }
    if (block.words[0] === "module") {
      modules.set(block.words[1]!, block.text);
      continue;
    }
    prepared.push({ block, program: programOf(block, modules) });
  }
}

test("spec/language.md has a tested example in every section", () => {
  const sections = [...markdown.matchAll(/^## (.*)$/gm)].map((m) => m[1]!);
  const tested = new Set(prepared.map((p) => p.block.section));
  const untested = sections.filter((s) => !tested.has(s) && !/^\d+\. Where/.test(s));
  assert.deepEqual(untested, []);
  const runs = prepared.filter((p) => /\bfunction main\(/.test(p.program.files.get(p.program.entry)!)).length;
  console.log(`language reference: ${prepared.length} examples in ${sections.length} sections, ${runs} of them run`);
});

for (const { block, program } of prepared) {
  const kind = block.words[0] ?? "";
  const where = `spec/language.md:${block.line} (${block.section})`;
  if (kind === "error") {
    test(`${where} gives ${block.words[1]}`, () => {
      // The code named, and no other: an example shows one mistake.
      const codes = [...new Set(check(program).map((d) => d.code))];
      assert.deepEqual(codes, [block.words[1]!]);
    });
    continue;
  }
  assert.ok(["", "main", "crash", "fails"].includes(kind), `${where}: unknown example kind "${kind}"`);
  test(`${where} checks cleanly`, () => {
    assert.deepEqual(shown(check(program)), []);
  });
}

/** Runs an example with `renyi run` in a folder of its own. */
function run(p: Prepared): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const folder = join(work, p.program.entry);
  for (const [name, text] of p.program.files) {
    mkdirSync(dirname(join(folder, `${name}.ry`)), { recursive: true });
    writeFileSync(join(folder, `${name}.ry`), text);
  }
  const child = spawn(process.execPath, [RENYI, "run", `${p.program.entry}.ry`, ...p.block.args], {
    cwd: folder,
    env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr })));
}

const runnable = prepared.filter((p) => p.block.words[0] !== "error" && /\bfunction main\(/.test(p.program.files.get(p.program.entry)!));
describe("the examples of spec/language.md that have a main run", { concurrency: 2 }, () => {
  for (const p of runnable) {
    const kind = p.block.words[0] ?? "";
    const where = `spec/language.md:${p.block.line} (${p.block.section})`;
    test(`${where} runs`, async () => {
      const result = await run(p);
      if (kind === "crash") {
        assert.equal(result.status, 2, result.stderr);
        assert.match(result.stderr, new RegExp(`error\\[${p.block.words[1]}\\]`));
      } else if (kind === "fails") {
        assert.equal(result.status, 1, result.stderr);
      } else {
        assert.equal(result.status, 0, result.stderr);
      }
      assert.doesNotMatch(result.stderr, /\n\s+at .+:\d+:\d+/, "a JavaScript stack trace reached the user");
      if (p.block.output !== undefined) assert.equal(result.stdout, p.block.output);
    });
  }
});

test("an example of the reference that does not do what it says fails its test", () => {
  const wrong = blocksOf('## 1. A\n\n```renyi error E-FAIL-UNHANDLED\nfunction f() returns Int\n  return 1\nend\n```\n');
  const codes = check(programOf(wrong[0]!, new Map())).map((d) => d.code);
  assert.ok(!codes.includes("E-FAIL-UNHANDLED"));
  assert.throws(() => blocksOf("```\nlet a be 1\n```\n"), /tagged renyi/);
});

const examples = join(ROOT, "examples");
for (const file of readdirSync(examples).filter((f) => f.endsWith(".ry")).sort()) {
  test(`examples/${file} checks cleanly`, () => {
    const result = checkSource(file, readFileSync(join(examples, file), "utf8"));
    assert.deepEqual(result.diagnostics.map((d) => `${d.code}: ${d.message}`), []);
    assert.ok(result.program !== undefined);
  });
}
