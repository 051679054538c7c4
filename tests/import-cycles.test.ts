// No import cycles between the files of one compiler folder, except where the
// grammar itself recurses: an expression holds a block, a block holds
// expressions, and the file for a kind of node that holds others calls back
// into the file that dispatches on every kind. Those calls back are listed
// below, edge by edge; with them taken out, each folder's imports must form no
// cycle, so a small helper living in a high-level file shows up as one.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./golden.js";
import { importsOf, sourceFiles, targetOf } from "./source-imports.js";

/** Per folder, `from -> to`: the imports through which the grammar's own recursion goes. */
const GRAMMAR_RECURSION: Record<string, string[]> = {
  lex: [],
  parse: [
    "statements -> expressions", // a block holds expressions
    "statements -> definitions", // a definition misplaced in a block is parsed to be skipped
    "patterns -> expressions", // a text pattern is parsed as a text, which may interpolate
    "signatures -> expressions", // a parameter's default value
  ],
  check: [
    "statements -> expressions", // a block holds expressions
    "calls -> expressions", // a call's arguments
    "queries -> expressions", // a query's clauses
  ],
  lower: [
    "statements -> expressions", // a block holds expressions
    "functions -> statements", // a function value's body
    "failures -> expressions", // the expression an `otherwise` guards, a handler's value
    "failures -> statements", // a handler that leaves
    "match -> expressions", // the subject, an arm's value
    "match -> statements", // an arm's body
    "checks -> expressions", // what a check tests
    "concurrency -> statements", // each task
    "queries -> expressions", // a query's clauses
  ],
  emit: [],
  format: [
    "expressions -> statements", // a match's arms, a function value's body
  ],
};

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+"\.\/([\w-]+)\.js"/g;

/** The files of a folder and the files of the same folder each imports (types included). */
function importGraph(folder: string): Map<string, Set<string>> {
  const dir = join(ROOT, "compiler", folder);
  const files = readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const source = readFileSync(join(dir, file), "utf8");
    const targets = new Set<string>();
    for (const match of source.matchAll(IMPORT)) targets.add(match[1]!);
    graph.set(file.replace(/\.ts$/, ""), targets);
  }
  return graph;
}

/** Every cycle found by a depth-first walk, as `a -> b -> a`; one per back edge. */
function cycles(graph: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.push([...path.slice(path.indexOf(next)), next].join(" -> "));
      else if (state.get(next) === undefined) visit(next);
    }
    path.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (state.get(node) === undefined) visit(node);
  return found;
}

for (const [folder, allowed] of Object.entries(GRAMMAR_RECURSION)) {
  test(`compiler/${folder}: no import cycle but the grammar's own recursion`, () => {
    const graph = importGraph(folder);
    for (const edge of allowed) {
      const [from, to] = edge.split(" -> ") as [string, string];
      // An allowance that no longer matches an import is stale: take it off the list.
      assert.ok(graph.get(from)?.has(to), `${folder}/${from} no longer imports ${to}`);
      graph.get(from)!.delete(to);
    }
    const edges = [...graph.values()].reduce((n, s) => n + s.size, 0);
    console.log(`compiler/${folder}: ${graph.size} files, ${edges} imports besides the grammar's ${allowed.length}`);
    assert.deepEqual(cycles(graph), []);
  });
}

/**
 * Every file of the project and the files of the project it imports, by any kind of import, types and import()
 * included.
 */
function projectGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of ["vocabulary", "report", "compiler", "editor", "rtlib", "view", "cli"].flatMap(sourceFiles)) {
    const targets = new Set<string>();
    for (const i of importsOf(file, readFileSync(join(ROOT, file), "utf8"))) {
      const target = targetOf(i);
      if (target !== undefined && target !== file) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

test("no import cycle between any two files of the project but the grammar's own recursion", () => {
  const graph = projectGraph();
  for (const [folder, allowed] of Object.entries(GRAMMAR_RECURSION)) {
    for (const edge of allowed) {
      const [from, to] = edge.split(" -> ") as [string, string];
      graph.get(`compiler/${folder}/${from}.ts`)?.delete(`compiler/${folder}/${to}.ts`);
    }
  }
  const unknown = [...graph.values()]
    .flatMap((targets) => [...targets])
    .filter((t) => !graph.has(t) && !t.endsWith(".d.ts"));
  assert.ok(graph.size > 200, `the project's files are found (${graph.size})`);
  console.log(`the project: ${graph.size} files; imports of files not found: ${unknown.length}`);
  assert.deepEqual(cycles(graph), []);
});

test("the cycle finder finds a cycle through a helper", () => {
  const graph = new Map([
    ["expressions", new Set(["statements", "helpers"])],
    ["statements", new Set(["helpers"])],
    ["helpers", new Set(["expressions"])],
  ]);
  // The walk reports the cycle it meets first; the second way round goes through the same back edge.
  assert.deepEqual(cycles(graph), ["expressions -> statements -> helpers -> expressions"]);
});
