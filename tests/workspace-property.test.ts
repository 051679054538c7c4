// The workspace against analyse on generated programs and random edits: after
// every edit, the views of both modules (one uses the other) are the ones a
// check from scratch gives. RENYI_FUZZ_CASES sets the number of programs (20
// by default; `npm run fuzz` runs many more), RENYI_FUZZ_SEED the first seed.

import { test } from "node:test";
import assert from "node:assert/strict";
import type { TextOf } from "../editor/analysis.js";
import { Workspace } from "../editor/workspace.js";
import { generateProgram } from "./program-generator.js";
import { assertAgrees } from "./workspace-support.js";

const CASES = Number(process.env["RENYI_FUZZ_CASES"] ?? 20);
const FIRST_SEED = Number(process.env["RENYI_FUZZ_SEED"] ?? 1);
const EDITS = 12;

/** What a random edit inserts: pieces of the language, and characters that break it. */
const PIECES = [
  "x",
  " ",
  "\n",
  "(",
  ")",
  "end",
  "public ",
  "let a be 1\n",
  '"',
  "use lib\n",
  "1",
  ".",
  "\u0000",
  "\ud800",
];

function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

test("the workspace agrees with analyse after random edits of generated programs", () => {
  for (let i = 0; i < CASES; i++) {
    const seed = FIRST_SEED + i;
    const next = random(seed);
    const lib = generateProgram(seed * 2).source;
    const app = `use lib\n\n${generateProgram(seed * 2 + 1).source}`;
    const files: TextOf[] = [
      { file: "/f/lib.ry", text: lib },
      { file: "/f/app.ry", text: app },
    ];
    const workspace = new Workspace(() => undefined);
    for (const f of files) workspace.set(f.file, f.text);
    assertAgrees(workspace, files, `seed ${seed}`);
    for (let e = 0; e < EDITS; e++) {
      const which = next() < 0.5 ? 0 : 1;
      const text = files[which]!.text;
      const at = Math.floor(next() * (text.length + 1));
      const removed = Math.floor(next() * 6);
      const inserted = next() < 0.7 ? PIECES[Math.floor(next() * PIECES.length)]! : "";
      files[which] = { file: files[which]!.file, text: text.slice(0, at) + inserted + text.slice(at + removed) };
      workspace.set(files[which]!.file, files[which]!.text);
      assertAgrees(
        workspace,
        files,
        `seed ${seed} (reproduce with RENYI_FUZZ_SEED=${seed} RENYI_FUZZ_CASES=1), edit ${e}`,
      );
    }
  }
  assert.ok(CASES > 0);
  console.log(`workspace property: ${CASES} cases of ${EDITS} edits from seed ${FIRST_SEED}`);
});
