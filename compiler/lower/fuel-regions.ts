// Fuel kept in locals through a loop that calls nothing that reads it
// (spec/runtime.md, "Fuel"). A charge is `if (($S.fuel -= n) < $S.check) $slow();`:
// two loads and a store of the shared counters on every turn, which cost a
// tight loop about as much as its own work. A loop whose turns call only
// runtime helpers that never look at the fuel (arithmetic, comparisons, texts,
// list pushes, the library's functions of constant work) and never await keeps
// the fuel in a local instead:
//
//   { let $room1 = $fuelRoom();
//     try { for (...) { $room1 = $fuelLeft($room1 -= n); ... } }
//     finally { $S.fuel = $S.check + $room1; } }
//
// The room before the slow path is at most 16,384 steps, a small integer the
// engine keeps in a register (the fuel itself, billions, would be a float boxed
// on every turn). The count is the same step for step: every charge subtracts
// what it did, the slow path runs at the same steps (`fuelLeft` writes the fuel
// back before it and gives the new room after), and however the loop ends (its
// end, a `break`, a `return`, a crash) the fuel left is written back before
// anything else can read it. Nothing else runs while the loop does: it neither
// awaits nor calls the program's functions, lambdas or the library's functions
// that charge the fuel themselves.

import * as t from "./js.js";
import type { Lowerer } from "./context.js";
import { isCharge } from "./fuel.js";

/**
 * The runtime's helpers a loop keeping its fuel in locals may call: none reads
 * or writes the limits' counters, calls the program's code or awaits (rtlib/ints.ts,
 * values.ts, equality.ts, limits-collections.ts, the list helpers).
 */
const FUEL_BLIND = new Set([
  "iadd", "isub", "imul", "idiv", "imod", "fmod", "index",
  "equals", "compare", "toText", "floatText",
  "concat", "appendInPlace", "pushInPlace", "pushOneInPlace", "pushRow", "rangeInclusive", "tadd", "tinterp", "mapGetOr",
  "crash", "noArmFits", "checkFailed", "Failure", "Some", "Pair",
]);

/**
 * The library's functions such a loop may call, by module: those whose work
 * does not grow with their input (so they charge nothing but the call's step,
 * which compiled code charges) and that take no function value. `*`: every
 * function of the module. tests/fuel-regions.test.ts reads each one's code for
 * a charge.
 */
export const FUEL_BLIND_LIBRARY: Readonly<Record<string, readonly string[] | "*">> = {
  math: "*",
  list: ["length", "count", "is_empty", "get", "first", "last"],
  map: ["get", "contains", "length", "is_empty", "putInPlace", "removeInPlace"],
  optional: ["or_else", "is_some", "is_none"],
};

/** Rewrites, in place, the outermost loops of a function's body that can keep their fuel in locals. */
export function localizeFuel(lw: Lowerer, body: t.BlockStatement): t.BlockStatement {
  if (!lw.sharedFuel) visitStatements(lw, body.body);
  return body;
}

function visitStatements(lw: Lowerer, statements: t.Statement[]): void {
  for (let i = 0; i < statements.length; i++) {
    const s = statements[i]!;
    if (isLoop(s) && fuelBlind(s)) statements[i] = region(lw, s);
    else visitChildren(lw, s);
  }
}

function visitChildren(lw: Lowerer, node: t.Node): void {
  if (isFunction(node)) return;
  const n = node as unknown as Record<string, unknown>;
  for (const key of t.CHILD_KEYS[node.type] ?? []) {
    const child = n[key];
    if (Array.isArray(child)) {
      if (child.length > 0 && isStatementList(node, key)) visitStatements(lw, child as t.Statement[]);
      else for (const c of child) if (c != null) visitChildren(lw, c as t.Node);
    } else if (child != null && typeof child === "object") {
      const c = child as t.Node;
      // A loop's body, or an `if`'s branch, may be a single statement.
      if (isLoop(c) && fuelBlind(c)) n[key] = region(lw, c);
      else visitChildren(lw, c);
    }
  }
}

const isStatementList = (node: t.Node, key: string): boolean => (node.type === "BlockStatement" || node.type === "Program") && key === "body";
const isLoop = (n: t.Node): n is t.ForStatement | t.WhileStatement | t.ForOfStatement => n.type === "ForStatement" || n.type === "WhileStatement" || n.type === "ForOfStatement";
const isFunction = (n: t.Node): boolean => n.type === "ArrowFunctionExpression" || n.type === "FunctionDeclaration" || n.type === "ClassMethod" || n.type === "ClassDeclaration";

/** Whether nothing in `node`, outside the functions it makes, awaits or calls what may read the fuel. */
function fuelBlind(node: t.Node): boolean {
  const charge = isCharge(node);
  if (charge !== undefined) return fuelBlind(charge.amount);
  switch (node.type) {
    case "AwaitExpression":
      return false;
    case "CallExpression":
      if (!fuelBlindCallee((node as t.CallExpression).callee)) return false;
      break;
    // A `new` makes a value of a type (the program's records and variants; the runtime's
    // maps, pairs, options and failures), whose constructor stores what it is given.
    case "MemberExpression": {
      // The counters are read only by the charges, which the rewrite knows.
      const m = node as t.MemberExpression;
      if (m.object.type === "Identifier" && m.object.name === "$S" && m.property.type === "Identifier" && (m.property.name === "fuel" || m.property.name === "check")) return false;
      break;
    }
  }
  if (isFunction(node)) return true;
  const n = node as unknown as Record<string, unknown>;
  for (const key of t.CHILD_KEYS[node.type] ?? []) {
    const child = n[key];
    if (Array.isArray(child)) {
      for (const c of child) if (c != null && !fuelBlind(c as t.Node)) return false;
    } else if (child != null && typeof child === "object" && !fuelBlind(child as t.Node)) return false;
  }
  return true;
}

function fuelBlindCallee(callee: t.Expression | t.V8IntrinsicIdentifier): boolean {
  if (callee.type === "Identifier") return callee.name.startsWith("$") && FUEL_BLIND.has(callee.name.slice(1));
  if (callee.type !== "MemberExpression" || callee.object.type !== "Identifier" || callee.property.type !== "Identifier" || callee.computed) return false;
  const allowed = FUEL_BLIND_LIBRARY[callee.object.name.slice(1)];
  return callee.object.name.startsWith("$") && allowed !== undefined && (allowed === "*" || allowed.includes(callee.property.name));
}

function region(lw: Lowerer, loop: t.Statement): t.Statement {
  const room = lw.temp("room");
  rewriteCharges(loop, room, lw.rt("fuelLeft"));
  const fuel = t.memberExpression(lw.rt("S"), t.identifier("fuel"));
  const check = t.memberExpression(lw.rt("S"), t.identifier("check"));
  // What the rewrite adds is the loop's, in the source map.
  const at = <N extends t.Node>(node: N): N => Object.assign(node, { loc: loop.loc });
  return at(
    t.blockStatement([
      at(t.variableDeclaration("let", [t.variableDeclarator(room, t.callExpression(lw.rt("fuelRoom"), []))])),
      at(t.tryStatement(t.blockStatement([loop]), null, t.blockStatement([at(t.expressionStatement(t.assignmentExpression("=", fuel, t.binaryExpression("+", check, room))))]))),
    ]),
  );
}

/** Each charge in `node` (outside the functions it makes) made to count in the local: `$room = $fuelLeft($room -= n)`. */
function rewriteCharges(node: t.Node, room: t.Identifier, fuelLeft: t.Identifier): void {
  const n = node as unknown as Record<string, unknown>;
  for (const key of t.CHILD_KEYS[node.type] ?? []) {
    const child = n[key];
    const rewrite = (c: t.Node): t.Node => {
      const charge = isCharge(c);
      if (charge === undefined) {
        if (!isFunction(c)) rewriteCharges(c, room, fuelLeft);
        return c;
      }
      // The local takes the charge before the call: when the slow path ends the run, the fuel written back has it.
      const spend = t.assignmentExpression("=", room, t.callExpression(fuelLeft, [t.assignmentExpression("-=", room, charge.amount)]));
      const replaced: t.Node = charge.form === "statement" ? t.expressionStatement(spend) : spend;
      replaced.loc = c.loc;
      return replaced;
    };
    if (Array.isArray(child)) child.forEach((c, i) => c != null && (child[i] = rewrite(c as t.Node)));
    else if (child != null && typeof child === "object") n[key] = rewrite(child as t.Node);
  }
}
