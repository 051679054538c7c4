// `renyi fmt` as a user runs it, in a child process on a folder of files:
// files rewritten in place and only when they change, --check writing nothing
// and naming the files that would change, a file that does not parse, a
// folder walked as `renyi test` walks it, and paths that are not there.

import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { renyiIn } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-fmt-"));
after(() => rmSync(work, { recursive: true, force: true }));
const cache = join(work, ".cache");

const MESSY = "function main()\n    needs console\n    console.print( 1+2 )   -- three\nend\n";
const TIDY = "function main()\n  needs console\n  console.print(1 + 2) -- three\nend\n";

function folder(name: string, files: Record<string, string>): string {
  const dir = join(work, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

test("renyi fmt rewrites the files that change, in place, and leaves the others untouched", async () => {
  const dir = folder("rewrite", { "messy.ry": MESSY, "tidy.ry": TIDY });
  chmodSync(join(dir, "messy.ry"), 0o640);
  const tidyBefore = statSync(join(dir, "tidy.ry")).mtimeMs;
  const run = await renyiIn(dir, ["fmt", "messy.ry", "tidy.ry"], {}, cache);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, "messy.ry\n");
  assert.match(run.stderr, /2 files read, 1 reformatted/);
  assert.equal(readFileSync(join(dir, "messy.ry"), "utf8"), TIDY);
  assert.equal(statSync(join(dir, "messy.ry")).mode & 0o777, 0o640, "the file keeps its permissions");
  assert.equal(statSync(join(dir, "tidy.ry")).mtimeMs, tidyBefore, "a formatted file is not written");
  // No file is left beside them.
  assert.deepEqual(readdirSync(dir).sort(), ["messy.ry", "tidy.ry"]);
  const again = await renyiIn(dir, ["fmt"], {}, cache);
  assert.equal(again.status, 0, again.stderr);
  assert.equal(again.stdout, "");
});

test("renyi fmt --check writes nothing, names each file that would change, and exits 1", async () => {
  const dir = folder("check", { "a.ry": MESSY, "b.ry": TIDY, "sub/c.ry": MESSY });
  const run = await renyiIn(dir, ["fmt", "--check"], {}, cache);
  assert.equal(run.status, 1, run.stderr);
  assert.deepEqual(run.stdout.split("\n").filter(Boolean).sort(), ["a.ry", join("sub", "c.ry")]);
  assert.match(run.stderr, /2 files of 3 would be reformatted/);
  assert.equal(readFileSync(join(dir, "a.ry"), "utf8"), MESSY);
  assert.equal(readFileSync(join(dir, "sub", "c.ry"), "utf8"), MESSY);
  const clean = await renyiIn(dir, ["fmt", "--check", "b.ry"], {}, cache);
  assert.equal(clean.status, 0, clean.stderr);
  assert.equal(clean.stdout, "");
});

test("renyi fmt walks folders as renyi test does: .ry files, not dot-folders or node_modules", async () => {
  const dir = folder("walk", {
    "top.ry": MESSY,
    "deep/er/one.ry": MESSY,
    ".hidden/skip.ry": MESSY,
    "node_modules/skip.ry": MESSY,
    "notes.txt": MESSY,
  });
  const run = await renyiIn(work, ["fmt", "walk"], {}, cache);
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(run.stdout.split("\n").filter(Boolean).sort(), [
    join("walk", "deep", "er", "one.ry"),
    join("walk", "top.ry"),
  ]);
  assert.equal(readFileSync(join(dir, "deep", "er", "one.ry"), "utf8"), TIDY);
  for (const untouched of [".hidden/skip.ry", "node_modules/skip.ry", "notes.txt"])
    assert.equal(readFileSync(join(dir, untouched), "utf8"), MESSY, untouched);
});

test("a file that does not parse is left as it is, its errors shown as renyi check shows them, exit 3", async () => {
  const broken = "function main(\n  let x be\nend\n";
  const dir = folder("broken", { "bad.ry": broken, "good.ry": MESSY });
  const run = await renyiIn(dir, ["fmt", "."], {}, cache);
  assert.equal(run.status, 3);
  assert.match(run.stderr, /error\[E-SYN-EXPECTED\]/);
  assert.match(run.stderr, /--> bad\.ry:2:3/);
  assert.equal(readFileSync(join(dir, "bad.ry"), "utf8"), broken);
  // The other files are formatted all the same.
  assert.equal(readFileSync(join(dir, "good.ry"), "utf8"), TIDY);
  const check = await renyiIn(dir, ["fmt", "--check", "bad.ry"], {}, cache);
  assert.equal(check.status, 3);
  assert.match(check.stderr, /E-SYN-EXPECTED/);
});

test("a path that is not there, or not a .ry file, is refused with a clear error", async () => {
  const dir = folder("paths", { "notes.txt": "hello" });
  const missing = await renyiIn(dir, ["fmt", "nowhere.ry"], {}, cache);
  assert.equal(missing.status, 3);
  assert.equal(missing.stderr, "error: nowhere.ry: no such file or folder\n");
  const other = await renyiIn(dir, ["fmt", "notes.txt"], {}, cache);
  assert.equal(other.status, 3);
  assert.equal(other.stderr, "error: notes.txt is neither a .ry file nor a folder\n");
  const unknown = await renyiIn(dir, ["fmt", "--write"], {}, cache);
  assert.equal(unknown.status, 3);
});

test("a file that is not UTF-8 is reported with E-SYN-ENCODING and left as it is", async () => {
  const dir = folder("encoding", {});
  const bytes = Buffer.from([0x66, 0x75, 0x6e, 0xff, 0x0a]);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "latin.ry"), bytes);
  const run = await renyiIn(dir, ["fmt", "latin.ry"], {}, cache);
  assert.equal(run.status, 3);
  assert.match(run.stderr, /E-SYN-ENCODING/);
  assert.deepEqual(readFileSync(join(dir, "latin.ry")), bytes);
});
