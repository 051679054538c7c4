// The memory limit (spec/runtime.md, "What the memory limit counts"): the live
// bytes of the program's thread, read at the fuel check's slow path and before
// every effect, and collected before they end a run. Small programs under a
// small --max-memory: one that keeps ever more (texts, bytes) stops with
// E-RT-LIMIT-MEMORY at its .ry position; one that makes ten times its limit in
// garbage but keeps little runs to its end.

import assert from "node:assert/strict";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ROOT } from "./golden.js";
import { startProgram } from "./support.js";
import { DEFAULT_LIMITS, heapLimitMib } from "../vocabulary/limits.js";
import { parseRunArguments } from "../cli/running/run-options.js";

const work = join(ROOT, "tmp", `memory-limit-${process.pid}`);
before(() => mkdirSync(work, { recursive: true }));
after(() => rmSync(work, { recursive: true, force: true }));

const GROWING_TEXTS = `public function main()
  purpose: Keep ever more long texts.
  needs console
  var kept be []
  let line be text.repeat("x", 1000000)
  for each i in 1 to 1000
    set kept to kept + [text.upper(line + i.to_text())]
  end
  console.print(list.length(kept).to_text())
end
`;

const GROWING_BYTES = `public function main()
  purpose: Keep ever more bytes, which live outside the engine's heap.
  needs console
  var kept be []
  let line be text.repeat("x", 1000000)
  for each i in 1 to 1000
    set kept to kept + [text.to_bytes(line + i.to_text())]
  end
  console.print(list.length(kept).to_text())
end
`;

// 200 MiB of texts and 200 MiB of bytes made and dropped, under a limit of 64 MiB.
const CHURN = `public function main()
  purpose: Make lots of garbage, keep little.
  needs console
  var total be 0
  for each i in 1 to 200
    let line be text.upper(text.repeat("y", 1000000) + i.to_text())
    let bytes be text.to_bytes(line)
    set total to total + text.length(line) + list.length([bytes])
  end
  console.print(total.to_text())
end
`;

test("a program that keeps ever more texts stops with E-RT-LIMIT-MEMORY at its .ry position, exit 2", async () => {
  const ran = await startProgram(work, GROWING_TEXTS, { before: ["--max-memory", "64"] }).done;
  assert.equal(ran.status, 2, ran.stderr);
  assert.equal(ran.stdout, "");
  assert.match(
    ran.stderr,
    /^error\[E-RT-LIMIT-MEMORY\]: the program kept \d+ MiB of memory live, more than its limit of 64 MiB \(--max-memory MIB allows more\)\n  --> .*\.ry:7:\d+\n/,
  );
  // It stopped near the limit, not at the thread's heap (the hard bound, 320 MiB here).
  const live = Number(/kept (\d+) MiB/.exec(ran.stderr)![1]);
  assert.ok(live >= 64 && live < 64 + 16, `${live} MiB`);
});

test("bytes values count too, though they live outside the engine's heap", async () => {
  const ran = await startProgram(work, GROWING_BYTES, { before: ["--max-memory", "64"] }).done;
  assert.equal(ran.status, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /^error\[E-RT-LIMIT-MEMORY\]: the program kept \d+ MiB of memory live, more than its limit of 64 MiB .*\n  --> .*\.ry:7:\d+\n/,
  );
});

test("the limit counts live bytes, not allocations: 400 MiB of garbage under --max-memory 64 runs to its end", async () => {
  const ran = await startProgram(work, CHURN, { before: ["--max-memory", "64", "--fuel", "10000000000"] }).done;
  assert.equal(ran.stderr, "");
  assert.equal(ran.status, 0);
  // 200 texts of a million and the digits of 1 to 200 (9 + 2 × 90 + 3 × 101), and one for each list of one bytes value.
  assert.equal(ran.stdout, `${200 * 1000000 + 492 + 200}\n`);
});

test("the default is 512 MiB, and the thread's heap is twice the limit, with at least 256 MiB beyond it", () => {
  assert.equal(DEFAULT_LIMITS.maxMemoryMib, 512);
  const parsed = parseRunArguments(["x.ry"]);
  assert.ok(!("problem" in parsed) && parsed.options.maxMemoryMib === 512);
  assert.equal(heapLimitMib(512), 1024);
  assert.equal(heapLimitMib(64), 320);
  assert.equal(heapLimitMib(4096), 8192);
});
