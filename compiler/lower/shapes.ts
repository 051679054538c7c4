// Shapes: the static types the runtime needs to see to render a value
// (to_text) and to read or write its JSON. Hoisted to the module's top, one
// constant per distinct type.

import * as t from "./js.js";
import { resolve, typeToText, type Type, type TypeDecl } from "../check/types.js";
import type { Lowerer } from "./context.js";
import { descriptorName, typeName } from "./names.js";

export function shapeOf(lw: Lowerer, type: Type, params: readonly { id: number }[] = []): t.Expression {
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
  const simple: Record<string, string> = { Int: "INT", Float: "FLOAT", Text: "TEXT", Boolean: "BOOL", Nothing: "NOTHING", Bytes: "BYTES", Json: "JSON_SHAPE" };
  if (r.args.length === 0 && r.decl === undefined && simple[r.name] !== undefined) return lw.rt(simple[r.name]!);
  // Shapes inside a declaration's own fields refer to its parameters, so they are not hoisted.
  const build = (): t.Expression => {
    const args = r.args.map((a) => shapeOf(lw, a, params));
    if (r.decl === undefined) {
      const maker: Record<string, string> = { List: "shapeList", Set: "shapeSet", Map: "shapeMap", Pair: "shapePair" };
      return t.callExpression(lw.rt(maker[r.name] ?? "shapeList"), args);
    }
    const decl = r.decl;
    return t.callExpression(lw.rt(decl.shape === "record" ? "shapeRecord" : "shapeVariant"), [declRef(lw, decl), t.arrayExpression(args)]);
  };
  // Shapes made of a function's type parameters are made where they are used, from its hidden parameters.
  if (params.length > 0 || mentionsTypeShape(lw, r)) return build();
  return lw.hoist(`shape ${identityOf(lw, r)}`, `shape_${typeToText(r, SHAPE_NAME_LIMIT).replace(/[^A-Za-z0-9]+/g, "_")}`, (name) => t.variableDeclaration("const", [t.variableDeclarator(name, build())]));
}

/** How much of a type the readable name of its hoisted shape shows. */
const SHAPE_NAME_LIMIT = 40;

function mentionsTypeShape(lw: Lowerer, type: Type, seen = new Set<Type>()): boolean {
  if (lw.typeShapes.size === 0) return false;
  const r = resolve(type);
  if (r.kind === "Param") return lw.typeShapes.has(r.id);
  if (r.kind !== "Con" || seen.has(r)) return false;
  seen.add(r);
  return r.args.some((a) => mentionsTypeShape(lw, a, seen));
}

/** The runtime descriptor of a declared type: a record's TypeDesc, a variant's VariantDesc. */
export function declRef(lw: Lowerer, decl: TypeDecl): t.Expression {
  if (decl.module === "prelude") {
    const table = decl.shape === "record" ? "PRELUDE_RECORDS" : "PRELUDE_VARIANTS";
    return t.memberExpression(lw.rt(table), t.identifier(decl.name));
  }
  return t.identifier(descriptorName(typeName(decl.module, decl.name)));
}

/** The class whose instances are a record, or a case of a variant. */
export function classRef(lw: Lowerer, decl: TypeDecl, caseName?: string): t.Expression {
  if (decl.module !== "prelude") return t.identifier(typeName(decl.module, decl.name, caseName));
  if (decl.name === "Optional") return caseName === "Some" ? lw.rt("Some") : t.memberExpression(t.memberExpression(t.memberExpression(t.memberExpression(lw.rt("PRELUDE_VARIANTS"), t.identifier("Optional")), t.identifier("cases")), t.numericLiteral(0), true), t.identifier("cls"));
  const readable = `class_${decl.name}${caseName === undefined ? "" : `_${caseName}`}`;
  return lw.hoist(readable, readable, (name) => {
    const desc = caseName === undefined
      ? t.memberExpression(lw.rt("PRELUDE_RECORDS"), t.identifier(decl.name))
      : t.memberExpression(
          t.memberExpression(t.memberExpression(lw.rt("PRELUDE_VARIANTS"), t.identifier(decl.name)), t.identifier("cases")),
          t.numericLiteral(decl.cases.findIndex((c) => c.name === caseName)),
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
