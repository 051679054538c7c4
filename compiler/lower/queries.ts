// Lowering queries: `from`, `where`, `let`, `sort`, `group`, `take`, `drop`
// and `select`, with `distinct` and `concurrently`.

import { plainOf, plainRecord } from "./guarded.js";
import * as t from "./js.js";
import type { CExpr, Local } from "../check/checked.js";
import type { Lowerer } from "./context.js";
import { isCon } from "../check/types.js";
import { awaited, depthBack } from "./depth.js";
import { lowerBorrowed, lowerExpr } from "./expressions.js";
import { lookingChildren } from "../borrow/index.js";
import { chargeStatement, exprSteps } from "./fuel.js";
import { iterableOf } from "./iterables.js";
import { collectLocals, isPrimitive, lowerPattern } from "./patterns.js";
import { truth } from "./decisions.js";

/**
 * A query runs clause by clause over rows; a row holds the names bound so far
 * (the value itself when there is one name, an array otherwise). Runs of
 * `from`, `where` and `let` become nested loops; `sort`, `group`, `take` and
 * `drop` work on the rows gathered so far; `select` is done inside the last
 * run's loops when nothing comes between, so that rows are built only when a
 * later clause needs them all.
 */
export function lowerQuery(lw: Lowerer, e: Extract<CExpr, { kind: "Query" }>): t.Expression {
  let names: Local[] = [];
  let rows: t.Identifier | undefined;
  const clauses = e.clauses;
  const result = lw.temp("q");
  const looking = lookingChildren(e, lw.borrowsParameter);
  let i = 0;
  let selected = false;
  // With guards: the origins the result carries besides its rows' (a count's, sort keys'), each held in a temporary.
  const carried: t.Expression[] = [];
  while (i < clauses.length) {
    const clause = clauses[i]!;
    const then = clauses[i + 1]?.kind;
    if (
      clause.kind === "From" &&
      rows === undefined &&
      !lw.guarded &&
      clause.pattern.kind === "Bind" &&
      isCon(clause.source.type, "List") &&
      (then === "Group" || then === "Take" || then === "Drop")
    ) {
      // `from x in xs` then `group by`, `take` or `drop`, which read their rows and change none:
      // the list itself is the rows, not a copy made row by row; its step a row charged at once.
      const out = lw.temp("rows");
      lw.emit(t.variableDeclaration("const", [t.variableDeclarator(out, lowerSource(lw, clause.source, looking))]));
      const charge = chargeStatement(lw, 1, clause.source.span, t.memberExpression(out, t.identifier("length")));
      if (charge) lw.emit(charge);
      names = [...names, clause.pattern.local];
      rows = out;
      i++;
      continue;
    }
    if (clause.kind === "From" || clause.kind === "Where" || clause.kind === "Let") {
      const run: typeof clauses = [];
      while (i < clauses.length && ["From", "Where", "Let"].includes(clauses[i]!.kind)) run.push(clauses[i++]!);
      const last = i === clauses.length && e.concurrently === undefined;
      const out = last ? result : lw.temp("rows");
      const before = names;
      const after = [...names];
      for (const c of run) if (c.kind === "From") collectLocals(c.pattern, after);
      for (const c of run) if (c.kind === "Let") after.push(c.local);
      const innermost = () =>
        last
          ? selectInto(lw, e, result)
          : lw.emit(t.expressionStatement(t.callExpression(lw.rt("pushRow"), [out, rowOf(lw, after)])));
      // With guards, the origins of the `where` conditions that chose the rows, for the result to carry.
      const chosen = lw.guarded && run.some((c) => c.kind === "Where") ? lw.temp("chosen") : undefined;
      if (chosen !== undefined) {
        lw.emit(t.variableDeclaration("let", [t.variableDeclarator(chosen)]));
        carried.push(chosen);
      }
      const body = lw.collect(() => {
        const nested = lw.collect(() => nestRun(lw, run, 0, innermost, looking, false, chosen));
        if (rows === undefined) {
          for (const s of nested) lw.emit(s);
        } else {
          const row = lw.temp("row");
          lw.emit(
            t.forOfStatement(
              t.variableDeclaration("const", [t.variableDeclarator(row)]),
              rows,
              t.blockStatement([...unpackRow(lw, row, before), ...nested]),
            ),
          );
        }
      });
      lw.emit(t.variableDeclaration(last ? "let" : "const", [t.variableDeclarator(out, t.arrayExpression([]))]));
      for (const s of body) lw.emit(s);
      names = after;
      rows = out;
      selected = last;
      continue;
    }
    i++;
    const source: t.Expression = rows ?? t.arrayExpression([t.arrayExpression([])]);
    const next = lw.temp("rows");
    if (clause.kind === "Sort") {
      lw.emit(
        t.variableDeclaration("const", [
          t.variableDeclarator(next, sortRowsCode(lw, source, names, clause.keys, carried)),
        ]),
      );
    } else if (clause.kind === "Group") {
      const row = lw.temp("row");
      const keyBody = lw.synchronous(() =>
        lw.collect(() => {
          for (const s of unpackRow(lw, row, names)) lw.emit(s);
          const charge = chargeStatement(lw, exprSteps(clause.key), clause.key.span);
          if (charge) lw.emit(charge);
          lw.emit(t.returnStatement(lowerExpr(lw, clause.key)));
        }),
      );
      // A group's items are the values of the latest `from`.
      const itemIndex = lastFromIndex(e.clauses.slice(0, i), names);
      const item =
        names.length === 1
          ? row
          : itemIndex.length === 1
            ? t.memberExpression(row, t.numericLiteral(itemIndex[0]!), true)
            : lw.guarded
              ? t.callExpression(
                  lw.g("pair"),
                  itemIndex.map((j) => t.memberExpression(row, t.numericLiteral(j), true)),
                )
              : t.newExpression(
                  lw.rt("Pair"),
                  itemIndex.map((j) => t.memberExpression(row, t.numericLiteral(j), true)),
                );
      lw.emit(
        t.variableDeclaration("const", [
          t.variableDeclarator(
            next,
            t.callExpression(lw.guarded ? lw.g("groupBy") : lw.rt("groupBy"), [
              source,
              t.arrowFunctionExpression([row], t.blockStatement(keyBody)),
              t.arrowFunctionExpression([row], item),
            ]),
          ),
        ]),
      );
      names = [clause.into];
    } else if (clause.kind === "Take" || clause.kind === "Drop") {
      let given = lowerExpr(lw, clause.count);
      if (lw.guarded) {
        // The count may carry origins: the rows it takes are counted plain, and the result carries them.
        const temp = lw.temp("count");
        lw.emit(t.variableDeclaration("const", [t.variableDeclarator(temp, given)]));
        carried.push(t.callExpression(lw.g("originsOf"), [temp]));
        given = plainOf(lw, temp);
      }
      const count = t.callExpression(t.memberExpression(t.identifier("Math"), t.identifier("max")), [
        t.numericLiteral(0),
        given,
      ]);
      const args = clause.kind === "Take" ? [t.numericLiteral(0), count] : [count];
      lw.emit(
        t.variableDeclaration("const", [
          t.variableDeclarator(next, t.callExpression(t.memberExpression(source, t.identifier("slice")), args)),
        ]),
      );
    }
    rows = next;
  }
  if (!selected) lowerSelect(lw, e, rows!, names, result);
  if (e.distinct)
    lw.emit(t.expressionStatement(t.assignmentExpression("=", result, t.callExpression(lw.rt("distinct"), [result]))));
  // With guards, the result holds its items plain and carries their union.
  if (lw.guarded)
    return carried.reduce<t.Expression>(
      (value, origins) => t.callExpression(lw.g("tag"), [value, origins]),
      t.callExpression(lw.g("list"), [result]),
    );
  return result;
}

/** A row of the given names: the value itself for one name, an array for several. */
function rowOf(lw: Lowerer, names: Local[]): t.Expression {
  return names.length === 1 ? lw.local(names[0]!) : t.arrayExpression(names.map((l) => lw.local(l)));
}

function unpackRow(lw: Lowerer, row: t.Expression, names: Local[]): t.Statement[] {
  if (names.length === 0) return [];
  if (names.length === 1) return [t.variableDeclaration("const", [t.variableDeclarator(lw.local(names[0]!), row)])];
  return [
    t.variableDeclaration(
      "const",
      names.map((l, k) => t.variableDeclarator(lw.local(l), t.memberExpression(row, t.numericLiteral(k), true))),
    ),
  ];
}

/**
 * A `from`'s source. A query walks its source and gives it back never: a `var` read here stays
 * its value's only owner, unless the query may change one (a `set` in an arm) while it walks.
 */
function lowerSource(lw: Lowerer, source: CExpr, looking: ReadonlySet<CExpr>): t.Expression {
  return looking.has(source) ? lowerBorrowed(lw, source) : lowerExpr(lw, source);
}

/**
 * Nested loops for a run of `from`, `where` and `let`; `innermost` emits what each row does.
 * `charged`: the clause at `k` is a `where` whose steps the `from` before it has charged.
 */
function nestRun(
  lw: Lowerer,
  run: Extract<CExpr, { kind: "Query" }>["clauses"],
  k: number,
  innermost: () => void,
  looking: ReadonlySet<CExpr>,
  charged = false,
  chosen?: t.Identifier,
): void {
  if (k === run.length) return innermost();
  const c = run[k]!;
  if (c.kind === "From") {
    const source = lowerSource(lw, c.source, looking);
    const item = lw.temp("i");
    const code = lowerPattern(lw, c.pattern, item);
    // A `where` right after is charged with the row, in one charge a turn: between the two only
    // the row's names are bound, which nothing can observe, so the steps are the same.
    const next = run[k + 1];
    const where = next?.kind === "Where" ? exprSteps(next.condition) : undefined;
    const inner = lw.collect(() => {
      // Shown at the `where` when the fuel runs out there: most of the steps are its condition's.
      const charge = chargeStatement(
        lw,
        1 + (where ?? 0),
        next?.kind === "Where" ? next.condition.span : c.source.span,
      );
      if (charge) lw.emit(charge);
      for (const b of code.binds) lw.emit(b);
      nestRun(lw, run, k + 1, innermost, looking, where !== undefined, chosen);
    });
    lw.emit(
      t.forOfStatement(
        t.variableDeclaration("const", [t.variableDeclarator(item)]),
        iterableOf(lw, source, c.source),
        t.blockStatement(inner),
      ),
    );
  } else if (c.kind === "Where") {
    const charge = charged ? undefined : chargeStatement(lw, exprSteps(c.condition), c.condition.span);
    if (charge) lw.emit(charge);
    let condition = lowerExpr(lw, c.condition);
    if (lw.guarded && chosen !== undefined) {
      // Which rows are kept is data: the result carries the origins of every condition that chose.
      const held = lw.temp("c");
      lw.emit(t.variableDeclaration("const", [t.variableDeclarator(held, condition)]));
      lw.emit(
        t.ifStatement(
          t.binaryExpression("===", t.unaryExpression("typeof", held), t.stringLiteral("object")),
          t.expressionStatement(
            t.assignmentExpression("=", chosen, t.callExpression(lw.g("chosenBy"), [chosen, held])),
          ),
        ),
      );
      condition = truth(lw, held);
    }
    lw.emit(
      t.ifStatement(
        condition,
        t.blockStatement(lw.collect(() => nestRun(lw, run, k + 1, innermost, looking, false, chosen))),
      ),
    );
  } else if (c.kind === "Let") {
    const charge = chargeStatement(lw, exprSteps(c.value), c.value.span);
    if (charge) lw.emit(charge);
    lw.emit(t.variableDeclaration("const", [t.variableDeclarator(lw.local(c.local), lowerExpr(lw, c.value))]));
    nestRun(lw, run, k + 1, innermost, looking, false, chosen);
  }
}

/**
 * `sort by k1, k2 descending`: each row paired with its keys, sorted by a
 * comparison written for the keys' types (stable: Array.prototype.sort is),
 * then the rows taken back out.
 */
function sortRowsCode(
  lw: Lowerer,
  source: t.Expression,
  names: Local[],
  keys: { value: CExpr; descending: boolean }[],
  carried: t.Expression[],
): t.Expression {
  if (names.length === 1 && keys.every((k) => isFieldPathOf(k.value, names[0]!) && isPrimitive(k.value.type)))
    return sortByFieldsCode(lw, source, names[0]!, keys);
  const row = lw.temp("row");
  const keyBody = lw.synchronous(() =>
    lw.collect(() => {
      for (const s of unpackRow(lw, row, names)) lw.emit(s);
      const charge = chargeStatement(lw, keySteps(keys), keys[0]?.value.span);
      if (charge) lw.emit(charge);
      lw.emit(t.returnStatement(t.arrayExpression([...keys.map((k) => lowerExpr(lw, k.value)), row])));
    }),
  );
  const comparator = comparatorCode(lw, keys, (index, keyed) =>
    t.memberExpression(keyed, t.numericLiteral(index), true),
  );
  let keyed: t.Expression = t.callExpression(t.memberExpression(source, t.identifier("map")), [
    t.arrowFunctionExpression([row], t.blockStatement(keyBody)),
  ]);
  if (lw.guarded) {
    // The order the keys give is data: the result carries the keys' origins.
    const rows = lw.temp("keyed");
    const origins = lw.temp("ko");
    lw.emit(t.variableDeclaration("const", [t.variableDeclarator(rows, keyed)]));
    lw.emit(
      t.variableDeclaration("const", [
        t.variableDeclarator(origins, t.callExpression(lw.g("keyOrigins"), [rows, t.numericLiteral(keys.length)])),
      ]),
    );
    carried.push(origins);
    keyed = rows;
  }
  const sorted = t.callExpression(t.memberExpression(keyed, t.identifier("sort")), [comparator]);
  return t.callExpression(t.memberExpression(sorted, t.identifier("map")), [
    t.arrowFunctionExpression([row], t.memberExpression(row, t.numericLiteral(keys.length), true)),
  ]);
}

/**
 * `sort by o.amount descending, o.id` over rows of one name, where every key
 * is a chain of fields of the row and of a primitive type: the rows are sorted
 * by reading the keys in the comparison, with no array of keys built per row.
 * Reading a field cannot fail or touch the world, so reading it again is
 * unobservable; the steps the keys would take, once per row, are charged
 * before the sort, so fuel counts the same as for the keyed sort.
 */
function sortByFieldsCode(
  lw: Lowerer,
  source: t.Expression,
  name: Local,
  keys: { value: CExpr; descending: boolean }[],
): t.Expression {
  const keyFunctions = keys.map((k) => {
    const key = lw.temp("key");
    let read: t.ArrowFunctionExpression = t.arrowFunctionExpression([lw.local(name)], lowerExpr(lw, k.value));
    if (lw.guarded) {
      // The keys only order the rows; what the rows carry, the result carries. They are read from the plain row.
      const row = lw.temp("row");
      read = t.arrowFunctionExpression(
        [row],
        t.blockStatement([
          t.variableDeclaration("const", [
            t.variableDeclarator(
              lw.local(name),
              keys.every((x) => x.value.kind === "Field") ? plainRecord(row) : plainOf(lw, row),
            ),
          ]),
          t.returnStatement(lowerExpr(lw, k.value)),
        ]),
      );
    }
    lw.emit(t.variableDeclaration("const", [t.variableDeclarator(key, read)]));
    return key;
  });
  // The rows are an array the query itself built, never the program's list, so sorting them in place is unobservable.
  const rows = lw.temp("rows");
  lw.emit(t.variableDeclaration("const", [t.variableDeclarator(rows, source)]));
  const charge = chargeStatement(
    lw,
    keySteps(keys),
    keys[0]?.value.span,
    t.memberExpression(rows, t.identifier("length")),
  );
  if (charge) lw.emit(charge);
  const comparator = comparatorCode(lw, keys, (index, row) => t.callExpression(keyFunctions[index]!, [row]));
  return t.callExpression(t.memberExpression(rows, t.identifier("sort")), [comparator]);
}

function keySteps(keys: { value: CExpr }[]): number {
  return keys.reduce((n, k) => n + exprSteps(k.value), 0);
}

/**
 * `($a, $b) => cmp(key0 of $a, key0 of $b) || ...`, each key read by `read`, a descending key compared the other way
 * round.
 */
function comparatorCode(
  lw: Lowerer,
  keys: { value: CExpr; descending: boolean }[],
  read: (index: number, row: t.Identifier) => t.Expression,
): t.Expression {
  const a = t.identifier("$a");
  const b = t.identifier("$b");
  const comparisons = keys.map((k, index) => {
    const [x, y] = k.descending ? [b, a] : [a, b];
    return compareCode(lw, k.value, read(index, x), read(index, y));
  });
  const [first, ...rest] = comparisons;
  return t.arrowFunctionExpression(
    [a, b],
    rest.reduce<t.Expression>((acc, c) => t.logicalExpression("||", acc, c), first!),
  );
}

/** `o`, `o.amount`, `o.customer.name`: fields of the row, which cannot fail. */
function isFieldPathOf(e: CExpr, name: Local): boolean {
  if (e.kind === "Local") return e.local === name;
  return e.kind === "Field" && isFieldPathOf(e.object, name);
}

/**
 * A comparison of two keys: the engine's `<` for primitives (whose order it is), the runtime's `compare` for the rest.
 */
function compareCode(lw: Lowerer, key: CExpr, left: t.Expression, right: t.Expression): t.Expression {
  const less = lw.guarded ? t.callExpression(lw.g("lt"), [left, right]) : t.binaryExpression("<", left, right);
  const more = lw.guarded ? t.callExpression(lw.g("gt"), [left, right]) : t.binaryExpression(">", left, right);
  return isPrimitive(key.type)
    ? t.conditionalExpression(
        less,
        t.numericLiteral(-1),
        t.conditionalExpression(more, t.numericLiteral(1), t.numericLiteral(0)),
      )
    : t.callExpression(lw.guarded ? lw.g("compare") : lw.rt("compare"), [left, right]);
}

/** Which row positions hold the latest `from`'s bound names (its item, for groups). */
function lastFromIndex(clauses: Extract<CExpr, { kind: "Query" }>["clauses"], names: Local[]): number[] {
  for (let i = clauses.length - 1; i >= 0; i--) {
    const c = clauses[i]!;
    if (c.kind === "From") {
      const locals: Local[] = [];
      collectLocals(c.pattern, locals);
      const idx = locals.map((l) => names.indexOf(l)).filter((j) => j >= 0);
      return idx.length === 0 ? [0] : idx;
    }
  }
  return [0];
}

/** The select of one row, pushed onto the result. */
function selectInto(lw: Lowerer, e: Extract<CExpr, { kind: "Query" }>, result: t.Identifier): void {
  const charge = chargeStatement(lw, exprSteps(e.select), e.select.span);
  if (charge) lw.emit(charge);
  const value = lowerExpr(lw, e.select);
  // A join can make more rows than a list may hold: each row is counted as it is added.
  lw.emit(t.expressionStatement(t.callExpression(lw.rt("pushRow"), [result, value])));
}

/** The select over gathered rows: a loop, or tasks when `concurrently`. */
function lowerSelect(
  lw: Lowerer,
  e: Extract<CExpr, { kind: "Query" }>,
  rows: t.Identifier,
  names: Local[],
  result: t.Identifier,
): void {
  const row = lw.temp("row");
  if (e.concurrently !== undefined && lw.async) {
    const body = lw.collect(() => {
      // A task starts when another has finished: at that task's depth, not this function's.
      for (const back of depthBack(lw)) lw.emit(back);
      for (const s of unpackRow(lw, row, names)) lw.emit(s);
      const charge = chargeStatement(lw, exprSteps(e.select), e.select.span);
      if (charge) lw.emit(charge);
      lw.emit(t.returnStatement(lowerExpr(lw, e.select)));
    });
    const limit = t.numericLiteral(e.concurrently.limit ?? 1_000_000);
    lw.emit(
      t.variableDeclaration("let", [
        t.variableDeclarator(
          result,
          awaited(
            lw,
            t.callExpression(lw.rt("mapConcurrent"), [
              rows,
              limit,
              t.arrowFunctionExpression([row], t.blockStatement(body), true),
            ]),
          ),
        ),
      ]),
    );
    return;
  }
  const body = lw.collect(() => {
    for (const s of unpackRow(lw, row, names)) lw.emit(s);
    selectInto(lw, e, result);
  });
  lw.emit(t.variableDeclaration("let", [t.variableDeclarator(result, t.arrayExpression([]))]));
  lw.emit(t.forOfStatement(t.variableDeclaration("const", [t.variableDeclarator(row)]), rows, t.blockStatement(body)));
}
