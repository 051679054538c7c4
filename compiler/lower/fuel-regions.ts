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

/**
 * Makes each outermost loop of those lowered for a function's body (`lw.loops`)
 * that can keep its fuel in a local do so, in place.
 */
export function localizeFuel(lw: Lowerer, body: t.BlockStatement): t.BlockStatement {
  if (lw.sharedFuel) return body;
  const inside = new Set<t.Node>();
  const chosen: typeof lw.loops = [];
  // Each loop comes after those inside it: from the last, the outermost are met first.
  for (let i = lw.loops.length - 1; i >= 0; i--) {
    const loop = lw.loops[i]!;
    if (inside.has(loop) || !fuelBlind(loop)) continue;
    chosen.push(loop);
    // (A loop emitted twice, once into a list of statements then again from it, is in `lw.loops` twice.)
    inside.add(loop);
    markLoopsInside(loop, inside);
  }
  // In the order they were made, which is the source's for loops none of which holds another.
  for (let i = chosen.length - 1; i >= 0; i--) becomeRegion(lw, chosen[i]!);
  return body;
}

/** Whether nothing in `node`, outside the functions it makes, awaits or calls what may read the fuel. */
function fuelBlind(node: t.Node): boolean {
  if (isFunction(node)) return true;
  const charge = isCharge(node);
  if (charge !== undefined) return fuelBlind(charge.amount);
  if (!ownFuelBlind(node)) return false;
  const n = node as unknown as Record<string, unknown>;
  for (const key of t.CHILD_KEYS[node.type] ?? []) {
    const child = n[key];
    if (Array.isArray(child)) {
      for (const c of child) if (c != null && !fuelBlind(c as t.Node)) return false;
    } else if (child != null && typeof child === "object" && !fuelBlind(child as t.Node)) return false;
  }
  return true;
}

/** Adds the loops inside `node` (not `node` itself), outside the functions it makes, to `inside`. */
function markLoopsInside(node: t.Node, inside: Set<t.Node>): void {
  const n = node as unknown as Record<string, unknown>;
  for (const key of t.CHILD_KEYS[node.type] ?? []) {
    const child = n[key];
    for (const c of Array.isArray(child) ? child : [child]) {
      if (c == null || typeof c !== "object" || isFunction(c as t.Node)) continue;
      if (t.isLoop(c as t.Node)) inside.add(c as t.Node);
      markLoopsInside(c as t.Node, inside);
    }
  }
}

const isFunction = (n: t.Node): boolean => n.type === "ArrowFunctionExpression" || n.type === "FunctionDeclaration" || n.type === "ClassMethod" || n.type === "ClassDeclaration";

/** Whether `node` itself (not its children) neither awaits nor calls what may read the fuel. */
function ownFuelBlind(node: t.Node): boolean {
  switch (node.type) {
    case "AwaitExpression":
      return false;
    case "CallExpression":
      return fuelBlindCallee(node.callee);
    // A `new` makes a value of a type (the program's records and variants; the runtime's
    // maps, pairs, options and failures), whose constructor stores what it is given.
    case "MemberExpression": {
      // The counters are read only by the charges, which the rewrite knows.
      const m = node;
      return !(m.object.type === "Identifier" && m.object.name === "$S" && m.property.type === "Identifier" && (m.property.name === "fuel" || m.property.name === "check"));
    }
    default:
      return true;
  }
}

function fuelBlindCallee(callee: t.Expression | t.V8IntrinsicIdentifier): boolean {
  if (callee.type === "Identifier") return callee.name.startsWith("$") && FUEL_BLIND.has(callee.name.slice(1));
  if (callee.type !== "MemberExpression" || callee.object.type !== "Identifier" || callee.property.type !== "Identifier" || callee.computed) return false;
  const allowed = FUEL_BLIND_LIBRARY[callee.object.name.slice(1)];
  return callee.object.name.startsWith("$") && allowed !== undefined && (allowed === "*" || allowed.includes(callee.property.name));
}

/**
 * Turns `loop` into the block that keeps its fuel in a local, in place: the node
 * becomes the block, and a copy of the loop goes inside it, so that whatever
 * holds the loop now holds the block. The loops inside it are added to `inside`.
 */
function becomeRegion(lw: Lowerer, loop: t.ForStatement | t.WhileStatement | t.ForOfStatement): void {
  const room = lw.temp("room");
  const copy = { ...loop };
  rewriteCharges(copy, room, lw.rt("fuelLeft"));
  const fuel = t.memberExpression(lw.rt("S"), t.identifier("fuel"));
  const check = t.memberExpression(lw.rt("S"), t.identifier("check"));
  // What the rewrite adds is the loop's, in the source map.
  const at = <N extends t.Node>(node: N): N => Object.assign(node, { loc: loop.loc });
  const block = t.blockStatement([
    at(t.variableDeclaration("let", [t.variableDeclarator(room, t.callExpression(lw.rt("fuelRoom"), []))])),
    at(t.tryStatement(t.blockStatement([copy]), null, t.blockStatement([at(t.expressionStatement(t.assignmentExpression("=", fuel, t.binaryExpression("+", check, room))))]))),
  ]);
  const node = loop as unknown as Record<string, unknown>;
  for (const key of Object.keys(node)) delete node[key];
  Object.assign(node, block, { loc: loop.loc ?? copy.loc });
}

/** Each charge in `node` (outside the functions it makes) made to count in the local: `$room = $fuelLeft($room -= n)`. */
function rewriteCharges(node: t.Node, room: t.Identifier, fuelLeft: t.Identifier): void {
  const n = node as unknown as Record<string, unknown>;
  for (const key of t.CHILD_KEYS[node.type] ?? []) {
    const child = n[key];
    if (Array.isArray(child)) {
      for (let i = 0; i < child.length; i++) if (child[i] != null) child[i] = rewritten(child[i] as t.Node, room, fuelLeft);
    } else if (child != null && typeof child === "object") n[key] = rewritten(child as t.Node, room, fuelLeft);
  }
}

function rewritten(node: t.Node, room: t.Identifier, fuelLeft: t.Identifier): t.Node {
  const charge = isCharge(node);
  if (charge === undefined) {
    if (!isFunction(node)) rewriteCharges(node, room, fuelLeft);
    return node;
  }
  // The local takes the charge before the call: when the slow path ends the run, the fuel written back has it.
  const spend = t.assignmentExpression("=", room, t.callExpression(fuelLeft, [t.assignmentExpression("-=", room, charge.amount)]));
  const replaced: t.Node = charge.form === "statement" ? t.expressionStatement(spend) : spend;
  replaced.loc = node.loc;
  return replaced;
}
