// Walks over values are charged part by part (spec/runtime.md, "Walks over values"):
// random values whose parts are shared (the same list, record or tree in many places,
// as a program that reuses a value builds them) are compared, ordered, keyed, written as
// text and as JSON by the runtime, and each answer and each charge is checked against a
// model in this file that walks the values as the trees they stand for. The charge is
// exact: the model's count of parts (and of text units), and a fuel one step short of it
// ends the walk with E-RT-FUEL. Then the attack the rule answers: two trees of 2^26
// leaves built apart, compared under --fuel 100000, and a tree compared with itself.
//
// RENYI_FUZZ_CASES sets the number of cases (1,000 by default), RENYI_FUZZ_SEED the
// first seed; case i has seed SEED + i, so a failing case is reproduced with
// RENYI_FUZZ_SEED=<its seed> RENYI_FUZZ_CASES=1. `npm run fuzz` runs this file for
// longer, with a fresh seed every round.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { compare, equals } from "../rtlib/equality.js";
import { Crash } from "../rtlib/errors.js";
import { encode } from "../rtlib/json.js";
import { configureLimits, stepsUsed } from "../rtlib/limits.js";
import { NONE, Some } from "../rtlib/prelude.js";
import { toText, toTextUncharged } from "../rtlib/text.js";
import { describe, DYNAMIC, JSON_SHAPE, keyOf, Pair, RMap, RSet } from "../rtlib/values.js";
import { ROOT } from "./golden.js";
import { seeded } from "./support.js";

const CASES = Number(process.env["RENYI_FUZZ_CASES"] ?? 1000);
const FIRST_SEED = Number(process.env["RENYI_FUZZ_SEED"] ?? 1);

// ---- the types of values, made as compiled code makes them ----

class Rec {
  constructor(
    readonly a: unknown,
    readonly b: unknown,
  ) {}
}
describe(Rec, "Rec", "Rec", [
  ["a", "a", "a", DYNAMIC],
  ["b", "b", "b", DYNAMIC],
]);
class Leaf {}
class Node {
  constructor(
    readonly left: unknown,
    readonly right: unknown,
  ) {}
}
describe(Leaf, "Leaf", "Tree.Leaf", [], "Tree", 0);
describe(
  Node,
  "Node",
  "Tree.Node",
  [
    ["left", "left", "left", DYNAMIC],
    ["right", "right", "right", DYNAMIC],
  ],
  "Tree",
  1,
);
/** A bare case is one shared instance, as the compiler makes it. */
const LEAF = new Leaf();

type Type =
  | { k: "int" | "text" | "tree" }
  | { k: "list" | "option"; item: Type }
  | { k: "pair" | "rec"; first: Type; second: Type }
  | { k: "map"; key: "int" | "text"; value: Type }
  | { k: "set"; key: "int" | "text" };

/** What a case draws from: its random numbers, and the values made so far of each type, reused to share parts. */
interface Maker {
  readonly random: () => number;
  readonly made: Map<string, unknown[]>;
  /** Whether maps and sets may be made: not for an order, which the checker allows on neither. */
  readonly unordered: boolean;
}

const below = (r: () => number, n: number): number => Math.floor(r() * n);

function randomType(m: Maker, depth: number): Type {
  const leafs: Type[] = [{ k: "int" }, { k: "text" }, { k: "tree" }];
  if (depth === 0) return leafs[below(m.random, leafs.length)]!;
  const kinds = m.unordered ? 8 : 6;
  switch (below(m.random, kinds)) {
    case 0:
    case 1:
      return leafs[below(m.random, leafs.length)]!;
    case 2:
      return { k: "list", item: randomType(m, depth - 1) };
    case 3:
      return { k: "option", item: randomType(m, depth - 1) };
    case 4:
      return { k: "pair", first: randomType(m, depth - 1), second: randomType(m, depth - 1) };
    case 5:
      return { k: "rec", first: randomType(m, depth - 1), second: randomType(m, depth - 1) };
    case 6:
      return { k: "map", key: m.random() < 0.5 ? "int" : "text", value: randomType(m, depth - 1) };
    default:
      return { k: "set", key: m.random() < 0.5 ? "int" : "text" };
  }
}

const randomText = (r: () => number): string =>
  ["", "a", "ab", "b", "abc", "zz", "é", "a\u0000", "long text here"][below(r, 9)]!;

/**
 * A value of the type: often one made before (a shared part), otherwise a new one whose parts are values of their
 * types.
 */
function valueFor(m: Maker, type: Type): unknown {
  const name = JSON.stringify(type);
  const pool = m.made.get(name) ?? [];
  m.made.set(name, pool);
  if (pool.length > 0 && m.random() < 0.45) return pool[below(m.random, pool.length)];
  const value = freshValue(m, type);
  pool.push(value);
  return value;
}

function freshValue(m: Maker, type: Type): unknown {
  const r = m.random;
  switch (type.k) {
    case "int":
      return below(r, 5) - 1;
    case "text":
      return randomText(r);
    case "tree": {
      // Doubled a few times, as the attack builds it: 2^n leaves in n objects (at most 2^10, for the model's sake).
      let t: unknown = r() < 0.3 ? LEAF : valueOfTree(m);
      for (let i = below(r, 4); i > 0 && height(t) < 10; i--) t = new Node(t, t);
      return t;
    }
    case "list":
      return Array.from({ length: below(r, 4) }, () => valueFor(m, type.item));
    case "option":
      return r() < 0.25 ? NONE : new Some(valueFor(m, type.item));
    case "pair":
      return new Pair(valueFor(m, type.first), valueFor(m, type.second));
    case "rec":
      return new Rec(valueFor(m, type.first), valueFor(m, type.second));
    case "map": {
      const map = new RMap();
      for (let i = below(r, 4); i > 0; i--)
        map.setInPlace(type.key === "int" ? below(r, 6) : randomText(r), valueFor(m, type.value));
      return map;
    }
    case "set": {
      const set = new RSet();
      for (let i = below(r, 4); i > 0; i--) set.addInPlace(type.key === "int" ? below(r, 6) : randomText(r));
      return set;
    }
  }
}

function valueOfTree(m: Maker): unknown {
  const pool = (m.made.get('{"k":"tree"}') ?? []).filter((t) => height(t) < 9);
  const pick = (): unknown => (pool.length > 0 && m.random() < 0.7 ? pool[below(m.random, pool.length)] : LEAF);
  return new Node(pick(), pick());
}

const heights = new WeakMap<object, number>();
function height(tree: unknown): number {
  if (!(tree instanceof Node)) return 0;
  let h = heights.get(tree);
  if (h === undefined) heights.set(tree, (h = 1 + Math.max(height(tree.left), height(tree.right))));
  return h;
}

/**
 * A copy of `value` that shares none of its objects with it (but shares its parts among
 * themselves as the value does), with a leaf changed here and there when `change` says so.
 */
function copyApart(
  value: unknown,
  random: () => number,
  change: number,
  copies = new Map<unknown, unknown>(),
): unknown {
  if (typeof value === "number") return random() < change ? value + 1 : value;
  if (typeof value === "string") return random() < change ? `${value}x` : value;
  if (value === LEAF || value === NONE) return value;
  if (copies.has(value)) return copies.get(value);
  const again = (v: unknown): unknown => copyApart(v, random, change, copies);
  let copy: unknown;
  if (Array.isArray(value)) copy = random() < change && value.length > 0 ? value.slice(1).map(again) : value.map(again);
  else if (value instanceof Pair) copy = new Pair(again(value.first), again(value.second));
  else if (value instanceof Rec) copy = new Rec(again(value.a), again(value.b));
  else if (value instanceof Node) copy = new Node(again(value.left), again(value.right));
  else if (value instanceof Some) copy = new Some(again(value.value));
  else if (value instanceof RMap)
    copy = new RMap([...value.entries()].map(([k, v]) => [k, again(v)] as [unknown, unknown]));
  else if (value instanceof RSet)
    copy = new RSet([...value.values()].map((v) => (random() < change ? `${String(v)}x` : v)));
  else throw new Error(`no copy for ${String(value)}`);
  copies.set(value, copy);
  return copy;
}

// ---- the model: the values walked as trees, by recursion, counting what the spec charges ----

/** The parts of a value below it, as the spec lists them, and its text length when it is a text. */
function parts(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value instanceof Pair) return [value.first, value.second];
  if (value instanceof Rec) return [value.a, value.b];
  if (value instanceof Node) return [value.left, value.right];
  if (value instanceof Some) return [value.value];
  if (value instanceof RMap) return [...value.entries()].flat();
  if (value instanceof RSet) return [...value.values()];
  return [];
}
const units = (value: unknown): number => (typeof value === "string" ? value.length : 0);

/** Every part below the value, counted once for each place it appears, and the text units of all of them. */
function treeSteps(value: unknown, top: boolean): number {
  return (top ? 0 : 1 + units(value)) + parts(value).reduce<number>((sum, p) => sum + treeSteps(p, false), 0);
}

/** The value written out as a tree, a text that is equal exactly when the values are. */
function expanded(value: unknown): string {
  if (typeof value === "number" || typeof value === "string") return JSON.stringify(value);
  if (value instanceof RMap)
    return `map{${[...value.entries()]
      .map(([k, v]) => `${JSON.stringify(k)}:${expanded(v)}`)
      .sort()
      .join(",")}}`;
  if (value instanceof RSet)
    return `set{${[...value.values()]
      .map((v) => JSON.stringify(v))
      .sort()
      .join(",")}}`;
  return `${value === LEAF ? "Leaf" : value === NONE ? "None" : (value as object).constructor.name}(${parts(value).map(expanded).join(",")})`;
}

interface Walked<T> {
  answer: T;
  steps: number;
}

/**
 * Equality as the spec walks it: side by side, first part first, stopping at the first difference; the same object not
 * opened.
 */
function modelEquals(a: unknown, b: unknown, top = true): Walked<boolean> {
  let steps = top ? 0 : 1;
  if (a === b) return { answer: true, steps: steps + units(a) };
  if (typeof a === "string" && typeof b === "string")
    return { answer: false, steps: steps + Math.min(a.length, b.length) };
  if (typeof a !== "object" || typeof b !== "object") return { answer: false, steps };
  if ((a as object).constructor !== (b as object).constructor) return { answer: false, steps };
  if (Array.isArray(a) && a.length !== (b as unknown[]).length) return { answer: false, steps };
  if (a instanceof RSet || a instanceof RMap) {
    const x = a instanceof RSet ? a.itemsByKey : a.valuesByKey;
    const y = b instanceof RSet ? b.itemsByKey : (b as RMap).valuesByKey;
    if (x.size !== y.size) return { answer: false, steps };
    steps += x.size;
    if ([...x.keys()].some((k) => !y.has(k))) return { answer: false, steps };
    if (a instanceof RSet) return { answer: true, steps };
    for (const [k, v] of x) {
      const inner = modelEquals(v, y.get(k), false);
      steps += inner.steps;
      if (!inner.answer) return { answer: false, steps };
    }
    return { answer: true, steps };
  }
  const ys = parts(b);
  const xs = parts(a);
  for (let i = 0; i < xs.length; i++) {
    const inner = modelEquals(xs[i], ys[i], false);
    steps += inner.steps;
    if (!inner.answer) return { answer: false, steps };
  }
  return { answer: true, steps };
}

/**
 * Order as the spec walks it: cases by their order, then parts first to last; lists by the items both have, then
 * length.
 */
function modelCompare(a: unknown, b: unknown, top = true): Walked<number> {
  let steps = top ? 0 : 1;
  if (a === b) return { answer: 0, steps: steps + units(a) };
  if (typeof a === "number") return { answer: Math.sign(a - (b as number)), steps };
  if (typeof a === "string") {
    const y = b as string;
    return { answer: a < y ? -1 : a > y ? 1 : 0, steps: steps + Math.min(a.length, y.length) };
  }
  // The position of a case in its variant's declaration: Leaf before Node, None before Some.
  const rank = (v: unknown): number => (v instanceof Node || v instanceof Some ? 1 : 0);
  if (rank(a) !== rank(b)) return { answer: rank(a) < rank(b) ? -1 : 1, steps };
  const xs = parts(a);
  const ys = parts(b);
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
    const inner = modelCompare(xs[i], ys[i], false);
    steps += inner.steps;
    if (inner.answer !== 0) return { answer: inner.answer, steps };
  }
  return { answer: Math.sign(xs.length - ys.length), steps };
}

/** to_text as people read it. */
function modelText(value: unknown, top = true): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return top ? value : JSON.stringify(value);
  const inner = (v: unknown): string => modelText(v, false);
  if (Array.isArray(value)) return `[${value.map(inner).join(", ")}]`;
  if (value instanceof Pair) return `(${inner(value.first)}, ${inner(value.second)})`;
  if (value instanceof Rec) return `Rec(a: ${inner(value.a)}, b: ${inner(value.b)})`;
  if (value === LEAF) return "Tree.Leaf";
  if (value instanceof Node) return `Tree.Node(left: ${inner(value.left)}, right: ${inner(value.right)})`;
  if (value === NONE) return "None";
  if (value instanceof Some) return `Some(${inner(value.value)})`;
  if (value instanceof RMap) return `{${[...value.entries()].map(([k, v]) => `${inner(k)}: ${inner(v)}`).join(", ")}}`;
  return `Set([${[...(value as RSet).values()].map(inner).join(", ")}])`;
}

/** The JSON value the spec gives a value. */
function modelJson(value: unknown): unknown {
  if (typeof value === "number" || typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(modelJson);
  if (value instanceof Pair) return [modelJson(value.first), modelJson(value.second)];
  if (value instanceof Rec) return { a: modelJson(value.a), b: modelJson(value.b) };
  if (value === LEAF) return "Leaf";
  if (value instanceof Node) return { Node: { left: modelJson(value.left), right: modelJson(value.right) } };
  if (value === NONE) return null;
  if (value instanceof Some) return modelJson(value.value);
  if (value instanceof RSet) return [...value.values()];
  const entries = [...(value as RMap).entries()];
  if (entries.every(([k]) => typeof k === "string"))
    return Object.fromEntries(entries.map(([k, v]) => [k, modelJson(v)]));
  return entries.map(([k, v]) => [k, modelJson(v)]);
}

// ---- the runtime's walks, their answers and their charges ----

function charged<T>(walk: () => T): Walked<T> {
  configureLimits({ fuel: 1e15 });
  const before = stepsUsed();
  const answer = walk();
  return { answer, steps: stepsUsed() - before };
}

/** The walk runs on exactly its charge, and one step less ends it with E-RT-FUEL. */
function exactFuel(what: string, walk: () => unknown, steps: number): void {
  configureLimits({ fuel: steps });
  walk();
  configureLimits({ fuel: steps - 1 });
  assert.throws(
    walk,
    (e: unknown) => e instanceof Crash && e.code === "E-RT-FUEL",
    `${what}: one step less than its charge of ${steps} ends the walk with E-RT-FUEL`,
  );
  configureLimits({ fuel: 1e15 });
}

interface Case {
  seed: number;
  a: unknown;
  b: unknown;
  ordered: boolean;
}

function randomCase(seed: number): Case {
  const random = seeded(seed);
  const ordered = random() < 0.5;
  const maker: Maker = { random, made: new Map(), unordered: !ordered };
  const type = randomType(maker, 3);
  // Values made first so that the pools hold parts to share.
  for (let i = below(random, 6); i > 0; i--) valueFor(maker, type);
  const a = valueFor(maker, type);
  const choice = random();
  const b =
    choice < 0.15
      ? a
      : choice < 0.5
        ? copyApart(a, random, 0)
        : choice < 0.8
          ? copyApart(a, random, 0.15)
          : valueFor(maker, type);
  return { seed, a, b, ordered };
}

test(`walks over values with shared parts answer as the tree model does and charge exactly its count (${CASES} cases)`, () => {
  let shared = 0;
  let unequal = 0;
  for (let i = 0; i < CASES; i++) {
    const c = randomCase(FIRST_SEED + i);
    const at = `seed ${c.seed} (reproduce with RENYI_FUZZ_SEED=${c.seed} RENYI_FUZZ_CASES=1)`;
    const { a, b } = c;
    if (treeSteps(a, true) > 3 * new Set(objectsOf(a)).size) shared++;

    const eq = charged(() => equals(a, b));
    const eqModel = modelEquals(a, b);
    assert.equal(eq.answer, expanded(a) === expanded(b), `${at}: is`);
    assert.deepEqual(eq, eqModel, `${at}: is, its answer and its charge`);
    if (eq.steps > 0) exactFuel(`${at}: is`, () => equals(a, b), eq.steps);
    if (!eq.answer) unequal++;

    if (c.ordered) {
      const order = charged(() => compare(a, b));
      assert.deepEqual(order, modelCompare(a, b), `${at}: order, its answer and its charge`);
      assert.equal(order.answer === 0, eq.answer, `${at}: ordered the same exactly when equal`);
      if (order.steps > 0) exactFuel(`${at}: order`, () => compare(a, b), order.steps);
    }

    if (typeof a === "object") {
      const key = charged(() => keyOf(a));
      assert.equal(key.steps, treeSteps(a, true), `${at}: the key's charge`);
      assert.equal(key.answer === keyOf(b), eq.answer, `${at}: one key exactly when equal`);
      if (key.steps > 0) exactFuel(`${at}: key`, () => keyOf(a), key.steps);
    }

    const text = charged(() => toText(a));
    assert.deepEqual(
      text,
      { answer: modelText(a), steps: treeSteps(a, true) },
      `${at}: to_text, the text and its charge`,
    );
    if (text.steps > 0) exactFuel(`${at}: to_text`, () => toText(a), text.steps);

    const json = charged(() => encode(a, DYNAMIC));
    const written = JSON.stringify(modelJson(a));
    assert.equal(json.answer, written, `${at}: json.encode`);
    // Each part visited, then the text written (texts are charged as written, not as visited).
    assert.equal(
      json.steps,
      treeSteps(a, true) - textUnitsBelow(a, true) + written.length,
      `${at}: json.encode's charge`,
    );
    exactFuel(`${at}: json.encode`, () => encode(a, DYNAMIC), json.steps);
  }
  // The generator has drifted if few values share parts or every pair is equal.
  assert.ok(shared >= CASES / 10, `only ${shared} of ${CASES} values share their parts`);
  assert.ok(unequal >= CASES / 10 && unequal <= CASES - CASES / 10, `${unequal} of ${CASES} pairs are unequal`);
});

function objectsOf(value: unknown, seen: unknown[] = []): unknown[] {
  if (typeof value !== "object" || value === null) return seen;
  seen.push(value);
  for (const p of parts(value)) objectsOf(p, seen);
  return seen;
}

function textUnitsBelow(value: unknown, top: boolean): number {
  return (top ? 0 : units(value)) + parts(value).reduce<number>((sum, p) => sum + textUnitsBelow(p, false), 0);
}

// ---- the attack ----

/** A tree of 2^n leaves in n + 1 objects. */
function doubled(n: number): unknown {
  let t: unknown = LEAF;
  for (let i = 0; i < n; i++) t = new Node(t, t);
  return t;
}

test("two trees of 2^26 leaves built apart: under 100,000 steps of fuel each walk stops with E-RT-FUEL; a tree is itself for nothing", () => {
  const a = doubled(26);
  const b = doubled(26);
  const walks: Record<string, () => unknown> = {
    is: () => equals(a, b),
    order: () => compare(a, b),
    key: () => keyOf(a),
    to_text: () => toText(a),
    "json.encode": () => encode(a, DYNAMIC),
  };
  for (const [name, walk] of Object.entries(walks)) {
    configureLimits({ fuel: 100_000 });
    assert.throws(walk, (e: unknown) => e instanceof Crash && e.code === "E-RT-FUEL", name);
  }
  assert.deepEqual(
    charged(() => equals(a, a)),
    { answer: true, steps: 0 },
  );
  // The runtime's own writing (a narration's line, a run's outcome) charges the program nothing.
  // It is cut where it stops showing: a tree of 2^26 leaves gives its first 500 characters, the same as a smaller
  // tree's.
  const small = doubled(4);
  const whole = toText(small);
  assert.ok(whole.length > 500);
  assert.deepEqual(
    charged(() => toTextUncharged(small, DYNAMIC, whole.length)),
    { answer: whole, steps: 0 },
  );
  assert.deepEqual(
    charged(() => toTextUncharged(small, DYNAMIC, 80)),
    { answer: `${whole.slice(0, 77)}...`, steps: 0 },
  );
  const started = Date.now();
  const cut = toTextUncharged(a);
  assert.equal(cut.length, 500);
  assert.ok(
    Date.now() - started < 1_000,
    `writing 500 characters of a tree of 2^26 leaves took ${Date.now() - started} ms`,
  );
  assert.equal(cut.slice(0, 40), toText(small).slice(0, 40));
  assert.match(cut, /\.\.\.$/);
  assert.deepEqual(
    charged(() => compare(b, b)),
    { answer: 0, steps: 0 },
  );
  // Parts shared by both values are not opened: a tree doubled once more on either side costs its two halves, one step
  // each.
  assert.deepEqual(
    charged(() => equals(new Node(a, a), new Node(a, a))),
    { answer: true, steps: 2 },
  );
});

test("a chain of records nested 100,000 deep is compared, ordered, keyed and written with no overflow of the engine's stack", () => {
  const chain = (n: number, last: unknown): unknown => {
    let t: unknown = new Rec(last, []);
    for (let i = 0; i < n; i++) t = new Rec(i, t);
    return t;
  };
  const a = chain(100_000, 0);
  const b = chain(100_000, 0);
  const c = chain(100_000, 1);
  configureLimits({ fuel: 1e15 });
  assert.equal(equals(a, b), true);
  assert.equal(equals(a, c), false);
  assert.equal(compare(a, c), -1);
  assert.equal(keyOf(a), keyOf(b));
  assert.notEqual(keyOf(a), keyOf(c));
  const text = toText(a);
  assert.ok(
    text.startsWith("Rec(a: 99999, b: Rec(a: 99998, b: ") && text.endsWith(`Rec(a: 0, b: [])${")".repeat(100_000)}`),
    text.slice(0, 80),
  );
  const written = encode(a, DYNAMIC);
  assert.ok(
    written.startsWith('{"a":99999,"b":{"a":99998,"b":') && written.endsWith(`{"a":0,"b":[]}${"}".repeat(100_000)}`),
    written.slice(0, 80),
  );
  // A Json value nested as deep, read from text, written back the same.
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  assert.equal(toText(JSON.parse(deep), JSON_SHAPE), deep);
});

// ---- the same through `renyi run` ----

const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const work = mkdtempSync(join(tmpdir(), "renyi-structural-"));
after(() => rmSync(work, { recursive: true, force: true }));

function program(name: string, compared: string): string {
  const path = join(work, name);
  writeFileSync(
    path,
    `type Tree is variant
  Leaf
  Node(left: Tree, right: Tree)
end

function doubled(n: Int) returns Tree
  var t be Tree.Leaf
  for each i in 0 until n
    set t to Tree.Node(left: t, right: t)
  end
  return t
end

public function main()
  purpose: Compare two trees of 2^26 leaves.
  needs console
  let a be doubled(26)
  let b be doubled(26)
  console.print("{${compared}}")
end
`,
  );
  return path;
}

function run(...args: string[]) {
  const result = spawnSync(process.execPath, [RENYI, "run", ...args], {
    cwd: work,
    encoding: "utf8",
    env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") },
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("`a is b` on two trees of 2^26 leaves built apart ends with E-RT-FUEL at the comparison under --fuel 100000", () => {
  const result = run("--fuel", "100000", program("apart.ry", "a is b"));
  assert.equal(result.status, 2, result.stderr);
  assert.match(result.stderr, /error\[E-RT-FUEL\]: the program used all of its 100,000 steps of fuel/);
  assert.match(result.stderr, /apart\.ry:19:19\n/);
  assert.equal(result.stdout, "");
});

test("`a is b` on the same trees under the default fuel ends at --timeout 1 with E-RT-TIMEOUT at the comparison", () => {
  const result = run("--timeout", "1", program("deadline.ry", "a is b"));
  assert.equal(result.status, 2, result.stderr);
  assert.match(result.stderr, /^error\[E-RT-TIMEOUT\]: the run reached its time limit of 1 s/);
  assert.match(result.stderr, /deadline\.ry:19:19\n[\s\S]*= note: in `main`/);
});

test("`a is a` on a tree of 2^26 leaves answers at once: the whole program fits in 1,000 steps", () => {
  const result = run("--fuel", "1000", program("itself.ry", "a is a"));
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, "true\n");
});
