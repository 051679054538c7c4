// A bundle ends the same way whichever way it runs: every run fixture
// (fixtures/run/*.golden) is built with `renyic build`, then run with `renyi
// run DIR/NAME.mjs` and with `node DIR/NAME.mjs`, and the two give the same
// exit code, the same standard output and the same standard error, which is
// what rtlib/run-main.ts and report/outcome-text.ts make one.
//
// Fixtures whose arguments hold renyi options (--fuel, --max-depth:
// depth_limit, fuel_limit) are left out: `node NAME.mjs` has no such options.
// No fixture is refused, so `options` runs once more with an option main does
// not have. The bundles are built in this process; only the runs are children.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { after, test } from "node:test";
import { goldenFiles, readSections, ROOT } from "./golden.js";
import { RENYI } from "./support.js";
import { buildCommand } from "../cli/commands/build.js";

// Inside the package, so that node resolves renyi/runtime.
const work = join(ROOT, "tmp", `both-ways-${process.pid}`);
after(() => rmSync(work, { recursive: true, force: true }));

interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runChild(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

interface Case {
  readonly name: string;
  readonly dir: string;
  readonly programArgs: string[];
}

function prepare(path: string): Case | undefined {
  const name = basename(path, ".golden");
  const sections = readSections(path);
  const words = (sections.get("arguments") ?? "")
    .trim()
    .split(/\s+/)
    .filter((w) => w !== "");
  if (words.includes("PROGRAM")) return undefined;
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.ry`), sections.get("source")!);
  for (const [key, text] of sections) {
    if (key.startsWith("module ")) writeFileSync(join(dir, `${key.slice(7)}.ry`), text);
  }
  return { name, dir, programArgs: words };
}

/** Runs the built case both ways. */
async function bothWays(c: Case): Promise<{ viaRenyi: Ran; viaNode: Ran }> {
  const bundle = `${c.name}.mjs`;
  const viaRenyi = await runChild([RENYI, "run", bundle, ...c.programArgs], c.dir, {
    ...process.env,
    RENYI_CACHE_DIR: join(work, "cache"),
  });
  const viaNode = await runChild([bundle, ...c.programArgs], c.dir);
  return { viaRenyi, viaNode };
}

/** Runs `task` over `items`, at most `width` at a time (the machine is shared). */
async function pooled<T, R>(items: readonly T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

test("every run fixture ends the same way with renyi run and with node", async () => {
  const cases = goldenFiles(join(ROOT, "fixtures", "run"))
    .map(prepare)
    .filter((c): c is Case => c !== undefined);
  for (const c of cases)
    assert.equal(await buildCommand(join(c.dir, `${c.name}.ry`), { out: c.dir }), 0, `${c.name}: renyic build failed`);
  const options = cases.find((c) => c.name === "options")!;
  cases.push({ ...options, programArgs: [...options.programArgs, "--nope"] });
  const results = await pooled(cases, 3, bothWays);
  const outcomes = new Set<number | null>();
  cases.forEach((c, i) => {
    const { viaRenyi, viaNode } = results[i]!;
    assert.equal(
      viaNode.status,
      viaRenyi.status,
      `${c.name}: exit codes differ\nrenyi run: ${viaRenyi.stderr}\nnode: ${viaNode.stderr}`,
    );
    assert.equal(viaNode.stdout, viaRenyi.stdout, `${c.name}: stdout differs`);
    assert.equal(viaNode.stderr, viaRenyi.stderr, `${c.name}: stderr differs`);
    assert.doesNotMatch(viaNode.stderr, /\n\s+at .+:\d+:\d+/, `${c.name}: a JavaScript stack trace reached the user`);
    outcomes.add(viaNode.status);
  });
  // The sample covers every way a run can end that a fixture shows: finished, failed, crashed, refused
  // (cancelled needs a signal or a deadline, which `node NAME.mjs` has not).
  assert.deepEqual([...outcomes].sort(), [0, 1, 2, 3]);
  console.log(`run both ways: ${cases.length} cases`);
});
