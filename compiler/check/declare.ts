// The first pass of the checker: every module's types and function signatures,
// before any body is checked, so that definitions may refer to each other in
// any order and across modules. The library is declared the same way, from its
// Renyi text (library.ts).

import { diagnose } from "../diagnose.js";
import type { Diagnostic } from "../diagnostics.js";
import { importsOf } from "../frontend.js";
import { lex } from "../lex/lexer.js";
import { KEYWORD_SET } from "../lex/tokens.js";
import { parse } from "../parse/parser.js";
import type * as S from "../parse/tree.js";
import { parseType } from "../parse/types.js";
import { Cursor } from "../parse/cursor.js";
import { checkNeeds } from "./grants.js";
import { builtinTypeTarget, caseTarget, fieldTarget, record, typeTarget, type NameUse } from "./names.js";
import { ALIASES, MODULES, PRELUDE } from "./library.js";
import { closest, type FunctionSig, type ModuleScope, type Program, type SigParam } from "./scope.js";
import { replacing, suggest } from "./suggest.js";
import {
  asLibrary,
  BUILTIN_ARITY,
  builtin,
  declared,
  ERROR,
  freshParam,
  NOTHING,
  pairOf,
  type FieldInfo,
  type Need,
  type Param,
  type Type,
  type TypeDecl,
} from "./types.js";

export interface SourceModule {
  /** The module's identity: its path from the entry's folder, without `.ry` (`lib/weather`). */
  readonly name: string;
  readonly file: string;
  readonly syntax: S.Module;
}

export const PRELUDE_NAME = "prelude";

/** `names`: where the names of the program's modules are recorded, when the caller asks for them. */
export function declareProgram(sources: readonly SourceModule[], entry: string, names?: NameUse[]): Program {
  const diagnostics: Diagnostic[] = [];
  const { prelude, library } = libraryScopes();
  const modules = new Map<string, ModuleScope>();
  for (const source of sources) {
    modules.set(source.name, newScope(source.name, source.file, false, source.syntax));
  }
  const program: Program = { prelude, library, modules, diagnostics, ...(names ? { names } : {}) };
  for (const source of sources) declareTypes(program, modules.get(source.name)!, diagnostics);
  for (const source of sources) declareImports(program, source, modules.get(source.name)!, diagnostics);
  for (const source of sources) completeTypes(program, modules.get(source.name)!, diagnostics);
  for (const source of sources)
    declareFunctions(program, modules.get(source.name)!, source.name === entry, diagnostics);
  return program;
}

function newScope(name: string, file: string, isLibrary: boolean, syntax?: S.Module): ModuleScope {
  return {
    name,
    file,
    library: isLibrary,
    types: new Map(),
    functions: new Map(),
    imports: new Map(),
    ...(syntax ? { syntax } : {}),
  };
}

// ---- the library, declared once ----

let cached: { prelude: ModuleScope; library: ReadonlyMap<string, ModuleScope> } | undefined;

/**
 * The prelude, declared at once, and the library's modules, each declared when
 * it is first looked up: a program uses a few of the eighteen, and declaring
 * them all was about 20 ms of a first run in cold code. Kept for the process.
 */
export function libraryScopes(): { prelude: ModuleScope; library: ReadonlyMap<string, ModuleScope> } {
  if (cached !== undefined) return cached;
  cached = asLibrary(-1, () => {
    const problems: Diagnostic[] = [];
    const prelude = newScope(
      PRELUDE_NAME,
      `<library>/${PRELUDE_NAME}.ry`,
      true,
      parseLibrary(PRELUDE_NAME, PRELUDE, problems),
    );
    const library = new LibraryModules(prelude);
    declareTypes(library.program, prelude, problems);
    completeTypes(library.program, prelude, problems);
    failOnProblems(problems);
    return { prelude, library };
  });
  return cached;
}

/** The library's modules, in the order they are written (iteration, and each module's range of type-variable ids). */
const LIBRARY_MODULE_NAMES: readonly string[] = Object.keys(MODULES);
/** The same, to ask of (a look-up in the object of modules missed slowly, for every function a program declares). */
const LIBRARY_MODULE_SET: ReadonlySet<string> = new Set(LIBRARY_MODULE_NAMES);

function failOnProblems(problems: readonly Diagnostic[]): void {
  if (problems.length > 0) {
    throw new Error(
      `the standard library does not check: ` +
        `${problems.map((d) => `${d.span.file}: ${d.code} ${d.message}`).join("; ")}`,
    );
  }
}

/**
 * The library's modules by name, each parsed and declared the first time it is asked for; iterating declares them all.
 */
class LibraryModules implements ReadonlyMap<string, ModuleScope> {
  /** The library as a program of its own, which its modules are declared in. */
  readonly program: Program;
  private readonly declared = new Map<string, ModuleScope>();

  constructor(prelude: ModuleScope) {
    this.program = { prelude, library: this, modules: new Map(), diagnostics: [] };
  }

  get size(): number {
    return LIBRARY_MODULE_NAMES.length;
  }

  has(name: string): boolean {
    return LIBRARY_MODULE_SET.has(name);
  }

  get(name: string): ModuleScope | undefined {
    if (!this.has(name)) return undefined;
    let scope = this.declared.get(name);
    if (scope === undefined) {
      // Ids a module's own: 100,000 below the last, far more than a module declares.
      scope = asLibrary(-100_000 * (LIBRARY_MODULE_NAMES.indexOf(name) + 1) - 1, () => {
        const problems: Diagnostic[] = [];
        const declaring = newScope(name, `<library>/${name}.ry`, true, parseLibrary(name, MODULES[name]!, problems));
        declareFunctions(this.program, declaring, false, problems);
        failOnProblems(problems);
        return declaring;
      });
      this.declared.set(name, scope);
    }
    return scope;
  }

  keys(): MapIterator<string> {
    return LIBRARY_MODULE_NAMES[Symbol.iterator]();
  }

  *values(): MapIterator<ModuleScope> {
    for (const name of LIBRARY_MODULE_NAMES) yield this.get(name)!;
  }

  *entries(): MapIterator<[string, ModuleScope]> {
    for (const name of LIBRARY_MODULE_NAMES) yield [name, this.get(name)!];
  }

  [Symbol.iterator](): MapIterator<[string, ModuleScope]> {
    return this.entries();
  }

  forEach(each: (value: ModuleScope, key: string, map: ReadonlyMap<string, ModuleScope>) => void): void {
    for (const [name, scope] of this.entries()) each(scope, name, this);
  }
}

function parseLibrary(name: string, text: string, problems: Diagnostic[]): S.Module {
  const file = `<library>/${name}.ry`;
  const lexed = lex(file, text);
  const parsed = parse(file, lexed.tokens, lexed.diagnostics);
  problems.push(...lexed.diagnostics, ...parsed.diagnostics);
  return parsed.module;
}

// ---- types ----

function declareTypes(program: Program, scope: ModuleScope, diagnostics: Diagnostic[]): void {
  for (const item of scope.syntax?.items ?? []) {
    if (item.kind !== "TypeDef") continue;
    const name = item.name.name;
    if (scope.types.has(name) || (!scope.library && isLibraryTypeName(program, name))) {
      diagnostics.push(
        diagnose("E-NAME-DUPLICATE", item.name.span, { problem: "type", name, library: !scope.types.has(name) }),
      );
      continue;
    }
    const params = item.typeParams.map((p) => freshParam(p.name));
    const decl: TypeDecl = {
      name,
      module: scope.name,
      params,
      shape: item.body.kind === "RecordBody" ? "record" : "variant",
      fields: [],
      cases: [],
      public: item.public || scope.library,
      ...(item.purpose ? { purpose: item.purpose.text } : {}),
      span: item.name.span,
    };
    scope.types.set(name, decl);
    record(program.names, item.name.span, typeTarget(decl), true);
  }
}

function isLibraryTypeName(program: Program, name: string): boolean {
  return BUILTIN_ARITY.has(name) || ALIASES.has(name) || program.prelude.types.has(name);
}

function declareImports(program: Program, source: SourceModule, scope: ModuleScope, diagnostics: Diagnostic[]): void {
  const targets = importsOf(source);
  source.syntax.items
    .filter((item): item is S.Use => item.kind === "Use")
    .forEach((use, i) => {
      const target = program.modules.get(targets[i]!.name);
      const asName = (use.alias ?? use.path[use.path.length - 1]!).name;
      if (target === undefined) {
        diagnostics.push(
          diagnose("E-NAME-MODULE", use.span, {
            problem: "no-file",
            module: use.path.map((p) => p.name).join("."),
            file: targets[i]!.name,
          }),
        );
        return;
      }
      if (target === scope) {
        diagnostics.push(diagnose("E-NAME-MODULE", use.span, { problem: "itself" }));
        return;
      }
      if (scope.imports.has(asName) || program.library.has(asName)) {
        diagnostics.push(
          diagnose("E-NAME-DUPLICATE", (use.alias ?? use.path[use.path.length - 1]!).span, {
            problem: "use",
            name: asName,
            path: use.path.map((p) => p.name).join("."),
            takenBy: program.library.has(asName) ? "library" : "use",
          }),
        );
        return;
      }
      scope.imports.set(asName, target);
      const named = { kind: "module", file: target.file, module: target.name } as const;
      record(program.names, use.path[use.path.length - 1]!.span, named);
      if (use.alias !== undefined) record(program.names, use.alias.span, named, true);
    });
}

function completeTypes(program: Program, scope: ModuleScope, diagnostics: Diagnostic[]): void {
  for (const item of scope.syntax?.items ?? []) {
    if (item.kind !== "TypeDef") continue;
    const decl = scope.types.get(item.name.name);
    if (decl === undefined || decl.span !== item.name.span) continue;
    const params = new Map<string, Type>(decl.params.map((p) => [p.name, p]));
    const fieldsOf = (fields: readonly S.FieldDecl[], caseName?: string): FieldInfo[] => {
      const seen = new Set<string>();
      const out: FieldInfo[] = [];
      for (const field of fields) {
        if (seen.has(field.name.name)) {
          diagnostics.push(diagnose("E-NAME-DUPLICATE", field.name.span, { problem: "field", name: field.name.name }));
          continue;
        }
        seen.add(field.name.name);
        record(program.names, field.name.span, fieldTarget(decl, field.name.name, caseName), true);
        out.push({
          name: field.name.name,
          type: resolveType(program, scope, field.type, params, diagnostics),
          jsonKey: field.jsonKey?.value ?? field.name.name,
        });
      }
      return out;
    };
    if (item.body.kind === "RecordBody") {
      decl.fields = fieldsOf(item.body.fields);
    } else {
      const seen = new Set<string>();
      for (const c of item.body.cases) {
        if (seen.has(c.name.name)) {
          diagnostics.push(diagnose("E-NAME-DUPLICATE", c.name.span, { problem: "case", name: c.name.name }));
          continue;
        }
        seen.add(c.name.name);
        record(program.names, c.name.span, caseTarget(decl, c.name.name), true);
        decl.cases.push({ name: c.name.name, fields: fieldsOf(c.fields, c.name.name) });
      }
    }
  }
}

/** The type a type expression stands for, in `scope`, with `params` the type parameters in scope. */
export function resolveType(
  program: Program,
  scope: ModuleScope,
  syntax: S.TypeExpr,
  params: ReadonlyMap<string, Type>,
  diagnostics: Diagnostic[],
): Type {
  switch (syntax.kind) {
    case "PairType":
      return pairOf(
        resolveType(program, scope, syntax.first, params, diagnostics),
        resolveType(program, scope, syntax.second, params, diagnostics),
      );
    case "FunctionType": {
      const needs = checkNeeds(syntax.needs, "type", diagnostics, program.names).map((g) => g.capability);
      return {
        kind: "Function",
        params: syntax.params.map((p) => resolveType(program, scope, p, params, diagnostics)),
        returns: syntax.returns ? resolveType(program, scope, syntax.returns, params, diagnostics) : NOTHING,
        ...(syntax.fails ? { fails: resolveType(program, scope, syntax.fails, params, diagnostics) } : {}),
        needs,
        // The library's function parameters take any needs (see library.ts).
        ...(scope.library ? { anyNeeds: true } : {}),
      };
    }
    case "NamedType":
      return resolveNamedType(program, scope, syntax, params, diagnostics);
  }
}

function resolveNamedType(
  program: Program,
  scope: ModuleScope,
  syntax: S.NamedType,
  params: ReadonlyMap<string, Type>,
  diagnostics: Diagnostic[],
): Type {
  const args =
    syntax.args.length === 0 ? [] : syntax.args.map((a) => resolveType(program, scope, a, params, diagnostics));
  const written = syntax.path.length === 1 ? syntax.path[0]!.name : syntax.path.map((p) => p.name).join(".");
  const arity = (expected: number, make: () => Type): Type => {
    if (args.length === expected) return make();
    diagnostics.push(diagnose("E-TYPE-ARITY", syntax.span, { type: written, expected, given: args.length }));
    return ERROR;
  };
  if (syntax.path.length === 1) {
    const name = written;
    const param = params.get(name);
    if (param !== undefined) return arity(0, () => param);
    const builtinArity = BUILTIN_ARITY.get(name);
    const alias = ALIASES.get(name);
    if (builtinArity !== undefined || alias !== undefined)
      record(program.names, syntax.path[0]!.span, builtinTypeTarget(name));
    if (builtinArity !== undefined) return arity(builtinArity, () => builtin(name, args));
    if (alias !== undefined) return arity(0, () => resolveAlias(program, alias));
    const decl = scope.types.get(name) ?? program.prelude.types.get(name);
    if (decl !== undefined) record(program.names, syntax.path[0]!.span, typeTarget(decl));
    if (decl !== undefined) return arity(decl.params.length, () => declared(decl, args));
    const candidates = [
      ...params.keys(),
      ...BUILTIN_ARITY.keys(),
      ...ALIASES.keys(),
      ...scope.types.keys(),
      ...program.prelude.types.keys(),
    ];
    const near = suggest(name, candidates);
    diagnostics.push(
      diagnose(
        "E-NAME-UNKNOWN-TYPE",
        syntax.path[0]!.span,
        { name, ...near },
        replacing(syntax.path[0]!.span, name, near.suggestion),
      ),
    );
    return ERROR;
  }
  const [moduleName, typeName] = [
    syntax.path
      .slice(0, -1)
      .map((p) => p.name)
      .join("."),
    syntax.path[syntax.path.length - 1]!.name,
  ];
  const target = scope.imports.get(moduleName);
  if (target === undefined) {
    diagnostics.push(diagnose("E-NAME-MODULE", syntax.path[0]!.span, { problem: "not-used", module: moduleName }));
    return ERROR;
  }
  if (syntax.path.length === 2)
    record(program.names, syntax.path[0]!.span, { kind: "module", file: target.file, module: target.name });
  const decl = target.types.get(typeName);
  if (decl === undefined || !decl.public) {
    const span = syntax.path[syntax.path.length - 1]!.span;
    if (decl !== undefined) {
      diagnostics.push(diagnose("E-NAME-PRIVATE", span, { kind: "type", name: typeName, module: moduleName }));
    } else {
      const near = suggest(typeName, [...target.types.keys()]);
      diagnostics.push(
        diagnose(
          "E-NAME-UNKNOWN-TYPE",
          span,
          { name: typeName, module: moduleName, ...near },
          replacing(span, typeName, near.suggestion),
        ),
      );
    }
    return ERROR;
  }
  record(program.names, syntax.path[syntax.path.length - 1]!.span, typeTarget(decl));
  return arity(decl.params.length, () => declared(decl, args));
}

const aliasCache = new Map<string, Type>();

function resolveAlias(program: Program, text: string): Type {
  const known = aliasCache.get(text);
  if (known !== undefined) return known;
  const lexed = lex("<alias>", text);
  const syntax = parseType(new Cursor("<alias>", lexed.tokens));
  const type = resolveType(program, program.prelude, syntax, new Map(), []);
  aliasCache.set(text, type);
  return type;
}

// ---- functions ----

function declareFunctions(program: Program, scope: ModuleScope, isEntry: boolean, diagnostics: Diagnostic[]): void {
  for (const item of scope.syntax?.items ?? []) {
    if (item.kind !== "FunctionDef") continue;
    const name = item.name.name;
    if (!scope.library && KEYWORD_SET.has(name)) {
      diagnostics.push(diagnose("E-NAME-KEYWORD", item.name.span, { name, what: "function" }));
      continue;
    }
    if (scope.functions.has(name)) {
      diagnostics.push(diagnose("E-NAME-DUPLICATE", item.name.span, { problem: "function", name }));
      continue;
    }
    if (!scope.library && (program.library.has(name) || scope.imports.has(name))) {
      diagnostics.push(diagnose("E-NAME-DUPLICATE", item.name.span, { problem: "module-name", name }));
      continue;
    }
    scope.functions.set(name, declareSignature(program, scope, item, isEntry && name === "main", diagnostics));
  }
}

export function declareSignature(
  program: Program,
  scope: ModuleScope,
  item: S.FunctionDef,
  isMain: boolean,
  diagnostics: Diagnostic[],
): FunctionSig {
  const typeParams: Param[] = item.typeParams.map((p) => freshParam(p.name));
  const params = new Map<string, Type>(typeParams.map((p) => [p.name, p]));
  const seen = new Set<string>();
  const sigParams: SigParam[] = [];
  for (const param of item.params) {
    if (seen.has(param.name.name)) {
      diagnostics.push(diagnose("E-NAME-DUPLICATE", param.name.span, { problem: "parameter", name: param.name.name }));
    }
    seen.add(param.name.name);
    if (!scope.library && KEYWORD_SET.has(param.name.name)) {
      diagnostics.push(diagnose("E-NAME-KEYWORD", param.name.span, { name: param.name.name, what: "parameter" }));
    }
    const type = resolveType(program, scope, param.type, params, diagnostics);
    const typeArgument = scope.library && param.name.name === "as" && type.kind === "Param";
    sigParams.push({ name: param.name.name, type, ...(param.default ? { default: param.default } : {}), typeArgument });
  }
  const grant = checkNeeds(item.needs, isMain ? "entry" : "function", diagnostics, program.names);
  const needs: Need[] = grant.map((g) => g.capability);
  return {
    module: scope.name,
    name: item.name.name,
    public: item.public || scope.library,
    library: scope.library,
    typeParams,
    params: sigParams,
    returns: item.returns ? resolveType(program, scope, item.returns, params, diagnostics) : NOTHING,
    ...(item.fails ? { fails: resolveType(program, scope, item.fails, params, diagnostics) } : {}),
    grant,
    needs,
    ...(item.purpose ? { purpose: item.purpose.text } : {}),
    span: item.name.span,
    syntax: item,
  };
}

export { closest };

export { importsOf };
