// Expressions (spec/grammar.md, sections 8 and 9).
//
// Binary operators are read by precedence climbing, loosest first:
//   otherwise; or; and; not; is, is not, <, <=, >, >=; to, until; + -; * / mod;
//   unary -; then calls, .field, .method(...), [index] and `with`.
// Comparisons and ranges do not chain (`a < b < c` is an error).

import type { TokenKind } from "../lex/tokens.js";
import { type Cursor, isLabelKind, SyntaxFailure, type Tok } from "./cursor.js";
import { parsePattern } from "./patterns.js";
import { parseArms, parseBlock } from "./statements.js";
import { parseHeaderLines, parseParams } from "./signatures.js";
import { parseSignatureTail, parseType } from "./types.js";
import type {
  Argument,
  BinaryOperator,
  Concurrently,
  Expr,
  FieldUpdate,
  FunctionExpr,
  Lambda,
  LambdaParam,
  ListLiteral,
  MapEntry,
  MapLiteral,
  Match,
  OtherwiseHandler,
  Query,
  QueryClause,
  Select,
  SortKey,
  TextLiteral,
  TextChunk,
} from "./tree.js";
import { parseStatement } from "./statements.js";

/**
 * How tightly each binary operator binds (higher binds tighter); the formatter
 * reads the same table to know which parentheses a tree needs.
 */
export const PRECEDENCE: Readonly<Record<BinaryOperator, number>> = {
  or: 1,
  and: 2,
  // `not` is 3: a prefix, read in parsePrefix.
  is: 4,
  "is not": 4, // `is` then `not`: read as `is`, its level
  "<": 4,
  "<=": 4,
  ">": 4,
  ">=": 4,
  to: 5,
  until: 5,
  "+": 6,
  "-": 6,
  "*": 7,
  "/": 7,
  mod: 7,
};

const NON_ASSOCIATIVE = new Set([4, 5]);

// An operator at the start of a line continues the expression above only if no
// statement could start with it; `-` and `not` could, so a line starting with
// them is a new statement.
const CONTINUES_AT_LINE_START: ReadonlySet<TokenKind> = new Set<TokenKind>([
  "or",
  "and",
  "is",
  "<",
  "<=",
  ">",
  ">=",
  "to",
  "until",
  "+",
  "*",
  "/",
  "mod",
]);

const CLAUSE_WORDS: ReadonlySet<TokenKind> = new Set<TokenKind>([
  "from",
  "where",
  "let",
  "sort",
  "group",
  "take",
  "drop",
  "concurrently",
  "select",
]);

/** A full expression: a query, or an operator expression with an optional `otherwise`. */
export function parseExpression(p: Cursor): Expr {
  return p.nested(() => {
    if (p.at("from")) return parseQuery(p);
    return parseOtherwiseTail(p, parseBinary(p, 1));
  });
}

/** An expression without `otherwise` (as the value of a `with` update). */
function parseOperand(p: Cursor): Expr {
  return p.nested(() => parseBinary(p, 1));
}

function parseOtherwiseTail(p: Cursor, expr: Expr): Expr {
  // `otherwise` may also open the next line: no statement starts with it.
  if (!p.at("otherwise")) return expr;
  const start = p.advance();
  const handler = parseOtherwiseHandler(p, start);
  return { kind: "Otherwise", expr, handler, span: { file: p.file, start: expr.span.start, end: handler.span.end } };
}

function parseOtherwiseHandler(p: Cursor, start: Tok): OtherwiseHandler {
  // After `otherwise`, line breaks are skipped: the handler may start on the next line.
  if (p.at("when")) {
    return p.withLineBreaks(true, () => {
      const arms = parseArms(p, "otherwise");
      p.expect("end", "`end` to close the arms of this `otherwise`", {
        opened: { at: start, by: "otherwise" },
      });
      return { kind: "OtherwiseArms", arms, span: p.spanFrom(start) };
    });
  }
  if (p.at("fail")) {
    p.advance();
    if (p.atOnLine("with")) {
      p.advance();
      const value = parseExpression(p);
      return { kind: "OtherwiseFail", value, span: p.spanFrom(start) };
    }
    return { kind: "OtherwiseFail", span: p.spanFrom(start) };
  }
  if (p.atAny(["return", "stop", "skip", "crash"])) {
    const statement = parseStatement(p);
    if (
      statement.kind !== "Return" &&
      statement.kind !== "Stop" &&
      statement.kind !== "Skip" &&
      statement.kind !== "Crash"
    ) {
      throw new SyntaxFailure();
    }
    return { kind: "OtherwiseLeave", statement, span: p.spanFrom(start) };
  }
  if (p.at("eof") || p.at("end")) {
    p.fail("a value, `fail` or `when` arms after `otherwise`", {
      guide: "otherwise",
    });
  }
  const value = parseExpression(p);
  return { kind: "OtherwiseDefault", value, span: p.spanFrom(start) };
}

/** Precedence climbing over the binary operators at `min` and tighter. */
function parseBinary(p: Cursor, min: number): Expr {
  let left = parsePrefix(p, min);
  const depthAtStart = p.depth;
  try {
    let lastLevel = 0;
    while (true) {
      const token = p.pos;
      const level = (PRECEDENCE as Partial<Record<string, number>>)[p.kindAt(token)];
      if (level === undefined || level < min) break;
      if (p.atLineBreak && !CONTINUES_AT_LINE_START.has(p.kindAt(token))) break;
      if (lastLevel === level && NON_ASSOCIATIVE.has(level)) {
        p.failWith("E-SYN-CHAIN", p.spanOf(token), {
          operator: p.textAt(token),
          kind: level === 4 ? "comparison" : "range",
        });
      }
      p.advance();
      let op = p.kindAt(token) as BinaryOperator;
      if (op === "is" && p.at("not")) {
        p.advance();
        op = "is not";
      }
      // A chain of operators nests its left side one level deeper each time.
      p.enter();
      const right = p.at("from") ? queryOperand(p) : parseBinary(p, level + 1);
      left = { kind: "Binary", op, left, right, span: { file: p.file, start: left.span.start, end: right.span.end } };
      lastLevel = level;
    }
  } finally {
    p.depth = depthAtStart;
  }
  return left;
}

function parsePrefix(p: Cursor, min: number): Expr {
  const token = p.pos;
  if (p.kindAt(token) === "not") {
    p.advance();
    return p.nested(() => {
      const operand = parseBinary(p, Math.max(min, 4));
      return { kind: "Unary", op: "not", operand, span: p.spanFrom(token) };
    });
  }
  if (p.kindAt(token) === "-") {
    p.advance();
    return p.nested(() => {
      const operand = parsePrefix(p, 8);
      return { kind: "Unary", op: "-", operand, span: p.spanFrom(token) };
    });
  }
  return parsePostfix(p);
}

/** A query where an operand was expected: reported, then read anyway so that parsing goes on. */
function queryOperand(p: Cursor): Expr {
  p.problem("E-SYN-QUERY-OPERAND", p.spanOf(p.pos), {});
  return parseQuery(p);
}

function parsePostfix(p: Cursor): Expr {
  let expr = parsePrimary(p);
  const depthAtStart = p.depth;
  try {
    while (true) {
      const token = p.pos;
      if (p.kindAt(token) === ".") {
        // A line may start with `.name`: method chains read well one call a line.
        p.advance();
        const nameToken = p.pos;
        if (!isLabelKind(p.kindAt(nameToken)) && p.kindAt(nameToken) !== "upper") {
          p.fail("a field or function name after `.`", { guide: "member" });
        }
        p.advance();
        p.enter();
        expr = { kind: "Member", object: expr, name: p.ident(nameToken), span: p.spanFrom(expr.span) };
      } else if (p.kindAt(token) === "(" && !p.atLineBreak) {
        p.enter();
        const args = parseArguments(p);
        expr = { kind: "Call", callee: expr, args, span: p.spanFrom(expr.span) };
      } else if (p.kindAt(token) === "[" && !p.atLineBreak) {
        p.advance();
        p.enter();
        const index = p.withLineBreaks(false, () => parseExpression(p));
        p.expect("]", "`]` to close the index", { opened: { at: token, by: "bracket" } });
        expr = { kind: "Index", object: expr, index, span: p.spanFrom(expr.span) };
      } else if (p.kindAt(token) === "with" && p.peekKind() !== "(") {
        p.advance();
        p.enter();
        const updates = parseUpdates(p);
        expr = { kind: "With", record: expr, updates, span: p.spanFrom(expr.span) };
        break;
      } else {
        break;
      }
    }
  } finally {
    p.depth = depthAtStart;
  }
  return expr;
}

/** `with name: value, name: value`: items go on while a name and `:` follow a comma. */
function parseUpdates(p: Cursor): FieldUpdate[] {
  const updates: FieldUpdate[] = [];
  do {
    if (!p.atLabel()) {
      p.fail("a field and its new value after `with`", { guide: "with" });
    }
    const nameToken = p.advance();
    p.advance(); // :
    const value = parseOperand(p);
    updates.push({ kind: "FieldUpdate", name: p.ident(nameToken), value, span: p.spanFrom(nameToken) });
  } while (p.at(",") && isLabelKind(p.peekKind()) && p.peekKind(2) === ":" && p.advance() >= 0);
  return updates;
}

function parseArguments(p: Cursor): Argument[] {
  const open = p.advance();
  return p.withLineBreaks(false, () => {
    const args: Argument[] = [];
    let named = false;
    while (!p.at(")")) {
      const start = p.pos;
      if (p.atLabel()) {
        const label = p.ident(p.advance());
        p.advance(); // :
        const value: Expr =
          label.name === "as"
            ? (() => {
                const type = parseType(p);
                return { kind: "TypeArgument", type, span: type.span } as const;
              })()
            : parseExpression(p);
        args.push({ kind: "Argument", label, value, span: p.spanFrom(start) });
        named = true;
      } else {
        const value = parseExpression(p);
        if (named) {
          p.problem("E-SYN-ARGUMENT-ORDER", value.span, {});
        }
        args.push({ kind: "Argument", value, span: p.spanFrom(start) });
      }
      if (!p.eat(",")) break;
    }
    p.expect(")", "`,` or `)` in this argument list", {
      opened: { at: open, by: "arguments" },
    });
    return args;
  });
}

function parsePrimary(p: Cursor): Expr {
  const token = p.pos;
  switch (p.kindAt(token)) {
    case "int":
      p.advance();
      return { kind: "IntLiteral", value: p.valueAt(token) as number, span: p.spanOf(token) };
    case "float":
      p.advance();
      return { kind: "FloatLiteral", value: p.valueAt(token) as number, span: p.spanOf(token) };
    case "true":
    case "false":
      p.advance();
      return { kind: "BooleanLiteral", value: p.kindAt(token) === "true", span: p.spanOf(token) };
    case "nothing":
      p.advance();
      return { kind: "NothingLiteral", span: p.spanOf(token) };
    case "name":
      p.advance();
      return { kind: "Name", name: p.textAt(token), span: p.spanOf(token) };
    case "upper":
      p.advance();
      return { kind: "UpperName", name: p.textAt(token), span: p.spanOf(token) };
    case "text_start":
      return parseText(p);
    // Each of these nests through parseExpression, parseBlock or parseType,
    // which count the level.
    case "(":
      return parseParenthesised(p);
    case "[":
      return parseList(p);
    case "{":
      return parseMap(p);
    case "if":
      return parseIfExpr(p);
    case "match":
      return parseMatch(p);
    case "function":
      return parseFunctionExpr(p);
    case "from":
      return queryOperand(p);
  }
  if (p.at("end") || p.at("eof") || p.atLineBreak) {
    return p.fail("an expression", { guide: "missing-expression" });
  }
  return p.fail("an expression");
}

export function parseText(p: Cursor): TextLiteral {
  const start = p.advance(); // text_start
  const parts: (TextChunk | Expr)[] = [];
  while (true) {
    const token = p.pos;
    if (p.kindAt(token) === "text_part") {
      p.advance();
      parts.push({ kind: "TextChunk", value: p.valueAt(token) as string, span: p.spanOf(token) });
    } else if (p.kindAt(token) === "interp_start") {
      p.advance();
      if (p.at("interp_end")) {
        p.problem("E-SYN-INTERPOLATION", p.spanFrom(token), { problem: "empty" });
        p.advance();
        continue;
      }
      const expr = p.withLineBreaks(false, () => parseExpression(p));
      parts.push(expr);
      if (!p.at("interp_end")) {
        p.fail("`}` to end the interpolation", {
          opened: { at: token, by: "interpolation" },
          guide: "interpolation",
        });
      }
      p.advance();
    } else if (p.kindAt(token) === "text_end") {
      p.advance();
      return { kind: "TextLiteral", parts, span: p.spanFrom(start) };
    } else {
      return p.fail("the end of the text");
    }
  }
}

function parseParenthesised(p: Cursor): Expr {
  const open = p.pos;
  if (p.partnerAt(open) > 0 && p.kindAt(p.partnerAt(open) + 1) === "=>") return parseLambda(p);
  p.advance();
  return p.withLineBreaks(false, () => {
    if (p.at(")")) {
      p.fail("an expression between the parentheses", {
        guide: "empty-parentheses",
      });
    }
    const first = parseExpression(p);
    if (p.eat(",")) {
      const second = parseExpression(p);
      if (p.at(",")) {
        p.fail("`)`: a pair holds exactly two values", {
          guide: "pair-size",
        });
      }
      p.expect(")", "`)` to close the pair", { opened: { at: open, by: "bracket" } });
      return { kind: "PairLiteral", first, second, span: p.spanFrom(open) };
    }
    p.expect(")", "`)`", { opened: { at: open, by: "parenthesis" } });
    return first;
  });
}

function parseLambda(p: Cursor): Lambda {
  const open = p.advance();
  const params = p.withLineBreaks(false, () => {
    const params: LambdaParam[] = [];
    while (!p.at(")")) {
      const start = p.pos;
      const name = p.expectName("a parameter name");
      const type = p.eat(":") ? parseType(p) : undefined;
      params.push({ kind: "LambdaParam", name, ...(type ? { type } : {}), span: p.spanFrom(start) });
      if (!p.eat(",")) break;
    }
    p.expect(")", "`,` or `)` after a parameter", { opened: { at: open, by: "parameters" } });
    return params;
  });
  p.expect("=>", "`=>`");
  const body = parseExpression(p);
  return { kind: "Lambda", params, body, span: p.spanFrom(open) };
}

function parseList(p: Cursor): ListLiteral {
  const open = p.advance();
  return p.withLineBreaks(false, () => {
    const items: Expr[] = [];
    while (!p.at("]")) {
      items.push(parseExpression(p));
      if (!p.eat(",")) break;
    }
    p.expect("]", "`,` or `]` in this list", { opened: { at: open, by: "list" } });
    return { kind: "ListLiteral", items, span: p.spanFrom(open) };
  });
}

function parseMap(p: Cursor): MapLiteral {
  const open = p.advance();
  return p.withLineBreaks(false, () => {
    const entries: MapEntry[] = [];
    while (!p.at("}")) {
      const key = parseExpression(p);
      p.expect(":", "`:` between a key and its value", { guide: "map" });
      const value = parseExpression(p);
      entries.push({
        kind: "MapEntry",
        key,
        value,
        span: { file: p.file, start: key.span.start, end: value.span.end },
      });
      if (!p.eat(",")) break;
    }
    p.expect("}", "`,` or `}` in this map", { opened: { at: open, by: "map" } });
    return { kind: "MapLiteral", entries, span: p.spanFrom(open) };
  });
}

function parseIfExpr(p: Cursor): Expr {
  const start = p.advance();
  const condition = parseExpression(p);
  p.expect("then", "`then` after the condition", {
    guide: "if-value",
  });
  const then = parseExpression(p);
  p.expect("else", "`else`: an `if` that gives a value needs both branches", {
    guide: "if-value-else",
  });
  const otherwise = parseExpression(p);
  return { kind: "IfExpr", condition, then, else: otherwise, span: p.spanFrom(start) };
}

export function parseMatch(p: Cursor): Match {
  const start = p.advance();
  return p.withLineBreaks(true, () => {
    const subject = parseExpression(p);
    const arms = parseArms(p, "match");
    p.expect("end", "`when` or `end` in this `match`", {
      opened: { at: start, by: "match" },
    });
    return { kind: "Match", subject, arms, span: p.spanFrom(start) };
  });
}

function parseFunctionExpr(p: Cursor): FunctionExpr {
  const start = p.advance();
  return p.withLineBreaks(true, () => {
    const params = parseParams(p);
    const { returns, fails } = parseSignatureTail(p);
    if (!p.atLineBreak) p.fail("a new line after the function's signature");
    const { needs } = parseHeaderLines(p);
    const body = parseBlock(p, ["end"], start);
    p.expect("end", "`end` to close this function", { opened: { at: start, by: "function" } });
    return {
      kind: "FunctionExpr",
      params,
      ...(returns ? { returns } : {}),
      ...(fails ? { fails } : {}),
      ...(needs ? { needs } : {}),
      body,
      span: p.spanFrom(start),
    };
  });
}

// ---- queries ----

function parseQuery(p: Cursor): Query {
  const start = p.pos;
  const clauses: QueryClause[] = [];
  let concurrently: Concurrently | undefined;
  while (true) {
    const token = p.pos;
    if (clauses.length === 0 && p.kindAt(token) !== "from") p.fail("`from` to start the query");
    if (!CLAUSE_WORDS.has(p.kindAt(token))) {
      p.fail("another clause or `select` to end the query", {
        guide: "query-end",
      });
    }
    if (p.kindAt(token) === "select") break;
    if (concurrently !== undefined) p.fail("`select` after `concurrently`");
    p.advance();
    switch (p.kindAt(token)) {
      case "from": {
        const pattern = parsePattern(p);
        p.expect("in", "`in` after the name in `from`", { guide: "query-in" });
        const source = parseClauseExpr(p);
        clauses.push({ kind: "FromClause", pattern, source, span: p.spanFrom(token) });
        break;
      }
      case "where":
        clauses.push({ kind: "WhereClause", condition: parseClauseExpr(p), span: p.spanFrom(token) });
        break;
      case "let": {
        const name = p.expectName("a name after `let`");
        p.expect("be", "`be` after the name");
        const value = parseClauseExpr(p);
        clauses.push({ kind: "LetClause", name, value, span: p.spanFrom(token) });
        break;
      }
      case "sort": {
        p.expect("by", "`by` after `sort`", { guide: "query-sort" });
        const keys: SortKey[] = [];
        do {
          const keyStart = p.pos;
          const value = parseClauseExpr(p);
          const descending = p.eat("descending");
          keys.push({ kind: "SortKey", value, descending, span: p.spanFrom(keyStart) });
        } while (p.eat(","));
        clauses.push({ kind: "SortClause", keys, span: p.spanFrom(token) });
        break;
      }
      case "group": {
        p.expect("by", "`by` after `group`", { guide: "query-group" });
        const key = parseClauseExpr(p);
        p.expect("into", "`into` and a name for each group", { guide: "query-group" });
        const into = p.expectName("a name for each group");
        clauses.push({ kind: "GroupClause", key, into, span: p.spanFrom(token) });
        break;
      }
      case "take":
        clauses.push({ kind: "TakeClause", count: parseClauseExpr(p), span: p.spanFrom(token) });
        break;
      case "drop":
        clauses.push({ kind: "DropClause", count: parseClauseExpr(p), span: p.spanFrom(token) });
        break;
      case "concurrently":
        concurrently = parseConcurrently(p, token);
        break;
    }
  }
  const selectToken = p.advance();
  const distinct = p.eat("distinct");
  const value = parseExpression(p);
  const select: Select = { kind: "Select", distinct, value, span: p.spanFrom(selectToken) };
  return { kind: "Query", clauses, ...(concurrently ? { concurrently } : {}), select, span: p.spanFrom(start) };
}

/** A clause's expression; it ends before the next clause word, whatever the line. */
function parseClauseExpr(p: Cursor): Expr {
  return parseOperand(p);
}

/** `concurrently [at most N at a time]` */
function parseConcurrently(p: Cursor, start: Tok): Concurrently {
  if (!p.at("at")) return { kind: "Concurrently", span: p.spanFrom(start) };
  const example = { guide: "concurrently" } as const;
  p.advance();
  p.expect("most", "`most` after `at`", example);
  const countToken = p.expect("int", "a whole number of tasks", example);
  p.expect("at", "`at a time` after the number", example);
  const a = p.pos;
  if (p.kindAt(a) !== "name" || p.textAt(a) !== "a" || p.peekKind() !== "name" || p.peekText() !== "time") {
    p.fail("`a time` after `at`", example);
  }
  p.advance();
  p.advance();
  return {
    kind: "Concurrently",
    limit: { kind: "IntLiteral", value: p.valueAt(countToken) as number, span: p.spanOf(countToken) },
    span: p.spanFrom(start),
  };
}
