// Type expressions (spec/grammar.md, section 6): names with arguments, pairs and
// function types with their failure type and needs.

import { Cursor } from "./cursor.js";
import { parseNeedsClause } from "./needs.js";
import { parseCapitalisedPath } from "./paths.js";
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
      p.expect(",", "`,` or `)` in this type", { hint: "A pair type is written `(Text, Int)`." });
      const second = parseType(p);
      p.expect(")", "`)`: a pair type holds exactly two types");
      return { kind: "PairType", first, second, span: p.spanFrom(start) };
    });
  }
  if (p.kindAt(start) === "function") {
    p.advance();
    const params: TypeExpr[] = [];
    const open = p.expect("(", "`(` and the parameter types", { hint: "For example: `function(Int, Int) returns Int`." });
    p.withLineBreaks(false, () => {
      while (!p.at(")")) {
        params.push(parseType(p));
        if (!p.eat(",")) break;
      }
      p.expect(")", "`,` or `)` in the parameter types", { related: [{ span: p.spanOf(open), message: "opened here" }] });
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
    return p.fail("a type", { hint: "For example `Int`, `List<Text>`, `Map<Text, Int>`, `(Text, Int)` or `weather.Forecast`." });
  }
  const path = parseCapitalisedPath(p, "a type name", "E-SYN-TYPE", (path) => ({
    message: `\`${path[path.length - 1]!.name}\` is not a type name`,
    label: "type names start with a capital letter",
    hint: "For example `Int`, `Text`, `List<Int>`, or a type from a module: `weather.Forecast`.",
  }));
  const args: TypeExpr[] = [];
  if (p.at("<") && !p.atLineBreak) {
    const open = p.advance();
    p.withLineBreaks(false, () => {
      do args.push(parseType(p));
      while (p.eat(","));
      p.expect(">", "`,` or `>` after the type arguments", { related: [{ span: p.spanOf(open), message: "opened here" }] });
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
    p.expect("with", "`with` after `or fails`", { hint: "For example: `returns Forecast or fails with AppError`." });
    fails = parseType(p);
  }
  return { ...(returns ? { returns } : {}), ...(fails ? { fails } : {}) };
}
