// The top level of a file (language.md sections 3, 4 and 13): `use`, types,
// functions and tests.

import { Cursor, isLabelKind, ParseAbort, SyntaxFailure, type Tok } from "./cursor.js";
import { parseExpression } from "./expressions.js";
import { parseNeedsClause } from "./needs.js";
import { parseBlock } from "./statements.js";
import { parseType } from "./types.js";
import type {
  CaseDecl,
  FieldDecl,
  FunctionDef,
  Ident,
  Item,
  Module,
  Needs,
  Param,
  Purpose,
  TestDef,
  TextLiteralValue,
  TypeDef,
  TypeExpr,
  Use,
} from "./tree.js";

const ITEM_STARTS = ["use", "public", "type", "function", "test"] as const;

export function parseModule(p: Cursor): Module {
  const items: Item[] = [];
  try {
    while (!p.at("eof")) {
      const start = p.pos;
      try {
        items.push(parseItem(p));
        if (!p.at("eof") && !p.newlineAt(p.pos)) {
          p.fail("a new line after this definition", { code: "E-SYN-STATEMENT" });
        }
      } catch (e) {
        if (!(e instanceof SyntaxFailure)) throw e;
        skipToNextItem(p, start);
      }
    }
  } catch (e) {
    if (!(e instanceof ParseAbort)) throw e;
  }
  const end = p.offsetAt(p.t.count - 1);
  return { kind: "Module", file: p.file, items, span: { file: p.file, start: 0, end } };
}

/** After an error at the top level: on to the next line that starts a definition. */
function skipToNextItem(p: Cursor, start: number): void {
  if (p.pos === start) p.advance();
  while (!p.at("eof")) {
    if (p.newlineAt(p.pos) && p.atAny(ITEM_STARTS)) return;
    p.advance();
  }
}

export function parseItem(p: Cursor): Item {
  const token = p.pos;
  switch (p.kindAt(token)) {
    case "use":
      return parseUse(p);
    case "type":
      return parseTypeDef(p, token, false);
    case "function":
      return parseFunctionDef(p, token, false);
    case "test":
      return parseTest(p);
    case "end":
      return p.fail("a definition", {
        code: "E-SYN-UNEXPECTED-END",
        message: "This `end` has nothing to close",
        label: "no open block here",
        hint: "Check the `end`s above: one of them may be one too many, or close a block too early.",
        lineStart: true,
      });
    case "public": {
      p.advance();
      if (p.at("type")) return parseTypeDef(p, token, true);
      if (p.at("function")) return parseFunctionDef(p, token, true);
      return p.fail("`function` or `type` after `public`");
    }
  }
  return p.fail("a definition: `use`, `type`, `function` or `test`", {
    code: "E-SYN-TOP-LEVEL",
    lineStart: true,
    label: "statements belong inside a function or a test",
    hint: "A program starts in `function main()`. For example:\n\nfunction main()\n  needs console\n  console.print(\"hello\")\nend",
  });
}

function parseUse(p: Cursor): Use {
  const start = p.advance();
  const example = { hint: "For example: `use weather`, `use lib.weather`, `use lib.weather as w`." };
  const path: Ident[] = [p.expectName("a module name", { ...example, sameLine: true })];
  while (p.atOnLine(".")) {
    p.advance();
    path.push(p.expectName("a module name after `.`", example));
  }
  let alias: Ident | undefined;
  if (p.atOnLine("as")) {
    p.advance();
    alias = p.expectName("a name after `as`", example);
  }
  return { kind: "Use", path, ...(alias ? { alias } : {}), span: p.spanFrom(start) };
}

function parseTypeParams(p: Cursor): Ident[] {
  const params: Ident[] = [];
  if (!p.atOnLine("<")) return params;
  const open = p.advance();
  do {
    const token = p.pos;
    if (p.kindAt(token) !== "upper") p.fail("a type parameter such as `T`");
    params.push(p.ident(p.advance()));
  } while (p.eat(","));
  p.expect(">", "`,` or `>` after the type parameters", { related: [{ span: p.spanOf(open), message: "opened here" }] });
  return params;
}

function parseTypeDef(p: Cursor, start: Tok, isPublic: boolean): TypeDef {
  const typeToken = p.advance(); // type
  const nameToken = p.pos;
  if (p.kindAt(nameToken) !== "upper" || p.atLineBreak) {
    p.fail("a type name starting with a capital letter", { hint: "For example: `type Forecast is record`." });
  }
  const name = p.ident(p.advance());
  const typeParams = parseTypeParams(p);
  p.expect("is", "`is` after the type's name", { hint: `For example: \`type ${name.name} is record\` or \`type ${name.name} is variant\`.` });
  const kind = p.pos;
  if (p.kindAt(kind) !== "record" && p.kindAt(kind) !== "variant") {
    p.fail("`record` or `variant`", { hint: `For example: \`type ${name.name} is record\` and one \`field: Type\` a line, then \`end\`.` });
  }
  p.advance();
  return p.withLineBreaks(true, () => {
    expectNewLine(p, `\`${p.kindAt(kind)}\``);
    const purpose = p.at("purpose") ? parsePurpose(p) : undefined;
    const bodyStart = p.offsetAt(p.pos);
    const fields: FieldDecl[] = [];
    const cases: CaseDecl[] = [];
    while (!p.at("end")) {
      if (p.at("eof")) {
        p.report("E-SYN-UNCLOSED", p.spanOf(typeToken), `This \`type\` is never closed`, {
          label: "this type needs an `end`",
          hint: "Add `end` after the last field or case.",
        });
        throw new ParseAbort();
      }
      const lineStart = p.pos;
      try {
        if (p.kindAt(kind) === "record") fields.push(parseFieldDecl(p));
        else cases.push(parseCaseDecl(p));
        expectNewLineOrEnd(p);
      } catch (e) {
        if (!(e instanceof SyntaxFailure)) throw e;
        p.synchronize(lineStart);
      }
    }
    const bodySpan = { file: p.file, start: bodyStart, end: p.offsetAt(p.pos) };
    p.advance(); // end
    const body =
      p.kindAt(kind) === "record"
        ? ({ kind: "RecordBody", fields, span: bodySpan } as const)
        : ({ kind: "VariantBody", cases, span: bodySpan } as const);
    return {
      kind: "TypeDef",
      public: isPublic,
      name,
      typeParams,
      ...(purpose ? { purpose } : {}),
      body,
      span: p.spanFrom(start),
    };
  });
}

/** `name: Type [from json "key"]`; keywords may be field names. */
function parseFieldDecl(p: Cursor): FieldDecl {
  const start = p.pos;
  if (!p.atLabel()) {
    p.fail("a field: a name, `:` and a type", { hint: "For example: `temperature: Float`.", lineStart: true });
  }
  const name = p.ident(p.advance());
  p.advance(); // :
  const type = parseType(p);
  let jsonKey: TextLiteralValue | undefined;
  if (p.atOnLine("from")) {
    p.advance();
    const json = p.pos;
    if (p.kindAt(json) !== "name" || p.textAt(json) !== "json") p.fail("`json` after `from`", { hint: 'For example: `wind_speed: Int from json "windspeed"`.' });
    p.advance();
    jsonKey = parseTextValue(p, "the JSON key");
  }
  return { kind: "FieldDecl", name, type, ...(jsonKey ? { jsonKey } : {}), span: p.spanFrom(start) };
}

/** `Circle(radius: Float)` or a bare `Empty` */
function parseCaseDecl(p: Cursor): CaseDecl {
  const start = p.pos;
  if (p.kindAt(start) !== "upper") {
    p.fail("a case: a capitalised name, with fields in parentheses if it has any", {
      hint: "For example: `Circle(radius: Float)` or `Empty`.",
      lineStart: true,
    });
  }
  const name = p.ident(p.advance());
  const fields: FieldDecl[] = [];
  if (p.atOnLine("(")) {
    const open = p.advance();
    p.withLineBreaks(false, () => {
      while (!p.at(")")) {
        fields.push(parseFieldDecl(p));
        if (!p.eat(",")) break;
      }
      p.expect(")", "`,` or `)` after a field", { related: [{ span: p.spanOf(open), message: "opened here" }] });
    });
  }
  return { kind: "CaseDecl", name, fields, span: p.spanFrom(start) };
}

function parseFunctionDef(p: Cursor, start: Tok, isPublic: boolean): FunctionDef {
  const functionToken = p.advance(); // function
  // A keyword may name a function (the library's `process.run`, `list.sort`): it can
  // only be called through its module or as a method. The checker refuses it in a program.
  const name = p.atLabel(p.pos) || !isLabelKind(p.kind) || p.atLineBreak
    ? p.expectName("the function's name", { sameLine: true, hint: "For example: `function fetch(city: Text) returns Forecast`." })
    : p.ident(p.advance());
  const typeParams = parseTypeParams(p);
  return p.withLineBreaks(true, () => {
    const params = parseParams(p);
    const { returns, fails } = parseSignatureTail(p);
    expectNewLine(p, "the function's signature");
    const { purpose, needs } = parseHeaderLines(p);
    const body = parseBlock(p, ["end"], functionToken);
    p.advance(); // end
    return {
      kind: "FunctionDef",
      public: isPublic,
      name,
      typeParams,
      params,
      ...(returns ? { returns } : {}),
      ...(fails ? { fails } : {}),
      ...(purpose ? { purpose } : {}),
      ...(needs ? { needs } : {}),
      body,
      span: p.spanFrom(start),
    };
  });
}

/** `purpose:` and `needs` lines, in either order, each at most once. */
export function parseHeaderLines(p: Cursor): { purpose?: Purpose; needs?: Needs } {
  let purpose: Purpose | undefined;
  let needs: Needs | undefined;
  while (p.at("purpose") || p.at("needs")) {
    const token = p.pos;
    if ((p.kindAt(token) === "purpose" && purpose) || (p.kindAt(token) === "needs" && needs)) {
      p.report("E-SYN-HEADER", p.spanOf(token), `This function already has a \`${p.kindAt(token)}\` line`, {
        hint: p.kindAt(token) === "needs" ? "List every capability in one `needs` line, separated by commas." : "Write the purpose on one line.",
      });
    }
    const lineStart = p.pos;
    try {
      if (p.kindAt(token) === "purpose") purpose = parsePurpose(p);
      else needs = parseNeedsClause(p, "definition");
      expectNewLine(p, p.kindAt(token) === "purpose" ? "the purpose" : "the needs");
    } catch (e) {
      if (!(e instanceof SyntaxFailure)) throw e;
      p.synchronize(lineStart);
    }
  }
  return { ...(purpose ? { purpose } : {}), ...(needs ? { needs } : {}) };
}

function parsePurpose(p: Cursor): Purpose {
  const start = p.advance(); // purpose
  p.expect(":", "`:` after `purpose`", { hint: "For example: `purpose: Fetch the forecast for a city.`" });
  const prose = p.pos;
  if (p.kindAt(prose) !== "prose" || p.textAt(prose) === "") {
    p.fail("a sentence after `purpose:`", {
      code: "E-SYN-PURPOSE",
      message: "This `purpose:` says nothing",
      label: "a sentence goes here",
      hint: "Say what the definition is for: `purpose: Fetch the forecast for a city.`",
    });
  }
  p.advance();
  return { kind: "Purpose", text: p.textAt(prose), span: p.spanFrom(start) };
}

function parseTest(p: Cursor): TestDef {
  const start = p.advance(); // test
  return p.withLineBreaks(true, () => {
    const name = parseTextValue(p, "the test's name", { hint: 'For example: `test "the forecast for Berlin is read"`.' });
    const needs = p.atOnLine("needs") ? parseNeedsClause(p, "definition") : undefined;
    let replays: TextLiteralValue | undefined;
    if (p.atOnLine("replays")) {
      p.advance();
      replays = parseTextValue(p, "the recording's path", { hint: 'For example: `replays "fixtures/weather/berlin.json"`.' });
    }
    expectNewLine(p, "the test's name");
    const body = parseBlock(p, ["end"], start);
    p.advance(); // end
    return {
      kind: "TestDef",
      name,
      ...(needs ? { needs } : {}),
      ...(replays ? { replays } : {}),
      body,
      span: p.spanFrom(start),
    };
  });
}

/** `(name: Type, name: Type = default)` */
export function parseParams(p: Cursor): Param[] {
  const open = p.expect("(", "`(` and the parameters", { hint: "A function with no parameters is written `function name()`.", sameLine: true });
  return p.withLineBreaks(false, () => {
    const params: Param[] = [];
    while (!p.at(")")) {
      const start = p.pos;
      if (!p.atLabel()) p.fail("a parameter: a name, `:` and a type", { hint: "For example: `city: Text` or `retries: Int = 3`." });
      const name = p.ident(p.advance());
      p.advance(); // :
      const type = parseType(p);
      const value = p.eat("=") ? parseExpression(p) : undefined;
      params.push({ kind: "Param", name, type, ...(value ? { default: value } : {}), span: p.spanFrom(start) });
      if (!p.eat(",")) break;
    }
    p.expect(")", "`,` or `)` after a parameter", { related: [{ span: p.spanOf(open), message: "the parameters open here" }] });
    return params;
  });
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

/** A text without interpolation: a test's name, a JSON key, a scope, a recording's path. */
export function parseTextValue(p: Cursor, what: string, extra: { hint?: string } = {}): TextLiteralValue {
  const start = p.pos;
  if (p.kindAt(start) !== "text_start" || p.atLineBreak) return p.fail(`a text: ${what}`, extra);
  p.advance();
  let value = "";
  while (!p.at("text_end")) {
    const token = p.pos;
    if (p.kindAt(token) === "text_part") {
      value += p.valueAt(token) as string;
      p.advance();
    } else if (p.kindAt(token) === "interp_start") {
      p.report("E-SYN-INTERPOLATION", p.spanOf(token), `${capitalise(what)} cannot hold an interpolation`, {
        label: "an interpolation",
        hint: "Write the text out in full, or write `\\{` for a brace.",
      });
      // Skip the interpolation's tokens, texts nested in it included.
      let depth = 0;
      do {
        if (p.at("interp_start")) depth++;
        if (p.at("interp_end")) depth--;
        p.advance();
      } while (depth > 0 && !p.at("eof"));
    } else {
      return p.fail("the end of the text");
    }
  }
  p.advance();
  return { kind: "TextLiteralValue", value, span: p.spanFrom(start) };
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function expectNewLine(p: Cursor, after: string): void {
  if (!p.atLineBreak && !p.at("eof")) p.fail(`a new line after ${after}`);
}

function expectNewLineOrEnd(p: Cursor): void {
  if (!p.atLineBreak && !p.at("end")) p.fail("a new line: one field or case a line");
}
