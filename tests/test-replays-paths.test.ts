// A test's `replays` path stays beneath the folder of the test's own file
// (spec/security.md, "Test runs"): a path that is absolute or climbs with `..`
// is refused by the checker, and one that leads outside through a symbolic
// link is refused where the recording is opened, by `renyi test` and by
// `renyi test --refresh` alike. The file outside is neither read into the
// report nor written, and the refusal reads the same whether it exists or not.
// Real child processes, real files and links.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renyiIn } from "./support.js";
import { TEST_EXIT } from "../vocabulary/outcomes.js";

const work = mkdtempSync(join(tmpdir(), "renyi-replays-paths-"));
const cache = join(work, "cache");

/**
 * A file outside every test's folder, whose text no report may quote: neither its words nor its first character or key.
 */
const outside = join(work, "home");
mkdirSync(outside);
const BASHRC = join(outside, ".bashrc");
const BASHRC_TEXT = "export SECRET_WORD=xylophone\n";
writeFileSync(BASHRC, BASHRC_TEXT);
const JSON_FILE = join(outside, "keys.json");
const JSON_TEXT = '{"zebra_key": "quagga"}\n';
writeFileSync(JSON_FILE, JSON_TEXT);

type Ran = Awaited<ReturnType<typeof renyiIn>>;

function renyiTest(args: readonly string[], cwd: string): Promise<Ran> {
  return renyiIn(cwd, ["test", ...args], {}, cache);
}

/** A test that needs only the console and replays `path`: its body prints words a refreshed recording would hold. */
function program(path: string): string {
  return `test "t" needs console replays ${JSON.stringify(path)}
  console.print("planted words")
end
`;
}

let folders = 0;
function folderWith(path: string, links: Record<string, string> = {}): string {
  const folder = join(work, `project${++folders}`);
  mkdirSync(folder);
  writeFileSync(join(folder, "tests.ry"), program(path));
  for (const [name, target] of Object.entries(links)) symlinkSync(target, join(folder, name));
  return folder;
}

/** Nothing of the outside files in what the command said: not their words, not whether they exist. */
function quotesNothing(ran: Ran): void {
  const said = ran.stdout + ran.stderr;
  for (const word of [
    "xylophone",
    "SECRET_WORD",
    "export",
    "zebra",
    "quagga",
    "ENOENT",
    "no such file",
    "not valid JSON",
    "Unexpected token",
    "is refused:",
  ]) {
    assert.ok(!said.includes(word), `the report quotes "${word}":\n${said}`);
  }
}

function outsideUnchanged(): void {
  assert.equal(readFileSync(BASHRC, "utf8"), BASHRC_TEXT);
  assert.equal(readFileSync(JSON_FILE, "utf8"), JSON_TEXT);
  assert.deepEqual(readdirSync(outside).sort(), [".bashrc", "keys.json"]);
}

for (const [kind, path] of [
  ["an absolute path", BASHRC],
  ["an absolute path to JSON", JSON_FILE],
  ["a path that climbs with ..", "../home/.bashrc"],
  ["a path that climbs inside itself", "fixtures/../../home/keys.json"],
] as const) {
  test(`a replays path that leaves the test's folder (${kind}) is refused by the checker, with and without --refresh, at the path's place`, async () => {
    const folder = folderWith(path);
    for (const args of [["tests.ry"], ["--refresh", "t", "tests.ry"]]) {
      const ran = await renyiTest(args, folder);
      assert.equal(ran.status, TEST_EXIT.refused, ran.stdout + ran.stderr);
      assert.match(ran.stderr, /error\[E-CAP-REPLAYS-PATH\]: .*leaves the folder of the test's file/);
      // The position of the path in the test's line.
      assert.match(ran.stderr, /--> .*tests\.ry:1:32\n/);
      quotesNothing(ran);
      outsideUnchanged();
    }
    // The same refusal whether the file exists or not.
    const absent = path.replace(/\.bashrc$|keys\.json$/, "missing.json");
    const shape = (r: Ran, written: string) => r.stderr.split(written).join("P").replace(/\^+/g, "^");
    assert.equal(
      shape(await renyiTest(["tests.ry"], folderWith(absent)), absent),
      shape(await renyiTest(["tests.ry"], folderWith(path)), path),
    );
  });
}

for (const [kind, links, path] of [
  ["a linked folder", { fixtures: outside }, "fixtures/.bashrc"],
  ["a linked folder, JSON", { fixtures: outside }, "fixtures/keys.json"],
  ["a linked file", { "recording.json": BASHRC }, "recording.json"],
  ["a dangling link", { "recording.json": join(outside, "nothing-here.json") }, "recording.json"],
] as const) {
  test(`a replays path that leads outside through a symbolic link (${kind}) fails its test where the recording is opened, with and without --refresh`, async () => {
    const folder = folderWith(path, links);
    const plain = await renyiTest(["tests.ry"], folder);
    assert.equal(plain.status, TEST_EXIT.failed, plain.stdout + plain.stderr);
    assert.match(plain.stdout, /E-CAP-REPLAYS-PATH|leads outside the folder of the test's file/);
    assert.match(plain.stdout, /tests\.ry:1:1/);
    quotesNothing(plain);
    outsideUnchanged();

    const refreshed = await renyiTest(["--refresh", "t", "tests.ry"], folder);
    assert.equal(refreshed.status, TEST_EXIT.failed, refreshed.stdout + refreshed.stderr);
    assert.match(refreshed.stdout, /leads outside the folder of the test's file/);
    assert.ok(!refreshed.stdout.includes("refreshed"), refreshed.stdout);
    quotesNothing(refreshed);
    outsideUnchanged();
    assert.ok(!existsSync(join(outside, "nothing-here.json")));
  });
}

test("a replays path that names the test's folder itself is refused by the checker: a recording is a file beneath it", async () => {
  for (const path of [".", "", "./", "fixtures/.."]) {
    const ran = await renyiTest(["--refresh", "t", "tests.ry"], folderWith(path));
    assert.equal(ran.status, TEST_EXIT.refused, ran.stdout + ran.stderr);
    assert.match(
      ran.stderr,
      /error\[E-CAP-REPLAYS-PATH\]: the recording's path "[^"]*" (names the folder of the test's file|leaves the folder)/,
    );
  }
  assert.deepEqual(
    readdirSync(work).filter((f) => f.endsWith(".tmp")),
    [],
  );
});

test("a replays path beneath the test's folder, through a link that stays inside, is read and refreshed as before", async () => {
  const folder = folderWith("fixtures/inner/r.json");
  mkdirSync(join(folder, "real", "inner"), { recursive: true });
  symlinkSync(join(folder, "real"), join(folder, "fixtures"));
  const refreshed = await renyiTest(["--refresh", "t", "tests.ry"], folder);
  assert.equal(refreshed.status, TEST_EXIT.refreshed, refreshed.stdout + refreshed.stderr);
  assert.ok(existsSync(join(folder, "real", "inner", "r.json")));
  const replayed = await renyiTest(["tests.ry"], folder);
  assert.equal(replayed.status, TEST_EXIT.passed, replayed.stdout + replayed.stderr);
});
