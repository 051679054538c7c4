// Nesting is bounded in the parser (spec/grammar.md, section 11: E-SYN-TOO-DEEP past 128 levels),
// and no input overflows JavaScript's stack, even on a thread with 1 MB of it.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Worker } from "node:worker_threads";
import { parseSource } from "../compiler/index.js";

const N = 100_000;

function inFunction(body: string): string {
  return `function f()\n  ${body}\nend\n`;
}

const deepInputs: Record<string, string> = {
  parentheses: inFunction(`let x be ${"(".repeat(N)}1${")".repeat(N)}`),
  lists: inFunction(`let x be ${"[".repeat(N)}1${"]".repeat(N)}`),
  maps: inFunction(`let x be ${'{"a": '.repeat(N)}1${"}".repeat(N)}`),
  "unary minus": inFunction(`let x be ${"- ".repeat(N)}1`),
  not: inFunction(`let x be ${"not ".repeat(N)}true`),
  "operator chain": inFunction(`let x be 1${" + 1".repeat(N)}`),
  "right-nested operators": inFunction(`let x be ${"1 + (".repeat(N)}1${")".repeat(N)}`),
  "member chain": inFunction(`let x be a${".b".repeat(N)}`),
  "call chain": inFunction(`let x be f${"()".repeat(N)}`),
  "nested calls": inFunction(`let x be ${"f(".repeat(N)}1${")".repeat(N)}`),
  "index chain": inFunction(`let x be a${"[0]".repeat(N)}`),
  interpolation: inFunction(`let x be ${'"{'.repeat(N)}1${'}"'.repeat(N)}`),
  "unclosed interpolation": inFunction(`let x be ${'"{'.repeat(N)}`),
  blocks: `function f()\n${"if x\n".repeat(N)}${"end\n".repeat(N)}end\n`,
  loops: `function f()\n${"for each x in xs\n".repeat(N)}${"end\n".repeat(N)}end\n`,
  "unclosed blocks": `function f()\n${"while x\n".repeat(N)}`,
  types: `function f(x: ${"List<".repeat(N)}Int${">".repeat(N)})\nend\n`,
  "pair types": `function f(x: ${"(Int, ".repeat(N)}Int${")".repeat(N)})\nend\n`,
  "function types": `function f(x: ${"function(".repeat(N)}${")".repeat(N)})\nend\n`,
  patterns: inFunction(`match x\n    when ${"Some(".repeat(N)}y${")".repeat(N)} then stop\n  end`),
  "list patterns": inFunction(`match x\n    when ${"[".repeat(N)}y${"]".repeat(N)} then stop\n  end`),
  lambdas: inFunction(`let f be ${"(x) => ".repeat(N)}1`),
  "function values": inFunction(`let f be ${"function ()\n".repeat(N)}${"end\n".repeat(N)}`),
  matches: inFunction(`${"match x\nwhen _\n".repeat(N)}${"end\n".repeat(N)}`),
  otherwise: inFunction(`let x be ${"f() otherwise ".repeat(N)}0`),
  "if expressions": inFunction(`let x be ${"if a then 1 else ".repeat(N)}0`),
  "inline ifs": inFunction(`${"if a then ".repeat(N)}stop`),
  queries: inFunction(`let x be ${"(from x in ".repeat(N)}xs${" select x)".repeat(N)}`),
  "with updates": inFunction(`let x be ${"p with a: ".repeat(N)}1`),
  "else if chain": `function f()\n  if a\n${"  else if a\n".repeat(N)}  end\nend\n`,
};

function parseOnSmallStack(text: string): Promise<{ ok: boolean; codes?: string[]; error?: string }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./nesting-worker.js", import.meta.url), {
      workerData: { text },
      resourceLimits: { stackSizeMb: 1 },
    });
    worker.once("message", (message) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}

for (const [name, text] of Object.entries(deepInputs)) {
  test(`100,000 levels of ${name} end in diagnostics on a 1 MB stack`, async () => {
    const result = await parseOnSmallStack(text);
    assert.equal(result.error, undefined);
    assert.ok(result.ok);
    const codes = result.codes!;
    if (name === "else if chain") {
      // An else-if chain is a list of branches, not a nesting.
      assert.deepEqual(codes, []);
    } else {
      assert.ok(codes.includes("E-SYN-TOO-DEEP"), `expected E-SYN-TOO-DEEP, got ${codes.join(", ")}`);
    }
  });
}

test("nesting up to the limit parses; one past it does not", () => {
  const parens = (n: number) => inFunction(`let x be ${"(".repeat(n)}1${")".repeat(n)}`);
  // The statement's own expression is one level and the function's block another.
  assert.deepEqual(parseSource("a.ry", parens(125)).diagnostics, []);
  assert.deepEqual(
    parseSource("a.ry", parens(127)).diagnostics.map((d) => d.code),
    ["E-SYN-TOO-DEEP"],
  );
  const types = (n: number) => `function f(x: ${"List<".repeat(n)}Int${">".repeat(n)})\nend\n`;
  assert.deepEqual(parseSource("a.ry", types(127)).diagnostics, []);
  assert.deepEqual(
    parseSource("a.ry", types(128)).diagnostics.map((d) => d.code),
    ["E-SYN-TOO-DEEP"],
  );
});
