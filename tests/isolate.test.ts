// `renyi run --isolate` (spec/security.md, "Isolation"): the run in a process of
// its own under the operating system's limits. Memory the accounting cannot
// see in time (forty reads of a 32 MiB file at once, in flight together) is
// refused by the operating system, and the user reads E-RT-LIMIT-MEMORY, not
// node's native report; the limits reach what the program starts; the exit
// code and the output are the run's own.

import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ROOT } from "./golden.js";
import { startProgram } from "./support.js";
import { isolationDataMib } from "../vocabulary/limits.js";
import { ISOLATED_OPEN_FILES, isolatedCpuSeconds, runIsolated } from "../cli/running/isolate.js";
import { parseRunArguments } from "../cli/running/run-options.js";

const work = join(ROOT, "tmp", `isolate-${process.pid}`);
before(() => {
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, "big.bin"), Buffer.alloc(32 * 1024 * 1024));
});
after(() => rmSync(work, { recursive: true, force: true }));

const MANY_READS = `public function main()
  purpose: Read one large file forty times at once, keeping every copy.
  needs console, filesystem.read
  let copies be from i in list.range(0, 40) concurrently select filesystem.read_bytes("big.bin") otherwise text.to_bytes("")
  console.print(list.length(copies).to_text())
end
`;

test("--isolate: memory outside the accounting's sight is refused by the operating system, reported as E-RT-LIMIT-MEMORY without a stack", async () => {
  const ran = await startProgram(work, MANY_READS, { before: ["--isolate", "--max-memory", "64"] }).done;
  assert.equal(ran.status, 2, ran.stderr);
  assert.equal(ran.stdout, "");
  assert.match(ran.stderr, /^error\[E-RT-LIMIT-MEMORY\]: /);
  assert.doesNotMatch(ran.stderr, /FATAL|Native stack|\n\s+at |node::/);
});

test("--isolate: the limits reach what the program starts, and the run's output and exit code are its own", async () => {
  const ran = await startProgram(
    work,
    `public function main() or fails with ProcessError
  purpose: Show the limits the run is under, then fail.
  needs console, process("sh")
  let r be process.run("sh", ["-c", "ulimit -d; ulimit -n; ulimit -c; ulimit -t"]) otherwise fail
  console.print(r.stdout)
  fail with ProcessError.NotFound("on purpose")
end
`,
    { before: ["--isolate", "--max-memory", "100", "--timeout", "30"] },
  ).done;
  assert.equal(ran.status, 1, ran.stderr);
  assert.equal(ran.stdout, `${isolationDataMib(100) * 1024}\n${ISOLATED_OPEN_FILES}\n0\n${isolatedCpuSeconds(30)}\n\n`);
  assert.match(ran.stderr, /^error\[E-RT-FAILED\]/);
  // Without --timeout the CPU time is not limited: the wall clock stops a run that ends, and a server runs until
  // stopped.
  const untimed = await startProgram(
    work,
    `public function main() or fails with ProcessError
  purpose: Show the CPU limit.
  needs console, process("sh")
  console.print((process.run("sh", ["-c", "ulimit -t"]) otherwise fail).stdout)
end
`,
    { before: ["--isolate"] },
  ).done;
  assert.equal(untimed.status, 0, untimed.stderr);
  assert.equal(untimed.stdout, "unlimited\n\n");
});

test("--isolate: the accounted limit still stops a growing program at its .ry position inside the process", async () => {
  const ran = await startProgram(
    work,
    `public function main()
  purpose: Keep ever more lists.
  needs console
  var kept be []
  for each i in 1 to 100
    set kept to kept + [list.range(0, 1000000)]
  end
  console.print(list.length(kept).to_text())
end
`,
    { before: ["--isolate", "--max-memory", "64"] },
  ).done;
  assert.equal(ran.status, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /^error\[E-RT-LIMIT-MEMORY\]: the program kept \d+ MiB of memory live, more than its limit of 64 MiB .*\n  --> .*\.ry:6:\d+\n/,
  );
});

test("--isolate is refused on a system without sh and ulimit (Windows), exit 3", async () => {
  const parsed = parseRunArguments(["--isolate", "x.ry"]);
  assert.ok(!("problem" in parsed) && parsed.options.isolate);
  const platform = Object.getOwnPropertyDescriptor(process, "platform")!;
  const write = process.stderr.write;
  let said = "";
  Object.defineProperty(process, "platform", { value: "win32" });
  process.stderr.write = ((text: string) => {
    said += text;
    return true;
  }) as typeof process.stderr.write;
  try {
    assert.equal(await runIsolated(parsed.options), 3);
  } finally {
    Object.defineProperty(process, "platform", platform);
    process.stderr.write = write;
  }
  assert.match(
    said,
    /^error: --isolate sets the operating system's limits with sh and ulimit, which this system does not have/,
  );
});
