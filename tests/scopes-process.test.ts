// A child process gets only the environment spec/security.md lists, and leaves
// nothing running: not when it ends, not when the run is cancelled or reaches
// its time limit (its process group is killed). Real runs of `renyi run`, real
// children and grandchildren.

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, test } from "node:test";
import { startProgram } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-scopes-process-"));
after(() => rmSync(work, { recursive: true, force: true }));

function start(source: string, args: string[] = [], extraEnv: Record<string, string> = {}) {
  return startProgram(work, source, { before: args, env: extraEnv });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** A killed process is gone once its new parent has reaped it; that takes a moment, never seconds. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && alive(pid); i++) await sleep(20);
  return !alive(pid);
}

// The children's scripts are files: a Renyi text reads `{...}` as a value to put in.
const FAMILY = join(work, "family.cjs");
writeFileSync(
  FAMILY,
  `// Starts a grandchild (both wait a minute), writes both process ids to the file it is given, then waits.
const g = require("child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
require("fs").writeFileSync(process.argv[2], process.pid + " " + g.pid);
setTimeout(() => {}, 60000);
`,
);
const LEAVER = join(work, "leaver.cjs");
writeFileSync(
  LEAVER,
  `// Starts a grandchild that waits a minute, writes both process ids, and ends at once.
const g = require("child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
g.unref();
require("fs").writeFileSync(process.argv[2], process.pid + " " + g.pid);
`,
);

async function pidsIn(file: string): Promise<number[]> {
  for (let i = 0; i < 500 && !existsSync(file); i++) await sleep(20);
  for (let i = 0; i < 50 && readFileSync(file, "utf8").split(" ").length < 2; i++) await sleep(20);
  return readFileSync(file, "utf8").split(" ").map(Number);
}

test("a child's environment is PATH and LANG only, whatever the runner's holds", async () => {
  const { done } = start(
    `public function main() or fails with ProcessError
  purpose: Show a child's environment.
  needs console, process("node"), environment("RENYI_SECRET_FOR_TEST")
  let r be process.run("node", ["-e", "console.log(JSON.stringify(process.env))"]) otherwise fail
  console.print(r.stdout)
end
`,
    [],
    { RENYI_SECRET_FOR_TEST: "hunter2", HOME: "/home/someone" },
  );
  const result = await done;
  assert.equal(result.status, 0, result.stderr);
  const environment = JSON.parse(result.stdout) as Record<string, string>;
  assert.deepEqual(Object.keys(environment).sort(), ["LANG", "PATH"]);
  assert.equal(environment["LANG"], "C.UTF-8");
  assert.equal(environment["PATH"], process.env["PATH"]);
});

for (const [how, args, signal] of [
  ["the time limit (--timeout 1)", ["--timeout", "1"], undefined],
  ["Ctrl-C", [], "SIGINT"],
] as const) {
  test(`${how} ends a run that waits on a child: the child and its grandchild are killed with their group`, async () => {
    const file = join(work, `pids-${signal ?? "timeout"}.txt`);
    const { child, done } = start(
      `public function main() or fails with ProcessError
  purpose: Wait on a child that started one of its own.
  needs console, process("node")
  let r be process.run("node", [${JSON.stringify(FAMILY)}, ${JSON.stringify(file)}]) otherwise fail
  console.print("answered {r.exit_code}")
end
`,
      [...args],
    );
    const [pid, grandchild] = await pidsIn(file);
    if (signal !== undefined) child.kill(signal);
    const result = await done;
    // The time limit is a limit (E-RT-TIMEOUT, exit 2); Ctrl-C a cancellation (exit 130).
    assert.equal(result.status, signal === undefined ? 2 : 130, result.stderr);
    if (signal === undefined) assert.match(result.stderr, /^error\[E-RT-TIMEOUT\]/);
    assert.doesNotMatch(result.stdout, /answered/);
    assert.ok(await gone(pid!), `the child ${pid} is still running`);
    assert.ok(await gone(grandchild!), `the grandchild ${grandchild} is still running`);
  });
}

test("when a child ends, what it left running in its group ends too", async () => {
  const file = join(work, "pids-left.txt");
  const { done } = start(`public function main() or fails with ProcessError
  purpose: Run a child that leaves one of its own behind.
  needs console, process("node")
  let r be process.run("node", [${JSON.stringify(LEAVER)}, ${JSON.stringify(file)}]) otherwise fail
  console.print("answered {r.exit_code}")
end
`);
  const result = await done;
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /answered 0/);
  const [, grandchild] = await pidsIn(file);
  assert.ok(await gone(grandchild!), `the grandchild ${grandchild} is still running`);
});
