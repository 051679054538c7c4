// Library work is charged as fuel by its size (spec/runtime.md, "Library
// work"): a list of millions sorted under a small --fuel stops at once, the
// count is exact and the same on every run, and every function whose work
// grows with its input charges at least that input's size.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import fc from "fast-check";
import { configureLimits, sortSteps, stepsUsed } from "../rtlib/limits.js";
import * as json from "../rtlib/lib/json.js";
import * as list from "../rtlib/lib/list.js";
import * as map from "../rtlib/lib/map.js";
import * as sets from "../rtlib/lib/sets.js";
import * as text from "../rtlib/lib/text.js";
import { distinct, groupBy, sortRows } from "../rtlib/query.js";
import { JSON_SHAPE, Pair, RMap, RSet } from "../rtlib/values.js";
import { ROOT } from "./golden.js";

const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const work = mkdtempSync(join(tmpdir(), "renyi-library-fuel-"));
after(() => rmSync(work, { recursive: true, force: true }));
const env = { ...process.env, RENYI_CACHE_DIR: join(work, "cache") };

function write(name: string, source: string): string {
  const path = join(work, name);
  writeFileSync(path, source);
  return path;
}

function run(...args: string[]) {
  const result = spawnSync(process.execPath, [RENYI, "run", ...args], {
    cwd: work,
    encoding: "utf8",
    env,
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const attack = write(
  "attack.ry",
  `public function main()
  purpose: Sort nine million numbers over and over.
  needs console
  for each i in 1 to 1000
    var items be list.range(0, 9_000_000).reverse().sort()
    console.print("{items.length()}")
  end
end
`,
);

test("the attacker's loop of range, reverse and sort over nine million items ends at once with E-RT-FUEL under --fuel 300", () => {
  // Before library work was charged this ran for seconds (the test's own
  // timeout would end it); now list.range charges its nine million steps
  // before it builds anything.
  const first = run("--fuel", "300", attack);
  assert.equal(first.status, 2, first.stderr);
  assert.match(
    first.stderr,
    /^error\[E-RT-FUEL\]: the program used all of its 300 steps of fuel \(--fuel N gives more\)\n {2}--> .*attack\.ry:5:18\n/,
  );
  assert.equal(first.stdout, "");
  // Exact: the same run ends in the same place, with the same message.
  const second = run("--fuel", "300", attack);
  assert.equal(second.status, 2);
  assert.equal(second.stderr, first.stderr);
});

/** A program that sorts the range 0 until n and prints its length. */
function sorting(n: number): string {
  return write(
    `sorting-${n}.ry`,
    `public function main()
  purpose: Sort a range.
  needs console
  var items be list.range(0, ${n}).reverse().sort()
  console.print("{items.length()}")
end
`,
  );
}

/** The least fuel a program runs on, found by bisection between two bounds. */
function leastFuel(path: string, low: number, high: number): number {
  assert.equal(run("--fuel", String(high), path).status, 0);
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (run("--fuel", String(middle), path).status === 0) high = middle;
    else low = middle + 1;
  }
  return low;
}

test("library fuel is exact: a program that just fits runs, one step less stops, and the count is the charge the spec gives", () => {
  // range and reverse charge n each, sort n·⌈log₂ n⌉: at least 900 steps for 100 items.
  const small = leastFuel(sorting(100), 900, 1400);
  // 200 items cost 2·100 + (200·8 − 100·7) = 1,100 steps more than 100 items.
  const large = small + 2 * 100 + (sortSteps(200) - sortSteps(100));
  const fits = run("--fuel", String(large), sorting(200));
  assert.equal(fits.status, 0, fits.stderr);
  assert.equal(fits.stdout, "200\n");
  const short = run("--fuel", String(large - 1), sorting(200));
  assert.equal(short.status, 2);
  assert.match(short.stderr, /E-RT-FUEL/);
  assert.equal(short.stdout, "");
  // And the same count again.
  assert.equal(run("--fuel", String(large - 1), sorting(200)).stderr, short.stderr);
});

/** The steps one library call charges, with fuel plentiful. */
function charged(call: () => unknown): number {
  configureLimits({ fuel: 1e15 });
  const before = stepsUsed();
  call();
  return stepsUsed() - before;
}

const ints = (n: number): number[] => Array.from({ length: n }, (_, i) => (i * 7919) % (n + 3));
const words = (n: number): string => "ab c".repeat(Math.ceil(n / 4)).slice(0, n);
const same = (x: unknown): unknown => x;
const yes = (): boolean => true;
const no = (): boolean => false;

/** Each library function whose work grows with its input, the size of that input, and the call. */
const growing: [string, (n: number) => [number, () => unknown]][] = [
  ["list.range", (n) => [n, () => list.range(0, n)]],
  ["list.reverse", (n) => [n, () => list.reverse(ints(n))]],
  ["list.sort", (n) => [n, () => list.sort(ints(n))]],
  ["list.sort_by", (n) => [n, () => list.sort_by(ints(n), same)]],
  ["list.map", (n) => [n, () => list.map(ints(n), same)]],
  ["list.filter", (n) => [n, () => list.filter(ints(n), yes)]],
  ["list.fold", (n) => [n, () => list.fold(ints(n), 0, (a) => a)]],
  ["list.find", (n) => [n, () => list.find(ints(n), no)]],
  ["list.any", (n) => [n, () => list.any(ints(n), no)]],
  ["list.all", (n) => [n, () => list.all(ints(n), yes)]],
  ["list.flat_map", (n) => [n, () => list.flat_map(ints(n), (x) => [x])]],
  ["list.flatten", (n) => [n, () => list.flatten([ints(n)])]],
  ["list.zip", (n) => [n, () => list.zip(ints(n), ints(n))]],
  ["list.enumerate", (n) => [n, () => list.enumerate(ints(n))]],
  ["list.unique", (n) => [n, () => list.unique(ints(n))]],
  ["list.contains", (n) => [n, () => list.contains(ints(n), -1)]],
  ["list.index_of", (n) => [n, () => list.index_of(ints(n), -1)]],
  ["list.append", (n) => [n, () => list.append(ints(n), 1)]],
  ["list.take", (n) => [n, () => list.take(ints(n), n)]],
  ["list.drop", (n) => [n, () => list.drop(ints(n), 0)]],
  ["list.slice", (n) => [n, () => list.slice(ints(n), 0, n)]],
  ["list.chunks", (n) => [n, () => list.chunks(ints(n), 3)]],
  ["list.sum", (n) => [n, () => list.sum(ints(n))]],
  ["list.average", (n) => [n, () => list.average(ints(n))]],
  ["list.min", (n) => [n, () => list.min(ints(n))]],
  ["list.max", (n) => [n, () => list.max(ints(n))]],
  ["list.to_set", (n) => [n, () => list.to_set(ints(n))]],
  ["list.to_map", (n) => [n, () => list.to_map(ints(n).map((x, i) => new Pair(i, x)))]],
  ["list +", (n) => [n, () => list.concat(ints(n), [])]],
  ["map.put", (n) => [n, () => map.put(new RMap(ints(n).map((x, i) => [i, x])), -1, 0)]],
  ["map.remove", (n) => [n, () => map.remove(new RMap(ints(n).map((x, i) => [i, x])), 0)]],
  ["map.keys", (n) => [n, () => map.keys(new RMap(ints(n).map((x, i) => [i, x])))]],
  ["map.values", (n) => [n, () => map.values(new RMap(ints(n).map((x, i) => [i, x])))]],
  ["map.entries", (n) => [n, () => map.entries(new RMap(ints(n).map((x, i) => [i, x])))]],
  ["map.merge", (n) => [n, () => map.merge(new RMap(ints(n).map((x, i) => [i, x])), new RMap())]],
  ["sets.add", (n) => [n, () => sets.add(new RSet(list.range(0, n)), -1)]],
  ["sets.remove", (n) => [n, () => sets.remove(new RSet(list.range(0, n)), 0)]],
  ["sets.to_list", (n) => [n, () => sets.to_list(new RSet(list.range(0, n)))]],
  ["sets.union", (n) => [n, () => sets.union(new RSet(list.range(0, n)), new RSet())]],
  ["sets.intersection", (n) => [n, () => sets.intersection(new RSet(list.range(0, n)), new RSet())]],
  ["sets.difference", (n) => [n, () => sets.difference(new RSet(list.range(0, n)), new RSet())]],
  ["text.length", (n) => [n, () => text.length(words(n))]],
  ["text.upper", (n) => [n, () => text.upper(words(n))]],
  ["text.lower", (n) => [n, () => text.lower(words(n))]],
  ["text.trim", (n) => [n, () => text.trim(words(n))]],
  ["text.characters", (n) => [n, () => text.characters(words(n))]],
  ["text.split", (n) => [n, () => text.split(words(n), " ")]],
  ["text.lines", (n) => [n, () => text.lines(words(n))]],
  [
    "text.join",
    (n) => [
      n,
      () =>
        text.join(
          Array.from({ length: n }, () => ""),
          "",
        ),
    ],
  ],
  ["text.contains", (n) => [n, () => text.contains(words(n), "zz")]],
  ["text.index_of", (n) => [n, () => text.index_of(words(n), "zz")]],
  ["text.replace", (n) => [n, () => text.replace(words(n), "zz", "y")]],
  ["text.slice", (n) => [n, () => text.slice(words(n), 0, n)]],
  ["text.repeat", (n) => [n, () => text.repeat("x", n)]],
  ["text.reverse", (n) => [n, () => text.reverse(words(n))]],
  ["text.pad_start", (n) => [n, () => text.pad_start("", n, "-")]],
  ["text.pad_end", (n) => [n, () => text.pad_end("", n, "-")]],
  ["text.to_bytes", (n) => [n, () => text.to_bytes(words(n))]],
  ["text.is_letter", (n) => [n, () => text.is_letter("é".repeat(n))]],
  ["text.is_digit", (n) => [n, () => text.is_digit("٣".repeat(n))]],
  ["text.is_whitespace", (n) => [n, () => text.is_whitespace(" ".repeat(n))]],
  ["text.split_where", (n) => [n, () => text.split_where(words(n), no)]],
  ["text.from_bytes", (n) => [n, () => text.from_bytes(new Uint8Array(n).fill(97))]],
  ["json.encode", (n) => [n, () => json.encode(words(n), JSON_SHAPE)]],
  ["json.to_text", (n) => [n, () => json.to_text(ints(n))]],
  ["json.parse", (n) => [n, () => json.parse(JSON.stringify(words(Math.max(0, n - 2))))]],
  ["json.decode", (n) => [n, () => json.decode(JSON.stringify(words(Math.max(0, n - 2))), JSON_SHAPE)]],
  ["a query's sort", (n) => [n, () => sortRows(ints(n), (x) => [x], [false])]],
  ["a query's group by", (n) => [n, () => groupBy(ints(n), (x) => x, same)]],
  ["select distinct", (n) => [n, () => distinct(ints(n))]],
];

test("every library function whose work grows with its input charges at least the input's size (random sizes)", () => {
  let cases = 0;
  fc.assert(
    fc.property(fc.constantFrom(...growing), fc.integer({ min: 0, max: 5000 }), ([name, make], n) => {
      const [size, call] = make(n);
      const steps = charged(call);
      cases++;
      assert.ok(steps >= size, `${name} of size ${size} charged ${steps} steps`);
    }),
    { numRuns: 3000 },
  );
  // Sorts charge n·⌈log₂ n⌉ exactly, the same on every machine.
  for (const n of [0, 1, 2, 3, 4, 5, 1000, 1024, 1025])
    assert.equal(
      charged(() => list.sort(ints(n))),
      sortSteps(n),
    );
  assert.deepEqual([0, 1, 2, 3, 4, 5, 1024, 1025].map(sortSteps), [0, 1, 2, 6, 8, 15, 10240, 11275]);
  configureLimits({});
  console.log(`library fuel: ${cases} cases over ${growing.length} functions`);
});

test("random.shuffle charges the list it shuffles, as list.reverse does: the two programs need the same fuel, exactly", () => {
  const program = (name: string, call: string): string =>
    write(
      `${name}.ry`,
      `public function main()\n  purpose: Reorder a list.\n  needs console, random\n` +
        `  let xs be list.range(0, 1000)\n  let ys be ${call}\n  console.print("{ys.length()}")\nend\n`,
    );
  // list.range and the reordering charge 1,000 steps each.
  const least = leastFuel(program("reversing", "list.reverse(xs)"), 2000, 2100);
  const shuffling = program("shuffling", "random.shuffle(xs)");
  const fits = run("--fuel", String(least), shuffling);
  assert.equal(fits.status, 0, fits.stderr);
  assert.equal(fits.stdout, "1000\n");
  const short = run("--fuel", String(least - 1), shuffling);
  assert.equal(short.status, 2);
  assert.match(short.stderr, /E-RT-FUEL/);
});
