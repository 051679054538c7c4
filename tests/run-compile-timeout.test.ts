// A run's --timeout covers its compile (spec/security.md): a program that takes
// longer to compile than the run may take ends with E-RT-TIMEOUT, as a program
// that runs too long does, through a real `renyi run`, and leaves nothing
// compiled behind. The program is large rather than slow to check (checking is
// bounded by its size): some megabytes of plain functions take seconds to
// compile, far past the smallest timeout, one second.

import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { renyiIn } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-compile-timeout-"));
after(() => rmSync(work, { recursive: true, force: true }));

function largeProgram(functions: number): string {
  const parts: string[] = [];
  for (let i = 0; i < functions; i++) {
    parts.push(
      `function f${i}(x: Int) returns Int\n  let a be (x, [x, ${i}])\n  if a is a\n    return x + ${i}\n  end\n` +
        `  return x * 2\nend\n`,
    );
  }
  parts.push('function main()\n  needs console\n  console.print("done")\nend\n');
  return parts.join("\n");
}

test("a program still compiling when the run's --timeout passes ends with E-RT-TIMEOUT, and nothing is kept compiled", async () => {
  writeFileSync(join(work, "large.ry"), largeProgram(12_000));
  const cache = join(work, "cache-large");
  const ran = await renyiIn(work, ["run", "--timeout", "1", "large.ry"], {}, cache);
  assert.equal(
    ran.stderr,
    "error[E-RT-TIMEOUT]: the run reached its time limit of 1 s while the program was compiled (--timeout SECONDS allows more)\n",
  );
  assert.doesNotMatch(ran.stdout, /done/);
  assert.equal(ran.status, 2);
  const kept = readdirSync(cache, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith(".cjs"));
  assert.deepEqual(kept, []);
  // The execution record says the same: a run crashed at its time limit, at no line of the program.
  const recorded = await renyiIn(work, ["run", "--json", "--timeout", "1", "large.ry"], {}, cache);
  assert.equal(recorded.status, 2);
  const record = JSON.parse(recorded.stdout.trim().split("\n").pop()!) as {
    outcome: string;
    exit: number;
    error: { code: string; message: string; line: number | null };
  };
  assert.deepEqual(
    { outcome: record.outcome, exit: record.exit, code: record.error.code, line: record.error.line },
    { outcome: "crashed", exit: 2, code: "E-RT-TIMEOUT", line: null },
  );
  assert.match(record.error.message, /while the program was compiled/);
});

test("a program that compiles within its --timeout runs with the rest of it", async () => {
  writeFileSync(join(work, "small.ry"), largeProgram(3));
  const ran = await renyiIn(work, ["run", "--timeout", "5", "small.ry"], {}, join(work, "cache-small"));
  assert.equal(ran.stdout, "done\n");
  assert.equal(ran.status, 0);
});
