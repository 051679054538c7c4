// Types as completion sees them: enough of a value's type to offer its fields,
// its cases and its methods, worked out from the checked tree when the module
// checks and from the syntax tree when it does not (a line half typed). A type
// is its name, its arguments, its text, and where its fields or cases are: a
// checked declaration (the module's own, another's or the prelude's) or a
// `type` definition of a syntax tree, read in the names of its module.

import type { TypeDecl, Type } from "../compiler/check/types.js";
import { BUILTIN_ARITY, resolve, typeToText } from "../compiler/check/types.js";
import { libraryScopes } from "../compiler/check/declare.js";
import { ALIASES } from "../compiler/check/library.js";
import { preludeTypes } from "../compiler/check/library-reference.js";
import type { TypeDef, TypeExpr, Use } from "../compiler/parse/tree.js";
import { fileOfModule, type ModuleView, type Snapshot } from "./analysis.js";

export interface Ty {
  /** `Int`, `List`, `Response`; "" for a function type or one not known by name. */
  readonly name: string;
  readonly args: readonly Ty[];
  readonly text: string;
  readonly decl?: TyDecl;
}

type TyDecl =
  | { readonly kind: "checked"; readonly decl: TypeDecl }
  | { readonly kind: "syntax"; readonly def: TypeDef; readonly names: TypeNames };

export interface TyMember {
  readonly name: string;
  readonly type: Ty;
  /** The line of documentation above it, for the prelude's. */
  readonly doc?: string;
}

export interface TyCase {
  readonly name: string;
  readonly fields: readonly TyMember[];
  readonly doc?: string;
}

/** Where the type names of a module are looked up: its own definitions, its `use` lines, the prelude. */
export interface TypeNames {
  readonly snapshot: Snapshot;
  readonly view: ModuleView;
  /** Type parameters in scope, by name. */
  readonly params: ReadonlyMap<string, Ty>;
}

export const UNKNOWN: Ty = { name: "", args: [], text: "" };

export function named(name: string, args: readonly Ty[] = []): Ty {
  return { name, args, text: args.length === 0 ? name : `${name}<${args.map((a) => a.text).join(", ")}>` };
}

/** A checked type, its type parameters replaced by `subst` (by their ids). */
export function fromType(type: Type, subst: ReadonlyMap<number, Ty> = new Map(), depth = 0): Ty {
  const t = resolve(type);
  if (depth > 8) return UNKNOWN;
  switch (t.kind) {
    case "Con": {
      const args = t.args.map((a) => fromType(a, subst, depth + 1));
      const base = named(t.name, args);
      return t.decl === undefined ? base : { ...base, decl: { kind: "checked", decl: t.decl } };
    }
    case "Param":
      return subst.get(t.id) ?? named(t.name);
    case "Function":
      return { name: "", args: [], text: typeToText(t) };
    default:
      return UNKNOWN;
  }
}

/** The module `view` brings in under `alias` by a `use` line, if the snapshot holds it. */
export function usedModule(snapshot: Snapshot, view: ModuleView, alias: string): ModuleView | undefined {
  const use = view.syntax.items.find((i): i is Use => i.kind === "Use" && useAlias(i) === alias);
  return use === undefined ? undefined : snapshot.modules.get(fileOfModule(view, useModuleName(view, use)));
}

export function useAlias(use: Use): string {
  return use.alias?.name ?? use.path[use.path.length - 1]?.name ?? "";
}

export function useModuleName(view: ModuleView, use: Use): string {
  const folder = view.name.includes("/") ? view.name.slice(0, view.name.lastIndexOf("/") + 1) : "";
  return folder + use.path.map((p) => p.name).join("/");
}

/** A type written in a module's syntax, in that module's names. */
export function fromTypeExpr(type: TypeExpr | undefined, names: TypeNames, depth = 0): Ty {
  if (type === undefined || depth > 8) return UNKNOWN;
  switch (type.kind) {
    case "PairType":
      return named("Pair", [fromTypeExpr(type.first, names, depth + 1), fromTypeExpr(type.second, names, depth + 1)]);
    case "FunctionType":
      return { name: "", args: [], text: names.view.text.slice(type.span.start, type.span.end) };
    case "NamedType": {
      const args = type.args.map((a) => fromTypeExpr(a, names, depth + 1));
      const path = type.path.map((p) => p.name);
      if (path.length === 1) return typeNamed(path[0]!, args, names);
      const other = usedModule(names.snapshot, names.view, path[0]!);
      if (other === undefined || path.length !== 2) return named(path.join("."), args);
      return declaredIn(other, path[1]!, args, names.snapshot) ?? named(path.join("."), args);
    }
  }
}

function typeNamed(name: string, args: readonly Ty[], names: TypeNames): Ty {
  const param = names.params.get(name);
  if (param !== undefined) return param;
  if (BUILTIN_ARITY.has(name)) return named(name, args);
  const alias = ALIASES.get(name);
  if (alias !== undefined) return aliasType(alias);
  return declaredIn(names.view, name, args, names.snapshot) ?? preludeType(name, args) ?? named(name, args);
}

/** `Text`, `Map<Text, Json>`: an alias's text as a type of built-ins. */
function aliasType(text: string): Ty {
  const m = /^(\w+)(?:<(.*)>)?$/.exec(text);
  if (m === null) return named(text);
  return named(m[1]!, m[2] === undefined ? [] : m[2].split(",").map((a) => aliasType(a.trim())));
}

function declaredIn(view: ModuleView, name: string, args: readonly Ty[], snapshot: Snapshot): Ty | undefined {
  const checked = view.checked?.types.find((t) => t.name === name);
  if (checked !== undefined) return { ...named(name, args), decl: { kind: "checked", decl: checked } };
  const def = view.syntax.items.find((i): i is TypeDef => i.kind === "TypeDef" && i.name.name === name);
  if (def === undefined) return undefined;
  return { ...named(name, args), decl: { kind: "syntax", def, names: { snapshot, view, params: new Map() } } };
}

export function preludeType(name: string, args: readonly Ty[] = []): Ty | undefined {
  const decl = libraryScopes().prelude.types.get(name);
  return decl === undefined ? undefined : { ...named(name, args), decl: { kind: "checked", decl } };
}

/** The fields of a record type, in declaration order; none for any other type. */
export function fieldsOfTy(ty: Ty): TyMember[] {
  const decl = ty.decl;
  if (decl === undefined) return [];
  if (decl.kind === "checked") {
    if (decl.decl.shape !== "record") return [];
    const subst = new Map(decl.decl.params.map((p, i) => [p.id, ty.args[i] ?? named(p.name)] as const));
    const docs = preludeDocs(decl.decl);
    return decl.decl.fields.map((f) => withDoc({ name: f.name, type: fromType(f.type, subst) }, docs?.get(f.name)));
  }
  if (decl.def.body.kind !== "RecordBody") return [];
  const names = syntaxNames(decl, ty);
  return decl.def.body.fields.map((f) => ({ name: f.name.name, type: fromTypeExpr(f.type, names) }));
}

/** The cases of a variant type, in declaration order; none for any other type. */
export function casesOfTy(ty: Ty): TyCase[] {
  const decl = ty.decl;
  if (decl === undefined) return [];
  if (decl.kind === "checked") {
    if (decl.decl.shape !== "variant") return [];
    const subst = new Map(decl.decl.params.map((p, i) => [p.id, ty.args[i] ?? named(p.name)] as const));
    const docs = preludeDocs(decl.decl);
    return decl.decl.cases.map((c) =>
      withDoc(
        { name: c.name, fields: c.fields.map((f) => ({ name: f.name, type: fromType(f.type, subst) })) },
        docs?.get(c.name),
      ),
    );
  }
  if (decl.def.body.kind !== "VariantBody") return [];
  const names = syntaxNames(decl, ty);
  return decl.def.body.cases.map((c) => ({
    name: c.name.name,
    fields: c.fields.map((f) => ({ name: f.name.name, type: fromTypeExpr(f.type, names) })),
  }));
}

function syntaxNames(decl: Extract<TyDecl, { kind: "syntax" }>, ty: Ty): TypeNames {
  const params = new Map(decl.def.typeParams.map((p, i) => [p.name, ty.args[i] ?? named(p.name)] as const));
  return { ...decl.names, params };
}

function withDoc<T extends object>(member: T, doc: string | undefined): T & { doc?: string } {
  return doc === undefined ? member : { ...member, doc };
}

let preludeLines: Map<string, Map<string, string>> | undefined;

/** The one-line description of each member of a prelude type, by the member's name. */
function preludeDocs(decl: TypeDecl): ReadonlyMap<string, string> | undefined {
  if (decl.module !== "prelude") return undefined;
  preludeLines ??= new Map(
    preludeTypes().map((t) => [
      t.name,
      new Map(t.members.map((m) => [/^\w+/.exec(m.text)?.[0] ?? m.text, m.line] as const)),
    ]),
  );
  return preludeLines.get(decl.name);
}
