// The bundle validator against hostile bundles: each of these reaches, or
// tries to reach, something compiled code never does, and each is refused.
// And the compiler's own check that a lowered program names nothing it does
// not declare.

import assert from "node:assert/strict";
import test from "node:test";
import { validateBundle } from "../cli/bundles/validate.js";
import * as t from "../compiler/lower/js.js";
import { freeNames } from "../compiler/emit/free-names.js";
import { Budgets, narrow, refusing, rootGrant } from "../rtlib/grants.js";

const HEAD =
  `import { S as $S, narrow as $narrow, foreign as $foreign, console as $console, Failure as $Failure } from ` +
  `"renyi/runtime";\n`;

/** A hostile bundle: what it tries, and its code after the runtime's import (or whole, when it starts with `!`). */
const HOSTILE: [string, string][] = [
  ["a global", `function main$main() { return process.env; }`],
  ["require", `function main$main() { return require("child_process"); }`],
  ["globalThis", `function main$main() { return globalThis; }`],
  ["eval", `function main$main() { return eval("1"); }`],
  ["Function through constructor", `function main$main() { return $S.constructor.constructor("return process")(); }`],
  [
    "Function through a function's constructor",
    `function main$main() { return (() => 1).constructor("return process")(); }`,
  ],
  ["constructor by a computed name", `function main$main() { return $S["constr" + "uctor"]; }`],
  ["a computed text key", `function main$main() { return $S["constructor"]; }`],
  ["prototype", `function main$main() { return Array.prototype; }`],
  ["__proto__ in a literal", `function main$main() { return { __proto__: $S }; }`],
  ["a getter in a literal", `function main$main() { return { get x() { return 1; } }; }`],
  ["a computed key in a literal", `function main$main() { return { [1 + 1]: 2 }; }`],
  ["a class with heritage", `class main$X extends (function () { return 1; }) {}`],
  ["a class with a method", `class main$X { run() { return 1; } }`],
  ["a class with a computed member", `class main$X { ["constructor"]() {} }`],
  ["a parameter default", `function main$main(a = process) { return a; }`],
  ["a destructuring pattern", `function main$main() { const { constructor: c } = $S; return c; }`],
  ["a second module", `!import { S as $S } from "renyi/runtime";\nimport { exec } from "node:child_process";`],
  ["the runtime as a whole", `!import * as rt from "renyi/runtime";`],
  ["a host-only runtime name", `!import { rootGrant as $rootGrant } from "renyi/runtime";`],
  ["a renamed import", `!import { S as process } from "renyi/runtime";`],
  ["a dynamic import", `async function main$main() { return await import("node:fs"); }`],
  ["a tagged template", `function main$main() { return $S.raw\`x\`; }`],
  ["new.target", `function main$main() { return new.target; }`],
  ["import.meta beyond url", `function main$main() { return import.meta.resolve; }`],
  ["a var", `function main$main() { var x = 1; return x; }`],
  ["delete", `function main$main() { delete $S.fuel; }`],
  ["a regular expression", `function main$main() { return /x/; }`],
  ["a BigInt", `function main$main() { return 1n; }`],
  ["this outside a constructor", `function main$main() { return this; }`],
  ["a label", `function main$main() { outer: while (true) { break outer; } }`],
  ["a re-export", `export * from "node:fs";`],
  ["a default export", `export default 1;`],
  ["an export of another name", `export const process = 1;`],
  ["optional chaining", `function main$main() { return $S?.fuel; }`],
  ["a generator", `function* main$main() { yield 1; }`],
  ["arguments", `function main$main() { return arguments; }`],
  ["call on a library function", `function main$main() { return $foreign.call.call(null); }`],
  ["a library name hidden by a parameter", `function main$main($foreign) { return $foreign.constructor; }`],
  ["a library member by a special name", `function main$main() { return $foreign.constructor; }`],
  ["an object pattern in a catch", `function main$main() { try {} catch ({ constructor }) { return constructor; } }`],
  ["a for-in loop", `function main$main() { for (const k in $S) {} }`],
  ["a sequence hiding a global", `function main$main() { return (0, Reflect); }`],
  ["an assignment to a pattern", `function main$main() { let a; [a] = [process]; }`],
  ["void", `function main$main() { return void 0; }`],
  ["a with-free script", `!"use strict"; process.exit(1);`],
  // The header with constants, as the compiler writes it now: each imported name bound once to its constant, nothing
  // else.
  [
    "an imported name read before its constant",
    `!import { S as $$S } from "renyi/runtime"; const $S = $$S;\nfunction main$main() { return $$S.fuel; }`,
  ],
  [
    "a constant bound to another import",
    `!import { S as $$S, slow as $$slow } from "renyi/runtime"; const $S = $$slow, $slow = $$S;`,
  ],
  ["an import with no constant", `!import { S as $$S, slow as $$slow } from "renyi/runtime"; const $S = $$S;`],
  ["a constant that is a global", `!import { S as $$S } from "renyi/runtime"; const $S = process;`],
  ["a constant of another name", `!import { S as $$S } from "renyi/runtime"; const process = $$S;`],
  ["constants bound by let", `!import { S as $$S } from "renyi/runtime"; let $S = $$S;`],
  ["an import renamed with two dollars and a letter", `!import { S as $$X } from "renyi/runtime"; const $X = $$X;`],
];

test("hostile bundles are refused by the validator", () => {
  // The same frame around harmless code is accepted, so each refusal is the attack's.
  // The header with constants is accepted around the same code.
  const constants = validateBundle(
    `import { S as $$S, narrow as $$narrow, foreign as $$foreign, console as $$console } from "renyi/runtime"; ` +
      `const $S = $$S, $narrow = $$narrow, $foreign = $$foreign, $console = $$console;\n` +
      `async function main$main($g) { const $grant1 = $narrow($g, [{ path: ["console"] }], "main"); await ` +
      `$console.print($grant1, "x"); return $foreign.call; }\nexport { main$main as main };`,
  );
  assert.equal(constants.ok, true, constants.ok ? "" : constants.problem);
  const harmless = validateBundle(
    HEAD +
      `class main$P { constructor(f_x) { this.x = f_x; } }\n` +
      `async function main$main($g) { const $grant1 = $narrow($g, [{ path: ["console"] }], "main"); await ` +
      `$console.print($grant1, \`\${new main$P(1).x}\`); return $foreign.call; }\nexport { main$main as main };`,
  );
  assert.equal(harmless.ok, true, harmless.ok ? "" : harmless.problem);
  let refused = 0;
  for (const [what, code] of HOSTILE) {
    const bundle = code.startsWith("!") ? code.slice(1) : HEAD + code;
    const validation = validateBundle(bundle);
    assert.equal(validation.ok, false, `${what} was accepted`);
    if (!validation.ok) assert.doesNotMatch(validation.problem, /^\s+at /m, `${what}: a stack in the message`);
    refused++;
  }
  console.log(`validator: ${refused} hostile bundles refused`);
});

test("a bundle nested past any compiled code's depth is refused, not a crash", () => {
  const deep = `${HEAD}function main$main() { return ${"(".repeat(50_000)}1${")".repeat(50_000)}; }`;
  const validation = validateBundle(deep);
  assert.equal(validation.ok, false);
});

test("the CommonJS form must require the runtime it was compiled for, and nothing else", () => {
  const good =
    `"use strict"; const { S: $S } = require("/rt.cjs");\nfunction main$main() { return $S.fuel; }\n` +
    `exports.main = main$main;\n`;
  assert.equal(validateBundle(good, { kind: "commonjs", runtime: "/rt.cjs" }).ok, true);
  assert.equal(validateBundle(good, { kind: "commonjs", runtime: "/other.cjs" }).ok, false);
  assert.equal(
    validateBundle(good.replace("exports.main", "exports.process"), { kind: "commonjs", runtime: "/rt.cjs" }).ok,
    false,
  );
  assert.equal(
    validateBundle(good.replace("return $S.fuel", "return require('fs')"), { kind: "commonjs", runtime: "/rt.cjs" }).ok,
    false,
  );
  // A second main after the first, which a script allows and which would run in its place.
  const twice = validateBundle(good.replace("exports.main", "function main$main() { return 0; }\nexports.main"), {
    kind: "commonjs",
    runtime: "/rt.cjs",
  });
  assert.equal(twice.ok, false);
  assert.match(twice.ok ? "" : twice.problem, /declares `main\$main` twice/);
  assert.equal(
    validateBundle(good.replace("exports.main = main$main", "module.exports = {}"), {
      kind: "commonjs",
      runtime: "/rt.cjs",
    }).ok,
    false,
  );
});

test("the compiler's check finds every name a lowered program uses without declaring it", () => {
  const uses = (name: string) => t.expressionStatement(t.callExpression(t.identifier(name), []));
  const fn = t.functionDeclaration(
    t.identifier("m$f"),
    [t.identifier("x")],
    t.blockStatement([
      uses("x"),
      uses("require"),
      t.variableDeclaration("let", [t.variableDeclarator(t.identifier("y"))]),
      uses("y"),
    ]),
  );
  assert.deepEqual(freeNames([fn, uses("m$f"), uses("y"), uses("$S")], new Set(["$S"])), ["require", "y"]);
  // A name declared inside an arrow task is not declared after it: what `run concurrently` once got wrong.
  const task = t.arrowFunctionExpression(
    [],
    t.blockStatement([
      t.variableDeclaration("let", [t.variableDeclarator(t.identifier("process"), t.numericLiteral(1))]),
    ]),
    true,
  );
  assert.deepEqual(freeNames([t.expressionStatement(t.callExpression(task, [])), uses("process")], new Set()), [
    "process",
  ]);
  // Property names are not references; computed ones are.
  const member = t.expressionStatement(t.memberExpression(t.identifier("Math"), t.identifier("process")));
  const computed = t.expressionStatement(t.memberExpression(t.identifier("Math"), t.identifier("process"), true));
  assert.deepEqual(freeNames([member, computed], new Set()), ["process"]);
});

const LIST_FIELDS = new Set(["arguments", "elements", "expressions", "properties", "quasis", "declarations"]);

test("the compiler's check reads every child field of every kind whose fields hold references", () => {
  // Kinds with a field that declares or names rather than reads (a function's parameters, a
  // property's key) are left to the test above; every other kind's fields are all references.
  const declaring = new Set([
    "ArrowFunctionExpression",
    "CatchClause",
    "ClassDeclaration",
    "ClassMethod",
    "ExportNamedDeclaration",
    "ExportSpecifier",
    "ForOfStatement",
    "ForStatement",
    "FunctionDeclaration",
    "MemberExpression",
    "MetaProperty",
    "ObjectProperty",
    "VariableDeclaration",
    "VariableDeclarator",
    "ArrayPattern",
    "RestElement",
    "Program",
  ]);
  let kinds = 0;
  for (const [kind, keys] of Object.entries(t.CHILD_KEYS)) {
    if (declaring.has(kind) || keys.length === 0) continue;
    const expected: string[] = [];
    const node: Record<string, unknown> = { type: kind };
    for (const key of keys) {
      const one = t.identifier(`${key}_of_${kind}`);
      const two = t.identifier(`${key}_of_${kind}_2`);
      // A list field gets two names (every item is read), any other field one.
      const list = LIST_FIELDS.has(key) || (key === "body" && (kind === "BlockStatement" || kind === "ClassBody"));
      node[key] = list ? [one, two] : one;
      expected.push(one.name, ...(list ? [two.name] : []));
    }
    assert.deepEqual(freeNames([node as never], new Set()), expected, kind);
    kinds++;
  }
  assert.ok(kinds >= 20, `${kinds} kinds checked`);
});

test("compiled code cannot make a grant, or widen one it holds", () => {
  const need = { path: ["process", "run"] };
  // Narrowing from no grant makes nothing: the needs are inside the empty grant.
  assert.notEqual(refusing(narrow(undefined, [need], "f"), need), undefined);
  // Something shaped like a grant is not one.
  const forged = { items: [need], parent: undefined, owner: "x" };
  assert.notEqual(refusing(forged as never, need), undefined);
  // A grant and its items are frozen: the needs a bundle passed cannot be changed afterwards.
  const items = [{ path: ["console"] }];
  const grant = rootGrant(items, "main", new Budgets());
  items.push(need);
  (items[0]!.path as string[]).push("x");
  assert.notEqual(refusing(grant, need), undefined);
  assert.equal(refusing(grant, { path: ["console"] }), undefined);
  assert.throws(() => ((grant as { parent: unknown }).parent = undefined));
  assert.throws(() => (grant.items as unknown as unknown[]).push(need));
  assert.equal("budgets" in grant, false);
});
