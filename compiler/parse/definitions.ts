// The top level of a file (spec/grammar.md, section 4): `use`, types,
// functions and tests.

import { type Cursor, isLabelKind, ParseAbort, SyntaxFailure, type Tok } from "./cursor.js";
import { parseNeedsClause, parseUnusedCalls } from "./needs.js";
import { parseBlock } from "./statements.js";
import { expectNewLine, parseHeaderLines, parseParams, parsePurpose } from "./signatures.js";
import { parseTextValue } from "./texts.js";
import { parseSignatureTail, parseType } from "./types.js";
import type {
  CallRange,
  CaseDecl,
  FieldDecl,
  FunctionDef,
  Ident,
  IntLiteral,
  Item,
  Module,
  TestDef,
  TextLiteralValue,
  TypeDef,
  UnusedCalls,
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
          const { span, found } = p.missing();
          p.failWith("E-SYN-STATEMENT", span, { after: "definition", found });
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
      return p.failWith("E-SYN-UNEXPECTED-END", p.missing(true).span, { word: "end", where: "top-level" });
    case "public": {
      p.advance();
      if (p.at("type")) return parseTypeDef(p, token, true);
      if (p.at("function")) return parseFunctionDef(p, token, true);
      return p.fail("`function` or `type` after `public`");
    }
  }
  const { span, found } = p.missing(true);
  return p.failWith("E-SYN-TOP-LEVEL", span, { found });
}

function parseUse(p: Cursor): Use {
  const start = p.advance();
  const example = { guide: "use" } as const;
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
  p.expect(">", "`,` or `>` after the type parameters", { opened: { at: open, by: "bracket" } });
  return params;
}

function parseTypeDef(p: Cursor, start: Tok, isPublic: boolean): TypeDef {
  const typeToken = p.advance(); // type
  const nameToken = p.pos;
  if (p.kindAt(nameToken) !== "upper" || p.atLineBreak) {
    p.fail("a type name starting with a capital letter", { guide: "type-name" });
  }
  const name = p.ident(p.advance());
  const typeParams = parseTypeParams(p);
  p.expect("is", "`is` after the type's name", { guide: "type-is", name: name.name });
  const kind = p.pos;
  if (p.kindAt(kind) !== "record" && p.kindAt(kind) !== "variant") {
    p.fail("`record` or `variant`", { guide: "type-kind", name: name.name });
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
        p.problem("E-SYN-UNCLOSED", p.spanOf(typeToken), { opener: "type" }, { edits: [p.endAtEndOfFile()] });
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
    p.fail("a field: a name, `:` and a type", { guide: "field", lineStart: true });
  }
  const name = p.ident(p.advance());
  p.advance(); // :
  const type = parseType(p);
  let jsonKey: TextLiteralValue | undefined;
  if (p.atOnLine("from")) {
    p.advance();
    const json = p.pos;
    if (p.kindAt(json) !== "name" || p.textAt(json) !== "json") p.fail("`json` after `from`", { guide: "json-key" });
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
      guide: "case",
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
      p.expect(")", "`,` or `)` after a field", { opened: { at: open, by: "bracket" } });
    });
  }
  return { kind: "CaseDecl", name, fields, span: p.spanFrom(start) };
}

function parseFunctionDef(p: Cursor, start: Tok, isPublic: boolean): FunctionDef {
  const functionToken = p.advance(); // function
  // A keyword may name a function (the library's `process.run`, `list.sort`): it can
  // only be called through its module or as a method. The checker refuses it in a program.
  const name =
    p.atLabel(p.pos) || !isLabelKind(p.kind) || p.atLineBreak
      ? p.expectName("the function's name", { sameLine: true, guide: "function-name" })
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

function parseTest(p: Cursor): TestDef {
  const start = p.advance(); // test
  return p.withLineBreaks(true, () => {
    const name = parseTextValue(p, "the test's name", { guide: "test-name" });
    const needs = p.atOnLine("needs") ? parseNeedsClause(p, "definition") : undefined;
    let replays: TextLiteralValue | undefined;
    let calls: CallRange | undefined;
    let unused: UnusedCalls | undefined;
    if (p.atOnLine("replays")) {
      p.advance();
      replays = parseTextValue(p, "the recording's path", { guide: "recording" });
      if (atWordOnLine(p, "calls")) calls = parseCallRange(p);
      if (atWordOnLine(p, "unused")) unused = parseUnusedCalls(p);
      if (unused !== undefined && atWordOnLine(p, "calls"))
        p.fail("a new line: `calls N to M` comes before `unused`", { guide: "recording-part" });
    } else if (atWordOnLine(p, "calls") || atWordOnLine(p, "unused")) {
      p.fail(`\`replays "path"\` before \`${p.textAt(p.pos)}\`, or a new line`, { guide: "recording-part" });
    }
    expectNewLine(p, replays === undefined ? "the test's name" : "the recording's path, its `calls` or `unused`");
    const body = parseBlock(p, ["end"], start);
    p.advance(); // end
    return {
      kind: "TestDef",
      name,
      ...(needs ? { needs } : {}),
      ...(replays ? { replays } : {}),
      ...(calls ? { calls } : {}),
      ...(unused ? { unused } : {}),
      body,
      span: p.spanFrom(start),
    };
  });
}

/**
 * `calls` and `unused` are words of a test's header only, after its recording's path, not keywords:
 * a program may still name a variable `calls`.
 */
function atWordOnLine(p: Cursor, word: string): boolean {
  return p.atOnLine("name") && p.textAt(p.pos) === word;
}

/** `calls 1 to 3`: the first and the last sequence number of the part of the recording that is the test's. */
function parseCallRange(p: Cursor): CallRange {
  const start = p.advance(); // calls
  const example = { guide: "recording-part", sameLine: true } as const;
  const first = sequenceNumber(p, "the first call's sequence number after `calls`", example);
  p.expect("to", "`to` and the last call's sequence number", example);
  const last = sequenceNumber(p, "the last call's sequence number after `to`", example);
  return { kind: "CallRange", first, last, span: p.spanFrom(start) };
}

function sequenceNumber(p: Cursor, expected: string, how: { guide: "recording-part"; sameLine: true }): IntLiteral {
  if (!p.atOnLine("int")) p.fail(expected, how);
  const token = p.advance();
  return { kind: "IntLiteral", value: p.valueAt(token) as number, span: p.spanOf(token) };
}

function expectNewLineOrEnd(p: Cursor): void {
  if (!p.atLineBreak && !p.at("end")) p.fail("a new line: one field or case a line");
}
