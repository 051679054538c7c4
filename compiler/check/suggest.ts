// "Did you mean ...?" as data: the closest declared name becomes a fact of the
// diagnostic (the catalogue words the hint) and an edit an editor can apply;
// and the name problems several checks report alike.

import { EDIT_TITLES } from "../../vocabulary/problems/syntax.js";
import type { Places } from "../diagnostics.js";
import type * as S from "../parse/tree.js";
import type { Span } from "../source.js";
import type { Context } from "./context.js";
import { closest, type FunctionSig, type ModuleScope } from "./scope.js";
import type { TypeDecl } from "./types.js";

/** `{ suggestion }` when a candidate is close to `name`, else nothing. */
export function suggest(name: string, candidates: Iterable<string>): { suggestion?: string } {
  const suggestion = closest(name, candidates);
  return suggestion === undefined ? {} : { suggestion };
}

/** The edit that puts `replacement` where `written` stands, when there is one. */
export function replacing(span: Span, written: string, replacement: string | undefined): Places {
  if (replacement === undefined) return {};
  return { edits: [{ title: EDIT_TITLES.replace(written, replacement), span, replacement }] };
}

/** A module's function that is not there, or not public (called, or named as a value). */
export function unknownModuleFunction(
  ctx: Context,
  scope: ModuleScope,
  written: string,
  name: S.Ident,
  sig: FunctionSig | undefined,
): void {
  if (sig !== undefined) {
    ctx.problem("E-NAME-PRIVATE", name.span, { kind: "function", name: name.name, module: written });
    return;
  }
  const near = suggest(
    name.name,
    [...scope.functions.values()].filter((s) => s.public).map((s) => s.name),
  );
  ctx.problem(
    "E-NAME-UNKNOWN-FUNCTION",
    name.span,
    { problem: "module", module: written, name: name.name, ...near },
    replacing(name.span, name.name, near.suggestion),
  );
}

/** A case the type does not have (`Shape.Square`), in a call, a value or a pattern. */
export function unknownCase(ctx: Context, decl: TypeDecl, member: S.Ident): void {
  const near = suggest(
    member.name,
    decl.cases.map((c) => c.name),
  );
  ctx.problem(
    "E-NAME-UNKNOWN-CASE",
    member.span,
    {
      problem: "no-such-case",
      type: decl.name,
      name: member.name,
      ...(decl.shape === "variant" ? { cases: decl.cases.map((c) => c.name) } : {}),
      ...near,
    },
    replacing(member.span, member.name, near.suggestion),
  );
}

/** A field the record or case does not have, read, updated or matched. */
export function unknownField(ctx: Context, type: string, field: S.Ident, fields: readonly string[]): void {
  const near = suggest(field.name, fields);
  ctx.problem(
    "E-NAME-UNKNOWN-FIELD",
    field.span,
    { problem: "no-such-field", type, field: field.name, fields, ...near },
    replacing(field.span, field.name, near.suggestion),
  );
}
