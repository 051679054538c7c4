// Suggested edits are fixes an editor applies without thinking: for each
// program below, applying the edit a diagnostic offers must make that problem
// go away and bring no error of its own.

import assert from "node:assert/strict";
import { test } from "node:test";
import { checkSource } from "../compiler/index.js";

interface Case {
  readonly code: string;
  readonly program: string;
  /** The program once the edit is applied, exactly. */
  readonly fixed: string;
}

const CASES: readonly Case[] = [
  {
    code: "E-CAP-MISSING",
    program: 'function greet(name: Text)\n  console.print("Hello, {name}")\nend',
    fixed: 'function greet(name: Text)\n  needs console\n  console.print("Hello, {name}")\nend',
  },
  {
    code: "E-CAP-MISSING",
    program: 'function greet(name: Text)\n  needs time\n  console.print("Hello, {name}")\nend',
    fixed: 'function greet(name: Text)\n  needs time, console\n  console.print("Hello, {name}")\nend',
  },
  {
    code: "E-CAP-MISSING",
    program: 'function greet(name: Text)\n  purpose: Say hello.\n  console.print("Hello, {name}")\nend',
    fixed: 'function greet(name: Text)\n  purpose: Say hello.\n  needs console\n  console.print("Hello, {name}")\nend',
  },
  {
    code: "E-CAP-MISSING",
    program: 'test "greets"\n  console.print("hello")\nend',
    fixed: 'test "greets" needs console\n  console.print("hello")\nend',
  },
  {
    code: "E-CAP-MISSING",
    program: "function roll(items: List<Int>) returns List<Int>\n  return items.map((n) => random.integer(0, n))\nend",
    fixed:
      "function roll(items: List<Int>) returns List<Int>\n  needs random\n" +
      "  return items.map((n) => random.integer(0, n))\nend",
  },
  {
    code: "E-FAIL-UNHANDLED",
    program:
      "function parse(text: Text) returns Int or fails with ParseError\n  let n be text.to_int()\n  return n\nend",
    fixed:
      "function parse(text: Text) returns Int or fails with ParseError\n  let n be text.to_int() otherwise fail\n" +
      "  return n\nend",
  },
  {
    code: "E-FAIL-UNHANDLED",
    program: "function parse(text: Text) returns Int or fails with ParseError\n  return 1 + text.to_int()\nend",
    fixed:
      "function parse(text: Text) returns Int or fails with ParseError\n  return 1 + text.to_int() otherwise fail\nend",
  },
  {
    code: "E-FAIL-UNHANDLED",
    program:
      "type AppError is variant\n  Parse(error: ParseError)\nend\n\n" +
      "function parse(text: Text) returns Int or fails with AppError\n  return text.to_int()\nend",
    fixed:
      "type AppError is variant\n  Parse(error: ParseError)\nend\n\n" +
      "function parse(text: Text) returns Int or fails with AppError\n  return text.to_int() otherwise fail\nend",
  },
  {
    code: "E-PURPOSE-MISSING",
    program: "public function origin() returns Int\n  return 0\nend",
    fixed: "public function origin() returns Int\n  purpose: What origin is for.\n  return 0\nend",
  },
  {
    code: "E-PURPOSE-MISSING",
    program: "public type Point is record\n  x: Int\nend",
    fixed: "public type Point is record\n  purpose: What Point is for.\n  x: Int\nend",
  },
  {
    code: "E-CAP-UNKNOWN",
    program: 'public function main()\n  purpose: Fetch.\n  needs networking.http("api.example.com")\nend',
    fixed: 'public function main()\n  purpose: Fetch.\n  needs network.http("api.example.com")\nend',
  },
  {
    code: "E-CAP-SCOPE",
    program: 'public function main()\n  purpose: Print.\n  needs console("terminal")\nend',
    fixed: "public function main()\n  purpose: Print.\n  needs console\nend",
  },
  {
    code: "E-CAP-HOST",
    program: 'public function main()\n  purpose: Fetch.\n  needs network.http("*.b\u00fccher.example:8080")\nend',
    fixed: 'public function main()\n  purpose: Fetch.\n  needs network.http("*.xn--bcher-kva.example:8080")\nend',
  },
  {
    code: "E-CAP-GRANT-CLAUSE",
    program:
      "function fetch(url: Text) returns Text or fails with HttpError\n" +
      '  needs network.http("api.example.com") at most 60 per minute\n' +
      "  let response be http.get(url) otherwise fail\n  return response.body\nend",
    fixed:
      'function fetch(url: Text) returns Text or fails with HttpError\n  needs network.http("api.example.com")\n' +
      "  let response be http.get(url) otherwise fail\n  return response.body\nend",
  },
  {
    code: "E-FAIL-NOTHING",
    program: "function double(n: Int) returns Int\n  let m be (n * 2) otherwise 0\n  return m\nend",
    fixed: "function double(n: Int) returns Int\n  let m be (n * 2) \n  return m\nend",
  },
];

test("applying a suggested edit puts its problem right", () => {
  let applied = 0;
  for (const { code, program, fixed } of CASES) {
    const found = checkSource("edit.ry", program).diagnostics.filter((d) => d.code === code);
    assert.ok(found.length > 0, `${code} is not reported for:\n${program}`);
    const edit = found[0]!.edits?.[0];
    assert.ok(edit !== undefined, `${code} offers no edit for:\n${program}`);
    assert.ok(edit.title.length > 0);
    const result = program.slice(0, edit.span.start) + edit.replacement + program.slice(edit.span.end);
    assert.equal(result, fixed, `${code}: the edit "${edit.title}" gives another program`);
    const after = checkSource("edit.ry", result).diagnostics.filter((d) => d.severity === "error");
    assert.deepEqual(
      after.map((d) => `${d.code}: ${d.message}`),
      [],
      `${code}: the edited program still has errors`,
    );
    applied++;
  }
  console.log(`suggested edits: ${applied} cases applied`);
});

test("`otherwise fail` is offered only where it would be right", () => {
  const cases = [
    // The function cannot fail: passing the failure on would be E-FAIL-CANNOT.
    "function parse(text: Text) returns Int\n  return text.to_int()\nend",
    // The call is not where its statement ends: `otherwise` there would not bind to it.
    "function parse(text: Text) returns Int or fails with ParseError\n  return text.to_int() + 1\nend",
    // The failure type has no case to wrap a ParseError in.
    "type AppError is variant\n  Other(reason: Text)\nend\n\n" +
      "function parse(text: Text) returns Int or fails with AppError\n  return text.to_int()\nend",
  ];
  for (const program of cases) {
    const found = checkSource("edit.ry", program).diagnostics.filter((d) => d.code === "E-FAIL-UNHANDLED");
    assert.equal(found.length, 1, program);
    assert.equal(found[0]!.edits, undefined, `an edit is offered for:\n${program}`);
  }
  console.log(`suggested edits withheld: ${cases.length} cases`);
});

test("the problems of the checker carry their facts as data", () => {
  const { diagnostics } = checkSource(
    "facts.ry",
    'function greet(name: Text) returns Int\n  console.print("Hello, {name}")\n  return name\nend',
  );
  const missing = diagnostics.find((d) => d.code === "E-CAP-MISSING");
  assert.deepEqual(missing?.facts, {
    problem: "call",
    callee: "console.print",
    need: "console",
    owner: { kind: "function", name: "greet" },
    granted: [],
  });
  const mismatch = diagnostics.find((d) => d.code === "E-TYPE-MISMATCH");
  assert.deepEqual(mismatch?.facts, {
    problem: "expected",
    place: { of: "returned value" },
    expected: "Int",
    found: "Text",
  });
});
