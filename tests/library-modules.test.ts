// The library's modules are declared when a program first uses them
// (compiler/check/declare.ts), in the middle of a compilation or of another's,
// their type variables numbered in ranges of their own: what a program checks
// to must not depend on which programs a process checked before it, nor in
// which order it met the library's modules.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const INDEX = fileURLToPath(new URL("../compiler/index.js", import.meta.url));
const DECLARE = fileURLToPath(new URL("../compiler/check/declare.js", import.meta.url));

const USES_SETS_AND_MATH =
  "public function main()\n  purpose: A.\n  needs console\n  let s be sets.of([1, 2])\n" +
  '  console.print("{s.count()} {math.abs(-2)}")\nend\n';
const USES_GENERIC_FUNCTIONS =
  "function pick<T>(xs: List<T>, fallback: T) returns T\n  return xs.first().or_else(fallback)\nend\n\n" +
  'public function main()\n  purpose: B.\n  needs console\n  let m be {1: "a"}\n  let xs be [3, 1, 2].sort()\n' +
  '  console.print("{m.get(1).or_else("z")} {xs} {text.upper("q")} {pick(xs, 0)} {list.range(1, 3)}")\nend\n';

/**
 * The checked tree of the second program, in a fresh process that checked the first (if any) or walked the whole
 * library before it.
 */
function checkedAfter(before: "nothing" | "another program" | "the whole library"): string {
  const script = `
    import { checkSource } from ${JSON.stringify(INDEX)};
    import { libraryScopes } from ${JSON.stringify(DECLARE)};
    const [before, first, second] = JSON.parse(process.argv[1]);
    if (before === "another program") checkSource("a.ry", first);
    if (before === "the whole library") for (const [name, scope] of libraryScopes().library) if (scope.functions.size === 0) throw new Error(name);
    const result = checkSource("b.ry", second);
    if (result.diagnostics.length > 0) throw new Error(result.diagnostics[0].message);
    process.stdout.write(JSON.stringify(result.modules, (key, value) => (value instanceof Map ? [...value] : value)));
  `;
  const child = spawnSync(
    process.execPath,
    ["--input-type=module", "-e", script, JSON.stringify([before, USES_SETS_AND_MATH, USES_GENERIC_FUNCTIONS])],
    { encoding: "utf8" },
  );
  assert.equal(child.status, 0, child.stderr);
  return child.stdout;
}

test("a program checks to the same tree whatever the process checked before it", () => {
  const alone = checkedAfter("nothing");
  assert.ok(alone.length > 1000);
  assert.equal(checkedAfter("another program"), alone);
  assert.equal(checkedAfter("the whole library"), alone);
});

test("a name of JavaScript's objects is no library module: it is unknown, as any other name", async () => {
  const { checkSource } = await import("../compiler/index.js");
  for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
    const result = checkSource(
      "p.ry",
      `public function main()\n  purpose: P.\n  needs console\n  console.print("{${name}.x(1)}")\nend\n`,
    );
    assert.deepEqual(
      result.diagnostics.map((d) => d.code),
      ["E-NAME-UNKNOWN"],
      name,
    );
  }
});
