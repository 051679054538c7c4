// Syntax and name problems as data: each diagnostic carries the facts its words
// were made from (and the words are the catalogue's), and where the fix is
// mechanical it carries the edit; applying the edit makes the problem go away.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { checkSource } from "../compiler/index.js";
import type { Diagnostic } from "../compiler/diagnostics.js";
import type { ProblemEntry } from "../vocabulary/problems/entry.js";
import { NAME_PROBLEMS } from "../vocabulary/problems/names.js";
import { SYNTAX_PROBLEMS } from "../vocabulary/problems/syntax.js";
import { RENYI } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-edits-"));
after(() => rmSync(work, { recursive: true, force: true }));

function diagnosticsOf(text: string): readonly Diagnostic[] {
  return checkSource("example.ry", text).diagnostics;
}

/** The text with every edit of `d` applied, from the last to the first. */
function applied(text: string, d: Diagnostic): string {
  const edits = [...(d.edits ?? [])].sort((a, b) => b.span.start - a.span.start);
  return edits.reduce((t, e) => t.slice(0, e.span.start) + e.replacement + t.slice(e.span.end), text);
}

test("every syntax and name diagnostic of the catalogue's examples carries facts, and its words are its row's", () => {
  let checked = 0;
  const rows = Object.entries({ ...SYNTAX_PROBLEMS, ...NAME_PROBLEMS }) as [string, ProblemEntry<unknown>][];
  for (const [code, row] of rows) {
    if (row.described) continue;
    const found = diagnosticsOf(row.wrong).filter((d) => d.code === code);
    assert.ok(found.length > 0, `${code}: not reported`);
    for (const d of found) {
      assert.ok(d.facts !== undefined, `${code}: a diagnostic without facts`);
      const words = row.render(d.facts);
      assert.equal(d.message, words.message, `${code}: the message is not the row's`);
      assert.equal(d.hint, words.hint, `${code}: the hint is not the row's`);
      checked++;
    }
  }
  console.log(`syntax and name diagnostics: ${checked} cases checked against their rows`);
});

// Each case: a program, the code it reports, the edit's replacement; the edit applied, the code is gone.
const MECHANICAL: readonly { name: string; text: string; code: string; replacement: string }[] = [
  {
    name: "`==` for `is`",
    code: "E-SYN-OPERATOR",
    replacement: " is ",
    text: 'function main()\n  needs console\n  if 1==1 then console.print("x")\nend\n',
  },
  {
    name: "`!=` for `is not`",
    code: "E-SYN-OPERATOR",
    replacement: "is not",
    text: 'function main()\n  needs console\n  if 1 != 2 then console.print("x")\nend\n',
  },
  {
    name: "`&&` for `and`",
    code: "E-SYN-OPERATOR",
    replacement: "and",
    text: 'function main()\n  needs console\n  if true && true then console.print("x")\nend\n',
  },
  {
    name: "`!` for `not`",
    code: "E-SYN-OPERATOR",
    replacement: "not ",
    text: 'function main()\n  needs console\n  if !false then console.print("x")\nend\n',
  },
  {
    name: "a missing `)` at the end of a line",
    code: "E-SYN-EXPECTED",
    replacement: ")",
    text: 'function main()\n  needs console\n  console.print("x"\nend\n',
  },
  {
    name: "a missing `]` at the end of a line",
    code: "E-SYN-EXPECTED",
    replacement: "]",
    text: "function main()\n  needs console\n  let xs be [1, 2\n  console.print(xs.length().to_text())\nend\n",
  },
  {
    name: "a missing `then`",
    code: "E-SYN-EXPECTED",
    replacement: "then ",
    text: 'function main()\n  needs console\n  if 1 < 2 console.print("x")\nend\n',
  },
  {
    name: "a missing `then` in an `if` value",
    code: "E-SYN-EXPECTED",
    replacement: "then ",
    text: "function f(n: Int) returns Int\n  return if n > 0 n else 0\nend\n",
  },
  {
    name: "`=` for `be`",
    code: "E-SYN-EXPECTED",
    replacement: "be",
    text: "function f() returns Int\n  let x = 1\n  return x\nend\n",
  },
  {
    name: "a missing `be`",
    code: "E-SYN-EXPECTED",
    replacement: "be ",
    text: "function f() returns Int\n  let x 1\n  return x\nend\n",
  },
  {
    name: "`=` for `to`",
    code: "E-SYN-EXPECTED",
    replacement: "to",
    text: "function f() returns Int\n  var x be 1\n  set x = 2\n  return x\nend\n",
  },
  {
    name: "a missing `end`",
    code: "E-SYN-UNCLOSED",
    replacement: "end\n",
    text: 'function main()\n  needs console\n  console.print("x")\n',
  },
  {
    name: "a missing `end` without a final line break",
    code: "E-SYN-UNCLOSED",
    replacement: "\nend\n",
    text: 'function main()\n  needs console\n  console.print("x")',
  },
  {
    name: "a type's missing `end`",
    code: "E-SYN-UNCLOSED",
    replacement: "end\n",
    text: "type Point is record\n  x: Int\n",
  },
  {
    name: "a small type name",
    code: "E-SYN-TYPE",
    replacement: "List",
    text: "function f(xs: list<Int>) returns Int\n  return xs.length()\nend\n",
  },
  {
    name: "a misspelt local",
    code: "E-NAME-UNKNOWN",
    replacement: "total",
    text: "function f(total: Int) returns Int\n  return totl\nend\n",
  },
  {
    name: "a case without its type",
    code: "E-NAME-UNKNOWN",
    replacement: "Shape.Empty",
    text: "type Shape is variant\n  Empty\nend\n\nfunction f() returns Shape\n  return Empty\nend\n",
  },
  {
    name: "a misspelt type",
    code: "E-NAME-UNKNOWN-TYPE",
    replacement: "Text",
    text: "function f(x: Txt) returns Int\n  return 1\nend\n",
  },
  {
    name: "a misspelt field",
    code: "E-NAME-UNKNOWN-FIELD",
    replacement: "x",
    text: "type P is record\n  x: Int\nend\n\nfunction f(p: P) returns Int\n  return p.xx\nend\n",
  },
  {
    name: "a misspelt field in `with`",
    code: "E-NAME-UNKNOWN-FIELD",
    replacement: "x",
    text: "type P is record\n  x: Int\nend\n\nfunction f(p: P) returns P\n  return p with xx: 1\nend\n",
  },
  {
    name: "a misspelt case",
    code: "E-NAME-UNKNOWN-CASE",
    replacement: "Circle",
    text:
      "type Shape is variant\n  Circle(r: Int)\n  Empty\nend\n\nfunction f() returns Shape\n" +
      "  return Shape.Circel(r: 1)\nend\n",
  },
  {
    name: "a misspelt method",
    code: "E-NAME-UNKNOWN-FUNCTION",
    replacement: "upper",
    text: "function f(t: Text) returns Text\n  return t.uper()\nend\n",
  },
  {
    name: "a misspelt library function",
    code: "E-NAME-UNKNOWN-FUNCTION",
    replacement: "upper",
    text: "function f(t: Text) returns Text\n  return text.uper(t)\nend\n",
  },
];

test("a mechanical fix comes as an edit, and applying it removes the problem", () => {
  for (const c of MECHANICAL) {
    const d = diagnosticsOf(c.text).find((x) => x.code === c.code);
    assert.ok(d !== undefined, `${c.name}: ${c.code} not reported`);
    assert.equal(d.edits?.length, 1, `${c.name}: no edit`);
    assert.equal(d.edits![0]!.replacement, c.replacement, c.name);
    const fixed = applied(c.text, d);
    const after = diagnosticsOf(fixed).filter((x) => x.severity === "error");
    assert.deepEqual(
      after.map((x) => `${x.code}: ${x.message}`),
      [],
      `${c.name}: the fixed program\n${fixed}\nstill has errors`,
    );
  }
  console.log(`suggested edits: ${MECHANICAL.length} cases applied`);
});

test("no edit where the fix is not mechanical", () => {
  const cases = [
    // A bracket left open across lines may lack a comma rather than its closer.
    "function main()\n  needs console\n  let xs be [\n    1,\n    2\n    3\n  ]\nend\n",
    // Nothing close to the unknown name.
    "function f() returns Int\n  return zzzzzz\nend\n",
    // `then` is there; the line break after the condition is what is missing.
    'function main()\n  needs console\n  while true console.print("x")\nend\n',
  ];
  for (const text of cases) {
    const ds = diagnosticsOf(text).filter((d) => d.severity === "error");
    assert.ok(ds.length > 0);
    for (const d of ds) assert.equal(d.edits, undefined, `${d.code} ${d.message} offers an edit`);
  }
});

test("`renyi check --json` gives a file that cannot be read as E-FILE with its reason as data", () => {
  const missing = join(work, "nowhere.ry");
  const r = spawnSync(process.execPath, [RENYI, "check", "--json", missing, work], { encoding: "utf8" });
  const { diagnostics } = JSON.parse(r.stdout) as { diagnostics: { code: string; message: string; facts: object }[] };
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.facts]),
    [
      ["E-FILE", { path: missing, reason: "missing" }],
      ["E-FILE", { path: work, reason: "folder" }],
    ],
  );
  assert.equal(diagnostics[0]!.message, `I cannot read \`${missing}\`: there is no such file`);
});
