// The checker's bounded work, piece by piece: a type's text is cut past its
// limit with a count of what was left out (compiler/check/types.ts), the walks
// over a shared type take steps in its distinct parts, and a program past its
// steps is refused with E-CHECK-TOO-COMPLEX (compiler/check/work.ts). The
// goldens in fixtures/bounds/ hold the rendered diagnostics: a `steps` section
// checks the program with that many steps instead of its budget.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { test } from "node:test";
import { compileProgram } from "../compiler/build.js";
import { checkProgram } from "../compiler/check/checker.js";
import { libraryScopes } from "../compiler/check/declare.js";
import { lacksAbility } from "../compiler/check/abilities.js";
import {
  freshMeta,
  hasMeta,
  INT,
  pairOf,
  sameType,
  TYPE_TEXT_LIMIT,
  typeToText,
  unify,
  zonk,
  type Type,
} from "../compiler/check/types.js";
import { typeStepsFor, typeStepsOfLastCompilation, withTypeSteps } from "../compiler/check/work.js";
import { renderText } from "../compiler/diagnostics.js";
import { parseSource } from "../compiler/index.js";
import { SourceFile } from "../compiler/source.js";
import { goldenFiles, readSections, ROOT, UPDATE, writeSections } from "./golden.js";
import { renyiIn } from "./support.js";

/** `(t, t)` nested `depth` times over Int: `depth` distinct parts, 2^(depth+1) - 1 read as a tree. */
function nested(depth: number, leaf: Type = INT): Type {
  let t = leaf;
  for (let i = 0; i < depth; i++) t = pairOf(t, t);
  return t;
}

test("a short type's text is written whole", () => {
  assert.equal(typeToText(nested(2)), "((Int, Int), (Int, Int))");
});

test("a type's text is cut past its limit, each part not written shown as ..., with the count of the types left out", () => {
  // ((Int, Int), (Int, Int)) with a limit of 6: `((Int, ` reaches it; the rest of the left half and the right half are
  // cut.
  assert.equal(typeToText(nested(2), 6), "((Int, ...), ...) (4 more types not shown)");
  const huge = typeToText(nested(60));
  assert.ok(huge.length <= 2 * TYPE_TEXT_LIMIT + 80, `${huge.length} characters: ${huge}`);
  assert.match(huge, /^\(+\(\(Int, Int\), \(Int, Int\)\)/);
  assert.match(huge, /\(more than 9007199254740991 types not shown\)$/);
  const forty = typeToText(nested(40));
  // 2^41 - 1 types in all, as a tree: those written (Int or Pair) and those cut add up to it.
  const cut = Number(/\((\d+) more types not shown\)$/.exec(forty)![1]);
  const written = (forty.match(/Int/g) ?? []).length + (forty.match(/\(/g) ?? []).length - 1;
  assert.equal(cut + written, 2 ** 41 - 1);
});

test("a type nested deeper than the limit has its text cut at twice the limit", () => {
  let deep: Type = INT;
  for (let i = 0; i < 5000; i++) deep = pairOf(deep, INT);
  const text = typeToText(deep);
  assert.ok(text.length <= 2 * TYPE_TEXT_LIMIT + 80, `${text.length} characters`);
  assert.match(text, /\.\.\. \(\d+ more types not shown\)$/);
});

test("the walks over a shared type take steps in its distinct parts, not its size as a tree", () => {
  libraryScopes();
  const depth = 200;
  const spent = withTypeSteps(100_000, undefined, () => {
    const a = nested(depth);
    const b = nested(depth);
    const meta = freshMeta();
    assert.equal(hasMeta(a), false);
    assert.equal(sameType(a, b), true);
    assert.equal(unify(meta, a), true);
    assert.equal(unify(a, b), true);
    assert.equal(zonk(meta), a);
    assert.equal(lacksAbility(a, "equality"), undefined);
    const withFunction = pairOf(a, { kind: "Function", params: [], returns: INT, needs: [] });
    assert.equal(lacksAbility(nested(depth, withFunction), "equality")?.kind, "Function");
    return "done";
  });
  assert.equal(spent, "done");
  assert.ok(
    typeStepsOfLastCompilation() < 20 * depth,
    `${typeStepsOfLastCompilation()} steps for types of ${depth} distinct parts`,
  );
});

test("a walk past its steps stops the check with E-CHECK-TOO-COMPLEX, and the budget grows with the source", () => {
  const text =
    "function main()\n  let a0 be 1\n" +
    Array.from({ length: 8 }, (_, i) => `  let a${i + 1} be (a${i}, a${i})`).join("\n") +
    "\n  let same be a8 is a8\nend\n";
  const syntax = parseSource("main.ry", text).module;
  const refused = checkProgram([{ name: "main", file: "main.ry", syntax }], "main", { typeSteps: 10 });
  assert.deepEqual(
    refused.diagnostics.map((d) => d.code),
    ["E-CHECK-TOO-COMPLEX"],
  );
  assert.equal((refused.diagnostics[0]!.facts as { steps?: number } | undefined)?.steps, 10);
  const checked = checkProgram([{ name: "main", file: "main.ry", syntax }], "main");
  assert.deepEqual(
    checked.diagnostics.map((d) => d.code),
    [],
  );
  assert.ok(typeStepsFor(2 * text.length) > typeStepsFor(text.length));
});

test("a stop that throws ends the check there, and is passed through", () => {
  const syntax = parseSource("main.ry", "function main()\n  let a be 1\nend\n").module;
  const stopped = new Error("the deadline passed");
  assert.throws(
    () =>
      checkProgram([{ name: "main", file: "main.ry", syntax }], "main", {
        stop: () => {
          throw stopped;
        },
      }),
    (e) => e === stopped,
  );
});

const folder = join(ROOT, "fixtures", "bounds");
for (const path of goldenFiles(folder)) {
  const name = basename(path, ".golden");
  test(`bounds: ${name}`, () => {
    const sections = readSections(path);
    const text = sections.get("source")!;
    const file = `${name}.ry`;
    const syntax = parseSource(file, text).module;
    const steps = sections.get("steps");
    const result = checkProgram(
      [{ name, file, syntax }],
      name,
      steps === undefined ? {} : { typeSteps: Number(steps.trim()) },
    );
    const rendered = renderText(result.diagnostics, new Map([[file, new SourceFile(file, text)]]));
    const actual = new Map(sections);
    actual.set("diagnostics", rendered);
    if (UPDATE) {
      writeSections(path, actual);
      return;
    }
    assert.equal(
      rendered.trimEnd(),
      (sections.get("diagnostics") ?? "").trimEnd(),
      `${name}: the diagnostics differ (RENYI_UPDATE=1 rewrites them)`,
    );
    // However large the types it names, a diagnostic stays short.
    for (const line of rendered.split("\n"))
      assert.ok(line.length <= 3 * TYPE_TEXT_LIMIT, `${name}: a line of ${line.length} characters`);
  });
}

test("a long else-if chain (lowered flat, not nested) takes the first branch that holds, once, and the else when none does", async () => {
  const branches = Array.from(
    { length: 40 },
    (_, i) =>
      `  else if x is ${i + 1}\n    var k be 0\n    while true\n      set k to k + 1\n      if k > ${i} then ` +
      `stop\n    end\n    return k * 10`,
  ).join("\n");
  const source =
    `function pick(x: Int) returns Int\n  if x < 0\n    return 0\n${branches}\n  else if x > 0\n    return -2\n` +
    `  else\n    return -1\n  end\n  return -3\nend\n\nfunction main()\n  needs console\n` +
    `  for each x in [-4, 1, 7, 40, 41, 0]\n    console.print("{x} {pick(x)}")\n  end\nend\n`;
  const work = mkdtempSync(join(tmpdir(), "renyi-chain-"));
  try {
    writeFileSync(join(work, "chain.ry"), source);
    const ran = await renyiIn(work, ["run", "chain.ry"], {}, join(work, "cache"));
    assert.equal(ran.stderr, "");
    assert.equal(ran.stdout, "-4 0\n1 10\n7 70\n40 400\n41 -2\n0 -1\n");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test("a type nested thousands deep is compiled or refused with E-CHECK-TOO-COMPLEX, never an internal error", () => {
  for (const depth of [500, 2000, 8000]) {
    const text =
      `function main()\n  needs console\n  let a0 be 1\n` +
      `${Array.from({ length: depth }, (_, i) => `  let a${i + 1} be [a${i}]`).join("\n")}\n` +
      `  console.print("{a${depth}}")\nend\n`;
    const syntax = parseSource("deep.ry", text);
    const result = compileProgram(
      [{ name: "deep", file: "deep.ry", text, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics }],
      { runtime: "renyi/runtime", entry: "deep", file: "deep.mjs" },
    );
    const codes = result.diagnostics.map((d) => d.code);
    if (result.bundle === undefined) assert.deepEqual(codes, ["E-CHECK-TOO-COMPLEX"], `at ${depth}`);
    else assert.deepEqual(codes, [], `at ${depth}`);
    if (depth === 8000) assert.equal(result.bundle, undefined, "8,000 deep is refused");
  }
});
