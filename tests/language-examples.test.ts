// Every example of the language reference, spec/language.md, of the
// specification of tests and recordings, spec/testing.md and spec/recording.md,
// and of the README is tested: each ```renyi block is checked, and run when it is
// a program with a main, its standard output compared with the ```output block
// that follows it; a block marked as an error example must give the code it
// names; and each ```console block's commands are run, their output compared with
// what the block shows. Every `Type.Case` these documents (and the rest of spec/)
// name of a variant of the prelude is one of its cases. And every program under
// examples/ checks cleanly.
//
// The fence's words after `renyi` say what a block is:
//   renyi                  a whole file: checks cleanly; run when it has a main
//   renyi main             statements: the body of a main that needs console
//   renyi module NAME      a module (NAME.ry, `lib/weather`) for the other blocks of its section
//   renyi error CODE       checking gives CODE (a whole file, or statements with `main`)
//   renyi crash CODE       checks cleanly, and the run crashes with CODE (exit 2)
//   renyi fails            checks cleanly, and the run ends failed (exit 1)
//   renyi replays FILE     checks cleanly, and `renyi run --replay FILE --console` runs it to
//                          its end (exit 0), FILE a `json file` block of its section
//   renyi records          checks cleanly, and `renyi record` runs it to its end (exit 0); the
//                          `json calls` block after it is the recording's calls, without their
//                          `duration_ms` and `at_ms`
//   renyi test NAME [CODE] a file of tests, NAME.ry: checks cleanly, and `renyi test NAME.ry`
//                          passes each of its tests (exit 0), or, with CODE, reports CODE and
//                          no other code for the tests that do not pass (exit 1)
//   renyi file NAME        a whole file, NAME.ry, that the console blocks of its section run:
//                          checks cleanly, and is not run by itself
//   renyi ... -- WORDS     WORDS are the program's command-line words when it runs
// and after `json`:
//   json file NAME         a file (a recording) written beside every program of its section
//   json calls             see `renyi records`
// An `output` block is what the block before it prints on standard output; after a
// `renyi test` block each time in it, `(12 ms)` or `(1.73 s)`, stands for any time.
// A `console` block is a session in a folder holding its section's files: each line
// `$ renyi WORDS` or `$ rm FILE` is a command, run in order, and the lines after it,
// up to the next `$ `, what it prints (standard output, then standard error; a time
// stands for any time). Each section's console blocks are one session.
// Other fences (sh, text, plain json) are not Renyi code: the `sh` blocks of the
// README, how to install, are what tests/install.test.ts does.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { checkProgramFrom, checkSource, type Diagnostic } from "../compiler/index.js";
import { ROOT } from "./golden.js";
import { RENYI } from "./support.js";

interface Block {
  readonly doc: string;
  readonly line: number;
  readonly section: string;
  readonly tag: string;
  readonly words: readonly string[];
  readonly args: readonly string[];
  readonly text: string;
  output?: string;
  calls?: string;
}

/** The documents whose examples are tested, each by its path from the repository's root. */
const DOCUMENTS = ["spec/language.md", "spec/testing.md", "spec/recording.md", "README.md"];
const FENCES = new Set(["renyi", "output", "sh", "text", "json", "console"]);

/** The fenced blocks of a document, with the section each stands in and the output block after it. */
function blocksOf(markdown: string, doc = "spec/language.md"): Block[] {
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
    const text = `${lines.slice(start, end).join("\n")}\n`;
    i = end;
    const [tag = "", ...rest] = info.split(/\s+/);
    assert.ok(
      FENCES.has(tag),
      `${doc}:${start}: a fence tagged "${info}"; Renyi code is tagged renyi, so that it is tested`,
    );
    const previous = blocks[blocks.length - 1];
    if (tag === "output") {
      assert.ok(
        previous?.tag === "renyi" && previous.output === undefined,
        `${doc}:${start}: an output block belongs right after a renyi block`,
      );
      previous.output = text;
    } else if (tag === "json" && rest[0] === "calls") {
      assert.ok(
        previous?.words[0] === "records" && previous.calls === undefined,
        `${doc}:${start}: a json calls block belongs right after a renyi records block`,
      );
      previous.calls = text;
    } else if (tag === "renyi" || tag === "console" || (tag === "json" && rest[0] === "file")) {
      const split = rest.indexOf("--");
      blocks.push({
        doc,
        line: start,
        section,
        tag,
        words: split < 0 ? rest : rest.slice(0, split),
        args: split < 0 ? [] : rest.slice(split + 1),
        text,
      });
    }
  }
  for (const block of blocks) {
    if (block.words[0] === "records")
      assert.ok(
        block.calls !== undefined,
        `${doc}:${block.line}: a renyi records block is followed by the json calls block it records`,
      );
  }
  return blocks;
}

function asMain(text: string): string {
  const body = text
    .trimEnd()
    .split("\n")
    .map((l) => (l === "" ? l : `  ${l}`))
    .join("\n");
  return `public function main()\n  purpose: Run an example of the reference.\n  needs console\n${body}\nend\n`;
}

/** A block's program: its own file, the modules of its section, and the other files of its section (recordings). */
interface Program {
  /** The folder it runs in, one for each block of each document. */
  readonly folder: string;
  readonly entry: string;
  readonly modules: Map<string, string>;
  readonly files: ReadonlyMap<string, string>;
}

function programOf(
  block: Block,
  modules: ReadonlyMap<string, string>,
  files: ReadonlyMap<string, string> = new Map(),
): Program {
  const named = block.words[0] === "test" || block.words[0] === "file";
  const entry = named ? block.words[1]! : `example_${block.line}`;
  const all = new Map(modules);
  all.set(entry, block.words.includes("main") ? asMain(block.text) : block.text);
  return { folder: `${basename(block.doc, ".md")}_${block.line}`, entry, modules: all, files };
}

function check(program: Program): Diagnostic[] {
  const read = (name: string) => {
    const text = program.modules.get(name);
    return text === undefined ? undefined : { file: `${name}.ry`, text };
  };
  return checkProgramFrom({ entry: program.entry, read }).diagnostics;
}

const shown = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.code} ${d.span.start}: ${d.message}`);

const documents = DOCUMENTS.map((doc) => {
  const markdown = readFileSync(join(ROOT, doc), "utf8");
  return { doc, markdown, blocks: blocksOf(markdown, doc) };
});
const work = mkdtempSync(join(tmpdir(), "renyi-reference-"));
after(() => rmSync(work, { recursive: true, force: true }));

interface Prepared {
  readonly block: Block;
  readonly program: Program;
}

/** Each block that is an example, with the modules and files of its section, wherever in the section they stand. */
function prepare(blocks: readonly Block[]): Prepared[] {
  const sections = new Map<string, { modules: Map<string, string>; files: Map<string, string> }>();
  for (const block of blocks) {
    let own = sections.get(block.section);
    if (own === undefined) sections.set(block.section, (own = { modules: new Map(), files: new Map() }));
    if (block.tag === "json") own.files.set(block.words[1]!, block.text);
    else if (block.words[0] === "module" || block.words[0] === "file") own.modules.set(block.words[1]!, block.text);
  }
  return blocks
    .filter((b) => b.tag === "renyi" && b.words[0] !== "module")
    .map((block) => {
      const own = sections.get(block.section)!;
      return { block, program: programOf(block, own.modules, own.files) };
    });
}

const prepared: Prepared[] = documents.flatMap((d) => prepare(d.blocks));

test("spec/language.md has a tested example in every section", () => {
  const { markdown } = documents[0]!;
  const sections = [...markdown.matchAll(/^## (.*)$/gm)].map((m) => m[1]!);
  const own = prepared.filter((p) => p.block.doc === "spec/language.md");
  const tested = new Set(own.map((p) => p.block.section));
  const untested = sections.filter((s) => !tested.has(s) && !/^\d+\. Where/.test(s));
  assert.deepEqual(untested, []);
  const runs = own.filter((p) => /\bfunction main\(/.test(p.program.modules.get(p.program.entry)!)).length;
  console.log(`language reference: ${own.length} examples in ${sections.length} sections, ${runs} of them run`);
});

const KINDS = ["", "main", "crash", "fails", "replays", "records", "test", "file"];

const where = (block: Block) => `${block.doc}:${block.line} (${block.section})`;

for (const { block, program } of prepared) {
  const kind = block.words[0] ?? "";
  if (kind === "error") {
    test(`${where(block)} gives ${block.words[1]}`, () => {
      // The code named, and no other: an example shows one mistake.
      const codes = [...new Set(check(program).map((d) => d.code))];
      assert.deepEqual(codes, [block.words[1]!]);
    });
    continue;
  }
  assert.ok(KINDS.includes(kind), `${where(block)}: unknown example kind "${kind}"`);
  if (kind === "test" || kind === "file")
    assert.match(block.words[1] ?? "", /^[a-z_]+$/, `${where(block)}: a file is named: renyi ${kind} NAME`);
  if (kind === "replays")
    assert.ok(
      program.files.has(block.words[1] ?? ""),
      `${where(block)}: replays ${block.words[1]}, which no json file block of its section is`,
    );
  test(`${where(block)} checks cleanly`, () => {
    assert.deepEqual(shown(check(program)), []);
  });
}

/** A program's folder of its own, its modules and files written there. */
function writeProgram(program: Program): string {
  const folder = join(work, program.folder);
  const written = new Map([
    ...[...program.modules].map(([name, text]): [string, string] => [`${name}.ry`, text]),
    ...program.files,
  ]);
  for (const [name, text] of written) {
    mkdirSync(dirname(join(folder, name)), { recursive: true });
    writeFileSync(join(folder, name), text);
  }
  return folder;
}

/** `renyi ARGS` in an example's folder of its own, its modules and files written there. */
function run(
  p: Prepared,
  args: readonly string[],
): Promise<{ status: number | null; stdout: string; stderr: string; folder: string }> {
  return renyiIn(writeProgram(p.program), args);
}

/** `renyi ARGS` in a folder, with the compile cache of these tests. */
function renyiIn(
  folder: string,
  args: readonly string[],
): Promise<{ status: number | null; stdout: string; stderr: string; folder: string }> {
  const child = spawn(process.execPath, [RENYI, ...args], {
    cwd: folder,
    env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr, folder })));
}

/** The command that runs a block, by its kind. */
function commandOf(p: Prepared): string[] {
  const file = `${p.program.entry}.ry`;
  switch (p.block.words[0]) {
    case "replays":
      return ["run", "--replay", p.block.words[1]!, "--console", file, ...p.block.args];
    case "records":
      return ["record", "--to", "recording.json", file, ...p.block.args];
    case "test":
      return ["test", file];
    default:
      return ["run", file, ...p.block.args];
  }
}

/** Test output with each time, `(12 ms)` or `(1.73 s)`, as one word: times differ from run to run. */
const timeless = (text: string) => text.replace(/\((?:\d+ ms|[\d.]+ s)\)/g, "(TIME)");

/** A recording's calls as a `json calls` block shows them: without their times, which differ from run to run. */
function callsOf(recording: string): unknown {
  const calls = (JSON.parse(recording) as { calls: Record<string, unknown>[] }).calls;
  return calls.map(({ duration_ms: _d, at_ms: _a, ...rest }) => rest);
}

const RUN_ALWAYS = ["test", "replays", "records"];
const runnable = prepared.filter(
  (p) =>
    RUN_ALWAYS.includes(p.block.words[0] ?? "") ||
    (p.block.words[0] !== "error" &&
      p.block.words[0] !== "file" &&
      /\bfunction main\(/.test(p.program.modules.get(p.program.entry)!)),
);
describe("the examples of the specification that have a main or tests run", { concurrency: 2 }, () => {
  for (const p of runnable) {
    const kind = p.block.words[0] ?? "";
    test(`${where(p.block)} runs`, async () => {
      const result = await run(p, commandOf(p));
      if (kind === "crash") {
        assert.equal(result.status, 2, result.stderr);
        assert.match(result.stderr, new RegExp(`error\\[${p.block.words[1]}\\]`));
      } else if (kind === "fails") {
        assert.equal(result.status, 1, result.stderr);
      } else if (kind === "test" && p.block.words[2] !== undefined) {
        assert.equal(result.status, 1, result.stdout + result.stderr);
        const codes = [...new Set([...result.stdout.matchAll(/error\[([A-Z0-9-]+)\]/g)].map((m) => m[1]))];
        assert.deepEqual(codes, [p.block.words[2]], result.stdout);
      } else {
        assert.equal(result.status, 0, result.stdout + result.stderr);
      }
      assert.doesNotMatch(result.stderr, /\n\s+at .+:\d+:\d+/, "a JavaScript stack trace reached the user");
      if (p.block.output !== undefined) {
        if (kind === "test") assert.equal(timeless(result.stdout), timeless(p.block.output));
        else assert.equal(result.stdout, p.block.output);
      }
      if (p.block.calls !== undefined) {
        assert.deepEqual(
          callsOf(readFileSync(join(result.folder, "recording.json"), "utf8")),
          JSON.parse(p.block.calls),
        );
      }
    });
  }
});

interface Command {
  readonly line: number;
  readonly words: readonly string[];
  readonly shown: string;
}

/** A console block's commands, each with what the block shows it printing. */
function commandsOf(block: Block): Command[] {
  const commands: { line: number; words: string[]; shown: string[] }[] = [];
  block.text
    .trimEnd()
    .split("\n")
    .forEach((text, i) => {
      const line = block.line + 1 + i;
      if (text.startsWith("$ ")) {
        const words = text.slice(2).trim().split(/\s+/);
        assert.ok(
          !/["'\\|;&<>$`]/.test(text.slice(2)),
          `${block.doc}:${line}: a console command is plain words, without quotes or shell syntax`,
        );
        assert.ok(
          words[0] === "renyi" || (words[0] === "rm" && words.length === 2 && /^[\w.-]+$/.test(words[1]!)),
          `${block.doc}:${line}: a console command is \`renyi WORDS\` or \`rm FILE\`, not \`${text.slice(2)}\``,
        );
        commands.push({ line, words, shown: [] });
      } else {
        assert.ok(commands.length > 0, `${block.doc}:${line}: a console block begins with a \`$ \` command`);
        commands[commands.length - 1]!.shown.push(text);
      }
    });
  return commands.map((c) => ({ ...c, shown: c.shown.map((l) => `${l}\n`).join("") }));
}

/** Each section's console blocks, one session, with the files of that section. */
const sessions = documents.flatMap(({ doc, blocks }) => {
  const bySection = new Map<string, { line: number; commands: Command[]; files: Map<string, string> }>();
  for (const block of blocks) {
    if (block.tag !== "console") continue;
    let session = bySection.get(block.section);
    if (session === undefined) {
      const files = new Map<string, string>();
      for (const b of blocks) {
        if (b.section !== block.section) continue;
        if (b.tag === "json" && b.words[0] === "file") files.set(b.words[1]!, b.text);
        if (b.tag === "renyi" && (b.words[0] === "file" || b.words[0] === "module"))
          files.set(`${b.words[1]}.ry`, b.text);
      }
      session = { line: block.line, commands: [], files };
      bySection.set(block.section, session);
    }
    session.commands.push(...commandsOf(block));
  }
  return [...bySection].map(([section, session]) => ({ doc, section, ...session }));
});

describe("the console sessions of the documents print what they show", () => {
  assert.ok(
    sessions.some((s) => s.doc === "README.md"),
    "the README shows its program run, recorded, replayed and tested",
  );
  for (const session of sessions) {
    test(`${session.doc}:${session.line} (${session.section}): each command prints what is shown`, async () => {
      const folder = writeProgram({
        folder: `${basename(session.doc, ".md")}_session_${session.line}`,
        entry: "",
        modules: new Map(),
        files: session.files,
      });
      for (const command of session.commands) {
        const [program, ...args] = command.words;
        if (program === "rm") {
          rmSync(join(folder, args[0]!));
          assert.equal(command.shown, "", `${session.doc}:${command.line}: rm prints nothing`);
          continue;
        }
        const result = await renyiIn(folder, args);
        const at = `${session.doc}:${command.line}: ${command.words.join(" ")}`;
        assert.doesNotMatch(result.stderr, /\n\s+at .+:\d+:\d+/, `${at}: a JavaScript stack trace reached the user`);
        assert.equal(timeless(result.stdout + result.stderr), timeless(command.shown), at);
      }
    });
  }
});

/** The cases of each variant of the prelude, as spec/library.md (generated from the declarations) lists them. */
function preludeVariants(): Map<string, Set<string>> {
  const variants = new Map<string, Set<string>>();
  let current: Set<string> | undefined;
  for (const line of readFileSync(join(ROOT, "spec", "library.md"), "utf8").split("\n")) {
    const heading = /^### (\w+)$/.exec(line);
    if (heading !== null) current = undefined;
    const variant = /^`(\w+)`, a variant:/.exec(line);
    if (variant !== null) {
      current = new Set();
      variants.set(variant[1]!, current);
    }
    const item = /^- `([A-Z]\w*)[(`]/.exec(line);
    if (item !== null && current !== undefined) current.add(item[1]!);
  }
  return variants;
}

/** Every `Type.Case` a text names of a variant of the prelude that has no such case. */
function unknownCases(markdown: string, variants: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const wrong: string[] = [];
  for (const m of markdown.matchAll(/\b([A-Z]\w*)\.([A-Z]\w*)\b/g)) {
    const cases = variants.get(m[1]!);
    if (cases !== undefined && !cases.has(m[2]!))
      wrong.push(`${m[0]} (line ${markdown.slice(0, m.index).split("\n").length})`);
  }
  return wrong;
}

const variants = preludeVariants();
test("the prelude's variants are read from spec/library.md", () => {
  assert.ok(variants.get("HttpError")?.has("Timeout"), "HttpError.Timeout");
  assert.ok(variants.get("FileError")?.has("NotFound"), "FileError.NotFound");
  assert.ok(variants.size >= 6, `${variants.size} variants`);
});
const named = [
  "README.md",
  ...readdirSync(join(ROOT, "spec"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `spec/${f}`),
  "examples/README.md",
];
for (const doc of named) {
  test(`every case of a prelude variant ${doc} names exists`, () => {
    assert.deepEqual(unknownCases(readFileSync(join(ROOT, doc), "utf8"), variants), []);
  });
}

test("an example of the specification that does not do what it says fails its test", () => {
  const wrong = blocksOf(
    "## 1. A\n\n```renyi error E-FAIL-UNHANDLED\nfunction f() returns Int\n  return 1\nend\n```\n",
  );
  const codes = check(programOf(wrong[0]!, new Map())).map((d) => d.code);
  assert.ok(!codes.includes("E-FAIL-UNHANDLED"));
  assert.throws(() => blocksOf("```\nlet a be 1\n```\n"), /tagged renyi/);
  assert.throws(() => blocksOf("```renyi records\npublic function main()\nend\n```\n"), /json calls block/);
  assert.deepEqual(unknownCases("`failed HttpError.Status(503), caught by otherwise`", variants), [
    "HttpError.Status (line 1)",
  ]);
  assert.throws(() => commandsOf(blocksOf("```console\n$ curl example.com\n```\n")[0]!), /renyi WORDS/);
  assert.deepEqual(
    commandsOf(blocksOf("```console\n$ renyi run a.ry\nhello\n\nworld\n$ rm a.ry\n```\n")[0]!).map((c) => [
      c.words.join(" "),
      c.shown,
    ]),
    [
      ["renyi run a.ry", "hello\n\nworld\n"],
      ["rm a.ry", ""],
    ],
  );
  assert.equal(
    timeless("  passed  a (12 ms)\n1 passed, 0 failed (1.73 s)\n"),
    "  passed  a (TIME)\n1 passed, 0 failed (TIME)\n",
  );
});

const examples = join(ROOT, "examples");
for (const file of readdirSync(examples)
  .filter((f) => f.endsWith(".ry"))
  .sort()) {
  test(`examples/${file} checks cleanly`, () => {
    const result = checkSource(file, readFileSync(join(examples, file), "utf8"));
    assert.deepEqual(
      result.diagnostics.map((d) => `${d.code}: ${d.message}`),
      [],
    );
    assert.ok(result.program !== undefined);
  });
}
