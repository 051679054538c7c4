// Patterns (spec/grammar.md, section 10): literals, `_`, names, cases by
// position or by field, pairs, and lists with an optional `...rest`.

import { KEYWORD_SET } from "../lex/tokens.js";
import type { Cursor, Tok } from "./cursor.js";
import { parseCapitalisedPath } from "./paths.js";
import { parseText } from "./expressions.js";
import type { Ident, ListPattern, Pattern, PatternArg, RestPattern } from "./tree.js";

export function parsePattern(p: Cursor): Pattern {
  return p.nested(() => parsePatternInner(p));
}

function parsePatternInner(p: Cursor): Pattern {
  const token = p.pos;
  switch (p.kindAt(token)) {
    case "name":
      if (p.textAt(token) === "_") {
        p.advance();
        return { kind: "WildcardPattern", span: p.spanOf(token) };
      }
      if (p.peekKind() === ".") return parseCasePattern(p);
      p.advance();
      return { kind: "BindPattern", name: p.ident(token), span: p.spanOf(token) };
    case "upper":
      return parseCasePattern(p);
    case "int":
    case "float":
    case "-":
      return parseNumberPattern(p);
    case "true":
    case "false":
      p.advance();
      return literal(p, token, { kind: "BooleanLiteral", value: p.kindAt(token) === "true", span: p.spanOf(token) });
    case "nothing":
      p.advance();
      return literal(p, token, { kind: "NothingLiteral", span: p.spanOf(token) });
    case "text_start": {
      const text = parseText(p);
      if (text.parts.some((part) => part.kind !== "TextChunk")) {
        p.problem("E-SYN-PATTERN", text.span, { problem: "interpolation" });
      }
      return { kind: "LiteralPattern", value: text, span: text.span };
    }
    case "(":
      return parsePairPattern(p);
    case "[":
      return parseListPattern(p);
  }
  if (KEYWORD_SET.has(p.kindAt(token))) p.expectName("a name in a pattern");
  return p.fail("a pattern", {
    guide: "pattern",
  });
}

function literal(p: Cursor, token: Tok, value: Extract<Pattern, { kind: "LiteralPattern" }>["value"]): Pattern {
  return { kind: "LiteralPattern", value, span: p.spanFrom(token) };
}

function parseNumberPattern(p: Cursor): Pattern {
  const start = p.pos;
  const negative = p.eat("-");
  const token = p.pos;
  if (p.kindAt(token) !== "int" && p.kindAt(token) !== "float") return p.fail("a number after `-`");
  p.advance();
  const value = (p.valueAt(token) as number) * (negative ? -1 : 1);
  const span = p.spanFrom(start);
  return literal(
    p,
    start,
    p.kindAt(token) === "int" ? { kind: "IntLiteral", value, span } : { kind: "FloatLiteral", value, span },
  );
}

/** `None`, `Some(x)`, `Shape.Circle(r)`, `Shape.Circle(radius: r)`, `shapes.Shape.Empty` */
function parseCasePattern(p: Cursor): Pattern {
  const start = p.pos;
  const path = parseCapitalisedPath(p, "a type or case name", (last, path) =>
    p.problem("E-SYN-PATTERN", last.span, { problem: "not-a-case", path: path.map((i) => i.name).join(".") }),
  );
  const args: PatternArg[] = [];
  if (p.at("(") && !p.atLineBreak) {
    const open = p.advance();
    p.withLineBreaks(false, () => {
      while (!p.at(")")) {
        const argStart = p.pos;
        let label: Ident | undefined;
        if (p.atLabel()) {
          label = p.ident(p.advance());
          p.advance();
        }
        const pattern = parsePattern(p);
        args.push({ kind: "PatternArg", ...(label ? { label } : {}), pattern, span: p.spanFrom(argStart) });
        if (!p.eat(",")) break;
      }
      p.expect(")", "`,` or `)` in this pattern", { opened: { at: open, by: "bracket" } });
    });
  }
  return { kind: "CasePattern", path, args, span: p.spanFrom(start) };
}

function parsePairPattern(p: Cursor): Pattern {
  const open = p.advance();
  return p.withLineBreaks(false, () => {
    const first = parsePattern(p);
    if (p.eat(")")) return first;
    p.expect(",", "`,` between the two parts of a pair", { guide: "pair-pattern" });
    const second = parsePattern(p);
    p.expect(")", "`)`: a pair holds exactly two values", { opened: { at: open, by: "bracket" } });
    return { kind: "PairPattern", first, second, span: p.spanFrom(open) };
  });
}

function parseListPattern(p: Cursor): ListPattern {
  const open = p.advance();
  return p.withLineBreaks(false, () => {
    const items: Pattern[] = [];
    let rest: RestPattern | undefined;
    while (!p.at("]")) {
      if (p.at("...")) {
        const dots = p.advance();
        const name = p.pos;
        if (p.kindAt(name) !== "name") p.fail("a name or `_` after `...`", { guide: "rest-pattern" });
        p.advance();
        rest = {
          kind: "RestPattern",
          ...(p.textAt(name) === "_" ? {} : { name: p.ident(name) }),
          span: p.spanFrom(dots),
        };
        if (!p.at("]")) p.fail("`]`: `...rest` comes last in a list pattern");
        break;
      }
      items.push(parsePattern(p));
      if (!p.eat(",")) break;
    }
    p.expect("]", "`,` or `]` in this list pattern", { opened: { at: open, by: "bracket" } });
    return { kind: "ListPattern", items, ...(rest ? { rest } : {}), span: p.spanFrom(open) };
  });
}
