// What the checker knows about the program's definitions: each module's types
// and function signatures, and which modules each module has brought in.

import type { Diagnostic } from "../diagnostics.js";
import type * as S from "../parse/tree.js";
import type { Span } from "../source.js";
import type { CheckedGrantItem } from "./checked.js";
import type { NameUse } from "./names.js";
import type { Need, Param, Type, TypeDecl } from "./types.js";

export interface SigParam {
  readonly name: string;
  readonly type: Type;
  readonly default?: S.Expr;
  /** `as: T` in the library: the argument is a type that fixes `T`. */
  readonly typeArgument: boolean;
}

export interface FunctionSig {
  readonly module: string;
  readonly name: string;
  readonly public: boolean;
  readonly library: boolean;
  readonly typeParams: readonly Param[];
  readonly params: readonly SigParam[];
  readonly returns: Type;
  readonly fails?: Type;
  /** The grant items of its `needs` line, checked. */
  readonly grant: readonly CheckedGrantItem[];
  readonly needs: readonly Need[];
  readonly purpose?: string;
  readonly span?: Span;
  readonly syntax?: S.FunctionDef;
}

export interface ModuleScope {
  readonly name: string;
  readonly file: string;
  readonly library: boolean;
  readonly types: Map<string, TypeDecl>;
  readonly functions: Map<string, FunctionSig>;
  /** Modules brought in by `use`, under the name they are used by. */
  readonly imports: Map<string, ModuleScope>;
  readonly syntax?: S.Module;
}

export interface Program {
  readonly prelude: ModuleScope;
  readonly library: ReadonlyMap<string, ModuleScope>;
  readonly modules: ReadonlyMap<string, ModuleScope>;
  readonly diagnostics: Diagnostic[];
  /** Where the names of the program's modules are recorded, when the caller asks for them (names.ts). */
  readonly names?: NameUse[];
}

/** The closest of `candidates` to `name`, for "did you mean" hints. */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = distance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return 99;
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
