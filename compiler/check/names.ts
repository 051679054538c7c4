// The names of a module as the checker resolved them: every identifier that
// names something, with the span of the identifier alone and what it names.
// Recorded only when the caller asks (an editor, for hover, definitions,
// references and rename); a compilation that does not ask pays one test of
// an absent sink per name. Nothing of the syntax or checked tree is changed.

import type { Span } from "../source.js";
import type * as S from "../parse/tree.js";
import type { Type, TypeDecl } from "./types.js";

/**
 * What a name names. Definitions of the program carry the file that declares
 * them (module names are relative to the entry's folder, files are not), so
 * that the same definition has the same target in every program it is part of.
 * A local is known by where it is declared: its id is counted per program.
 */
export type NameTarget =
  | {
      readonly kind: "local";
      readonly id: number;
      readonly name: string;
      readonly declSpan: Span;
      readonly mutable: boolean;
      /** A parameter of a function, a function value or a lambda. */
      readonly parameter?: true;
      /** Its type, as the checker has it (a parameter named by a call's label has none here). */
      readonly type?: Type;
    }
  | { readonly kind: "function"; readonly file: string; readonly module: string; readonly name: string }
  | {
      readonly kind: "type";
      readonly file: string;
      readonly module: string;
      readonly name: string;
      readonly library: boolean;
    }
  | {
      readonly kind: "field";
      readonly file: string;
      readonly module: string;
      readonly type: string;
      /** The case whose field it is, for a variant's case. */
      readonly case?: string;
      readonly field: string;
      readonly library: boolean;
    }
  | {
      readonly kind: "case";
      readonly file: string;
      readonly module: string;
      readonly type: string;
      readonly case: string;
      readonly library: boolean;
    }
  /** A module of the program, named by a `use` line or by its alias. */
  | { readonly kind: "module"; readonly file: string; readonly module: string }
  /** A module of the library (`name` absent) or one of its functions. */
  | { readonly kind: "library"; readonly module: string; readonly name?: string }
  /** A capability of a `needs` line, to the part named: `network` in `network.http` is `["network"]`. */
  | { readonly kind: "capability"; readonly path: readonly string[]; readonly scope?: string | number };

export interface NameUse {
  readonly span: Span;
  readonly target: NameTarget;
  /** Where the name is declared (a parameter, a `let`, a function's or a type's name...), not used. */
  readonly declaration?: true;
}

/** Where names are recorded while checking: absent unless asked for. */
export type NameSink = NameUse[] | undefined;

export function record(sink: NameSink, span: Span, target: NameTarget, declaration = false): void {
  if (sink === undefined) return;
  sink.push(declaration ? { span, target, declaration: true } : { span, target });
}

const BUILTIN_FILE = "<builtin>";

/** A function's signature, as far as its name's target needs it (scope.ts's FunctionSig). */
interface Named {
  readonly module: string;
  readonly name: string;
  readonly library: boolean;
  readonly span?: Span;
  readonly syntax?: S.FunctionDef;
}

/** The target of a local's name where it is used: its id, its declaration and its type. */
export function localTarget(local: {
  readonly id: number;
  readonly name: string;
  readonly span: Span;
  readonly mutable: boolean;
  readonly type: Type;
}): NameTarget {
  return {
    kind: "local",
    id: local.id,
    name: local.name,
    declSpan: local.span,
    mutable: local.mutable,
    type: local.type,
  };
}

/** The target of a function's name: the program's, or the library's. */
export function functionTarget(sig: Named): NameTarget {
  if (sig.library) return { kind: "library", module: sig.module, name: sig.name };
  return { kind: "function", file: sig.span?.file ?? "", module: sig.module, name: sig.name };
}

function isLibraryDecl(decl: TypeDecl): boolean {
  return decl.span === undefined || decl.span.file.startsWith("<library>/");
}

export function typeTarget(decl: TypeDecl): NameTarget {
  return {
    kind: "type",
    file: decl.span?.file ?? BUILTIN_FILE,
    module: decl.module,
    name: decl.name,
    library: isLibraryDecl(decl),
  };
}

/** A type without a declaration: `Int`, `List`, an alias of the library. */
export function builtinTypeTarget(name: string): NameTarget {
  return { kind: "type", file: BUILTIN_FILE, module: "", name, library: true };
}

export function caseTarget(decl: TypeDecl, caseName: string): NameTarget {
  return {
    kind: "case",
    file: decl.span?.file ?? BUILTIN_FILE,
    module: decl.module,
    type: decl.name,
    case: caseName,
    library: isLibraryDecl(decl),
  };
}

export function fieldTarget(decl: TypeDecl, field: string, caseName?: string): NameTarget {
  return {
    kind: "field",
    file: decl.span?.file ?? BUILTIN_FILE,
    module: decl.module,
    type: decl.name,
    ...(caseName === undefined ? {} : { case: caseName }),
    field,
    library: isLibraryDecl(decl),
  };
}

/** The target of a parameter of a function of the program, named by a call's label. */
export function parameterTarget(sig: Named, name: string): NameTarget | undefined {
  const param = sig.syntax?.params.find((p) => p.name.name === name);
  if (param === undefined || sig.library) return undefined;
  return { kind: "local", id: -1, name, declSpan: param.name.span, mutable: false, parameter: true };
}
