// `renyi lsp` under random incremental edits of generated programs: after a
// burst of edits, the diagnostics published for the last version are the ones
// analyse gives for the same text, and the server stays up. RENYI_FUZZ_CASES
// sets the number of programs (5 by default; `npm run fuzz` runs more),
// RENYI_FUZZ_SEED the first seed.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { TextDocument } from "vscode-languageserver-textdocument";
import { analyse } from "../editor/analysis.js";
import { startLsp, uriOf } from "./lsp-client.js";
import { generateProgram } from "./program-generator.js";

const CASES = Math.min(Number(process.env["RENYI_FUZZ_CASES"] ?? 5), 200);
const FIRST_SEED = Number(process.env["RENYI_FUZZ_SEED"] ?? 1);
const EDITS = 20;
const PIECES = ["x", " ", "\n", "(", ")", "end", "let a be 1\n", '"', "1", ".", "😀", "\u202e", "\u0000"];

function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

test("the server's diagnostics after random edits are analyse's for the last text", async () => {
  const work = mkdtempSync(join(tmpdir(), "renyi-lsp-property-"));
  const client = await startLsp({ cwd: work });
  try {
    for (let i = 0; i < CASES; i++) {
      const seed = FIRST_SEED + i;
      const next = random(seed);
      const file = join(work, `p${seed}.ry`);
      const uri = uriOf(file);
      const doc = TextDocument.create(uri, "renyi", 1, generateProgram(seed).source);
      client.open(uri, doc.getText(), 1);
      for (let v = 2; v < EDITS + 2; v++) {
        const start = Math.floor(next() * (doc.getText().length + 1));
        const end = Math.min(doc.getText().length, start + Math.floor(next() * 8));
        const range = { start: doc.positionAt(start), end: doc.positionAt(end) };
        const text = next() < 0.7 ? PIECES[Math.floor(next() * PIECES.length)]! : "";
        TextDocument.update(doc, [{ range, text }], v);
        client.change(uri, v, [{ range, text }]);
      }
      const published = await client.diagnosticsOf(uri, EDITS + 1);
      const plain = analyse([{ file, text: doc.getText() }]).modules.get(file)!;
      assert.deepEqual(
        published.diagnostics.map((d) => [d.code, doc.offsetAt(d.range.start)]),
        plain.diagnostics.map((d) => [d.code, Math.min(d.span.start, doc.getText().length)]),
        `seed ${seed} (reproduce with RENYI_FUZZ_SEED=${seed} RENYI_FUZZ_CASES=1)`,
      );
      client.close(uri);
    }
    assert.equal(await client.stop(), 0);
  } finally {
    client.child.kill();
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`lsp property: ${CASES} cases of ${EDITS} edits from seed ${FIRST_SEED}`);
});
