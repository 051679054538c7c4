// Execution tests (fixtures/run/*.golden): each program runs with `renyi run`
// as a user runs it, in a real child process, and its standard output, its
// standard error and its exit code are compared with the golden file.
// Sections: source, and optionally arguments (renyi and program words, one
// line), then stdout, stderr and exit.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { after, test } from "node:test";
import { goldenFiles, readSections, ROOT, UPDATE, writeSections } from "./golden.js";

const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const work = mkdtempSync(join(tmpdir(), "renyi-run-"));
after(() => rmSync(work, { recursive: true, force: true }));
const cache = join(work, "cache");

for (const path of goldenFiles(join(ROOT, "fixtures", "run"))) {
  const name = basename(path, ".golden");
  test(`run: ${name}`, () => {
    const sections = readSections(path);
    const file = join(work, `${name}.ry`);
    writeFileSync(file, sections.get("source")!);
    for (const [key, text] of sections) {
      if (key.startsWith("module ")) writeFileSync(join(work, `${key.slice(7)}.ry`), text);
    }
    const words = (sections.get("arguments") ?? "")
      .trim()
      .split(/\s+/)
      .filter((w) => w !== "");
    const split = words.indexOf("PROGRAM");
    const renyiOptions = split < 0 ? [] : words.slice(0, split);
    const programArgs = split < 0 ? words : words.slice(split + 1);
    const result = spawnSync(process.execPath, [RENYI, "run", ...renyiOptions, `${name}.ry`, ...programArgs], {
      cwd: work,
      encoding: "utf8",
      env: { ...process.env, RENYI_CACHE_DIR: cache },
    });
    const actual = new Map(
      [...sections].filter(([k]) => k === "source" || k === "arguments" || k.startsWith("module ")),
    );
    actual.set("stdout", result.stdout.trimEnd());
    if (result.stderr.trim() !== "") actual.set("stderr", result.stderr.trimEnd());
    actual.set("exit", String(result.status));
    if (UPDATE) {
      writeSections(path, actual);
      return;
    }
    assert.doesNotMatch(result.stderr, /\n\s+at .+:\d+:\d+/, "a JavaScript stack trace reached the user");
    for (const key of ["stdout", "stderr", "exit"]) {
      assert.equal(
        actual.get(key) ?? "",
        (sections.get(key) ?? "").trimEnd(),
        `${name}: ${key} differs (RENYI_UPDATE=1 rewrites it)`,
      );
    }
  });
}
