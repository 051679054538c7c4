// Compiled modules kept one by one (compiler/emit/module-cache.ts): a program
// of three modules (main uses `mid`, `mid` uses `base`) is edited at random,
// one module at a time (a literal, a record's fields, whether a function keeps
// or only looks at its list, a guard on main's needs, a new function), and
// compiled after each edit with the cache and without it: the bundle and its
// map must be the same, byte for byte, in both printers. The cache must be
// used (modules taken from it) and must miss where an edit reaches (the module
// edited, and those that bring it in).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { compile } from "../compiler/build.js";
import type { CompiledModule, ModuleCache } from "../compiler/emit/module-cache.js";
import { babelPrinter } from "../compiler/emit/reference-printer.js";
import { encodeMappings } from "../compiler/emit/sourcemap.js";
import { RENYI, seeded } from "./support.js";

const EDITS = 120;

interface State {
  baseFields: string[];
  baseLiteral: number;
  midKeeps: boolean;
  midLiteral: number;
  midExtra: number;
  mainGuard: boolean;
  mainLiteral: number;
}

function texts(s: State): Map<string, string> {
  const base = [
    "public type Item is record",
    "  purpose: An item.",
    ...s.baseFields.map((f) => `  ${f}: Int`),
    "end",
    "",
    "public function make(n: Int) returns Item",
    "  purpose: Make one.",
    `  return Item(${s.baseFields.map((f, i) => `${f}: n + ${i + s.baseLiteral}`).join(", ")})`,
    "end",
    "",
  ].join("\n");
  const mid = [
    "use base",
    "",
    "public function total(xs: List<Int>) returns Int",
    "  purpose: Add them up.",
    "  var sum be 0",
    "  for each x in xs",
    `    set sum to sum + x * ${s.midLiteral}`,
    "  end",
    "  return sum",
    "end",
    "",
    "public function grow(xs: List<Int>) returns List<Int>",
    "  purpose: Grow or count.",
    s.midKeeps ? "  return xs + [1]" : "  return [xs.length()]",
    "end",
    "",
    "public function first(n: Int) returns Int",
    "  purpose: The first field.",
    `  return base.make(n).${s.baseFields[0]}`,
    "end",
    "",
    ...Array.from(
      { length: s.midExtra },
      (_, i) => `public function extra${i}(n: Int) returns Int\n  purpose: More.\n  return n + ${i}\nend\n`,
    ),
  ].join("\n");
  const main = [
    "use mid",
    "",
    "public function main()",
    "  purpose: Add things up.",
    s.mainGuard ? '  needs console, network.http("a.com") only to console' : "  needs console",
    "  var xs be [1, 2, 3]",
    "  for each i in 1 to 4",
    `    set xs to xs + [i * ${s.mainLiteral}]`,
    "  end",
    "  let ys be mid.grow(xs)",
    '  console.print("{mid.total(xs)} {ys} {mid.first(2)}")',
    "end",
    "",
  ].join("\n");
  return new Map([
    ["main", main],
    ["mid", mid],
    ["base", base],
  ]);
}

/** A store that keeps what a file would: JSON, read back. */
function store(): ModuleCache & { hits: number; misses: number } {
  const kept = new Map<string, string>();
  const s = {
    hits: 0,
    misses: 0,
    get(key: string): unknown {
      const text = kept.get(key);
      if (text === undefined) s.misses++;
      else s.hits++;
      return text === undefined ? undefined : JSON.parse(text);
    },
    put(key: string, compiled: CompiledModule): void {
      kept.set(key, JSON.stringify(compiled));
    },
  };
  return s;
}

function build(modules: Map<string, string>, printer: "own" | "babel", moduleCache?: ModuleCache) {
  const result = compile(
    {
      entry: "main",
      read: (name) => (modules.has(name) ? { file: `/p/${name}.ry`, text: modules.get(name)! } : undefined),
    },
    {
      runtime: "renyi/runtime",
      file: "main.mjs",
      printer: printer === "babel" ? babelPrinter : "own",
      ...(moduleCache === undefined ? {} : { moduleCache }),
    },
  );
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  assert.equal(
    errors.length,
    0,
    `${errors.map((d) => d.message).join("\n")}\n${[...modules.values()].join("\n----\n")}`,
  );
  return result.bundle!;
}

test(`modules taken from the cache make the bundle a fresh compile makes (${EDITS} random edits, both printers)`, () => {
  const random = seeded(77);
  const state: State = {
    baseFields: ["a", "b"],
    baseLiteral: 1,
    midKeeps: false,
    midLiteral: 2,
    midExtra: 0,
    mainGuard: false,
    mainLiteral: 3,
  };
  const caches = { own: store(), babel: store() };
  let reachedMisses = 0;
  for (let edit = 0; edit < EDITS; edit++) {
    const before = caches.own.misses;
    const choice = Math.floor(random() * 7);
    if (choice === 0) state.baseLiteral = Math.floor(random() * 5);
    else if (choice === 1)
      state.baseFields =
        random() < 0.5
          ? [...state.baseFields].reverse()
          : state.baseFields.length < 4
            ? [...state.baseFields, `f${edit}`]
            : state.baseFields.slice(0, 2);
    else if (choice === 2) state.midKeeps = !state.midKeeps;
    else if (choice === 3) state.midLiteral = Math.floor(random() * 5);
    else if (choice === 4) state.midExtra = Math.floor(random() * 3);
    else if (choice === 5) state.mainGuard = !state.mainGuard;
    else state.mainLiteral = Math.floor(random() * 5);
    const modules = texts(state);
    for (const printer of ["own", "babel"] as const) {
      const fresh = build(modules, printer);
      const cached = build(modules, printer, caches[printer]);
      assert.equal(cached.code, fresh.code, `edit ${edit} (${printer})`);
      assert.deepEqual(cached.map, fresh.map, `edit ${edit} (${printer})`);
    }
    // An edit of `base` reaches every module; one of main, main alone.
    if (choice <= 1 && caches.own.misses - before >= 1) reachedMisses++;
  }
  console.log(
    `module cache: ${EDITS} edits, own printer ${caches.own.hits} modules taken from the cache and ` +
      `${caches.own.misses} compiled, Babel ${caches.babel.hits} and ${caches.babel.misses}`,
  );
  assert.ok(caches.own.hits > EDITS && caches.babel.hits > EDITS, "modules are taken from the cache");
  assert.ok(caches.own.misses >= EDITS / 2, "edits compile modules again");
  assert.ok(reachedMisses > 0);
});

test("a module an edit does not reach is taken from the cache; the modules that bring in an edited one are compiled again", () => {
  const state: State = {
    baseFields: ["a", "b"],
    baseLiteral: 1,
    midKeeps: false,
    midLiteral: 2,
    midExtra: 0,
    mainGuard: false,
    mainLiteral: 3,
  };
  const cache = store();
  build(texts(state), "own", cache);
  assert.deepEqual([cache.hits, cache.misses], [0, 3]);
  state.mainLiteral = 4;
  build(texts(state), "own", cache);
  assert.deepEqual([cache.hits, cache.misses], [2, 4], "main compiled again; mid and base from the cache");
  state.baseLiteral = 3;
  build(texts(state), "own", cache);
  assert.deepEqual(
    [cache.hits, cache.misses],
    [2, 7],
    "base, mid (which uses it) and main (which uses mid) compiled again",
  );
  state.midExtra = 1;
  build(texts(state), "own", cache);
  assert.deepEqual([cache.hits, cache.misses], [3, 9], "mid and main compiled again; base from the cache");
});

test("what the store gives back that is not a compiled module is compiled again", () => {
  const state: State = {
    baseFields: ["a", "b"],
    baseLiteral: 1,
    midKeeps: false,
    midLiteral: 2,
    midExtra: 0,
    mainGuard: false,
    mainLiteral: 3,
  };
  const fresh = build(texts(state), "own");
  const part = (mappings: unknown) => ({ code: "", mappings });
  const module = (mappings: unknown, uses: string[] = []) => ({
    types: [],
    code: [part(mappings)],
    runtime: [],
    declares: [],
    uses,
  });
  const broken = [
    null,
    7,
    "text",
    {},
    { types: [{ code: 1, mappings: "" }] },
    // The parts as they were once kept: one object each, its mappings decoded.
    { types: part([]), code: part([[[0, 0, 0, 0]]]), runtime: [], declares: [], uses: [] },
    module([[["x"]]]),
    // Mappings that are not Base64 VLQ, or cut short, or of three fields.
    module("A!AA"),
    module("AAAg"),
    module("AAA"),
    // The shape of a module, but its names do not fit the others': every module compiled again.
    module("", ["nowhere"]),
  ];
  for (const bad of broken) {
    let asked = 0;
    const hostile: ModuleCache = {
      get: () => {
        asked++;
        return bad;
      },
      put: () => undefined,
    };
    const result = build(texts(state), "own", hostile);
    assert.equal(result.code, fresh.code, JSON.stringify(bad));
    assert.deepEqual(result.map, fresh.map, JSON.stringify(bad));
    assert.equal(asked, 3);
  }
  // Modules kept by a real compile, whose names fit, with mappings that do not: only the shape check keeps them out.
  const kept = store();
  build(texts(state), "own", kept);
  const mappings = [
    "A!AA",
    "AAAg",
    "AAA",
    // Past the module's lines, into a second source, at a negative column, past its line's end: a crash there would be
    // shown at no line of it.
    encodeMappings([[[0, 0, 2 ** 20, 0]]]),
    encodeMappings([[[0, 1, 0, 0]]]),
    encodeMappings([[[0, 0, 0, -4]]]),
    encodeMappings([[[0, 0, 0, 5_000_000]]]),
    "D",
  ];
  for (const bad of mappings) {
    const hostile: ModuleCache = {
      get: (key) => {
        const m = kept.get(key) as { code: { mappings: string }[] } | undefined;
        if (m !== undefined) m.code[0]!.mappings = bad;
        return m;
      },
      put: () => undefined,
    };
    const result = build(texts(state), "own", hostile);
    assert.equal(result.code, fresh.code, bad);
    assert.deepEqual(result.map, fresh.map, bad);
  }
});

test("renyi run compiles again a module whose kept code the validator refuses", () => {
  const work = mkdtempSync(join(tmpdir(), "renyi-module-cache-"));
  const cache = join(work, "cache");
  const env = { ...process.env, RENYI_CACHE_DIR: cache };
  try {
    const state: State = {
      baseFields: ["a", "b"],
      baseLiteral: 1,
      midKeeps: false,
      midLiteral: 2,
      midExtra: 0,
      mainGuard: false,
      mainLiteral: 3,
    };
    for (const [name, text] of texts(state)) writeFileSync(join(work, `${name}.ry`), text);
    const run = () => spawnSync(process.execPath, [RENYI, "run", join(work, "main.ry")], { env, encoding: "utf8" });
    const first = run();
    assert.equal(first.status, 0, first.stderr);
    // Every kept module's code replaced by code the validator refuses, then main edited so that the program is compiled
    // again.
    // Sealed again with the cache's key (cli/cache/seal.ts), as only who holds the key could: the validator is the
    // second line.
    const kept = readdirSync(cache).filter((f) => /^m-.*\.json$/.test(f));
    assert.equal(kept.length, 3);
    const key = readFileSync(`${cache}.key`);
    const mark = "\n//# renyi-seal=";
    for (const f of kept) {
      const text = readFileSync(join(cache, f), "utf8");
      const m = JSON.parse(text.slice(0, text.lastIndexOf(mark))) as { code: { code: string }[] };
      m.code[0]!.code = "process.exit(7);";
      const body = JSON.stringify(m);
      writeFileSync(
        join(cache, f),
        `${body}${mark}${createHmac("sha256", key).update(`${f}\n`).update(body).digest("hex")}\n`,
      );
    }
    writeFileSync(join(work, "main.ry"), `${texts(state).get("main")!}-- edited\n`);
    const second = run();
    assert.equal(second.status, 0, second.stderr);
    assert.equal(second.stdout, first.stdout);
    // mid and base were kept anew; the one left is main's before its edit, which no key names now.
    const stillRefused = kept.filter((f) => readFileSync(join(cache, f), "utf8").includes("process.exit"));
    assert.equal(stillRefused.length, 1, "the refused modules were kept anew");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
