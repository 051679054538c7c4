// The call depth is counted exactly whatever shape the recursion takes. A
// synchronous function gives its depth back at its returns, with no `finally`
// (compiler/lower/functions.ts), and a failure that leaves it leaves the depth
// raised until the `otherwise` that catches it sets it back. Random programs
// recurse directly, mutually, through a function value, through a lambda that
// `list.fold` calls, across modules, and through failures caught again and
// again in a loop, calls made one after another in a loop, and concurrent tasks
// that interleave at their awaits, each to a depth chosen at random; the deepest needs a depth
// known from the program's text. Under exactly that limit the run finishes
// with the output it must print, and one below it stops with E-RT-DEPTH at a
// place in the program: a depth given back too often would let it finish, one
// not given back after a caught failure would stop the run early.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { compileProgram } from "../compiler/build.js";
import { parseSource } from "../compiler/index.js";
import { ROOT } from "./golden.js";
import { seeded } from "./support.js";

const CASES = Number(process.env["RENYI_FUZZ_CASES"] ?? 12);
const DIR = join(ROOT, "dist", "tests-depth");

const RELAY = `public function relay(f: function(Int) returns Int, n: Int) returns Int
  purpose: Calls f with n, from another module.
  return f(n)
end
`;

const FUNCTIONS = `use relay

function down(n: Int) returns Int
  if n is 0 then return 0
  return 1 + down(n - 1)
end

function ping(n: Int) returns Int
  if n is 0 then return 0
  return pong(n - 1) + 1
end

function pong(n: Int) returns Int
  if n is 0 then return 0
  return ping(n - 1) + 1
end

function failing(n: Int) returns Int or fails with Text
  if n is 0
    fail with "bottom"
  end
  return failing(n - 1) otherwise fail
end

function caught(n: Int, times: Int) returns Int
  var t be 0
  for each i in 1 to times
    set t to t + (failing(n) otherwise 1)
  end
  return t
end

function step(n: Int) returns Int
  return via(step, n)
end

function via(f: function(Int) returns Int, n: Int) returns Int
  if n is 0 then return 0
  return f(n - 1)
end

function deepmap(n: Int) returns Int
  if n is 0 then return 0
  return [n].fold(1, (acc, x) => acc + deepmap(x - 1))
end

function hop(n: Int) returns Int
  if n is 0 then return 0
  return relay.relay(hop, n - 1) + 1
end

function after(n: Int, times: Int) returns Int
  return caught(n, times) + down(n)
end

function task(n: Int) returns Int
  needs time
  time.sleep(time.milliseconds(1))
  return caught(n, 3) + down(n)
end

function together(n: Int, m: Int) returns Int
  needs time
  run concurrently
    let a be task(n)
    let b be task(m)
  end
  let more be from x in [m, n] concurrently select task(x)
  return a + b + more[0] + more[1]
end

function again(n: Int, times: Int) returns Int
  var t be 0
  for each i in 1 to times
    set t to t + down(n) + step(n)
  end
  return t
end
`;

/** A probe: the call main makes, the frames it nests (main's not counted), and what it gives. */
interface Probe {
  readonly call: string;
  readonly frames: number;
  readonly value: number;
}

const PROBES: ((k: number, times: number) => Probe)[] = [
  (k) => ({ call: `down(${k})`, frames: k + 1, value: k }),
  (k) => ({ call: `ping(${k})`, frames: k + 1, value: k }),
  (k, times) => ({ call: `caught(${k}, ${times})`, frames: k + 2, value: times }),
  (k) => ({ call: `step(${k})`, frames: 2 * (k + 1), value: 0 }),
  (k) => ({ call: `deepmap(${k})`, frames: 2 * k + 1, value: k }),
  (k) => ({ call: `hop(${k})`, frames: 2 * k + 1, value: k }),
  (k, times) => ({ call: `after(${k}, ${times})`, frames: k + 3, value: times + k }),
  (k, times) => ({ call: `again(${k}, ${times})`, frames: 1 + 2 * (k + 1), value: times * k }),
  // Tasks that interleave at their sleeps, each counting its own calls from the depth it started at.
  (k, times) => {
    const m = times % 40;
    return { call: `together(${k}, ${m})`, frames: Math.max(k, m) + 4, value: 12 + 2 * k + 2 * m };
  },
];

function program(seed: number): { text: string; needed: number; printed: string } {
  const random = seeded(seed);
  const int = (n: number): number => Math.floor(random() * n);
  const probes = Array.from({ length: 2 + int(5) }, () => PROBES[int(PROBES.length)]!(int(40), 1 + int(60)));
  const main = [
    "public function main()",
    "  purpose: Recursion of every kind, each to its own depth.",
    "  needs console, time",
    ...probes.map((p) => `  console.print("{${p.call}}")`),
    "end",
  ];
  return {
    text: `${FUNCTIONS}\n${main.join("\n")}\n`,
    // main is one call deep.
    needed: 1 + Math.max(...probes.map((p) => p.frames)),
    printed: probes.map((p) => `${p.value}\n`).join(""),
  };
}

function build(name: string, text: string): string {
  const modules = [
    { name, text },
    { name: "relay", text: RELAY },
  ].map((m) => {
    const file = join(DIR, `${m.name}.ry`);
    const syntax = parseSource(file, m.text);
    return { name: m.name, file, text: m.text, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics };
  });
  const out = `${name}.mjs`;
  const result = compileProgram(modules, { runtime: "renyi/runtime", entry: name, file: out });
  if (result.bundle === undefined)
    throw new Error(`${name} does not compile: ${result.diagnostics.find((d) => d.severity === "error")?.message}`);
  const path = join(DIR, out);
  writeFileSync(path, result.bundle.code);
  return path;
}

const RUNNER = join(ROOT, "dist", "tests", "depth-runner.js");

function run(path: string, depths: readonly number[]): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [RUNNER, path, ...depths.map(String)]);
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (status) => resolve({ status, out }));
  });
}

test(`recursion of every shape stops exactly one call past its depth limit (${CASES} random programs)`, async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  for (let n = 0; n < CASES; n++) {
    const { text, needed, printed } = program(2000 + n);
    const path = build(`case${n}`, text);
    const { status, out } = await run(path, [needed, needed - 1]);
    const [fits, below] = out.split(/^-- /m).filter((part) => part.startsWith("depth"));
    assert.equal(status, 0, `case ${n}: ${out}`);
    // What main printed under the limit it needs, then the finish; one below it, the depth error at a place of the program.
    assert.ok(out.startsWith(printed), `case ${n}, depth ${needed}: printed\n${out}\n${text}`);
    assert.match(fits ?? "", new RegExp(`^depth ${needed}: finished `), `case ${n}:\n${out}\n${text}`);
    assert.match(
      below ?? "",
      new RegExp(`^depth ${needed - 1}: crashed E-RT-DEPTH in (case${n}|relay)\\$\\w+ `),
      `case ${n}:\n${out}\n${text}`,
    );
  }
  rmSync(DIR, { recursive: true, force: true });
});
