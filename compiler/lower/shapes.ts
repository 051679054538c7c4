// Shapes: the static types the runtime needs to see to render a value
// (to_text) and to read or write its JSON. Hoisted to the module's top, one
// constant per distinct type.

import * as t from "./js.js";
import { indexByName, resolve, typeToText, type Type, type TypeDecl } from "../check/types.js";
import type { Lowerer } from "./context.js";
import { descriptorName, typeName } from "./names.js";

export function shapeOf(
  lw: Lowerer,
  type: Type,
  params: readonly { id: number }[] = [],
  local?: LocalShapes,
): t.Expression {
  const r = resolve(type);
  switch (r.kind) {
    case "Con":
      break;
    case "Function":
      return lw.rt("FUNCTION");
    case "Param": {
      // A declaration's own parameter, which its fields' shapes refer to by position;
      // or a generic function's, whose shape the function was given.
      const index = params.findIndex((p) => p.id === r.id);
      if (index >= 0) return t.callExpression(lw.rt("shapeParam"), [t.numericLiteral(index)]);
      return lw.typeShapes.get(r.id) ?? lw.rt("DYNAMIC");
    }
    default:
      return lw.rt("DYNAMIC");
  }
  const simple: Record<string, string> = {
    Int: "INT",
    Float: "FLOAT",
    Text: "TEXT",
    Boolean: "BOOL",
    Nothing: "NOTHING",
    Bytes: "BYTES",
    Json: "JSON_SHAPE",
  };
  if (r.args.length === 0 && r.decl === undefined && simple[r.name] !== undefined) return lw.rt(simple[r.name]!);
  const build = (inner: LocalShapes | undefined): t.Expression => {
    const args = r.args.map((a) => shapeOf(lw, a, params, inner));
    if (r.decl === undefined) {
      const maker: Record<string, string> = { List: "shapeList", Set: "shapeSet", Map: "shapeMap", Pair: "shapePair" };
      return t.callExpression(lw.rt(maker[r.name] ?? "shapeList"), args);
    }
    const decl = r.decl;
    return t.callExpression(lw.rt(decl.shape === "record" ? "shapeRecord" : "shapeVariant"), [
      declRef(lw, decl),
      t.arrayExpression(args),
    ]);
  };
  // Shapes inside a declaration's own fields refer to its parameters, so they are not hoisted (and are as written: no
  // part is shared).
  if (params.length > 0) return build(undefined);
  const shapes = local ?? { mentions: new Map(), uses: undefined, made: new Map() };
  if (!mentionsTypeShape(lw, r, shapes.mentions)) {
    return lw.hoist(
      `shape ${identityOf(lw, r)}`,
      `shape_${typeToText(r, SHAPE_NAME_LIMIT).replace(/[^A-Za-z0-9]+/g, "_")}`,
      (name) => t.variableDeclaration("const", [t.variableDeclarator(name, build(undefined))]),
    );
  }
  // Shapes made of a function's type parameters are made where they are used, from its hidden
  // parameters. A part the type holds more than once (`(a, a)`) is made once, into a constant of its
  // own: written out where each use is, a type of n shared parts would be code of 2^n.
  const uses = (shapes.uses ??= usesOf(r));
  const made = shapes.made.get(r);
  if (made !== undefined) return t.identifier(made);
  if ((uses.get(r) ?? 0) < 2) return build(shapes);
  const name = lw.temp("shape");
  lw.emit(t.variableDeclaration("const", [t.variableDeclarator(name, build(shapes))]));
  shapes.made.set(r, name.name);
  return t.identifier(name.name);
}

/**
 * One shape made where it is used: which of its parts mention a function's type parameters, how many parts hold each
 * part, and the constants made.
 */
interface LocalShapes {
  readonly mentions: Map<Type, boolean>;
  uses: Map<Type, number> | undefined;
  readonly made: Map<Type, string>;
}

/** How many distinct parts of `root` hold each of its parts (the root's own count is 0). */
function usesOf(root: Type): Map<Type, number> {
  const uses = new Map<Type, number>();
  const visit = (type: Type): void => {
    const r = resolve(type);
    if (r.kind !== "Con") return;
    for (const arg of r.args) {
      const a = resolve(arg);
      const before = uses.get(a);
      uses.set(a, (before ?? 0) + 1);
      if (before === undefined) visit(a);
    }
  };
  visit(root);
  return uses;
}

/** How much of a type the readable name of its hoisted shape shows. */
const SHAPE_NAME_LIMIT = 40;

/**
 * Whether the type holds a generic function's type parameter whose shape it was given; each distinct part looked at
 * once.
 */
function mentionsTypeShape(lw: Lowerer, type: Type, known: Map<Type, boolean>): boolean {
  if (lw.typeShapes.size === 0) return false;
  const r = resolve(type);
  if (r.kind === "Param") return lw.typeShapes.has(r.id);
  if (r.kind !== "Con") return false;
  const answer = known.get(r);
  if (answer !== undefined) return answer;
  const mentions = r.args.some((a) => mentionsTypeShape(lw, a, known));
  known.set(r, mentions);
  return mentions;
}

/** The runtime descriptor of a declared type: a record's TypeDesc, a variant's VariantDesc. */
function declRef(lw: Lowerer, decl: TypeDecl): t.Expression {
  if (decl.module === "prelude") {
    const table = decl.shape === "record" ? "PRELUDE_RECORDS" : "PRELUDE_VARIANTS";
    return t.memberExpression(lw.rt(table), t.identifier(decl.name));
  }
  return t.identifier(descriptorName(typeName(decl.module, decl.name)));
}

/** The class whose instances are a record, or a case of a variant. */
export function classRef(lw: Lowerer, decl: TypeDecl, caseName?: string): t.Expression {
  if (decl.module !== "prelude") return t.identifier(typeName(decl.module, decl.name, caseName));
  if (decl.name === "Optional")
    return caseName === "Some"
      ? lw.rt("Some")
      : t.memberExpression(
          t.memberExpression(
            t.memberExpression(
              t.memberExpression(lw.rt("PRELUDE_VARIANTS"), t.identifier("Optional")),
              t.identifier("cases"),
            ),
            t.numericLiteral(0),
            true,
          ),
          t.identifier("cls"),
        );
  const readable = `class_${decl.name}${caseName === undefined ? "" : `_${caseName}`}`;
  return lw.hoist(readable, readable, (name) => {
    const desc =
      caseName === undefined
        ? t.memberExpression(lw.rt("PRELUDE_RECORDS"), t.identifier(decl.name))
        : t.memberExpression(
            t.memberExpression(
              t.memberExpression(lw.rt("PRELUDE_VARIANTS"), t.identifier(decl.name)),
              t.identifier("cases"),
            ),
            t.numericLiteral(indexByName(decl.cases, caseName)),
            true,
          );
    return t.variableDeclaration("const", [t.variableDeclarator(name, t.memberExpression(desc, t.identifier("cls")))]);
  });
}

/**
 * A type as what tells it apart: a declared type by its module and name, not
 * its name alone. Types are shared (`(a, a)` holds one object twice), so the
 * text of a large one, written out, could be exponentially long: each
 * composite type is instead named by a short token, the same for the same
 * structure, made once per distinct part.
 */
function identityOf(lw: Lowerer, type: Type): string {
  const r = resolve(type);
  switch (r.kind) {
    case "Con": {
      const name = r.decl === undefined ? r.name : `${r.decl.module}.${r.decl.name}`;
      if (r.args.length === 0) return name;
      const known = identities(lw);
      const token = known.ofType.get(r);
      if (token !== undefined) return token;
      const structure = `${name}<${r.args.map((a) => identityOf(lw, a)).join(",")}>`;
      let made = known.ofStructure.get(structure);
      if (made === undefined) known.ofStructure.set(structure, (made = `%${known.ofStructure.size}`));
      known.ofType.set(r, made);
      return made;
    }
    case "Param":
      return `#${r.id}`;
    default:
      return r.kind;
  }
}

interface Identities {
  readonly ofType: Map<Type, string>;
  readonly ofStructure: Map<string, string>;
}

const identitiesOf = new WeakMap<Lowerer, Identities>();

function identities(lw: Lowerer): Identities {
  let known = identitiesOf.get(lw);
  if (known === undefined) identitiesOf.set(lw, (known = { ofType: new Map(), ofStructure: new Map() }));
  return known;
}
