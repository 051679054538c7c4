// The state of checking one definition: the scopes of locals, the frame of
// the function (or lambda) being checked, the grant that covers its calls, and
// the failures an `otherwise` is collecting.

import type { CompileCode, CompileFacts } from "../../vocabulary/problems/compile.js";
import type { Owner } from "../../vocabulary/problems/grants.js";
import type { ValuePlace } from "../../vocabulary/problems/types.js";
import { diagnose } from "../diagnose.js";
import type { Diagnostic, Places } from "../diagnostics.js";
import type { Span } from "../source.js";
import type { Local } from "./checked.js";
import type { Ability } from "./abilities.js";
import type { FunctionSig, ModuleScope, Program } from "./scope.js";
import { resolve, typeToText, unify, type Need, type Type } from "./types.js";
import { record } from "./names.js";

/** One function being checked: a named function, a test, a lambda or a function value. */
export interface Frame {
  readonly kind: "function" | "test" | "lambda";
  /** What `return` must give; a lambda's is inferred. */
  readonly returns: Type;
  /** What `fail` may fail with; undefined when it cannot fail. A lambda's is found from its body. */
  fails?: Type;
  /** The frame's own failure type was written out (a lambda's is not). */
  readonly failsDeclared: boolean;
  /** The capabilities calls in this frame may use. */
  readonly grant: readonly Need[];
  /** Whose grant (and failures) it is: a named function, a test, a function value. */
  readonly owner: Owner;
  /** Where a capability can be added to the grant, for the suggested edit of E-CAP-MISSING. */
  readonly needsEdit?: NeedsEdit;
  /** Needs of the calls made in this frame (a lambda's type carries them). */
  readonly needs: Need[];
  loops: number;
  /** Queries being checked around the code: `return`, and `stop` or `skip` of no loop inside them, cannot leave one. */
  queries: number;
  /** The scope depth at which this frame's locals start. */
  readonly scopeBase: number;
}

/**
 * How an editor adds a capability to a frame's `needs`: the text `prefix +
 * capability + suffix` goes in at `at` (an empty span): `, console` after
 * the last item of a `needs` line, or a new `needs console` line.
 */
export interface NeedsEdit {
  readonly at: Span;
  readonly prefix: string;
  readonly suffix: string;
}

/** Collects the fallible calls on the left of an `otherwise`. */
export interface FailureCollector {
  readonly calls: { span: Span; fails: Type }[];
}

/** A use of a derived ability, decided when the definition's types are all known. */
export interface AbilityUse {
  readonly type: Type;
  readonly ability: Ability;
  readonly span: Span;
}

/** A call of (or a reference to) a generic function of the program, with the types its parameters were given. */
export interface Instantiation {
  readonly callee: FunctionSig;
  readonly typeArgs: readonly Type[];
  readonly span: Span;
  /** How the call names the callee: `enc`, `lib.enc`. */
  readonly calleeName: string;
}

/**
 * Work shared by every definition of one program, so that hostile input
 * cannot make checking slow by repeating a costly construct: the steps the
 * exhaustiveness checks of all its matches may still take.
 */
export interface ProgramWork {
  matchSteps: number;
  /** The next id of a local: counted per program, so that ids never leak from one compilation into the next. */
  nextLocal: number;
}

/** Steps one match may take, and all the matches of a program together (see exhaustive.ts). */
export const MATCH_STEPS = 1_000_000;
export const PROGRAM_MATCH_STEPS = 10_000_000;

export function newProgramWork(): ProgramWork {
  return { matchSteps: PROGRAM_MATCH_STEPS, nextLocal: 1 };
}

/**
 * The scope of a block that has declared nothing yet: shared, and replaced by a map of the block's own at its first
 * name (`innermost`). Most blocks declare nothing, and a map for each was a large part of checking's garbage.
 */
const NO_NAMES: ReadonlyMap<string, Local> = new Map();

export class Context {
  readonly scopes: ReadonlyMap<string, Local>[] = [];
  readonly frames: Frame[] = [];
  collector: FailureCollector | undefined;
  /** The failure an `otherwise` with arms is handling, for a bare `fail` in its arms. */
  handling: { failure: Type; span: Span } | undefined;
  /** Inside a `run concurrently` task: the scope depth where the task started. */
  taskBase: number | undefined;
  /** Where the statement being checked ends: a call ending there can take an `otherwise` appended. */
  statementEnd = -1;
  /** Ability uses of this definition, checked at its end (see bounds.ts). */
  readonly abilityUses: AbilityUse[] = [];
  /** Generic functions of the program that this definition instantiates. */
  readonly instantiations: Instantiation[] = [];

  constructor(
    readonly program: Program,
    readonly module: ModuleScope,
    readonly typeParams: ReadonlyMap<string, Type>,
    readonly diagnostics: Diagnostic[],
    readonly work: ProgramWork = newProgramWork(),
  ) {}

  get frame(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  /** The outermost frame: the named function or test whose grant covers everything inside it. */
  get definition(): Frame {
    return this.frames[0]!;
  }

  /** Reports a problem of the catalogue: its code, where, and its facts (warnings too: the code says which). */
  problem<C extends CompileCode>(code: C, span: Span, facts: CompileFacts<C>, places?: Places): void {
    this.diagnostics.push(diagnose(code, span, facts, places));
  }

  // ---- scopes ----

  withScope<T>(read: () => T): T {
    this.scopes.push(NO_NAMES);
    try {
      return read();
    } finally {
      this.scopes.pop();
    }
  }

  withFrame<T>(frame: Omit<Frame, "scopeBase" | "needs" | "loops" | "queries">, read: (frame: Frame) => T): T {
    // Field by field: spreading `frame` (its shape differs by caller) was a slow copy, and a twentieth of checking.
    const full: Frame = {
      kind: frame.kind,
      returns: frame.returns,
      fails: frame.fails,
      failsDeclared: frame.failsDeclared,
      grant: frame.grant,
      owner: frame.owner,
      needsEdit: frame.needsEdit,
      needs: [],
      loops: 0,
      queries: 0,
      scopeBase: this.scopes.length,
    };
    this.frames.push(full);
    const collector = this.collector;
    const handling = this.handling;
    const taskBase = this.taskBase;
    this.collector = undefined;
    this.handling = undefined;
    this.taskBase = undefined;
    this.scopes.push(NO_NAMES);
    try {
      return read(full);
    } finally {
      this.scopes.pop();
      this.frames.pop();
      this.collector = collector;
      this.handling = handling;
      this.taskBase = taskBase;
    }
  }

  /**
   * Declares a local in the innermost scope. Within one function a name is
   * bound once: a local may not shadow another local or parameter of the same
   * function (E-NAME-SHADOWED), so that a reader never has to ask which one is
   * meant. `error`, bound by each `otherwise`, is the exception. `role`: how
   * the name is bound, for the names an editor is told of (`implicit`: it is
   * not written at `span`, as `error` is not).
   */
  declare(
    name: string,
    type: Type,
    mutable: boolean,
    span: Span,
    role: "binding" | "parameter" | "implicit" = "binding",
  ): Local {
    const local: Local = { id: this.work.nextLocal++, name, type, mutable, span };
    if (name === "_") return local;
    // The names of a program are kept only when asked for (an editor's); the target is made only then.
    if (role !== "implicit" && this.program.names !== undefined) {
      const target = { kind: "local", id: local.id, name, declSpan: span, mutable, type } as const;
      record(this.program.names, span, role === "parameter" ? { ...target, parameter: true } : target, true);
    }
    const existing = this.lookupLocal(name);
    if (existing !== undefined && name !== "error") {
      this.problem("E-NAME-SHADOWED", span, { name, where: "function" }, { related: [existing.local.span] });
    }
    this.innermost().set(name, local);
    return local;
  }

  /** The innermost scope, a map of its own. */
  innermost(): Map<string, Local> {
    const last = this.scopes.length - 1;
    let scope = this.scopes[last]!;
    if (scope === NO_NAMES) this.scopes[last] = scope = new Map();
    return scope as Map<string, Local>;
  }

  /** The local `name` and the depth of the scope that holds it. */
  lookupLocal(name: string): { local: Local; depth: number } | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const local = this.scopes[i]!.get(name);
      if (local !== undefined) return { local, depth: i };
    }
    return undefined;
  }

  /** Every local name in scope, for "did you mean" hints. */
  localNames(): string[] {
    return this.scopes.flatMap((s) => [...s.keys()]);
  }

  // ---- types ----

  /** Unifies `actual` with `expected`, reporting E-TYPE-MISMATCH at `span` when they differ. */
  expectType(actual: Type, expected: Type, span: Span, place: ValuePlace): boolean {
    if (unify(actual, expected)) return true;
    const fa = resolve(actual);
    const fe = resolve(expected);
    const failingFunction =
      fa.kind === "Function" && fe.kind === "Function" && fa.fails !== undefined && fe.fails === undefined;
    this.problem("E-TYPE-MISMATCH", span, {
      problem: "expected",
      place,
      expected: typeToText(expected),
      found: typeToText(actual),
      ...(failingFunction ? { failingFunction: true as const } : {}),
    });
    return false;
  }
}
