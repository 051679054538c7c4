// `renyi explain`: goldens of what it prints (fixtures/explain/*.golden, each
// with the `arguments` after `renyi explain` and the stdout, stderr and exit
// code expected), run as a user runs it, and every code of the catalogue
// explained without a refusal.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { basename, join } from "node:path";
import { test } from "node:test";
import { goldenFiles, readSections, ROOT, UPDATE, writeSections } from "./golden.js";
import { RENYI } from "./support.js";
import { CODES } from "../vocabulary/problems/index.js";
import { explanation } from "../cli/host/explanation.js";

function explain(args: readonly string[]) {
  const result = spawnSync(process.execPath, [RENYI, "explain", ...args], { encoding: "utf8" });
  return { stdout: result.stdout, stderr: result.stderr, exit: String(result.status) };
}

for (const path of goldenFiles(join(ROOT, "fixtures", "explain"))) {
  test(`explain: ${basename(path, ".golden")}`, () => {
    const sections = readSections(path);
    const args = (sections.get("arguments") ?? "").split(/\s+/).filter((w) => w !== "");
    const got = explain(args);
    const actual = new Map([
      ["arguments", sections.get("arguments") ?? ""],
      ["stdout", got.stdout],
      ["stderr", got.stderr],
      ["exit", got.exit],
    ]);
    if (UPDATE) return writeSections(path, actual);
    for (const key of ["stdout", "stderr", "exit"])
      assert.equal(got[key as "stdout"], sections.get(key), `${key} of renyi explain ${args.join(" ")}`);
  });
}

test("every code of the catalogue has an explanation with its title, facts and both examples", () => {
  for (const code of CODES) {
    const text = explanation(code);
    assert.match(text, new RegExp(`^${code}: \\S`), code);
    assert.match(text, /\nWrong( \(a situation no program shows\))?:\n\n {4}\S/, code);
    assert.match(text, /\nRight:\n\n {4}\S/, code);
  }
  console.log(`explain: ${CODES.length} codes explained`);
});
