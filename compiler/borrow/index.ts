// Which parameters of the program's functions only borrow their argument
// (spec/runtime.md, "Value semantics without copying"). A `var` that owns its
// list, map or set changes it in place; passing it to a function used to give
// that ownership away, since the function might keep the value, and the next
// `set v to v + [x]` then copied the whole list: quadratic in a loop. A
// parameter that the function only looks at (its length, an item, a loop over
// it, a comparison, text made from it, or passing it on to another borrowing
// parameter) never outlives the call, so the caller keeps ownership.
//
// The analysis is over the whole program, the least fixed point of "does not
// escape": every candidate starts borrowed, and each round removes those whose
// function lets the value escape (returns it, stores it, binds it to another
// name, captures it in a function value, passes it to a function that keeps it
// or to a function value), until nothing changes. Recursion is thereby
// covered. Anything not recognised as looking counts as escaping.

import type { CBlock, CExpr, CFunction, CStatement, Local, Program } from "../check/checked.js";
import { resolve, type Type } from "../check/types.js";
import { holdsInPlace, lookingChildren, fieldHoldsInPlace, recordHoldsInPlace } from "./looking.js";
import { forEachChild, forEachStatementChild } from "./walk.js";

export {
  changesVar,
  holdsInPlace,
  lookingChildren,
  fieldHoldsInPlace,
  libraryMakesNew,
  mayHoldInPlace,
  recordHoldsInPlace,
} from "./looking.js";

/** The borrowing parameters, as `module.function#index`. */
export type Borrows = ReadonlySet<string>;

export const borrowKey = (module: string, name: string, index: number): string => `${module}.${name}#${index}`;

export function borrowedParameters(program: Program): Borrows {
  const borrowed = new Set<string>();
  const functions: CFunction[] = program.modules.flatMap((m) => m.functions);
  for (const f of functions)
    f.params.forEach((p, i) => {
      if (candidate(p.local.type)) borrowed.add(borrowKey(f.module, f.name, i));
    });
  for (let changed = true; changed; ) {
    changed = false;
    for (const f of functions) {
      const watched = new Map<number, string>();
      f.params.forEach((p, i) => {
        const key = borrowKey(f.module, f.name, i);
        if (borrowed.has(key)) watched.set(p.local.id, key);
      });
      if (watched.size === 0) continue;
      for (const key of escaping(f.body, watched, borrowed)) {
        borrowed.delete(key);
        changed = true;
      }
    }
  }
  return borrowed;
}

/** A parameter worth following: a list, map or set, or a record that holds one in a field. */
function candidate(type: Type): boolean {
  const r = resolve(type);
  return holdsInPlace(r) || recordHoldsInPlace(r);
}

/** The keys of the watched parameters that escape in the body. */
function escaping(body: CBlock, watched: ReadonlyMap<number, string>, borrowed: Borrows): Set<string> {
  const escaped = new Set<string>();
  const expr = (e: CExpr | undefined, looking: boolean, inFunction: boolean): void => {
    if (e === undefined) return;
    switch (e.kind) {
      case "Local": {
        const key = watched.get(e.local.id);
        // A function value may be kept and called after the call returns: what it captures escapes.
        if (key !== undefined && (!looking || inFunction)) escaped.add(key);
        return;
      }
      case "Field":
        // A field that holds no list, map or set is a copy of a plain value: reading it only looks.
        return expr(e.object, !fieldHoldsInPlace(e) || looking, inFunction);
      case "Lambda":
        return block(e.body, true);
      default: {
        const looks = lookingChildren(e, (module, name, index) => borrowed.has(borrowKey(module, name, index)));
        forEachChild(
          e,
          (child) => expr(child, looks.has(child), inFunction),
          (b) => block(b, inFunction),
          (s) => statement(s, inFunction),
        );
      }
    }
  };
  const statement = (s: CStatement, inFunction: boolean): void => {
    switch (s.kind) {
      case "ForEach":
        // A loop over a parameter looks at it: a parameter is never changed while the loop runs.
        expr(s.iterable, true, inFunction);
        return block(s.body, inFunction);
      case "Crash":
      case "Check":
        return expr(s.kind === "Crash" ? s.message : s.condition, true, inFunction);
      default:
        forEachStatementChild(
          s,
          (child) => expr(child, false, inFunction),
          (b) => block(b, inFunction),
          (inner) => statement(inner, inFunction),
        );
    }
  };
  const block = (b: CBlock, inFunction: boolean): void => {
    for (const s of b.statements) statement(s, inFunction);
  };
  block(body, false);
  return escaped;
}

/**
 * Every read of a local in the expression, with the expression it is a direct
 * child of (undefined when the expression is the local itself, or when the
 * local is read in a statement, as in a block of a `match` arm).
 */
export function forEachLocalRead(root: CExpr, visit: (local: Local, parent: CExpr | undefined) => void): void {
  const expr = (e: CExpr, parent: CExpr | undefined): void => {
    if (e.kind === "Local") return visit(e.local, parent);
    forEachChild(e, (child) => expr(child, e), block, statement);
  };
  const statement = (s: CStatement): void =>
    forEachStatementChild(s, (child) => expr(child, undefined), block, statement);
  const block = (b: CBlock): void => b.statements.forEach(statement);
  expr(root, undefined);
}
