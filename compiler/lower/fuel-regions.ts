// Fuel kept in locals through a loop that calls nothing that reads it
// (spec/runtime.md, "Fuel"). A charge on the shared counter,
// `if (($S.room -= n) < 0) $slow();`, costs a tight loop a load and a store a
// turn, and each charge's own call of the slow path, never made before
// the loop is optimized, throws the optimized code away the first time it runs.
// A loop whose turns call only runtime helpers that never look at the fuel
// (arithmetic, comparisons, texts, single-item pushes, the library's functions
// of constant work) and never await keeps the room before the slow path in a
// local instead:
//
//   { let $room1 = $fuelRoom();
//     try { for (...) { $room1 = $fuelLeft($room1 -= n); ... } }
//     finally { $fuelBack($room1); } }
//
// The room is at most 16,384 steps, a small integer the engine keeps in a
// register;
// `fuelLeft` is one function for every charge, inlined, its one call of the slow
// path made long before. The count is the same step for step: every charge
// subtracts what it did, the slow path runs at the same steps (`fuelLeft` writes
// the fuel back before it and gives the new room after), and however the loop
// ends (its end, a `break`, a `return`, a crash) the fuel left is written back
// before anything else can read it. Nothing else runs while the loop does: it
// neither awaits nor calls the program's functions or lambdas; the helpers that
// charge what they make (a join of lists, a range) are called in statements
// (an expression statement, a `const`) run with the shared counters made current
// around them (CHARGING).

import * as t from "./js.js";
import type { Lowerer } from "./context.js";
import { counter, isCharge } from "./fuel.js";

/**
 * The runtime's helpers a loop keeping its fuel in locals may call: none reads
 * or writes the limits' counters, calls the program's code or awaits (rtlib/ints.ts,
 * values.ts for keys of primitive types, limits-collections.ts, the list helpers that add items
 * one at a time). Not `concat`, `appendInPlace` or `rangeInclusive`, which charge
 * the items they copy or make (CHARGING, below). tests/fuel-regions.test.ts calls
 * each one and checks that the counters have not moved.
 */
export const FUEL_BLIND = new Set([
  "iadd",
  "isub",
  "imul",
  "idiv",
  "imod",
  "fmod",
  "index",
  "floatText",
  "pushInPlace",
  "pushOneInPlace",
  "pushRow",
  "tadd",
  "tinterp",
  "mapGetPrimitiveOr",
  "mapPutPrimitive",
  "crash",
  "noArmFits",
  "checkFailed",
  "Failure",
  "Some",
  "Pair",
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
  map: ["length", "is_empty"],
  optional: ["or_else", "is_some", "is_none"],
};

/**
 * The helpers that charge the work they do (the items a join of lists or a
 * range makes; a map or set copied before it is changed) but call no code of
 * the program and never await: such a loop may call them in an expression
 * statement or a `const` (`x = $concat(x, [y]);`, `acc = new Acc($concat(acc.items, [i]), $iadd(acc.sum, i));`)
 * that makes no charge and calls nothing else that reads the fuel, with the fuel
 * written back before the statement and the room read again after it, however it ends.
 */
// The walks over values charge each part they visit (spec/runtime.md, "Walks over
// values"): equality, order and text of structured values, and the key of a map
// or set whose keys are not of a primitive type.
const CHARGING = new Set(["concat", "appendInPlace", "rangeInclusive", "equals", "compare", "toText", "mapGetOr"]);
const CHARGING_LIBRARY: Readonly<Record<string, readonly string[]>> = {
  map: ["put", "remove", "get", "contains", "putInPlace", "removeInPlace"],
  sets: ["add", "remove", "addInPlace", "removeInPlace"],
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

/**
 * Whether nothing in `node`, outside the functions it makes, awaits or calls what
 * may read the fuel. `inList`: `node` is a statement of a block's list (where a
 * declaration may become two statements).
 */
function fuelBlind(node: t.Node, inList = false): boolean {
  if (isFunction(node)) return true;
  const charge = isCharge(node);
  if (charge !== undefined) return fuelBlind(charge.amount);
  // A statement that calls a charging helper, charging nothing itself: it is run with the shared counters current.
  const charging = chargingStatement(node, inList);
  if (charging !== undefined) return blindAroundCharging(charging) && !holdsCharge(charging);
  return ownFuelBlind(node) && !t.someChild(node, notFuelBlind);
}

/**
 * Whether nothing in `node`, outside the functions it makes, awaits or reads the fuel but the charging helpers it
 * calls.
 */
function blindAroundCharging(node: t.Node): boolean {
  if (isFunction(node)) return true;
  if (isChargingCall(node)) return node.arguments.every((a) => a.type !== "SpreadElement" && blindAroundCharging(a));
  return ownFuelBlind(node) && !t.someChild(node, (c) => !blindAroundCharging(c));
}

const isChargingCall = (node: t.Node): node is t.CallExpression =>
  node.type === "CallExpression" && calleeIn(node.callee, CHARGING, CHARGING_LIBRARY);

/** Whether `node` calls a charging helper, outside the functions it makes. */
function callsCharging(node: t.Node): boolean {
  if (isFunction(node)) return false;
  return isChargingCall(node) || t.someChild(node, callsCharging);
}

const notFuelBlind = (node: t.Node, inList: boolean): boolean => !fuelBlind(node, inList);

/** Adds the loops inside `node` (not `node` itself), outside the functions it makes, to `inside`. */
function markLoopsInside(node: t.Node, inside: Set<t.Node>): void {
  // One visitor for the whole walk: a closure made at every node was 28 MB of garbage on 100k lines.
  const visit = (c: t.Node): boolean => {
    if (isFunction(c)) return false;
    if (t.isLoop(c)) inside.add(c);
    t.someChild(c, visit);
    return false;
  };
  t.someChild(node, visit);
}

const isFunction = (n: t.Node): boolean =>
  n.type === "ArrowFunctionExpression" ||
  n.type === "FunctionDeclaration" ||
  n.type === "ClassMethod" ||
  n.type === "ClassDeclaration";

/** Whether `node` itself (not its children) neither awaits nor calls what may read the fuel. */
function ownFuelBlind(node: t.Node): boolean {
  switch (node.type) {
    case "AwaitExpression":
      return false;
    case "CallExpression":
      return fuelBlindCallee(node.callee);
    // A `new` makes a value of a type (the program's records and variants; the runtime's
    // maps, pairs, options and failures), whose constructor stores what it is given.
    case "MemberExpression":
      // The counters are read only by the charges, which the rewrite knows.
      return !counter(node);
    default:
      return true;
  }
}

/**
 * What a statement that calls a charging helper (CHARGING) evaluates: an expression
 * statement's expression, or, in a block's list of statements, the value of a `const`
 * of one name (made `let name;` and an assignment by the rewrite).
 */
function chargingStatement(node: t.Node, inList: boolean): t.Expression | undefined {
  let e: t.Expression | null | undefined;
  if (node.type === "ExpressionStatement") e = node.expression;
  else if (
    node.type === "VariableDeclaration" &&
    inList &&
    node.declarations.length === 1 &&
    node.declarations[0]!.id.type === "Identifier"
  )
    e = node.declarations[0]!.init;
  return e != null && callsCharging(e) ? e : undefined;
}

/** Whether a charge is made anywhere in `node`, outside the functions it makes. */
function holdsCharge(node: t.Node): boolean {
  if (isFunction(node)) return false;
  return isCharge(node) !== undefined || t.someChild(node, holdsCharge);
}

function fuelBlindCallee(callee: t.Expression | t.V8IntrinsicIdentifier): boolean {
  return calleeIn(callee, FUEL_BLIND, FUEL_BLIND_LIBRARY);
}

/** Whether `callee` is `$name` of `helpers`, or `$module.name` of `library`. */
function calleeIn(
  callee: t.Expression | t.V8IntrinsicIdentifier,
  helpers: ReadonlySet<string>,
  library: Readonly<Record<string, readonly string[] | "*">>,
): boolean {
  if (callee.type === "Identifier") return callee.name.startsWith("$") && helpers.has(callee.name.slice(1));
  if (
    callee.type !== "MemberExpression" ||
    callee.object.type !== "Identifier" ||
    callee.property.type !== "Identifier" ||
    callee.computed
  )
    return false;
  const allowed = library[callee.object.name.slice(1)];
  return (
    callee.object.name.startsWith("$") &&
    allowed !== undefined &&
    (allowed === "*" || allowed.includes(callee.property.name))
  );
}

/**
 * Turns `loop` into the block that keeps its fuel in a local, in place: the node
 * becomes the block, and a copy of the loop goes inside it, so that whatever
 * holds the loop now holds the block. The loops inside it are added to `inside`.
 */
function becomeRegion(lw: Lowerer, loop: t.ForStatement | t.WhileStatement | t.ForOfStatement): void {
  const room = lw.temp("room");
  const copy = { ...loop };
  rewriteCharges(copy, { room, fuelLeft: lw.rt("fuelLeft"), fuelRoom: lw.rt("fuelRoom"), S: lw.rt("S") });
  // What the rewrite adds is the loop's, in the source map.
  const at = <N extends t.Node>(node: N): N => Object.assign(node, { loc: loop.loc });
  const block = t.blockStatement([
    at(t.variableDeclaration("let", [t.variableDeclarator(room, t.callExpression(lw.rt("fuelRoom"), []))])),
    at(
      t.tryStatement(
        t.blockStatement([copy]),
        null,
        t.blockStatement([at(t.expressionStatement(t.callExpression(lw.rt("fuelBack"), [room])))]),
      ),
    ),
  ]);
  const node = loop as unknown as Record<string, unknown>;
  for (const key of Object.keys(node)) delete node[key];
  Object.assign(node, block, { loc: loop.loc ?? copy.loc });
}

/** The names a rewrite writes: the loop's local, and the runtime's. */
interface Names {
  readonly room: t.Identifier;
  readonly fuelLeft: t.Identifier;
  readonly fuelRoom: t.Identifier;
  readonly S: t.Identifier;
}

/**
 * Each charge in `node` (outside the functions it makes) made to count in the
 * local, `$room = $fuelLeft($room -= n)`; each charging call made with the
 * shared counters, `{ $S.room = $room; try { CALL } finally { $room = $fuelRoom(); } }`.
 */
function rewriteCharges(node: t.Node, names: Names): void {
  const n = node as unknown as Record<string, unknown>;
  for (const key of t.CHILD_KEYS[node.type] ?? []) {
    const child = n[key];
    if (Array.isArray(child)) {
      const list = t.isStatementList(node, key);
      for (let i = 0; i < child.length; i++) {
        const c = child[i] as t.Node | null;
        if (c == null) continue;
        if (c.type === "VariableDeclaration" && chargingStatement(c, list) !== undefined) {
          // `const x = call(...)` as `let x;` and the call made into it with the counters current.
          const declarator = c.declarations[0]!;
          const declared = Object.assign(
            t.variableDeclaration("let", [t.variableDeclarator(declarator.id as t.Identifier)]),
            { loc: c.loc },
          );
          const assigned = Object.assign(
            t.expressionStatement(t.assignmentExpression("=", declarator.id as t.Identifier, declarator.init!)),
            { loc: c.loc },
          );
          child.splice(i, 1, declared, synced(assigned, names));
          i++;
        } else child[i] = rewritten(c, names);
      }
    } else if (child != null && typeof child === "object") n[key] = rewritten(child as t.Node, names);
  }
}

/**
 * `{ $S.room = $room; try { STATEMENT } finally { $room = $fuelRoom(); } }`: the room is 0 or more here (every charge
 * before it in the turn gave it back so), or the -1 of a stopped task that `$S.room` holds already.
 */
function synced(statement: t.Statement, { room, fuelRoom, S }: Names): t.Statement {
  const writeBack = t.expressionStatement(
    t.assignmentExpression("=", t.memberExpression(S, t.identifier("room")), room),
  );
  // Read again however the call ends: a crash in it (its charge ran out) leaves the fuel it charged for the loop to
  // write back.
  const readAgain = t.blockStatement([
    t.expressionStatement(t.assignmentExpression("=", room, t.callExpression(fuelRoom, []))),
  ]);
  return Object.assign(t.blockStatement([writeBack, t.tryStatement(t.blockStatement([statement]), null, readAgain)]), {
    loc: statement.loc,
  });
}

function rewritten(node: t.Node, names: Names): t.Node {
  const { room, fuelLeft } = names;
  if (chargingStatement(node, false) !== undefined) return synced(node as t.Statement, names);
  const charge = isCharge(node);
  if (charge === undefined) {
    if (!isFunction(node)) rewriteCharges(node, names);
    return node;
  }
  // The local takes the charge before the call: when the slow path ends the run, the fuel written back has it.
  const spend = t.assignmentExpression(
    "=",
    room,
    t.callExpression(fuelLeft, [t.assignmentExpression("-=", room, charge.amount)]),
  );
  const replaced: t.Node = charge.form === "statement" ? t.expressionStatement(spend) : spend;
  replaced.loc = node.loc;
  return replaced;
}
