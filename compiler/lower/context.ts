// The state of lowering one module: where statements go, the temporaries and
// runtime names used, the shapes hoisted to the top, and the positions that
// become source-map mappings.

import * as t from "./js.js";
import type { SourceFile, Span } from "../source.js";
import type { Local } from "../check/checked.js";
import { hoistedName, localName } from "./names.js";
import { PROGRAM_RUNTIME } from "./runtime-names.js";
import { borrowKey, type Borrows } from "../borrow/index.js";

export class Lowerer {
  /** Where lowered statements go; expressions that need statements put them here first. */
  sink: t.Statement[] = [];
  private temps = 0;
  /** Runtime exports this module uses (imported as `$name`). */
  readonly runtime = new Set<string>();
  /** Module-level constants (shapes, prelude classes), in order of first use. */
  readonly hoisted = new Map<string, t.Statement>();
  private readonly hoistedNames = new Map<string, string>();
  /** Names of `var` locals whose list, map or set only they can see (`name$own` tracks it). */
  readonly owned = new Set<number>();
  /**
   * The loops emitted in the function being lowered, each after the loops inside
   * it (a loop's body is lowered first): what may keep its fuel in a local
   * (fuel-regions.ts). Every loop is emitted through `emit`.
   */
  loops: (t.ForStatement | t.WhileStatement | t.ForOfStatement)[] = [];
  /** The identifier of the failure being handled by the innermost `otherwise` arms. */
  handling: t.Identifier | undefined;
  /** Whether the function being lowered is async (effectful). */
  async = false;
  /** The grant in force where code is being lowered (the innermost effectful function's), if any. */
  grant: t.Identifier | undefined;
  /**
   * The shapes the function being lowered takes for its type parameters, by the
   * parameter's id: a generic function takes one hidden parameter a type parameter
   * (`$type0`, ...), after the grant and before its own.
   */
  readonly typeShapes = new Map<number, t.Identifier>();
  /**
   * In an async function (or lambda), the constant holding the depth it runs at:
   * every point where it resumes (after an `await`, in a `catch`, at the start of a
   * concurrent task) sets the depth back to it, since other tasks ran in between.
   */
  depth: t.Identifier | undefined;
  /**
   * In a synchronous function that counts its depth with no `finally`: its `return`s
   * give the depth back (`return $leave(VALUE)`), and its end does (functions.ts).
   */
  leavesDepth = false;
  /**
   * With guards, the local holding the context the code runs under (the origins of
   * the decisions it is inside; compiler/lower/decisions.ts). Undefined at a module's
   * top level and without guards.
   */
  cx: t.Identifier | undefined;
  /** With guards, the constant holding the context the function was called in (see `cx`). */
  cxEntry: t.Identifier | undefined;

  constructor(
    readonly module: string,
    readonly source: SourceFile,
    /** Compile the narrated variant (`--explain`, narration.ts); false for every other compile. */
    readonly narrate = false,
    /**
     * Emit the fuel checks and no other limit's (no call depth, no text size):
     * only for bench/limits.ts, which measures what the other limits cost.
     */
    readonly onlyFuel = false,
    /**
     * A guard is declared (`only to`, on main's needs or a test's): values may carry
     * origins, and the operators go through the runtime's origin operators
     * (`$origins.iadd`, rtlib/origin-ops.ts). False for every program without a guard,
     * which then compiles to the plain operators and pays nothing for guards.
     */
    readonly guarded = false,
    /** The parameters of the program's functions that only borrow their argument (compiler/borrow). */
    readonly borrows: Borrows = new Set(),
    /** Charge every step to the shared counters, loops too (BundleOptions.sharedFuel). */
    readonly sharedFuel = false,
  ) {}

  /**
   * Whether parameter `index` of a function of the program only borrows its argument: a `var` passed to it stays its
   * value's only owner.
   */
  readonly borrowsParameter = (module: string, name: string, index: number): boolean =>
    this.borrows.has(borrowKey(module, name, index));

  /**
   * An origin operator (only in a program with guards), as a module-level constant
   * (`const m$$origins_iadd = $origins.iadd`): a call through the runtime's object
   * of operators on every use measured 10 to 15% slower on a recursion.
   */
  g(name: string): t.Identifier {
    return this.hoist(`origins.${name}`, `origins_${name}`, (id) =>
      t.variableDeclaration("const", [
        t.variableDeclarator(id, t.memberExpression(this.rt("origins"), t.identifier(name))),
      ]),
    );
  }

  /** Gives a node the position of a Renyi span, so the source map points into the .ry file. */
  at<T extends t.Node>(node: T, span: Span | undefined): T {
    if (span === undefined || node.loc != null) return node;
    const start = this.source.position(span.start);
    const end = this.source.position(span.end);
    node.loc = {
      start: { line: start.line, column: start.column - 1, index: span.start },
      end: { line: end.line, column: end.column - 1, index: span.end },
      filename: this.source.path,
      identifierName: undefined,
    };
    return node;
  }

  /** Sets the position on a statement, as `at` does: a statement and what it holds map to one place. */
  atDeep<T extends t.Node>(node: T, span: Span): T {
    return this.at(node, span);
  }

  rt(name: string): t.Identifier {
    if (!PROGRAM_RUNTIME.has(name)) throw new Error(`internal: compiled code may not import the runtime's \`${name}\``);
    this.runtime.add(name);
    return t.identifier(`$${name}`);
  }

  /** `$module.name` of a library module. */
  lib(module: string, name: string): t.MemberExpression {
    return t.memberExpression(this.rt(module), t.identifier(name));
  }

  temp(prefix = "t"): t.Identifier {
    return t.identifier(`$${prefix}${++this.temps}`);
  }

  emit(statement: t.Statement): void {
    this.sink.push(statement);
    if (t.isLoop(statement)) this.loops.push(statement);
  }

  /**
   * Runs `lower` for code that goes into a plain (not async) function inside the
   * current one, such as a query's sort and group keys: it may not `await`.
   */
  synchronous<T>(lower: () => T): T {
    const saved = this.async;
    this.async = false;
    try {
      return lower();
    } finally {
      this.async = saved;
    }
  }

  /** Runs `lower` with statements going into a new list, which it returns. */
  collect(lower: () => void): t.Statement[] {
    const saved = this.sink;
    const out: t.Statement[] = [];
    this.sink = out;
    try {
      lower();
    } finally {
      this.sink = saved;
    }
    return out;
  }

  /**
   * A module-level constant, one per `identity` (what makes two constants the same thing):
   * named after `readable` (letters, digits and single `_`), with `__2`, `__3`... when two
   * identities read alike (two modules' types of one name).
   */
  hoist(identity: string, readable: string, make: (name: t.Identifier) => t.Statement): t.Identifier {
    const known = this.hoistedNames.get(identity);
    if (known !== undefined) return t.identifier(known);
    let key = readable;
    for (let n = 2; this.hoisted.has(hoistedName(key, this.module)); n++) key = `${readable}__${n}`;
    const name = t.identifier(hoistedName(key, this.module));
    this.hoistedNames.set(identity, name.name);
    this.hoisted.set(name.name, make(name));
    return name;
  }

  local(local: Local): t.Identifier {
    return t.identifier(localName(local.name));
  }

  ownFlag(local: Local): t.Identifier {
    return t.identifier(`${localName(local.name)}$own`);
  }
}
