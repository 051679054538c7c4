// The catalogue's examples are true: for every row, the program it shows as
// wrong has the problem (the compiler reports the code, or the run ends with
// it), and the program it shows as right has no error at all.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { checkSource } from "../compiler/index.js";
import { COMPILE_PROBLEMS } from "../vocabulary/problems/compile.js";
import type { ProblemEntry } from "../vocabulary/problems/entry.js";
import { RUN_PROBLEMS } from "../vocabulary/problems/run.js";
import { RENYI } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-problems-"));
after(() => rmSync(work, { recursive: true, force: true }));

function rows(table: object): [string, ProblemEntry<unknown>][] {
  return Object.entries(table) as [string, ProblemEntry<unknown>][];
}

function codesOf(text: string): { errors: string[]; all: string[] } {
  const { diagnostics } = checkSource("example.ry", text);
  return {
    errors: diagnostics.filter((d) => d.severity === "error").map((d) => d.code),
    all: diagnostics.map((d) => d.code),
  };
}

test("every compile-time row's wrong example has its problem and its right example has none", () => {
  let checked = 0;
  for (const [code, row] of rows(COMPILE_PROBLEMS)) {
    if (row.described) continue;
    assert.ok(
      codesOf(row.wrong).all.includes(code),
      `${code}: the wrong example does not report ${code}: ${JSON.stringify(codesOf(row.wrong).all)}`,
    );
    const right = codesOf(row.right);
    assert.deepEqual(right.errors, [], `${code}: the right example has errors`);
    assert.ok(!right.all.includes(code), `${code}: the right example still reports ${code}`);
    checked++;
  }
  console.log(`compile-time rows: ${checked} pairs of examples checked`);
});

function run(name: string, text: string): { status: number | null; stderr: string } {
  const file = join(work, `${name}.ry`);
  writeFileSync(file, text);
  // The default fuel lets a loop that never ends run for most of a minute: E-RT-FUEL's example is stopped sooner.
  const result = spawnSync(process.execPath, [RENYI, "run", "--fuel", "100000000", file], {
    cwd: work,
    encoding: "utf8",
    env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") },
    timeout: 30_000,
  });
  return { status: result.status, stderr: result.stderr };
}

test("every run-time row's wrong example ends with its code and its right example finishes", () => {
  let ran = 0;
  for (const [code, row] of rows(RUN_PROBLEMS)) {
    if (row.described) continue;
    const name = code.toLowerCase().replace(/-/g, "_");
    const wrong = run(`${name}_wrong`, row.wrong);
    assert.match(
      wrong.stderr,
      new RegExp(`\\[${code}\\]`),
      `${code}: the wrong example did not end with ${code}: ${wrong.stderr}`,
    );
    const right = run(`${name}_right`, row.right);
    assert.equal(right.status, 0, `${code}: the right example did not finish: ${right.stderr}`);
    ran++;
  }
  console.log(`run-time rows: ${ran} pairs of examples run`);
});
