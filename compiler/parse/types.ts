// Type expressions (spec/grammar.md, section 6): names with arguments, pairs and
// function types with their failure type and needs.

import type { Cursor } from "./cursor.js";
import { parseNeedsClause } from "./needs.js";
import { capitalised, parseCapitalisedPath } from "./paths.js";
import type { TypeExpr } from "./tree.js";

export function parseType(p: Cursor): TypeExpr {
  return p.nested(() => parseTypeInner(p));
}

function parseTypeInner(p: Cursor): TypeExpr {
  const start = p.pos;
  if (p.kindAt(start) === "(") {
    p.advance();
    return p.withLineBreaks(false, () => {
      const first = parseType(p);
      if (p.eat(")")) return first;
      p.expect(",", "`,` or `)` in this type", { guide: "pair-type" });
      const second = parseType(p);
      p.expect(")", "`)`: a pair type holds exactly two types");
      return { kind: "PairType", first, second, span: p.spanFrom(start) };
    });
  }
  if (p.kindAt(start) === "function") {
    p.advance();
    const params: TypeExpr[] = [];
    const open = p.expect("(", "`(` and the parameter types", { guide: "function-type" });
    p.withLineBreaks(false, () => {
      while (!p.at(")")) {
        params.push(parseType(p));
        if (!p.eat(",")) break;
      }
      p.expect(")", "`,` or `)` in the parameter types", { opened: { at: open, by: "bracket" } });
    });
    const { returns, fails } = parseSignatureTail(p);
    const needs = p.atOnLine("needs") ? parseNeedsClause(p, "type") : undefined;
    return {
      kind: "FunctionType",
      params,
      ...(returns ? { returns } : {}),
      ...(fails ? { fails } : {}),
      ...(needs ? { needs } : {}),
      span: p.spanFrom(start),
    };
  }
  if (p.kindAt(start) !== "upper" && p.kindAt(start) !== "name") {
    return p.fail("a type", { guide: "type" });
  }
  const path = parseCapitalisedPath(p, "a type name", (last, path) =>
    p.problem(
      "E-SYN-TYPE",
      last.span,
      { name: last.name, path: path.map((i) => i.name).join(".") },
      { edits: [capitalised(last)] },
    ),
  );
  const args: TypeExpr[] = [];
  if (p.at("<") && !p.atLineBreak) {
    const open = p.advance();
    p.withLineBreaks(false, () => {
      do args.push(parseType(p));
      while (p.eat(","));
      p.expect(">", "`,` or `>` after the type arguments", { opened: { at: open, by: "bracket" } });
    });
  }
  return { kind: "NamedType", path, args, span: p.spanFrom(start) };
}

/** `[returns T] [or fails with E]` */
export function parseSignatureTail(p: Cursor): { returns?: TypeExpr; fails?: TypeExpr } {
  let returns: TypeExpr | undefined;
  let fails: TypeExpr | undefined;
  if (p.atOnLine("returns")) {
    p.advance();
    returns = parseType(p);
  }
  if (p.atOnLine("or") && p.peekKind() === "fails") {
    p.advance();
    p.advance();
    p.expect("with", "`with` after `or fails`", { guide: "fails-with" });
    fails = parseType(p);
  }
  return { ...(returns ? { returns } : {}), ...(fails ? { fails } : {}) };
}
