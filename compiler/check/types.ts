// The checker's types: what every checked expression carries.
//
// Built-in types and declared records and variants are all constructors with
// arguments (`List<Text>` is Con("List", [Text])). Type parameters of a generic
// definition are rigid `Param`s inside it; inference works with `Meta`
// variables that unification fills in.

import type { Span } from "../source.js";
import { needText, type Need as CapabilityNeed } from "../../vocabulary/needs.js";

export type Type = Con | FunctionType | Param | Meta | ErrorType;

/** A named type: built-in (`Int`, `List`) or declared (a record, a variant). */
export interface Con {
  readonly kind: "Con";
  readonly name: string;
  readonly args: readonly Type[];
  /** Present for records and variants; built-ins have none. */
  readonly decl?: TypeDecl;
}

/** `function(A, B) returns C or fails with E needs ...` */
export interface FunctionType {
  readonly kind: "Function";
  readonly params: readonly Type[];
  readonly returns: Type;
  readonly fails?: Type;
  readonly needs: readonly Need[];
  /**
   * Library higher-order functions accept functions with any needs; the call
   * then needs what its function arguments need (see spec/types.md).
   */
  readonly anyNeeds?: boolean;
}

/** A type parameter of the definition being checked (`T` in `first<T>`). */
export interface Param {
  readonly kind: "Param";
  readonly name: string;
  readonly id: number;
}

/** An inference variable; `solution` is set once unification learns it. */
export interface Meta {
  readonly kind: "Meta";
  readonly id: number;
  solution?: Type;
}

/** Stands for a type that could not be worked out; it unifies with anything, so one mistake gives one error. */
export interface ErrorType {
  readonly kind: "Error";
}

/** A capability the code needs (the vocabulary's Need), with where it was declared or arose, for messages. */
export interface Need extends CapabilityNeed {
  readonly span?: Span;
}

export interface FieldInfo {
  readonly name: string;
  readonly type: Type;
  readonly jsonKey: string;
}

export interface CaseInfo {
  readonly name: string;
  readonly fields: readonly FieldInfo[];
}

/** A declared record or variant, in terms of its type parameters. */
export interface TypeDecl {
  readonly name: string;
  /** The module that declares it (`prelude` for the library's). */
  readonly module: string;
  readonly params: readonly Param[];
  readonly shape: "record" | "variant";
  /** Records: their fields. Filled in after every type of the program is known. */
  fields: FieldInfo[];
  /** Variants: their cases, in declaration order. */
  cases: CaseInfo[];
  readonly public: boolean;
  readonly purpose?: string;
  readonly span?: Span;
}

// ---- construction ----

const con = (name: string, args: readonly Type[] = []): Con => ({ kind: "Con", name, args });

export const INT = con("Int");
export const FLOAT = con("Float");
export const TEXT = con("Text");
export const BOOLEAN = con("Boolean");
export const NOTHING = con("Nothing");
export const BYTES = con("Bytes");
export const JSON_TYPE = con("Json");
export const ERROR: ErrorType = { kind: "Error" };

export const listOf = (item: Type): Con => con("List", [item]);
export const mapOf = (key: Type, value: Type): Con => con("Map", [key, value]);
export const setOf = (item: Type): Con => con("Set", [item]);
export const pairOf = (first: Type, second: Type): Con => con("Pair", [first, second]);

export function declared(decl: TypeDecl, args: readonly Type[]): Con {
  return { kind: "Con", name: decl.name, args, decl };
}

/** The built-in type constructors and how many arguments each takes. */
export const BUILTIN_ARITY: ReadonlyMap<string, number> = new Map([
  ["Int", 0],
  ["Float", 0],
  ["Text", 0],
  ["Boolean", 0],
  ["Nothing", 0],
  ["Bytes", 0],
  ["Json", 0],
  ["List", 1],
  ["Set", 1],
  ["Map", 2],
  ["Pair", 2],
]);

export function builtin(name: string, args: readonly Type[]): Con {
  return con(name, args);
}

// Ids of type variables. Each compilation numbers its own from the same start
// (`numberedFromStart`), so that no id of one compilation leaks into the next
// and compiling a program twice gives the same tree. The library's are
// negative (`asLibrary`): a library module is declared when it is first looked
// up (declare.ts keeps it), which may be in the middle of a compilation, so its
// ids must be none of the compilation's; and each module counts down from a
// start of its own, so that its ids do not depend on which module a process
// happened to declare first.
let nextId = 1;
let nextLibraryId = 0;
let declaringLibrary = false;

/** Runs a declaration of the library's, its type variables numbered down from `first` (negative). */
export function asLibrary<T>(first: number, declare: () => T): T {
  const was = { declaringLibrary, nextLibraryId };
  declaringLibrary = true;
  nextLibraryId = first;
  try {
    return declare();
  } finally {
    ({ declaringLibrary, nextLibraryId } = was);
  }
}

/** Runs one compilation's checking with type-variable ids counted from where the library's end. Checking is synchronous, so no other compilation runs in between. */
export function numberedFromStart<T>(check: () => T): T {
  const start = nextId;
  try {
    return check();
  } finally {
    nextId = start;
  }
}

export function freshMeta(): Meta {
  return { kind: "Meta", id: declaringLibrary ? nextLibraryId-- : nextId++ };
}

export function freshParam(name: string): Param {
  return { kind: "Param", name, id: declaringLibrary ? nextLibraryId-- : nextId++ };
}

// ---- looking through solved variables ----

/** The type with solved inference variables at its top replaced by their solutions. */
export function resolve(type: Type): Type {
  let t = type;
  while (t.kind === "Meta" && t.solution !== undefined) t = t.solution;
  return t;
}

/** The type with every solved inference variable replaced, all the way down. */
export function zonk(type: Type): Type {
  const t = resolve(type);
  switch (t.kind) {
    case "Con":
      return t.args.length === 0 ? t : { ...t, args: t.args.map(zonk) };
    case "Function":
      return { ...t, params: t.params.map(zonk), returns: zonk(t.returns), ...(t.fails ? { fails: zonk(t.fails) } : {}) };
    default:
      return t;
  }
}

/** Replaces type parameters by the given types (instantiating a generic). */
export function substitute(type: Type, map: ReadonlyMap<number, Type>): Type {
  if (map.size === 0) return type;
  const t = resolve(type);
  switch (t.kind) {
    case "Param":
      return map.get(t.id) ?? t;
    case "Con":
      return t.args.length === 0 ? t : { ...t, args: t.args.map((a) => substitute(a, map)) };
    case "Function":
      return {
        ...t,
        params: t.params.map((p) => substitute(p, map)),
        returns: substitute(t.returns, map),
        ...(t.fails ? { fails: substitute(t.fails, map) } : {}),
      };
    default:
      return t;
  }
}

// ---- unification ----

/**
 * Makes `a` and `b` the same type, solving inference variables on the way.
 * Returns false when they cannot be; the caller reports it with both types.
 */
export function unify(a: Type, b: Type): boolean {
  const x = resolve(a);
  const y = resolve(b);
  if (x === y) return true;
  if (x.kind === "Error" || y.kind === "Error") return true;
  if (x.kind === "Meta") return bind(x, y);
  if (y.kind === "Meta") return bind(y, x);
  if (x.kind === "Param" || y.kind === "Param") return x.kind === "Param" && y.kind === "Param" && x.id === y.id;
  if (x.kind === "Con" && y.kind === "Con") {
    if (x.name !== y.name || x.args.length !== y.args.length) return false;
    if (x.decl !== undefined && y.decl !== undefined && x.decl !== y.decl) return false;
    return x.args.every((arg, i) => unify(arg, y.args[i]!));
  }
  if (x.kind === "Function" && y.kind === "Function") {
    if (x.params.length !== y.params.length) return false;
    if (!x.params.every((p, i) => unify(p, y.params[i]!))) return false;
    if (!unify(x.returns, y.returns)) return false;
    if ((x.fails === undefined) !== (y.fails === undefined)) return false;
    return x.fails === undefined || unify(x.fails, y.fails!);
  }
  return false;
}

function bind(meta: Meta, type: Type): boolean {
  if (type.kind === "Meta" && type.id === meta.id) return true;
  if (occurs(meta, type)) return false;
  meta.solution = type;
  return true;
}

function occurs(meta: Meta, type: Type): boolean {
  const t = resolve(type);
  switch (t.kind) {
    case "Meta":
      return t.id === meta.id;
    case "Con":
      return t.args.some((a) => occurs(meta, a));
    case "Function":
      return t.params.some((p) => occurs(meta, p)) || occurs(meta, t.returns) || (t.fails !== undefined && occurs(meta, t.fails));
    default:
      return false;
  }
}

/** Whether two types are the same, without solving anything. */
export function sameType(a: Type, b: Type): boolean {
  const x = resolve(a);
  const y = resolve(b);
  if (x === y) return true;
  if (x.kind === "Con" && y.kind === "Con") {
    return x.name === y.name && x.decl === y.decl && x.args.length === y.args.length && x.args.every((arg, i) => sameType(arg, y.args[i]!));
  }
  if (x.kind === "Param" && y.kind === "Param") return x.id === y.id;
  if (x.kind === "Meta" && y.kind === "Meta") return x.id === y.id;
  if (x.kind === "Function" && y.kind === "Function") {
    return (
      x.params.length === y.params.length &&
      x.params.every((p, i) => sameType(p, y.params[i]!)) &&
      sameType(x.returns, y.returns) &&
      (x.fails === undefined ? y.fails === undefined : y.fails !== undefined && sameType(x.fails, y.fails))
    );
  }
  return false;
}

/** Whether the type still holds an unsolved inference variable. */
export function hasMeta(type: Type): boolean {
  const t = resolve(type);
  switch (t.kind) {
    case "Meta":
      return true;
    case "Con":
      return t.args.some(hasMeta);
    case "Function":
      return t.params.some(hasMeta) || hasMeta(t.returns) || (t.fails !== undefined && hasMeta(t.fails));
    default:
      return false;
  }
}

// ---- printing, the way a user writes types ----

export function typeToText(type: Type): string {
  const t = resolve(type);
  switch (t.kind) {
    case "Con":
      if (t.name === "Pair" && t.args.length === 2) return `(${typeToText(t.args[0]!)}, ${typeToText(t.args[1]!)})`;
      return t.args.length === 0 ? t.name : `${t.name}<${t.args.map(typeToText).join(", ")}>`;
    case "Function": {
      let text = `function(${t.params.map(typeToText).join(", ")})`;
      if (!isNothing(t.returns)) text += ` returns ${typeToText(t.returns)}`;
      if (t.fails !== undefined) text += ` or fails with ${typeToText(t.fails)}`;
      if (t.needs.length > 0) text += ` needs ${t.needs.map(needText).join(", ")}`;
      return text;
    }
    case "Param":
      return t.name;
    case "Meta":
      return "_";
    case "Error":
      return "?";
  }
}

export function isNothing(type: Type): boolean {
  const t = resolve(type);
  return t.kind === "Con" && t.name === "Nothing";
}

export function isCon(type: Type, name: string): type is Con {
  const t = resolve(type);
  return t.kind === "Con" && t.name === name;
}

/** A record or variant's fields for the given type arguments. */
export function fieldsOf(decl: TypeDecl, args: readonly Type[], fields: readonly FieldInfo[] = decl.fields): FieldInfo[] {
  const map = new Map(decl.params.map((p, i) => [p.id, args[i]!] as const));
  return fields.map((f) => ({ ...f, type: substitute(f.type, map) }));
}
