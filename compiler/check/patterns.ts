// Checking patterns against the type of the value they match, binding their names.

import type * as S from "../parse/tree.js";
import type { CPattern } from "./checked.js";
import type { Context } from "./context.js";
import { unknownCase, unknownField } from "./suggest.js";
import { caseTarget, fieldTarget, record, typeTarget } from "./names.js";
import {
  BOOLEAN,
  ERROR,
  fieldsOf,
  FLOAT,
  INT,
  listOf,
  NOTHING,
  pairOf,
  resolve,
  TEXT,
  freshMeta,
  typeToText,
  unify,
  declared,
  caseNamed,
  indexByName,
  type Type,
  type TypeDecl,
} from "./types.js";

export function checkPattern(ctx: Context, pattern: S.Pattern, type: Type): CPattern {
  switch (pattern.kind) {
    case "WildcardPattern":
      return { kind: "Wildcard", type };
    case "BindPattern":
      return { kind: "Bind", local: ctx.declare(pattern.name.name, type, false, pattern.name.span) };
    case "LiteralPattern":
      return checkLiteralPattern(ctx, pattern, type);
    case "PairPattern": {
      const first = freshMeta();
      const second = freshMeta();
      mismatch(ctx, pattern, pairOf(first, second), type, "pair");
      return {
        kind: "Pair",
        first: checkPattern(ctx, pattern.first, first),
        second: checkPattern(ctx, pattern.second, second),
        type,
      };
    }
    case "ListPattern": {
      const item = freshMeta();
      mismatch(ctx, pattern, listOf(item), type, "list");
      const items = pattern.items.map((p) => checkPattern(ctx, p, item));
      const rest =
        pattern.rest === undefined
          ? undefined
          : pattern.rest.name === undefined
            ? ({ kind: "Wildcard", type } as const)
            : {
                kind: "Bind" as const,
                local: ctx.declare(pattern.rest.name.name, type, false, pattern.rest.name.span),
              };
      return { kind: "List", items, ...(rest ? { rest } : {}), type };
    }
    case "CasePattern":
      return checkCasePattern(ctx, pattern, type);
  }
}

/** `what`: what the pattern matches, a word (`pair`, `list`) or a type. */
function mismatch(ctx: Context, pattern: S.Pattern, shape: Type, type: Type, what: string): void {
  if (unify(shape, type)) return;
  ctx.problem("E-TYPE-MISMATCH", pattern.span, { problem: "pattern", pattern: what, found: typeToText(type) });
}

function checkLiteralPattern(ctx: Context, pattern: S.LiteralPattern, type: Type): CPattern {
  const literal = pattern.value;
  const [value, literalType]: [number | string | boolean | null, Type] =
    literal.kind === "IntLiteral"
      ? [literal.value, INT]
      : literal.kind === "FloatLiteral"
        ? [literal.value, FLOAT]
        : literal.kind === "BooleanLiteral"
          ? [literal.value, BOOLEAN]
          : literal.kind === "NothingLiteral"
            ? [null, NOTHING]
            : [literal.parts.map((p) => (p.kind === "TextChunk" ? p.value : "")).join(""), TEXT];
  if (!unify(literalType, type)) {
    ctx.problem("E-TYPE-MISMATCH", pattern.span, {
      problem: "pattern",
      pattern: typeToText(literalType),
      found: typeToText(type),
    });
  }
  return { kind: "Literal", value, type };
}

/** `None`, `Some(x)`, `Shape.Circle(r)`, `Point(x: 0, y: y)`, `module.Shape.Empty` */
function checkCasePattern(ctx: Context, pattern: S.CasePattern, type: Type): CPattern {
  const target = resolveCasePath(ctx, pattern.path, type);
  if (target === undefined) return { kind: "Wildcard", type: ERROR };
  const { decl, caseName } = target;
  const args = decl.params.map(() => freshMeta());
  const valueType = declared(decl, args);
  if (!unify(valueType, type)) {
    ctx.problem("E-TYPE-MISMATCH", pattern.span, { problem: "pattern", pattern: decl.name, found: typeToText(type) });
  }
  const allFields = caseName === undefined ? decl.fields : caseNamed(decl, caseName)!.fields;
  const fields = fieldsOf(decl, args, allFields);
  const written = pattern.path.map((p) => p.name).join(".");
  // By position (`Circle(r)`) or by field name (`Circle(radius: r)`); fields left out match anything.
  const byField: CPattern[] = fields.map((f) => ({ kind: "Wildcard", type: f.type }));
  let position = 0;
  for (const arg of pattern.args) {
    let index: number;
    if (arg.label !== undefined) {
      index = indexByName(fields, arg.label.name);
      if (index >= 0) record(ctx.program.names, arg.label.span, fieldTarget(decl, arg.label.name, caseName));
      if (index < 0) {
        unknownField(
          ctx,
          written,
          arg.label,
          fields.map((f) => f.name),
        );
        checkPattern(ctx, arg.pattern, ERROR);
        continue;
      }
    } else {
      index = position++;
      if (index >= fields.length) {
        ctx.problem("E-TYPE-ARGUMENTS", arg.span, {
          problem: "pattern too many",
          pattern: written,
          fields: fields.length,
        });
        checkPattern(ctx, arg.pattern, ERROR);
        continue;
      }
    }
    byField[index] = checkPattern(ctx, arg.pattern, fields[index]!.type);
  }
  return caseName === undefined
    ? { kind: "Record", decl, args: byField, type }
    : { kind: "Case", decl, caseName, args: byField, type };
}

/**
 * The type and case a pattern's path names. `Some`/`None` are the prelude's;
 * `Case` alone is a case of the matched value's own variant; `Type.Case`,
 * `module.Type.Case`; a record's name matches the record.
 */
function resolveCasePath(
  ctx: Context,
  path: readonly S.Ident[],
  expected: Type,
): { decl: TypeDecl; caseName?: string } | undefined {
  const names = path.map((p) => p.name);
  const last = path[path.length - 1]!;
  const prelude = ctx.program.prelude;
  if (names.length === 1) {
    const name = names[0]!;
    if (name === "Some" || name === "None") {
      const optional = prelude.types.get("Optional")!;
      record(ctx.program.names, last.span, caseTarget(optional, name));
      return { decl: optional, caseName: name };
    }
    const recordDecl = ctx.module.types.get(name) ?? prelude.types.get(name);
    if (recordDecl !== undefined && recordDecl.shape === "record") {
      record(ctx.program.names, last.span, typeTarget(recordDecl));
      return { decl: recordDecl };
    }
    // A bare case of the variant being matched.
    const t = resolve(expected);
    if (t.kind === "Con" && t.decl?.shape === "variant" && caseNamed(t.decl, name) !== undefined) {
      record(ctx.program.names, last.span, caseTarget(t.decl, name));
      return { decl: t.decl, caseName: name };
    }
    const variant =
      t.kind === "Con" && t.decl?.shape === "variant"
        ? { variant: t.decl.name, cases: t.decl.cases.map((c) => c.name) }
        : {};
    ctx.problem("E-NAME-UNKNOWN-CASE", last.span, { problem: "bare", name, ...variant });
    return undefined;
  }
  const typeName = names[names.length - 2]!;
  const moduleName = names.slice(0, -2).join(".");
  const scope = moduleName === "" ? ctx.module : ctx.module.imports.get(moduleName);
  const decl = scope?.types.get(typeName) ?? (moduleName === "" ? prelude.types.get(typeName) : undefined);
  if (decl === undefined || decl.shape !== "variant") {
    ctx.problem("E-NAME-UNKNOWN-CASE", path[0]!.span, { problem: "no-variant", path: names.slice(0, -1).join(".") });
    return undefined;
  }
  if (caseNamed(decl, last.name) === undefined) {
    unknownCase(ctx, decl, last);
    return undefined;
  }
  if (moduleName !== "" && path.length === 3 && scope !== undefined)
    record(ctx.program.names, path[0]!.span, { kind: "module", file: scope.file, module: scope.name });
  record(ctx.program.names, path[path.length - 2]!.span, typeTarget(decl));
  record(ctx.program.names, last.span, caseTarget(decl, last.name));
  return { decl, caseName: last.name };
}
