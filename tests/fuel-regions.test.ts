// Loops that keep their fuel in a local (compiler/lower/fuel-regions.ts)
// count it step for step as the shared counters do. Random programs of nested
// loops, branches, `stop`, `skip`, `return` from inside loops, calls that keep
// a loop on the shared counters, list pushes and crashes are compiled both
// ways (BundleOptions.sharedFuel) and run under the same fuel limits, among
// them exactly the steps the run takes and one fewer (fuel-regions-runner.ts):
// the two must count the same steps, print the same (as they go, so that it
// shows how far each got) and end alike. A charge counted differently, a slow path taken at
// another step, or fuel not written back when a loop ends shows up as a run
// that stops elsewhere or not at all.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { compileProgram } from "../compiler/build.js";
import { FUEL_BLIND, FUEL_BLIND_LIBRARY } from "../compiler/lower/fuel-regions.js";
import { parseSource } from "../compiler/index.js";
import { ROOT } from "./golden.js";
import { seeded } from "./support.js";

const CASES = Number(process.env["RENYI_FUZZ_CASES"] ?? 15);
const DIR = join(ROOT, "dist", "tests-fuel-regions");

interface Gen {
  readonly random: () => number;
  loops: number;
}

const pick = <T>(g: Gen, xs: readonly T[]): T => xs[Math.floor(g.random() * xs.length)]!;
const int = (g: Gen, n: number): number => Math.floor(g.random() * n);

/** Statements at `indent`, inside `loops` loops (whose counters are named), in main or in `helper`. */
function statements(g: Gen, indent: string, counters: readonly string[], inHelper: boolean, depth: number): string[] {
  const out: string[] = [];
  const count = 1 + int(g, 3);
  for (let k = 0; k < count; k++) out.push(...statement(g, indent, counters, inHelper, depth));
  return out;
}

function statement(g: Gen, indent: string, counters: readonly string[], inHelper: boolean, depth: number): string[] {
  const acc = inHelper ? "acc" : "x";
  const term = counters.length > 0 ? pick(g, counters) : String(1 + int(g, 5));
  const inner = (c: readonly string[]) => statements(g, `${indent}  `, c, inHelper, depth + 1);
  const choices: (() => string[])[] = [
    () => [`${indent}set ${acc} to ${acc} + ${term}`],
    () => [`${indent}set ${acc} to (${acc} * 3 + ${term}) mod 1000`],
    () => [
      `${indent}if ${acc} mod 3 is 0 and ${term} > 1`,
      ...inner(counters),
      `${indent}else`,
      ...inner(counters),
      `${indent}end`,
    ],
    () => [`${indent}if ${acc} > ${int(g, 50)} or ${term} is 2 then set ${acc} to ${acc} - 1`],
  ];
  if (!inHelper) choices.push(() => [`${indent}set x to x + helper(${1 + int(g, 6)})`]);
  if (!inHelper) {
    choices.push(
      () => [`${indent}set xs to xs + [x mod 7]`],
      () => [`${indent}set xs to xs + [x mod 3, ${term}]`],
      () => [`${indent}set xs to xs + (1 to ${term} mod 4 + 1)`],
      // Joins and ranges made into another var: a call that charges what it makes, inside the loop.
      () => [`${indent}set ys to xs + [${term}]`],
      () => [`${indent}set ys to 1 to ${term} mod 50 + 30`],
      () => [`${indent}set st to st.add(${term} mod 9)`],
      // Joins and ranges bound by `let`, then read.
      () => {
        const z = `z${++g.loops}`;
        return [`${indent}let ${z} be xs + [${term}]`, `${indent}set x to x + ${z}.length() mod 5`];
      },
      () => {
        const r = `r${++g.loops}`;
        return [`${indent}let ${r} be 1 to ${term} mod 40 + 20`, `${indent}set x to x + ${r}.length() mod 7`];
      },
      () => [`${indent}set st2 to st.add(${term})`],
      () => [`${indent}set x to x + (${term} to ${term} + 20).length()`],
      () => [`${indent}set x to x + "{x}-{xs.length()}".length() mod 3`],
      () => [`${indent}set x to x + xs.length()`],
      () => [`${indent}console.print("{x}")`],
      () => [`${indent}set m to m.put(x mod 5, ${term})`],
      () => [`${indent}set x to x + m.get(${term} mod 4).or_else(2) + math.max(x, 3) mod 5`],
      // A join inside an expression, and a record's update: in place while `a` owns its record,
      // a copy (a join inside the record made) once `keep` holds it too.
      () => [`${indent}set x to x + (xs + [${term}]).length() mod 5`],
      () => [`${indent}set a to a with items: a.items + [${term}], sum: a.sum + ${term}`],
      () => [`${indent}set keep to a`],
    );
  }
  choices.push(() => [`${indent}set ${acc} to ${acc} + 100 / (${term} mod ${2 + int(g, 9)})`]);
  if (counters.length > 0) {
    choices.push(() => [`${indent}if ${acc} mod ${2 + int(g, 5)} is 0 then skip`]);
    choices.push(() => [`${indent}if ${acc} > ${int(g, 200)} then stop`]);
    if (inHelper) choices.push(() => [`${indent}if ${acc} > ${int(g, 300)} then return ${acc}`]);
  }
  if (depth < 3) {
    choices.push(() => {
      const c = `i${++g.loops}`;
      return [`${indent}for each ${c} in ${int(g, 3)} to ${int(g, 8)}`, ...inner([...counters, c]), `${indent}end`];
    });
    choices.push(() => {
      const c = `w${++g.loops}`;
      return [
        `${indent}var ${c} be 0`,
        `${indent}while ${c} < ${1 + int(g, 6)}`,
        `${indent}  set ${c} to ${c} + 1`,
        ...inner([...counters, c]),
        `${indent}end`,
      ];
    });
  }
  return pick(g, choices)();
}

function program(seed: number): string {
  const g: Gen = { random: seeded(seed), loops: 0 };
  return [
    "function helper(n: Int) returns Int",
    "  var acc be n",
    "  for each k in 1 to n",
    ...statements(g, "    ", ["k"], true, 1),
    "  end",
    "  return acc",
    "end",
    "",
    "type Acc is record",
    "  items: List<Int>",
    "  sum: Int",
    "end",
    "",
    "public function main()",
    "  purpose: Loops under a fuel limit.",
    "  needs console",
    "  var x be 1",
    "  var xs be [0]",
    "  var m be {0: 1}",
    "  var ys be [0]",
    "  var st be [0].to_set()",
    "  var st2 be [1].to_set()",
    "  var a be Acc(items: [0], sum: 0)",
    "  var keep be a",
    // What the run has done so far, printed between statements: where the fuel ran out shows.
    ...Array.from({ length: 4 }, () => [
      ...statements(g, "  ", [], false, 0),
      '  console.print("{x} {xs} {m} {ys.length()} {st.to_list()} {st2.length()} {a.sum} {a.items.length()} ' +
        '{keep.sum}")',
    ]).flat(),
    "end",
    "",
  ].join("\n");
}

function build(name: string, text: string, sharedFuel: boolean): string {
  const file = join(DIR, `${name}.ry`);
  const syntax = parseSource(file, text);
  const out = `${name}.${sharedFuel ? "shared" : "local"}.mjs`;
  const result = compileProgram([{ name, file, text, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics }], {
    runtime: "renyi/runtime",
    entry: name,
    file: out,
    sharedFuel,
  });
  if (result.bundle === undefined)
    throw new Error(
      `case ${name} does not compile: ${result.diagnostics.find((d) => d.severity === "error")?.message}\n${text}`,
    );
  const path = join(DIR, out);
  writeFileSync(path, result.bundle.code);
  return path;
}

const RUNNER = join(ROOT, "dist", "tests", "fuel-regions-runner.js");

function run(path: string, seed: number): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [RUNNER, path, String(seed)]);
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (status) => resolve(`exit ${status}\n${out}`));
  });
}

test(`loops keeping their fuel in locals stop where the shared counters stop (${CASES} random programs, 8 fuel limits each)`, async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  let ranOut = 0;
  let finished = 0;
  let localized = 0;
  for (let n = 0; n < CASES; n++) {
    const text = program(1000 + n);
    const shared = build(`case${n}`, text, true);
    const local = build(`case${n}`, text, false);
    if (readFileSync(local, "utf8").includes("$fuelRoom()")) localized++;
    const [a, b] = await Promise.all([run(shared, n), run(local, n)]);
    assert.equal(b, a, `case ${n}:\n${text}`);
    ranOut += a.split("E-RT-FUEL").length - 1;
    finished += a.split(": finished").length - 1;
  }
  console.log(
    `fuel regions: ${CASES} programs, ${localized} with loops keeping fuel in locals; runs out of fuel ${ranOut}, finished ${finished}`,
  );
  // The cases test something only if both outcomes occur and most programs have such loops.
  assert.ok(ranOut >= CASES * 2 && finished >= CASES, `${ranOut} ran out, ${finished} finished`);
  assert.ok(localized >= CASES / 2, `only ${localized} programs have a loop keeping its fuel in a local`);
  rmSync(DIR, { recursive: true, force: true });
});

test("the library functions a loop keeping its fuel in a local may call charge nothing themselves", async () => {
  // A specifier in a variable: the runtime is the package's own export, which has no type declarations.
  const RUNTIME = "renyi/runtime";
  const runtime = (await import(RUNTIME)) as Record<string, Record<string, unknown>>;
  let read = 0;
  for (const [module, names] of Object.entries(FUEL_BLIND_LIBRARY)) {
    const functions = runtime[module]!;
    for (const name of names === "*" ? Object.keys(functions) : names) {
      const f = functions[name];
      assert.equal(typeof f, "function", `${module}.${name} is a function of the runtime`);
      assert.doesNotMatch(String(f), /chargeWork|slow\(|\.fuel\b|\.room\b/, `${module}.${name} charges fuel itself`);
      read++;
    }
  }
  assert.ok(read > 20, `read ${read}`);
});

test("the runtime's helpers a loop keeping its fuel in a local may call leave the counters where they were", async () => {
  // A specifier in a variable: the runtime is the package's own export, which has no type declarations.
  const RUNTIME = "renyi/runtime";
  const rt = (await import(RUNTIME)) as Record<string, (...args: unknown[]) => unknown> & {
    S: { fuel: number; check: number };
    RMap: new (entries: [unknown, unknown][]) => unknown;
  };
  const big = Array.from({ length: 1000 }, (_, i) => i);
  // Each helper called as compiled code calls it, with lists and texts large enough that a charge by their size would
  // show.
  const calls: Record<string, () => unknown> = {
    iadd: () => rt.iadd!(1, 2),
    isub: () => rt.isub!(1, 2),
    imul: () => rt.imul!(3, 2),
    idiv: () => rt.idiv!(7, 2),
    imod: () => rt.imod!(7, 2),
    fmod: () => rt.fmod!(7.5, 2),
    index: () => rt.index!(big, 999),
    floatText: () => rt.floatText!(1.5),
    pushInPlace: () => rt.pushInPlace!([...big], 1, 2),
    pushOneInPlace: () => rt.pushOneInPlace!([...big], 1),
    pushRow: () => rt.pushRow!([...big], 1),
    tadd: () => rt.tadd!("a".repeat(1000), "b".repeat(1000)),
    tinterp: () => rt.tinterp!("c".repeat(1000)),
    mapGetPrimitiveOr: () => rt.mapGetPrimitiveOr!(new rt.RMap(big.map((i) => [i, i])), 7, 0),
    mapPutPrimitive: () => rt.mapPutPrimitive!(new rt.RMap(big.map((i) => [i, i])), 1000, 0),
    crash: () => rt.crash,
    noArmFits: () => rt.noArmFits,
    checkFailed: () => rt.checkFailed,
    Failure: () => rt.Failure,
    Some: () => new (rt.Some as unknown as new (v: unknown) => unknown)(big),
    Pair: () => new (rt.Pair as unknown as new (a: unknown, b: unknown) => unknown)(big, big),
  };
  assert.deepEqual(Object.keys(calls).sort(), [...FUEL_BLIND].sort(), "every helper of the list has a call here");
  for (const [name, call] of Object.entries(calls)) {
    assert.equal(typeof rt[name], "function", name);
    const before = [rt.S.fuel, rt.S.check];
    call();
    assert.deepEqual([rt.S.fuel, rt.S.check], before, `${name} moved the fuel`);
  }
  // The list helpers that charge what they copy are not on it, and would be caught here.
  const fuel = rt.S.fuel;
  rt.concat!(big, big);
  assert.notEqual(rt.S.fuel, fuel, "concat charges the items it copies");
});
