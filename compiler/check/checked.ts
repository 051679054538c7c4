// The checked tree: what the checker builds from the syntax tree and the code
// generator consumes. Every name is resolved (to a local, a definition of a
// module, a library function or a constructor), every expression carries its
// type, method calls are plain calls, named arguments are in parameter order,
// and every `otherwise` knows the failure it handles and how it wraps it.

import type { Span } from "../source.js";
import type { Budget } from "../../vocabulary/needs.js";
import type { Need, Param, Type, TypeDecl } from "./types.js";
import type { NameUse } from "./names.js";

/** A local: a parameter, a `let`, a `var`, a loop or pattern binding. */
export interface Local {
  readonly id: number;
  readonly name: string;
  readonly type: Type;
  readonly mutable: boolean;
  readonly span: Span;
}

export interface Program {
  readonly modules: CModule[];
  /** The entry module's `main`, when it has one. */
  readonly main?: CFunction;
}

export interface CModule {
  readonly name: string;
  readonly file: string;
  readonly types: TypeDecl[];
  readonly functions: CFunction[];
  readonly tests: CTest[];
  /** Every name of the module and what it names, in the order they were checked, when asked for (names.ts). */
  readonly names?: NameUse[];
}

/**
 * A checked item of a `needs` line: the vocabulary's GrantItem (grantItemOf in
 * grants.ts makes one) with the spans the checker's messages point at.
 */
export interface CheckedGrantItem {
  readonly capability: Need;
  readonly budget?: Budget;
  readonly guard?: { readonly sinks: Need[] };
  readonly span: Span;
}

export interface CFunction {
  readonly module: string;
  readonly name: string;
  readonly public: boolean;
  readonly purpose?: string;
  readonly typeParams: Param[];
  readonly params: CParam[];
  readonly returns: Type;
  readonly fails?: Type;
  readonly needs: CheckedGrantItem[];
  readonly body: CBlock;
  readonly span: Span;
}

interface CParam {
  readonly local: Local;
  readonly default?: CExpr;
}

export interface CTest {
  readonly name: string;
  readonly needs: CheckedGrantItem[];
  readonly replays?: string;
  readonly body: CBlock;
  readonly span: Span;
}

export interface CBlock {
  readonly statements: CStatement[];
}

export type CStatement =
  | { kind: "Let"; pattern: CPattern; value: CExpr; span: Span }
  | { kind: "Var"; local: Local; value: CExpr; span: Span }
  | { kind: "Set"; local: Local; value: CExpr; span: Span }
  | { kind: "If"; branches: { condition: CExpr; body: CBlock }[]; elseBody?: CBlock; span: Span }
  | { kind: "ForEach"; pattern: CPattern; iterable: CExpr; body: CBlock; span: Span }
  | { kind: "While"; condition: CExpr; body: CBlock; span: Span }
  | { kind: "Stop"; span: Span }
  | { kind: "Skip"; span: Span }
  | { kind: "Return"; value?: CExpr; span: Span }
  | { kind: "Fail"; value?: CExpr; wrap?: Wrap; span: Span }
  | { kind: "Crash"; message: CExpr; span: Span }
  | { kind: "Check"; condition: CExpr; span: Span }
  | { kind: "CheckFails"; expr: CExpr; pattern: CPattern; span: Span }
  /** `bound`: every local the tasks bind, in scope after `end`, which the lowering declares before the tasks start. */
  | { kind: "RunConcurrently"; tasks: CStatement[]; bound: Local[]; span: Span }
  | { kind: "Expr"; expr: CExpr; span: Span };

/** How a failure is wrapped when `otherwise fail` passes it into another type. */
export interface Wrap {
  readonly decl: TypeDecl;
  readonly caseName: string;
}

/** What a call calls. */
export type Callee =
  | { kind: "Function"; module: string; name: string }
  | { kind: "Library"; module: string; name: string }
  | { kind: "Value"; expr: CExpr }
  | { kind: "Record"; decl: TypeDecl }
  | { kind: "Case"; decl: TypeDecl; caseName: string }
  | { kind: "Ability"; ability: "to_text" | "to_json" | "from_json"; of: Type };

interface Typed {
  readonly type: Type;
  readonly span: Span;
}

export type CExpr =
  | (Typed & { kind: "Int"; value: number })
  | (Typed & { kind: "Float"; value: number })
  | (Typed & { kind: "Boolean"; value: boolean })
  | (Typed & { kind: "Nothing" })
  | (Typed & { kind: "Text"; parts: (string | CExpr)[] })
  | (Typed & { kind: "Local"; local: Local })
  | (Typed & {
      kind: "FunctionRef";
      module: string;
      name: string;
      library: boolean;
      /** A generic function's type arguments where it is taken as a value (see Call). */
      typeArgs?: Type[];
    })
  | (Typed & { kind: "CaseValue"; decl: TypeDecl; caseName: string })
  | (Typed & {
      kind: "Call";
      callee: Callee;
      /** In parameter order; `undefined` where the parameter's default applies. */
      args: (CExpr | undefined)[];
      /** Names of the arguments the call gave, in parameter order (recordings name them). */
      argNames: string[];
      /** What this call needs; the caller's grant covered them. */
      needs: Need[];
      /** The failure type, when the call can fail. */
      fails?: Type;
      /**
       * A generic function's type arguments, in the order of its type parameters: the
       * function takes their shapes, so that it renders and reads values of them as
       * their types say (a Float through a `T` prints `1.0`).
       */
      typeArgs?: Type[];
    })
  | (Typed & { kind: "Field"; object: CExpr; name: string })
  | (Typed & { kind: "Index"; object: CExpr; index: CExpr })
  | (Typed & { kind: "With"; record: CExpr; decl: TypeDecl; updates: { name: string; value: CExpr }[] })
  | (Typed & { kind: "Unary"; op: "-" | "not"; operand: CExpr })
  | (Typed & { kind: "Binary"; op: string; left: CExpr; right: CExpr; operand: Type })
  | (Typed & { kind: "Otherwise"; expr: CExpr; error: Local; failure: Type; handler: CHandler })
  | (Typed & { kind: "List"; items: CExpr[] })
  | (Typed & { kind: "Map"; entries: { key: CExpr; value: CExpr }[] })
  | (Typed & { kind: "Pair"; first: CExpr; second: CExpr })
  | (Typed & {
      kind: "Lambda";
      params: Local[];
      body: CBlock;
      needs: Need[];
      /** A function value (`function (...) ... end`) declares its needs, and its grant is narrowed to them. */
      declaresNeeds: boolean;
    })
  | (Typed & { kind: "If"; condition: CExpr; then: CExpr; else: CExpr })
  | (Typed & { kind: "Match"; subject: CExpr; arms: CArm[] })
  | (Typed & { kind: "Query"; clauses: CClause[]; select: CExpr; distinct: boolean; concurrently?: { limit?: number } })
  | (Typed & { kind: "TypeValue"; of: Type })
  | (Typed & { kind: "Invalid" });

export type CHandler =
  | { kind: "Fail"; wrap?: Wrap; value?: CExpr }
  | { kind: "Default"; value: CExpr }
  | { kind: "Leave"; statement: CStatement }
  | { kind: "Arms"; arms: CArm[] };

export interface CArm {
  readonly pattern: CPattern;
  readonly body: CBlock;
  /** For arms of a match used as a value: the arm's value, when it gives one. */
  readonly value?: CExpr;
}

export type CClause =
  | { kind: "From"; pattern: CPattern; source: CExpr }
  | { kind: "Where"; condition: CExpr }
  | { kind: "Let"; local: Local; value: CExpr }
  | { kind: "Sort"; keys: { value: CExpr; descending: boolean }[] }
  | { kind: "Group"; key: CExpr; into: Local }
  | { kind: "Take"; count: CExpr }
  | { kind: "Drop"; count: CExpr };

export type CPattern =
  | { kind: "Wildcard"; type: Type }
  | { kind: "Bind"; local: Local }
  | { kind: "Literal"; value: number | string | boolean | null; type: Type }
  | { kind: "Case"; decl: TypeDecl; caseName: string; args: CPattern[]; type: Type }
  | { kind: "Record"; decl: TypeDecl; args: CPattern[]; type: Type }
  | { kind: "Pair"; first: CPattern; second: CPattern; type: Type }
  | { kind: "List"; items: CPattern[]; rest?: CPattern; type: Type };
