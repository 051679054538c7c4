// Rename over the generator's programs (tests/program-generator.ts): a local
// or a function picked at random by the seed, renamed to a fresh name. The
// renamed program checks with the same problems as before, its checked tree
// is the one before with the name replaced, and the edits touched the old
// name and nothing else.

import { test } from "node:test";
import assert from "node:assert/strict";
import { dumpChecked } from "../compiler/check/dump.js";
import type { CModule } from "../compiler/check/checked.js";
import { analyse } from "../editor/analysis.js";
import { namesOf } from "../editor/name-index.js";
import { rename } from "../editor/rename.js";
import { generateProgram } from "./program-generator.js";
import { applied } from "./editor-names-support.js";

const SEEDS = 60;

function dump(module: CModule | undefined): string {
  return module === undefined
    ? ""
    : dumpChecked({ types: module.types, functions: module.functions, tests: module.tests });
}

test(`a local or a function of ${SEEDS} generated programs, renamed, means what it meant`, () => {
  let renamedLocals = 0;
  let renamedFunctions = 0;
  for (let seed = 1; seed <= SEEDS; seed++) {
    const generated = generateProgram(seed);
    const file = `/g/${generated.entry}.ry`;
    const texts = [{ file, text: generated.source }];
    const before = analyse(texts);
    const view = before.modules.get(file)!;
    assert.deepEqual(
      view.diagnostics.filter((d) => d.severity === "error"),
      [],
      `seed ${seed} does not check`,
    );
    const candidates = namesOf(before, view).filter(
      (u) =>
        u.declaration === true &&
        ((u.target.kind === "local" && u.target.name !== "_" && u.target.name !== "error") ||
          (u.target.kind === "function" && u.target.name !== "main")),
    );
    if (candidates.length === 0) continue;
    const picked = candidates[(seed * 7919) % candidates.length]!;
    const old = view.text.slice(picked.span.start, picked.span.end);
    const fresh = `renamed_${seed}`;
    const answer = rename(before, file, picked.span.start, fresh, { allModules: true });
    assert.ok("edits" in answer, `seed ${seed}, ${old}: ${"refused" in answer ? answer.refused : ""}`);
    for (const edit of answer.edits) assert.equal(view.text.slice(edit.span.start, edit.span.end), old);
    const after = analyse(applied(texts, answer.edits)).modules.get(file)!;
    assert.equal(after.text.replaceAll(fresh, old), view.text, `seed ${seed}: the edits changed more than the name`);
    assert.deepEqual(
      after.diagnostics.map((d) => d.code),
      view.diagnostics.map((d) => d.code),
      `seed ${seed}, ${old}`,
    );
    assert.equal(
      dump(after.checked).replace(new RegExp(`\\b${fresh}\\b`, "g"), old),
      dump(view.checked),
      `seed ${seed}, ${old}`,
    );
    if (picked.target.kind === "local") renamedLocals++;
    else renamedFunctions++;
  }
  // The property held for both kinds, many times each.
  assert.ok(renamedLocals >= 10, `${renamedLocals} locals`);
  assert.ok(renamedFunctions >= 5, `${renamedFunctions} functions`);
});
