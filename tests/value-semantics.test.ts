// The laws of value semantics (spec/runtime.md, "Value semantics without
// copying"), attacked: random programs change lists, records and maps while
// other names, records, maps, lists, function values and the parameters of
// functions that borrow or keep them can see the same values, and their output
// is compared with a model that copies on every change. A change made in place
// where another holder could see it shows up as a difference.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { RENYI, seeded } from "./support.js";

type List = readonly number[];
interface Box {
  readonly items: List;
  readonly n: number;
  readonly spare: List;
}
type Saved =
  | { kind: "int"; value: number }
  | { kind: "list"; value: List }
  | { kind: "box"; value: Box }
  | { kind: "lists"; value: readonly List[] };

/** The model's state: every value immutable, each change a copy. */
interface State {
  a: List;
  b: List;
  r: Box;
  m: List; // the map's one entry, under "x"
  saved: Saved[];
}

const peek = (xs: List): number => (xs.length === 0 ? 0 : xs.length * 1000 + xs[xs.length - 1]!);

/** One statement of a case: its Renyi text (given the number of the next saved value) and what it does to the model. */
interface Op {
  readonly text: (k: number, saved: number) => string;
  readonly run: (s: State, k: number) => void;
}

const save = (s: State, v: Saved): void => void s.saved.push(v);

const OPS: readonly Op[] = [
  { text: (k) => `set a to a + [${k}]`, run: (s, k) => void (s.a = [...s.a, k]) },
  { text: (k) => `set a to list.append(a, ${k})`, run: (s, k) => void (s.a = [...s.a, k]) },
  { text: () => `set b to a`, run: (s) => void (s.b = s.a) },
  { text: (k) => `set a to b + [${k}]`, run: (s, k) => void (s.a = [...s.b, k]) },
  { text: (k) => `set a to grow(a, ${k})`, run: (s, k) => void (s.a = [...s.a, k]) },
  { text: () => `set a to same(a)`, run: () => undefined },
  { text: () => `set a to r.items`, run: (s) => void (s.a = s.r.items) },
  { text: () => `set a to m.get("x").or_else([])`, run: (s) => void (s.a = s.m) },
  { text: (_, n) => `let s${n} be peek(a)`, run: (s) => save(s, { kind: "int", value: peek(s.a) }) },
  {
    text: (_, n) => `let s${n} be loop_sum(a)`,
    run: (s) => save(s, { kind: "int", value: s.a.reduce((x, y) => x + y, 0) }),
  },
  {
    text: (_, n) => `let s${n} be query_count(a)`,
    run: (s) => save(s, { kind: "int", value: s.a.filter((x) => x > 2).length }),
  },
  { text: (_, n) => `let s${n} be deep(a, 3)`, run: (s) => save(s, { kind: "int", value: peek(s.a) }) },
  {
    text: (_, n) => `let s${n} be keep(a)`,
    run: (s) => save(s, { kind: "box", value: { items: s.a, n: 0, spare: [] } }),
  },
  { text: (_, n) => `let s${n} be later(a)`, run: (s) => save(s, { kind: "int", value: peek(s.a) }) },
  { text: (_, n) => `let s${n} be box_peek(r)`, run: (s) => save(s, { kind: "int", value: peek(s.r.items) + s.r.n }) },
  { text: (_, n) => `let s${n} be box_keep(r)`, run: (s) => save(s, { kind: "list", value: s.r.items }) },
  { text: (_, n) => `let s${n} be a`, run: (s) => save(s, { kind: "list", value: s.a }) },
  { text: (_, n) => `let s${n} be from x in a select x`, run: (s) => save(s, { kind: "list", value: s.a }) },
  {
    text: (_, n) => `let s${n} be from x in r.items where x > 2 select x`,
    run: (s) => save(s, { kind: "list", value: s.r.items.filter((x) => x > 2) }),
  },
  { text: (_, n) => `let s${n} be [a, b]`, run: (s) => save(s, { kind: "lists", value: [s.a, s.b] }) },
  { text: (_, n) => `let s${n} be r`, run: (s) => save(s, { kind: "box", value: s.r }) },
  {
    text: (k) => `set r to r with items: r.items + [${k}]`,
    run: (s, k) => void (s.r = { ...s.r, items: [...s.r.items, k] }),
  },
  { text: () => `set r to r with n: r.n + 1`, run: (s) => void (s.r = { ...s.r, n: s.r.n + 1 }) },
  {
    text: (k) => `set r to Box(items: a, n: ${k}, spare: [])`,
    run: (s, k) => void (s.r = { items: s.a, n: k, spare: [] }),
  },
  {
    text: (k) => `set r to r with items: r.items + [${k}], spare: r.items`,
    run: (s, k) => void (s.r = { ...s.r, items: [...s.r.items, k], spare: s.r.items }),
  },
  {
    text: (k) => `set r to r with spare: r.spare + [${k}], items: r.spare`,
    run: (s, k) => void (s.r = { ...s.r, spare: [...s.r.spare, k], items: s.r.spare }),
  },
  { text: () => `set a to a + a`, run: (s) => void (s.a = [...s.a, ...s.a]) },
  {
    text: () => `set r to r with items: r.items + r.items`,
    run: (s) => void (s.r = { ...s.r, items: [...s.r.items, ...s.r.items] }),
  },
  {
    text: (k) => `set r to r with items: r.items + [${k}], n: peek(r.spare)`,
    run: (s, k) => void (s.r = { ...s.r, items: [...s.r.items, k], n: peek(s.r.spare) }),
  },
  { text: () => `set r to r with spare: a`, run: (s) => void (s.r = { ...s.r, spare: s.a }) },
  { text: () => `set r to r with items: a`, run: (s) => void (s.r = { ...s.r, items: s.a }) },
  {
    text: (k) => `set r to r with items: list.append(r.items, ${k}), n: r.items.count()`,
    run: (s, k) => void (s.r = { ...s.r, items: [...s.r.items, k], n: s.r.items.length }),
  },
  {
    text: (k) => `set r to r with n: r.n + ${k}, items: r.items + [r.n]`,
    run: (s, k) => void (s.r = { ...s.r, items: [...s.r.items, s.r.n], n: s.r.n + k }),
  },
  { text: () => `set r to keep(a)`, run: (s) => void (s.r = { items: s.a, n: 0, spare: [] }) },
  { text: () => `set m to m.put("x", a)`, run: (s) => void (s.m = s.a) },
  { text: (k) => `set m to m.put("x", m.get("x").or_else([]) + [${k}])`, run: (s, k) => void (s.m = [...s.m, k]) },
  { text: () => `for each x in [1, 2]\n    set a to a + [x]\n  end`, run: (s) => void (s.a = [...s.a, 1, 2]) },
];

const HELPERS = `type Box is record
  items: List<Int>
  n: Int
  spare: List<Int>
end

function peek(xs: List<Int>) returns Int
  purpose: Look at a list.
  if xs.count() is 0
    return 0
  end
  return xs.count() * 1000 + xs[xs.count() - 1]
end

function loop_sum(xs: List<Int>) returns Int
  purpose: Sum a list by a loop.
  var total be 0
  for each x in xs
    set total to total + x
  end
  return total
end

function query_count(xs: List<Int>) returns Int
  purpose: Count by a query.
  let big be from x in xs where x > 2 select x
  return big.count()
end

function deep(xs: List<Int>, k: Int) returns Int
  purpose: Pass a list down a recursion.
  if k is 0
    return peek(xs)
  end
  return deep(xs, k - 1)
end

function keep(xs: List<Int>) returns Box
  purpose: Keep a list in a record.
  return Box(items: xs, n: 0, spare: [])
end

function same(xs: List<Int>) returns List<Int>
  purpose: Give a list back under another name.
  let ys be xs
  return ys
end

function grow(xs: List<Int>, k: Int) returns List<Int>
  purpose: A longer copy.
  return xs + [k]
end

function later(xs: List<Int>) returns function() returns Int
  purpose: Capture a list in a function value.
  return () => peek(xs)
end

function box_peek(b: Box) returns Int
  purpose: Look at a record's list.
  return peek(b.items) + b.n
end

function box_keep(b: Box) returns List<Int>
  purpose: Keep a record's list.
  return b.items
end
`;

const listText = (xs: List): string => `[${xs.join(", ")}]`;

function savedText(v: Saved): string {
  switch (v.kind) {
    case "int":
      return String(v.value);
    case "list":
      return listText(v.value);
    case "box":
      return `${listText(v.value.items)}/${v.value.n}/${listText(v.value.spare)}`;
    case "lists":
      return `[${v.value.map(listText).join(", ")}]`;
  }
}

/** A case: its function's text and the line the model says it prints. */
function makeCase(index: number, random: () => number): { text: string; expected: string } {
  const state: State = { a: [1], b: [2], r: { items: [3], n: 0, spare: [5] }, m: [4], saved: [] };
  const lines: string[] = [];
  const savedKinds: string[] = [];
  const count = 4 + Math.floor(random() * 14);
  for (let i = 0; i < count; i++) {
    const op = OPS[Math.floor(random() * OPS.length)]!;
    const k = 10 + Math.floor(random() * 90);
    const before = state.saved.length;
    lines.push(`  ${op.text(k, before)}`);
    op.run(state, k);
    if (state.saved.length > before)
      savedKinds.push(lines[lines.length - 1]!.includes("later(") ? "later" : state.saved[before]!.kind);
  }
  const shown = savedKinds.map((kind, n) =>
    kind === "later" ? `{s${n}()}` : kind === "box" ? `{s${n}.items}/{s${n}.n}/{s${n}.spare}` : `{s${n}}`,
  );
  lines.push(
    `  console.print("{a} {b} {r.items}/{r.n}/{r.spare} ` +
      `{m.get("x").or_else([])}${shown.map((s) => ` ${s}`).join("")}")`,
  );
  const text =
    `function case_${index}()\n  purpose: A random case.\n  needs console\n  var a be [1]\n  var b be [2]\n` +
    `  var r be Box(items: [3], n: 0, spare: [5])\n  var m be {"x": [4]}\n${lines.join("\n")}\nend\n`;
  const expected = [
    listText(state.a),
    listText(state.b),
    `${listText(state.r.items)}/${state.r.n}/${listText(state.r.spare)}`,
    listText(state.m),
    ...state.saved.map(savedText),
  ].join(" ");
  return { text, expected };
}

test("value semantics: random changes seen through names, calls, records, maps, lists and closures agree with copying on every change", () => {
  const work = mkdtempSync(join(tmpdir(), "renyi-values-"));
  let cases = 0;
  try {
    for (let program = 0; program < 6; program++) {
      const random = seeded(20261201 + program);
      const made = Array.from({ length: 60 }, (_, i) => makeCase(i, random));
      const main =
        `public function main()\n  purpose: Run every case.\n  needs console\n` +
        `${made.map((_, i) => `  case_${i}()`).join("\n")}\nend\n`;
      const source = `${HELPERS}\n${made.map((c) => c.text).join("\n")}\n${main}`;
      const file = join(work, `cases${program}.ry`);
      writeFileSync(file, source);
      const ran = spawnSync(process.execPath, [RENYI, "run", file], {
        encoding: "utf8",
        env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") },
      });
      assert.equal(ran.status, 0, ran.stderr);
      const got = ran.stdout.trimEnd().split("\n");
      made.forEach((c, i) => {
        assert.equal(got[i], c.expected, `program ${program}, case_${i}:\n${c.text}`);
      });
      cases += made.length;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`value semantics: ${cases} random cases against the copying model`);
});
