// Lowering a module: its types to classes with descriptors, its functions and
// tests to JavaScript functions. Each module gives two parts, its types and its
// code, so that a bundle can place every module's types before any code.

import * as t from "./js.js";
import type { CExpr, CFunction, CModule, CTest, CheckedGrantItem } from "../check/checked.js";
import { isCon, resolve, typeToText, type TypeDecl } from "../check/types.js";
import type { SourceFile } from "../source.js";
import { Lowerer } from "./context.js";
import { lowerExpr } from "./expressions.js";
import {
  descriptorName,
  functionName,
  onlyValueName,
  propertyName,
  testName,
  testTableName,
  typeName,
} from "./names.js";
import { shapeOf } from "./shapes.js";
import { functionBody } from "./functions.js";
import { grantValue, needsValue } from "./grants.js";
import { narratedBody } from "./narration.js";
import type { Borrows } from "../borrow/index.js";

/**
 * A part of a lowered module, handed over as soon as it is made (lowerModule):
 * its types (classes and descriptors, which a bundle places before any module's
 * code), its code (functions, tests and the test table), and its hoisted
 * constants, which go before its code but are complete only once the code is
 * lowered, so come last.
 */
export interface LoweredPart {
  readonly kind: "types" | "code" | "hoisted";
  readonly statements: t.Statement[];
}

/**
 * Top-level statements a part holds, at most about: a module of 100,000 lines
 * lowered whole was a tree of about 170 MB, alive until printed; in parts, each is
 * printed and let go before the next is made. Small parts die young: a part of
 * 200 lived through collections of the young generation and was moved to the
 * old, where it stayed as garbage until the next full collection; with 20 the
 * 100,000-line build peaks about 45 MiB lower, and is no slower (bench/RESULTS.md).
 */
const PART_SIZE = 20;

/**
 * Lowers a module, handing each part to `take` in order (types, code, then the
 * hoisted constants); gives back the runtime's names it used.
 * `narrate`: compile the narrated variant, naming main of the entry module `main` (narration.ts).
 */
export function lowerModule(
  module: CModule,
  source: SourceFile,
  take: (part: LoweredPart) => void,
  narrate?: { readonly entry: string },
  onlyFuel = false,
  guarded = false,
  borrows?: Borrows,
  sharedFuel = false,
): { readonly runtime: ReadonlySet<string> } {
  const lw = new Lowerer(module.name, source, narrate !== undefined, onlyFuel, guarded, borrows, sharedFuel);
  const inParts = <T>(kind: LoweredPart["kind"], items: readonly T[], lower: (item: T) => t.Statement[]) => {
    let statements: t.Statement[] = [];
    for (const item of items) {
      statements.push(...lower(item));
      if (statements.length >= PART_SIZE) {
        take({ kind, statements });
        statements = [];
      }
    }
    if (statements.length > 0) take({ kind, statements });
  };
  inParts("types", module.types, (decl) => lowerType(lw, decl));
  inParts("code", module.functions, (f) => [
    lowerFunction(
      lw,
      f,
      narrate !== undefined && module.name === narrate.entry && f.name === "main" ? "main" : `${module.name}.${f.name}`,
    ),
  ]);
  const tests = module.tests.map((test, i) => lowerTest(lw, test, i));
  inParts(
    "code",
    [...tests.map((x) => x.declaration), ...(module.tests.length === 0 ? [] : [testList(module, tests)])],
    (s) => [s],
  );
  inParts("hoisted", [...lw.hoisted.values()], (s) => [s]);
  // Nodes without a position (a helper's name, a temporary) get no mapping of their own: a
  // position inside them maps through the mapping before it, their nearest ancestor's.
  return { runtime: lw.runtime };
}

// ---- types ----

function lowerType(lw: Lowerer, decl: TypeDecl): t.Statement[] {
  const params = decl.params;
  const fieldList = (fields: readonly TypeDecl["fields"][number][]) =>
    t.arrowFunctionExpression(
      [],
      t.arrayExpression(
        fields.map((f) =>
          t.arrayExpression([
            t.stringLiteral(f.name),
            t.stringLiteral(propertyName(f.name)),
            t.stringLiteral(f.jsonKey),
            shapeOf(lw, f.type, params),
          ]),
        ),
      ),
    );
  const statements: t.Statement[] = [];
  const lowerClass = (name: string, fields: readonly TypeDecl["fields"][number][]) =>
    t.classDeclaration(
      t.identifier(name),
      null,
      t.classBody(
        fields.length === 0
          ? []
          : [
              t.classMethod(
                "constructor",
                t.identifier("constructor"),
                fields.map((f) => t.identifier(`f_${f.name}`)),
                t.blockStatement(
                  fields.map((f) =>
                    t.expressionStatement(
                      t.assignmentExpression(
                        "=",
                        t.memberExpression(t.thisExpression(), t.identifier(propertyName(f.name))),
                        t.identifier(`f_${f.name}`),
                      ),
                    ),
                  ),
                ),
              ),
            ],
      ),
    );
  const describe = (
    cls: string,
    name: string,
    written: string,
    fields: readonly TypeDecl["fields"][number][],
    variant?: string,
    index?: number,
  ) =>
    t.variableDeclaration("const", [
      t.variableDeclarator(
        t.identifier(descriptorName(cls)),
        t.callExpression(lw.rt("describe"), [
          t.identifier(cls),
          t.stringLiteral(name),
          t.stringLiteral(written),
          fieldList(fields),
          ...(variant === undefined ? [] : [t.stringLiteral(variant), t.numericLiteral(index!)]),
        ]),
      ),
    ]);
  if (decl.shape === "record") {
    const cls = typeName(decl.module, decl.name);
    statements.push(lowerClass(cls, decl.fields), describe(cls, decl.name, decl.name, decl.fields));
    return statements.map((s) => lw.at(s, decl.span));
  }
  decl.cases.forEach((c, index) => {
    const cls = typeName(decl.module, decl.name, c.name);
    statements.push(
      lowerClass(cls, c.fields),
      describe(cls, c.name, `${decl.name}.${c.name}`, c.fields, decl.name, index),
    );
    // A case without fields is one shared value.
    if (c.fields.length === 0)
      statements.push(
        t.variableDeclaration("const", [
          t.variableDeclarator(t.identifier(onlyValueName(cls)), t.newExpression(t.identifier(cls), [])),
        ]),
      );
  });
  const variant = typeName(decl.module, decl.name);
  statements.push(
    t.variableDeclaration("const", [
      t.variableDeclarator(
        t.identifier(descriptorName(variant)),
        t.objectExpression([
          t.objectProperty(t.identifier("name"), t.stringLiteral(decl.name)),
          t.objectProperty(
            t.identifier("cases"),
            t.arrayExpression(
              decl.cases.map((c) => t.identifier(descriptorName(typeName(decl.module, decl.name, c.name)))),
            ),
          ),
        ]),
      ),
    ]),
  );
  return statements.map((s) => lw.at(s, decl.span));
}

// ---- functions ----

function isEffectful(f: { needs: readonly unknown[] }): boolean {
  return f.needs.length > 0;
}

/**
 * An effectful function takes the caller's grant first and narrows it to its
 * own needs (spec/effects.md, section 2); primitives called in it get the narrowed one.
 */
function enterGrant(
  lw: Lowerer,
  needs: readonly CheckedGrantItem[],
  owner: string,
): { param: t.Identifier; declaration: t.Statement } {
  const param = t.identifier("$g");
  const grant = lw.temp("grant");
  lw.grant = grant;
  const declaration = t.variableDeclaration("const", [
    t.variableDeclarator(
      grant,
      t.callExpression(lw.rt("narrow"), [param, needsValue(needs.map((n) => n.capability)), t.stringLiteral(owner)]),
    ),
  ]);
  return { param, declaration };
}

function lowerFunction(lw: Lowerer, f: CFunction, shownName: string): t.Statement {
  lw.async = isEffectful(f);
  lw.grant = undefined;
  lw.owned.clear();
  lw.typeShapes.clear();
  f.typeParams.forEach((p, i) => {
    lw.typeShapes.set(p.id, t.identifier(`$type${i}`));
  });
  const entry = lw.async ? enterGrant(lw, f.needs, f.name) : undefined;
  const params = [
    ...(entry ? [entry.param] : []),
    ...lw.typeShapes.values(),
    ...f.params.map((p) => lw.local(p.local)),
  ];
  const defaults = lw.collect(() => {
    for (const p of f.params) {
      if (p.default === undefined) continue;
      const id = lw.local(p.local);
      const statements = lw.collect(() =>
        lw.emit(t.expressionStatement(t.assignmentExpression("=", id, lowerExpr(lw, p.default!)))),
      );
      lw.emit(
        lw.atDeep(
          t.ifStatement(t.binaryExpression("===", id, t.identifier("undefined")), t.blockStatement(statements)),
          p.default.span,
        ),
      );
    }
  });
  let body = functionBody(lw, f.body, f.span);
  if (lw.narrate) body = t.blockStatement(narratedBody(lw, f, shownName, body.body));
  body.body.unshift(...(entry ? [entry.declaration] : []), ...defaults);
  const declaration = t.functionDeclaration(
    t.identifier(functionName(f.module, f.name)),
    params,
    body,
    false,
    lw.async,
  );
  return lw.atDeep(declaration, { ...f.span, end: f.span.start + 8 });
}

interface LoweredTest {
  readonly name: string;
  readonly id: string;
  readonly test: CTest;
  readonly declaration: t.Statement;
}

function lowerTest(lw: Lowerer, test: CTest, index: number): LoweredTest {
  lw.async = true;
  lw.owned.clear();
  lw.typeShapes.clear();
  const id = testName(lw.module, index);
  const entry = enterGrant(lw, test.needs, "this test");
  const body = functionBody(lw, test.body, test.span);
  body.body.unshift(entry.declaration);
  const declaration = lw.atDeep(t.functionDeclaration(t.identifier(id), [entry.param], body, false, true), {
    ...test.span,
    end: test.span.start + 4,
  });
  return { name: test.name, id, test, declaration };
}

function testList(module: CModule, tests: LoweredTest[]): t.Statement {
  return t.variableDeclaration("const", [
    t.variableDeclarator(
      t.identifier(testTableName(module.name)),
      t.arrayExpression(
        tests.map((x) =>
          t.objectExpression([
            t.objectProperty(t.identifier("name"), t.stringLiteral(x.name)),
            t.objectProperty(t.identifier("run"), t.identifier(x.id)),
            t.objectProperty(
              t.identifier("replays"),
              x.test.replays === undefined ? t.nullLiteral() : t.stringLiteral(x.test.replays),
            ),
            t.objectProperty(t.identifier("grant"), grantValue(x.test.needs)),
          ]),
        ),
      ),
    ),
  ]);
}

/** How `main`'s parameters are read from the command line (spec/language.md, section 15). */
export function mainParameters(main: CFunction): t.Expression {
  return t.arrayExpression(
    main.params.map((p) => {
      const r = resolve(p.local.type);
      const optional = r.kind === "Con" && r.name === "Optional";
      const inner = optional ? typeToText(r.args[0]!) : typeToText(r);
      return t.objectExpression([
        t.objectProperty(t.identifier("name"), t.stringLiteral(p.local.name)),
        t.objectProperty(t.identifier("type"), t.stringLiteral(inner)),
        t.objectProperty(t.identifier("optional"), t.booleanLiteral(optional)),
        t.objectProperty(t.identifier("hasDefault"), t.booleanLiteral(p.default !== undefined)),
        t.objectProperty(t.identifier("words"), t.booleanLiteral(p.local.name === "arguments" && isCon(r, "List"))),
        ...(p.default === undefined || shownDefault(p.default) === undefined
          ? []
          : [t.objectProperty(t.identifier("default"), t.stringLiteral(shownDefault(p.default)!))]),
      ]);
    }),
  );
}

/** A default that `--help` can show as written: a literal; any other default is computed when main runs. */
function shownDefault(value: CExpr): string | undefined {
  switch (value.kind) {
    case "Int":
    case "Float":
    case "Boolean":
      return String(value.value);
    case "Text":
      return value.parts.every((part) => typeof part === "string") ? JSON.stringify(value.parts.join("")) : undefined;
    default:
      return undefined;
  }
}
