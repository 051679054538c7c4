// `renyi check` as users run it: a real child process, real files.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { ROOT } from "./golden.js";

const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const dir = mkdtempSync(join(tmpdir(), "renyi-check-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function renyi(...args: string[]) {
  const result = spawnSync(process.execPath, [RENYI, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function assertNoStackTrace(output: string): void {
  assert.doesNotMatch(output, /\n\s+at .+:\d+:\d+\)?/, "a JavaScript stack trace reached the user");
  assert.doesNotMatch(output, /TypeError|RangeError|SyntaxError: |ReferenceError/);
}

const good = file("good.ry", 'function main()\n  needs console\n  console.print("hello")\nend\n');
const bad = file("bad.ry", "function main()\n  let x be\n  let y be 1 2\nend\n");

test("a clean file: exit 0 and a line that says how many files were checked", () => {
  const r = renyi("check", good);
  assert.equal(r.status, 0);
  assert.equal(r.stdout, "Checked 1 file: no problems found.\n");
  assert.equal(r.stderr, "");
});

test("a clean check counts the modules a program imports as well as the files named", () => {
  const helper = file(
    "helper.ry",
    "public function twice(n: Int) returns Int\n  purpose: Doubles a number.\n  return n * 2\nend\n",
  );
  const user = file(
    "user.ry",
    'use helper\n\nfunction main()\n  needs console\n  console.print("{helper.twice(2)}")\nend\n',
  );
  const r = renyi("check", user, good);
  assert.equal(r.stderr, "");
  assert.equal(r.stdout, "Checked 3 files: no problems found.\n");
  assert.equal(r.status, 0);
  void helper;
});

test("errors: exit 3, every error rendered with file, line, column, the line and a caret", () => {
  const r = renyi("check", bad);
  assert.equal(r.status, 3);
  assert.match(r.stderr, /error\[E-SYN-EXPECTED\]: I expected an expression, but found the end of the line/);
  assert.match(r.stderr, new RegExp(`--> ${bad.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2:11`));
  assert.match(r.stderr, /2 \|   let x be\n  \|           \^/);
  assert.match(r.stderr, /error\[E-SYN-STATEMENT\]/);
  assert.match(r.stderr, /2 errors found\./);
  assert.equal(r.stdout, "");
});

test("--json prints one JSON object and nothing else on stdout", () => {
  const r = renyi("check", "--json", bad, good);
  assert.equal(r.status, 3);
  const parsed = JSON.parse(r.stdout) as { diagnostics: Record<string, unknown>[] };
  assert.deepEqual(Object.keys(parsed), ["diagnostics"]);
  assert.equal(parsed.diagnostics.length, 2);
  const first = parsed.diagnostics[0]!;
  for (const key of ["code", "severity", "message", "file", "line", "column", "endLine", "endColumn"]) {
    assert.ok(key in first, `missing ${key}`);
  }
  assert.equal(first["code"], "E-SYN-EXPECTED");
  assert.equal(first["file"], bad);
  assert.equal(first["line"], 2);
  assert.equal(first["column"], 11);
  const clean = renyi("check", "--json", good);
  assert.equal(clean.status, 0);
  assert.deepEqual(JSON.parse(clean.stdout), { diagnostics: [] });
});

test("binary garbage: exit 3 with an encoding error, no stack trace", () => {
  const bytes = Buffer.alloc(4096);
  let seed = 12345;
  for (let i = 0; i < bytes.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = seed & 0xff;
  }
  const r = renyi("check", file("garbage.ry", bytes));
  assert.equal(r.status, 3);
  assert.match(r.stderr, /E-SYN-ENCODING/);
  assertNoStackTrace(r.stderr);
});

test("control characters and stray symbols: exit 3, diagnostics, no stack trace", () => {
  const r = renyi("check", file("controls.ry", "\u0000\u0001\u0002 function \u007f main() @@@ $$$\nend"));
  assert.equal(r.status, 3);
  assert.match(r.stderr, /E-SYN-CHARACTER/);
  assertNoStackTrace(r.stderr);
});

test("an unterminated text: exit 3 and E-SYN-UNCLOSED-TEXT", () => {
  const r = renyi("check", file("unterminated.ry", 'function main()\n  let s be "never closed\nend\n'));
  assert.equal(r.status, 3);
  assert.match(r.stderr, /E-SYN-UNCLOSED-TEXT/);
});

test("10 MB on one line: exit 3, and the line is shown in a window, not whole", () => {
  const line = `function main() ${"x + ".repeat(2_500_000)}@`;
  const r = renyi("check", file("long.ry", line));
  assert.equal(r.status, 3);
  assertNoStackTrace(r.stderr);
  assert.ok(r.stderr.length < 100_000, `printed ${r.stderr.length} characters`);
});

test("100,000 levels of nesting: exit 3 with E-SYN-TOO-DEEP", () => {
  const deep = `function main()\n  let x be ${"(".repeat(100_000)}1${")".repeat(100_000)}\nend\n`;
  const r = renyi("check", "--json", file("deep.ry", deep));
  assert.equal(r.status, 3);
  const codes = (JSON.parse(r.stdout) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code);
  assert.deepEqual(codes, ["E-SYN-TOO-DEEP"]);
});

test("a missing file: exit 3 and a sentence that says so", () => {
  const r = renyi("check", join(dir, "nowhere.ry"));
  assert.equal(r.status, 3);
  assert.match(r.stderr, /I cannot read .*nowhere\.ry.*: there is no such file/);
  assertNoStackTrace(r.stderr);
});

test("no file: a usage message, exit 3", () => {
  const r = renyi("check");
  assert.equal(r.status, 3);
  assert.match(r.stderr, /needs at least one \.ry file/);
});
