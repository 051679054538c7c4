// Attacks on the editor's services, written from the specification alone
// (spec/security.md, "Editor services run nothing"; spec/editor.md; spec/cli.md's
// `renyi lsp` and `renyi fmt`) before the implementation was read. The threat: a
// .ry file written by an adversary, opened with `renyi lsp` or formatted with
// `renyi fmt`; and a hostile or buggy client of the server.
//
// An attack the system withstands is a plain test that guards the behaviour; an
// attack that succeeds is a test marked `todo` that says what goes wrong (so the
// suite stays green while it documents the failure).

import assert from "node:assert/strict";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type { PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import { startLsp, uriOf, type LspClient } from "./lsp-client.js";
import { renyiIn } from "./support.js";
import { formatSource } from "../compiler/format/format.js";
import { parseSource } from "../compiler/index.js";
import { dumpTree } from "../compiler/parse/dump.js";
import { SourceFile } from "../compiler/source.js";

const work = mkdtempSync(join(tmpdir(), "renyi-attack-editor-"));
after(() => rmSync(work, { recursive: true, force: true }));

let folders = 0;
function folder(): string {
  const dir = join(work, `f${++folders}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}
const fmt = (cwd: string, args: readonly string[]) => renyiIn(cwd, ["fmt", ...args], {}, join(work, "cache"));

/** A text's syntax tree without positions, in process (`renyi parse` prints the same dump with them). */
const treeOf = (text: string): string =>
  dumpTree(parseSource("t.ry", text).module, new SourceFile("t.ry", text)).replace(/ @[0-9:-]+/g, "");

/**
 * Each source formatted in process, its tree and its comments checked against the original and a second
 * formatting checked to change nothing; then one `renyi fmt` over the folder of them all, which must write
 * exactly what the formatter gave.
 */
async function formatsKeepingMeaning(sources: Record<string, [string, readonly string[]]>): Promise<void> {
  const dir = folder();
  const expected = new Map<string, string>();
  for (const [name, [text, comments]] of Object.entries(sources)) {
    writeFileSync(join(dir, name), text);
    const out = formatSource(name, text).text;
    assert.ok(out !== undefined, `${name} parses`);
    let at = 0;
    for (const c of comments) {
      const found = out.indexOf(c, at);
      assert.ok(found >= 0, `${name}: ${c} lost or out of order in\n${out}`);
      at = found + c.length;
    }
    assert.equal(treeOf(out), treeOf(text), `${name}: its tree changed:\n${out}`);
    assert.ok(!/[^-]--[^ ]/.test(out.replace(/-- [^\n]*/g, "")), `${name}: a -- was made`);
    assert.equal(formatSource(name, out).text, out, `${name}: not idempotent`);
    expected.set(name, out);
  }
  const r = await fmt(dir, ["."]);
  assert.equal(r.status, 0, r.stderr);
  for (const [name, out] of expected) assert.equal(readFileSync(join(dir, name), "utf8"), out, name);
}

const UNFORMATTED = "function  g() returns Int\n  return 1\nend\n";
const FORMATTED = "function g() returns Int\n  return 1\nend\n";

// ---------------------------------------------------------------- renyi fmt

test("fmt held: a folder walk neither follows a symlinked .ry file nor a symlinked folder out of the folder", async () => {
  const root = folder();
  const outside = join(root, "outside");
  const project = join(root, "project");
  mkdirSync(outside);
  mkdirSync(project);
  writeFileSync(join(outside, "victim.ry"), UNFORMATTED);
  symlinkSync(join(outside, "victim.ry"), join(project, "link.ry"));
  symlinkSync(outside, join(project, "dir"));
  const r = await fmt(project, ["."]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(join(outside, "victim.ry"), "utf8"), UNFORMATTED);
  assert.ok(lstatSync(join(project, "link.ry")).isSymbolicLink());
});

// A glob (`renyi fmt *.ry`) or an editor's format-on-save passes a link by name; followed, an adversary's link
// would make fmt rewrite any file the user can write whose text parses (a file of comments does).
test("fmt held: a symlink named on the command line is refused with E-FILE, neither it nor its target rewritten", async () => {
  const root = folder();
  const project = join(root, "project");
  mkdirSync(project);
  const notes = "-- a sql file   \n\n\n-- select * from users;   \n";
  writeFileSync(join(root, "notes.sql"), notes);
  symlinkSync(join(root, "notes.sql"), join(project, "evil.ry"));
  const r = await fmt(project, ["evil.ry"]);
  assert.equal(readFileSync(join(root, "notes.sql"), "utf8"), notes, "the file outside was rewritten");
  assert.ok(lstatSync(join(project, "evil.ry")).isSymbolicLink());
  assert.equal(r.status, 3, "a symbolic link given by name should be refused, not followed");
  assert.match(r.stderr, /error\[E-FILE\]: I cannot read `evil\.ry`: it is a symbolic link, not a regular file/);
  assert.equal(readlinkSync(join(project, "evil.ry")), join(root, "notes.sql"));
});

test("fmt held: a FIFO, /dev/zero and a directory named .ry neither hang nor are written", async () => {
  const dir = folder();
  execFileSync("mkfifo", [join(dir, "fifo.ry")]);
  symlinkSync("/dev/zero", join(dir, "zero.ry"));
  mkdirSync(join(dir, "empty.ry"));
  for (const name of ["fifo.ry", "zero.ry"]) {
    const r = await fmt(dir, [name]);
    assert.equal(r.status, 3, `${name}: ${r.stderr}`);
  }
  const walked = await fmt(dir, ["."]);
  assert.equal(walked.status, 0, walked.stderr);
  assert.ok(lstatSync(join(dir, "fifo.ry")).isFIFO());
  assert.equal(readlinkSync(join(dir, "zero.ry")), "/dev/zero");
});

test("fmt held: a file above 16 MiB is refused with E-FILE and left as it is", async () => {
  const dir = folder();
  const file = join(dir, "big.ry");
  writeFileSync(file, `${UNFORMATTED}${"-- x\n".repeat((17 * 1024 * 1024) / 5)}`);
  const size = statSync(file).size;
  const r = await fmt(dir, ["big.ry"]);
  assert.equal(r.status, 3);
  assert.match(r.stderr, /E-FILE/);
  assert.equal(statSync(file).size, size);
  assert.ok(readFileSync(file, "utf8").startsWith(UNFORMATTED));
});

test("fmt held: nesting past the parser's bound is E-SYN-TOO-DEEP, the file untouched", async () => {
  const dir = folder();
  const sources = {
    "parens.ry": `function f() returns Int\n  return ${"(".repeat(5000)}1${")".repeat(5000)}\nend\n`,
    "minus.ry": `function f() returns Int\n  return ${"- ".repeat(5000)}1\nend\n`,
    "chain.ry": `function f() returns Int\n  return 1${" + 1".repeat(50000)}\nend\n`,
    "interp.ry": `function f() returns Text\n  return ${'"{'.repeat(300)}1${'}"'.repeat(300)}\nend\n`,
    "ifs.ry": `function f(x: Bool) returns Int\n${"  if x\n".repeat(300)}  return 1\n${"  end\n".repeat(300)}end\n`,
    "fields.ry": `function f() returns Int\n  return 1${".a".repeat(50000)}\nend\n`,
  };
  for (const [name, text] of Object.entries(sources)) {
    writeFileSync(join(dir, name), text);
    const r = await fmt(dir, [name]);
    assert.equal(r.status, 3, `${name}: ${r.stderr.slice(0, 300)}`);
    assert.match(r.stderr, /E-SYN-TOO-DEEP/, name);
    assert.equal(readFileSync(join(dir, name), "utf8"), text, name);
  }
});

test("fmt held: a file that does not parse, or is not UTF-8, is not rewritten", async () => {
  const dir = folder();
  const files: Record<string, Buffer> = {
    "open-interp.ry": Buffer.from('function f(x: Int) returns Text\n  return "a {x -- c\n  } b"\nend\n'),
    "surrogate.ry": Buffer.from([
      ...Buffer.from('function  f() returns Text\n  return "a'),
      0xed,
      0xa0,
      0x80,
      ...Buffer.from('b"\nend\n'),
    ]),
    "lone-cr.ry": Buffer.from("function f() returns Int\r  return 1\rend\r"),
  };
  for (const [name, bytes] of Object.entries(files)) {
    writeFileSync(join(dir, name), bytes);
    const r = await fmt(dir, [name]);
    assert.equal(r.status, 3, name);
    assert.deepEqual(readFileSync(join(dir, name)), bytes, name);
  }
});

test("fmt held: comments in odd places are kept, in order, and formatting is idempotent", async () => {
  const sources: Record<string, [string, readonly string[]]> = {
    "needs.ry": [
      'public function main()\n  needs console, -- between needs\n    network.http("x.com")\n  console.print("hi")\nend\n',
      ["-- between needs"],
    ],
    "list.ry": [
      "function f() returns List<Int>\n  return [1, -- one\n    2, -- two\n    3]\nend\n",
      ["-- one", "-- two"],
    ],
    "params.ry": ["function f(\n  a: Int -- a\n  , b: Int\n) returns Int\n  return a\nend\n", ["-- a"]],
    "arms.ry": [
      "function f(x: Int) returns Int\n  match x\n    when 1 then return 1 -- one\n    -- between arms\n    when _ then return 2\n  end\nend\n",
      ["-- one", "-- between arms"],
    ],
    "after-end.ry": [
      "function f(x: Int) returns Int\n  return x\nend -- after end\n-- last line, no newline",
      ["-- after end", "-- last line, no newline"],
    ],
    "triple.ry": [
      'function f(x: Int) returns Text\n  return """\n    a {x + -- inside\n      1} b\n    """\nend\n',
      ["-- inside"],
    ],
    "query.ry": [
      "function f(xs: List<Int>) returns List<Int>\n  return from x in xs -- q\n    where x > 1 -- w\n    select x -- s\nend\n",
      ["-- q", "-- w", "-- s"],
    ],
    "else.ry": [
      "function f(x: Int) returns Int\n  if x > 1 then -- a\n    return 1\n  -- before else\n  else if x > 0 -- b\n    return 2\n  else -- c\n    return 3\n  end\nend\n",
      ["-- a", "-- before else", "-- b", "-- c"],
    ],
    "paren.ry": ["function f(x: Int) returns Int\n  return (x -- paren\n    + 1)\nend\n", ["-- paren"]],
    "map.ry": [
      'function f() returns Int\n  let m be {\n    "a": 1, -- a\n    -- own line\n    "b": 2\n  }\n  return 0\nend\n',
      ["-- a", "-- own line"],
    ],
  };
  await formatsKeepingMeaning(sources);
});

test("fmt held: unary minus, interpolations and parentheses keep their meaning (no `--` is made)", async () => {
  const sources: Record<string, string> = {
    "neg.ry": "function f(x: Int) returns Int\n  return - -x\nend\n",
    "neg-lit.ry": "function f() returns Float\n  return - -1.5e-3\nend\n",
    "sub-neg.ry": "function f() returns Int\n  return 1 - -2\nend\n",
    "neg-list.ry": "function f(x: Int) returns Int\n  let y be [- -x, 1]\n  return y[0]\nend\n",
    "interp-map.ry": 'function f() returns Text\n  return "x { {"a": 1}.size() } y"\nend\n',
    "interp-brace.ry": 'function f(m: Map<Text, Int>) returns Text\n  return "x { m["}"] } y { "{ "in" }" }"\nend\n',
    "escaped.ry": 'function f(x: Int) returns Text\n  return "{ x }{ x }\\{ x }"\nend\n',
    "not.ry": "function f(a: Bool, b: Bool) returns Bool\n  return not (a and b) or not a is b\nend\n",
    "with.ry": "type R is record\n  a: Int\nend\nfunction f(r: R) returns List<R>\n  return [(r with a: 1), r]\nend\n",
  };
  await formatsKeepingMeaning(Object.fromEntries(Object.entries(sources).map(([n, t]) => [n, [t, []]])));
});

test("fmt held: CRLF becomes LF with its comment kept; NUL and direction marks in texts are byte-stable", async () => {
  const dir = folder();
  writeFileSync(join(dir, "crlf.ry"), "function f() returns Int\r\n  return 1 -- c\r\nend\r\n");
  assert.equal((await fmt(dir, ["crlf.ry"])).status, 0);
  assert.equal(readFileSync(join(dir, "crlf.ry"), "utf8"), "function f() returns Int\n  return 1 -- c\nend\n");
  for (const [name, text] of [
    ["nul.ry", 'function  f() returns Text\n  return "a\u0000b"\nend\n'],
    ["rlo.ry", 'function  f() returns Text\n  return "a\u202eb\u2066c"\nend\n'],
  ] as const) {
    writeFileSync(join(dir, name), text);
    assert.equal((await fmt(dir, [name])).status, 0);
    assert.equal(readFileSync(join(dir, name), "utf8"), text.replace("function  f", "function f"), name);
  }
});

test("fmt held: a byte order mark is dropped, and --check names a file that has one", async () => {
  const dir = folder();
  writeFileSync(join(dir, "bom.ry"), `\uFEFF${FORMATTED}`);
  const check = await fmt(dir, ["--check", "bom.ry"]);
  assert.equal(check.status, 1);
  assert.equal(check.stdout, "bom.ry\n");
  assert.equal(readFileSync(join(dir, "bom.ry"), "utf8"), `\uFEFF${FORMATTED}`, "--check wrote the file");
  const r = await fmt(dir, ["bom.ry"]);
  assert.equal(r.status, 0);
  assert.equal(r.stdout, "bom.ry\n");
  assert.equal(readFileSync(join(dir, "bom.ry"), "utf8"), FORMATTED);
});

test("fmt held: a rewritten file keeps its rwx bits, not set-user-ID, set-group-ID or sticky", async () => {
  const dir = folder();
  writeFileSync(join(dir, "suid.ry"), UNFORMATTED);
  chmodSync(join(dir, "suid.ry"), 0o7751);
  assert.equal((await fmt(dir, ["suid.ry"])).status, 0);
  assert.equal(readFileSync(join(dir, "suid.ry"), "utf8"), FORMATTED);
  assert.equal(statSync(join(dir, "suid.ry")).mode & 0o7777, 0o751);
});

// Quoted raw, ESC ] 0 ; PWNED BEL would set the terminal's title, ESC [ 2 J clear the screen, ESC [ 2K \r hide the
// error lines; they are shown as control pictures, one character for one, so the caret stays under its column.
test("fmt held: terminal control sequences in the adversary's source are shown as control pictures in the printed errors", async () => {
  const dir = folder();
  writeFileSync(
    join(dir, "esc.ry"),
    'function f() returns Text\n  return "\u001b]0;PWNED\u0007\u001b[2J\u001b[31mred" +\nend\n',
  );
  const r = await fmt(dir, ["esc.ry"]);
  assert.equal(r.status, 3);
  assert.ok(!r.stderr.includes("\u001b"), "a raw ESC byte was written to stderr");
  assert.ok(!r.stderr.includes("\u0007"), "a raw BEL byte was written to stderr");
  assert.ok(r.stderr.includes('2 |   return "\u241b]0;PWNED\u2407\u241b[2J\u241b[31mred" +'), r.stderr);
  const check = await renyiIn(dir, ["check", "esc.ry"], {}, join(work, "cache"));
  assert.equal(check.status, 3);
  assert.ok(!check.stderr.includes("\u001b") && !check.stdout.includes("\u001b"), "renyi check wrote a raw ESC byte");
});

test("fmt held: a file name with a line break or ESC is printed on one line, as control pictures", async () => {
  const dir = folder();
  writeFileSync(join(dir, "x\u001b[31mred\nfake.ry"), UNFORMATTED);
  const r = await fmt(dir, ["."]);
  assert.equal(r.status, 0);
  assert.equal(r.stdout, "x\u241b[31mred\u240afake.ry\n");
  // A name that is no .ry file, passed by a glob, is refused with the name shown the same way.
  writeFileSync(join(dir, "y\u001b[2J.txt"), "");
  const refused = await fmt(dir, ["y\u001b[2J.txt"]);
  assert.equal(refused.status, 3);
  assert.match(refused.stderr, /^error: y\u241b\[2J\.txt is neither a \.ry file nor a folder$/m);
});

// Each syntax error once copied its whole line (so the cost grew with the square of a one-line file) and all of them
// were joined into one string, which for 2,000,000 stray characters no longer fit: E-INTERNAL after minutes. Now
// only a window of the line is copied and the first 200 errors are shown, then a count of the rest.
test("fmt held: a file of 200,000 stray characters on one line gives its errors, the first 200 of them shown", async () => {
  const dir = folder();
  writeFileSync(join(dir, "stray.ry"), "@ ".repeat(200_000));
  const r = await fmt(dir, ["stray.ry"]);
  assert.equal(r.status, 3);
  assert.equal(r.stderr.match(/^error\[E-SYN-CHARACTER\]/gm)?.length, 200);
  assert.match(r.stderr, /^\.\.\. and 199,800 more not shown$/m);
  assert.equal(readFileSync(join(dir, "stray.ry"), "utf8"), "@ ".repeat(200_000));
});

// ---------------------------------------------------------------- renyi lsp

async function withServer(cwd: string, body: (c: LspClient) => Promise<void>): Promise<void> {
  const c = await startLsp({ cwd });
  try {
    await body(c);
  } finally {
    if (c.child.exitCode === null) assert.equal(await c.stop(), 0);
  }
}
const codes = (p: PublishDiagnosticsParams) => p.diagnostics.map((d) => d.code);

test("lsp held: `use` lines cannot climb out of the folder, and a document that is not a file: reaches no file", async () => {
  const root = folder();
  const dir = join(root, "w");
  mkdirSync(join(dir, "sub"), { recursive: true });
  writeFileSync(join(root, "secret.ry"), "public function leak() returns Int\n  return 42\nend\n");
  writeFileSync(join(dir, "secret.ry"), "public function leak() returns Int\n  return 42\nend\n");
  await withServer(dir, async (c) => {
    for (const use of ["use ..secret", "use sub...secret", "use .secret"]) {
      const uri = uriOf(join(dir, "sub", `u${use.length}.ry`));
      c.open(uri, `${use}\nfunction f() returns Int\n  return secret.leak()\nend\n`);
      const d = await c.nextDiagnostics(uri);
      assert.ok(
        codes(d).some((x) => String(x).startsWith("E-SYN-")),
        `${use}: ${JSON.stringify(codes(d))}`,
      );
    }
    // the working folder holds secret.ry: a document without a folder must not find it
    for (const uri of [
      "untitled:Untitled-1",
      "http://evil.example/a.ry",
      "data:text/plain,abc",
      "vscode-vfs://github/x/a.ry",
    ]) {
      c.open(uri, "use secret\nfunction f() returns Int\n  return secret.leak()\nend\n");
      const d = await c.nextDiagnostics(uri);
      assert.ok(codes(d).includes("E-NAME-MODULE"), `${uri}: ${JSON.stringify(codes(d))}`);
    }
  });
});

test("lsp held: a module that is a FIFO, /dev/zero, stdin, a folder, a link loop or above 16 MiB is not read, and nothing hangs", async () => {
  const dir = folder();
  execFileSync("mkfifo", [join(dir, "fifo.ry")]);
  symlinkSync("/dev/zero", join(dir, "zero.ry"));
  symlinkSync("/dev/stdin", join(dir, "stdin.ry"));
  symlinkSync("/proc/self/fd/0", join(dir, "fd0.ry"));
  symlinkSync("loop.ry", join(dir, "loop.ry"));
  mkdirSync(join(dir, "dir.ry"));
  writeFileSync(join(dir, "big.ry"), "-- x\n".repeat((17 * 1024 * 1024) / 5));
  await withServer(dir, async (c) => {
    for (const m of ["fifo", "zero", "stdin", "fd0", "loop", "dir", "big"]) {
      const uri = uriOf(join(dir, `main_${m}.ry`));
      const started = Date.now();
      c.open(uri, `use ${m}\nfunction f() returns Int\n  return 1\nend\n`);
      const d = await c.nextDiagnostics(uri, 15_000);
      assert.deepEqual(codes(d), ["E-NAME-MODULE"], m);
      assert.ok(Date.now() - started < 10_000, `${m} took ${Date.now() - started} ms`);
    }
  });
});

// Sizes past the 16 MiB bound; the reviewer's 50 MiB and 100 MiB (4.5 s) when RENYI_FUZZ_CASES is set.
const LARGE = process.env["RENYI_FUZZ_CASES"] === undefined ? [17, 20] : [50, 100];

test(`lsp held: a ${LARGE[0]} MiB didOpen and a ${LARGE[1]} MiB change are one E-FILE each, and the server stays up`, async () => {
  const dir = folder();
  const [opened = 0, changed = 0] = LARGE;
  await withServer(dir, async (c) => {
    const uri = uriOf(join(dir, "big.ry"));
    c.open(uri, `function f() returns Int\n  return 1\nend\n${"-- ".repeat((opened * 1024 * 1024) / 3)}`);
    const d = await c.nextDiagnostics(uri, 60_000);
    assert.deepEqual(codes(d), ["E-FILE"]);
    c.change(uri, 2, [{ text: "x".repeat(changed * 1024 * 1024) }]);
    assert.deepEqual(codes(await c.diagnosticsOf(uri, 2, 60_000)), ["E-FILE"]);
    c.change(uri, 3, [{ text: FORMATTED }]);
    assert.deepEqual(codes(await c.diagnosticsOf(uri, 3, 60_000)), []);
  });
});

test("lsp held: positions past the end are clamped, a split surrogate pair is harmless, a flood is analysed a few times", async () => {
  const dir = folder();
  await withServer(dir, async (c) => {
    const uri = uriOf(join(dir, "a.ry"));
    c.open(uri, FORMATTED);
    await c.nextDiagnostics(uri);
    c.change(uri, 2, [
      { range: { start: { line: 100, character: 100 }, end: { line: 200, character: 0 } }, text: "\n-- tail" },
      { range: { start: { line: 0, character: 500 }, end: { line: 0, character: 1000 } }, text: "X" },
      { range: { start: { line: -1, character: -1 }, end: { line: -1, character: -1 } }, text: "" },
    ]);
    const past = await c.diagnosticsOf(uri, 2);
    assert.deepEqual(codes(past), ["E-NAME-UNKNOWN-TYPE"]); // `IntX`: the X went to the end of line 0
    c.change(uri, 3, [
      { text: 'function f() returns Text\n  return "😀"\nend\n' },
      { range: { start: { line: 1, character: 10 }, end: { line: 1, character: 10 } }, text: "Z" },
    ]);
    await c.diagnosticsOf(uri, 3);
    const before = (c.published.get(uri) ?? []).length;
    for (let v = 4; v < 20_004; v++)
      c.change(uri, v, [
        { range: { start: { line: 1, character: 9 }, end: { line: 1, character: 10 } }, text: String(v % 10) },
      ]);
    await c.diagnosticsOf(uri, 20_003, 60_000);
    assert.ok((c.published.get(uri) ?? []).length - before < 200, "a flood was analysed edit by edit");
  });
});

test("lsp held: every method with bogus params is answered with an error or an answer, and the server stays up", async () => {
  const dir = folder();
  await withServer(dir, async (c) => {
    const uri = uriOf(join(dir, "a.ry"));
    c.open(uri, "function f(x: Int) returns Int\n  return x\nend\n");
    await c.nextDiagnostics(uri);
    const methods = [
      "textDocument/hover",
      "textDocument/definition",
      "textDocument/references",
      "textDocument/rename",
      "textDocument/prepareRename",
      "textDocument/formatting",
      "textDocument/rangeFormatting",
      "textDocument/completion",
      "textDocument/documentSymbol",
      "workspace/symbol",
      "textDocument/foldingRange",
      "textDocument/semanticTokens/full",
      "textDocument/codeLens",
      "textDocument/codeAction",
      "workspace/executeCommand",
    ];
    const bogus: unknown[] = [
      null,
      {},
      [],
      5,
      "x",
      { textDocument: { uri } },
      { textDocument: { uri }, position: { line: -1, character: -5 } },
      { textDocument: { uri }, position: { line: 1e9, character: 1e9 } },
      { textDocument: { uri }, position: { line: "a", character: {} } },
      { textDocument: { uri: "file:///nonexistent.ry" }, position: { line: 0, character: 0 } },
      {
        textDocument: { uri },
        range: { start: { line: 5, character: 0 }, end: { line: 0, character: 0 } },
        context: { diagnostics: [] },
      },
      { textDocument: { uri }, position: { line: 0, character: 9 }, newName: "end" },
      { textDocument: { uri }, position: { line: 0, character: 11 }, newName: "f" },
      { query: "a".repeat(100_000) },
    ];
    for (const m of methods)
      for (const p of bogus) {
        const answered = await Promise.race([
          c.request(m, p).then(
            () => "answer",
            (e: { code?: number }) => `error ${e.code}`,
          ),
          new Promise<string>((resolve) => setTimeout(() => resolve("no answer"), 10_000)),
        ]);
        assert.notEqual(answered, "no answer", `${m} ${JSON.stringify(p)}`);
      }
    for (const n of [
      "textDocument/didOpen",
      "textDocument/didChange",
      "textDocument/didClose",
      "textDocument/didSave",
      "$/cancelRequest",
      "workspace/didChangeWatchedFiles",
    ])
      for (const p of [...bogus, { textDocument: { uri: 5 } }]) await c.connection.sendNotification(n, p);
    const fresh = uriOf(join(dir, "b.ry"));
    c.open(fresh, FORMATTED);
    assert.deepEqual(codes(await c.diagnosticsOf(fresh, 1)), []);
  });
});

test("lsp held: a request or notification with bogus params writes one line to stderr, no JavaScript stack trace", async () => {
  const dir = folder();
  await withServer(dir, async (c) => {
    const failed = await c.request("textDocument/codeAction", {}).then(
      () => undefined,
      (e: { code?: number }) => e.code,
    );
    assert.equal(failed, -32603);
    await c.connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri: uriOf(join(dir, "x.ry")), languageId: "renyi", version: 1, text: null },
    });
    const fresh = uriOf(join(dir, "b.ry"));
    c.open(fresh, FORMATTED);
    await c.diagnosticsOf(fresh, 1);
    assert.ok(!/\n\s+at /.test(c.stderr()), c.stderr());
    assert.match(c.stderr(), /^renyi lsp: codeAction failed: [^\n]*'uri'[^\n]*$/m);
    assert.match(c.stderr(), /^renyi lsp: textDocument\/didOpen ignored: [^\n]*$/m);
  });
  // RENYI_LSP_TRACE=1 asks for the stack
  const traced = await startLsp({ cwd: dir, env: { RENYI_LSP_TRACE: "1" } });
  await traced.request("textDocument/codeAction", {}).catch(() => undefined);
  assert.equal(await traced.stop(), 0);
  assert.match(traced.stderr(), /^renyi lsp: codeAction failed: TypeError: [^\n]*\n\s+at /m);
});

test("lsp held: a didOpen, didChange or didClose of the wrong shape is ignored, and every later analysis goes on", async () => {
  const dir = folder();
  await withServer(dir, async (c) => {
    const x = uriOf(join(dir, "x.ry"));
    const open = uriOf(join(dir, "open.ry"));
    c.open(open, FORMATTED);
    await c.diagnosticsOf(open, 1);
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const bad: [string, unknown][] = [
      ["textDocument/didOpen", { textDocument: { uri: x, languageId: "renyi", version: 1, text: null } }],
      ["textDocument/didOpen", { textDocument: { uri: x, languageId: "renyi", version: 1 } }],
      ["textDocument/didOpen", { textDocument: { uri: x, languageId: "renyi", version: "1", text: "" } }],
      ["textDocument/didOpen", { textDocument: { uri: 5, languageId: "renyi", version: 1, text: "" } }],
      ["textDocument/didChange", { textDocument: { uri: open, version: 2 }, contentChanges: { text: "x" } }],
      ["textDocument/didChange", { textDocument: { uri: open, version: 2 }, contentChanges: [{ text: 5 }] }],
      [
        "textDocument/didChange",
        { textDocument: { uri: open, version: 2 }, contentChanges: [{ range: {}, text: "x" }] },
      ],
      ["textDocument/didChange", { textDocument: { uri: open, version: 2 }, contentChanges: [null] }],
      ["textDocument/didChange", { textDocument: { uri: open }, contentChanges: [{ range, text: "x" }] }],
      ["textDocument/didClose", { textDocument: { uri: null } }],
      ["textDocument/didClose", {}],
    ];
    for (const [method, params] of bad) await c.connection.sendNotification(method, params);
    const fresh = uriOf(join(dir, "b.ry"));
    c.open(fresh, FORMATTED);
    assert.deepEqual(codes(await c.diagnosticsOf(fresh, 1, 5_000)), []);
    // the open document kept its text: a good change still applies to it
    c.change(open, 3, [{ range, text: "x" }]);
    assert.ok(codes(await c.diagnosticsOf(open, 3, 5_000)).length > 0);
    assert.equal(c.published.get(x), undefined, "a didOpen without a text was taken");
    assert.equal(c.stderr().match(/ ignored: /g)?.length, bad.length, c.stderr());
    assert.ok(!/\n\s+at /.test(c.stderr()), c.stderr());
  });
});

test("lsp held: NUL, lone surrogates, direction marks and look-alike letters in code are E-SYN-CHARACTER", async () => {
  const dir = folder();
  await withServer(dir, async (c) => {
    const cases = {
      surrogate: "function f() returns Int\n  return 1 \ud800\nend\n",
      nul: "function f() returns Int\n  return 1\u0000\nend\n",
      lri: "function f() returns Int\n  return \u20661\nend\n",
      zwsp: "function f() returns Int\n  let a\u200bb be 1\n  return 1\nend\n",
      cyrillic: "function f() returns Int\n  let \u0430 be 1\n  return 1\nend\n",
    };
    for (const [k, text] of Object.entries(cases)) {
      const uri = uriOf(join(dir, `${k}.ry`));
      c.open(uri, text);
      assert.ok(codes(await c.nextDiagnostics(uri)).includes("E-SYN-CHARACTER"), k);
    }
  });
});

test("lsp FOUND: a direction mark (Trojan Source), a lone surrogate or NUL inside a comment or a text gets no diagnostic", {
  todo:
    "a known limit, written down in spec/editor.md section 11 (texts and comments may hold any character); " +
    "section 11 lists NUL, a lone surrogate and a direction mark (U+202E, U+2066) as given the lexer's diagnostic; " +
    "inside texts and comments they are accepted silently by `renyi lsp` (and `renyi check`, `renyi fmt`), so " +
    "`return admin -- \\u202e } \\u2066 if true` displays reordered in the editor with no warning",
}, async () => {
  const dir = folder();
  await withServer(dir, async (c) => {
    const uri = uriOf(join(dir, "trojan.ry"));
    c.open(uri, "function f(admin: Int) returns Int\n  return admin -- \u202e } \u2066 if true\nend\n");
    assert.ok(codes(await c.nextDiagnostics(uri)).includes("E-SYN-CHARACTER"));
  });
});

test("lsp held: a document of stray characters gets its first 1,000 diagnostics by position and a count of the rest", async () => {
  // 100 KB here; 2.6 MB (1.3 million diagnostics) once crashed the server with a publication too long to encode
  const dir = folder();
  await withServer(dir, async (c) => {
    const uri = uriOf(join(dir, "stray.ry"));
    const stray = 50_000;
    c.open(uri, "@ ".repeat(stray));
    const d = await c.nextDiagnostics(uri, 30_000);
    assert.equal(d.diagnostics.length, 1001);
    const [count, ...shown] = d.diagnostics;
    assert.equal(count?.severity, 3); // information
    assert.deepEqual(count?.range.start, { line: 0, character: 0 });
    assert.match(
      String(count?.message),
      new RegExp(`^${stray} problems in this document: the first 1000 .* ${stray - 1000} more`),
    );
    assert.deepEqual(
      shown.map((x) => x.range.start.character),
      Array.from({ length: 1000 }, (_, i) => 2 * i),
    );
    assert.ok(shown.every((x) => x.code === "E-SYN-CHARACTER"));
    c.change(uri, 2, [{ text: FORMATTED }]);
    assert.deepEqual(codes(await c.diagnosticsOf(uri, 2)), []);
  });
});

test.todo(
  'lsp FOUND (cost, a known limit in spec/editor.md section 11): a 16 MB document of `"{` repeated (texts opened inside interpolations, never closed) takes 25 s and 3.1 GB ' +
    "of resident memory to answer with its 2 diagnostics (8 MB: 15 s, 1.9 GB): about 200 bytes of memory per byte of text, " +
    "within the 16 MiB limit, so two such documents open at once can exhaust a machine. " +
    "Repro: didOpen of 'function f() returns Text\\n  return ' + '\"{'.repeat(8_000_000)",
);
