// Blocks and statements (spec/grammar.md, sections 3 and 7).
//
// A statement ends at a line break (where line breaks count), or before a word
// that closes its block. After a statement the parser insists on one of those,
// so that `let x be 1 2` is an error and not two statements.

import type { TokenKind } from "../lex/tokens.js";
import { type Cursor, ParseAbort, SyntaxFailure, type Tok } from "./cursor.js";
import { parseExpression, parseMatch } from "./expressions.js";
import { parsePattern } from "./patterns.js";
import { parseType } from "./types.js";
import { parseItem } from "./definitions.js";
import type { Block, Expr, IfBranch, MatchArm, Statement } from "./tree.js";

/**
 * Statements up to (not including) one of `terminators`. `opener` is the token
 * that opened the block, named when the block is never closed.
 */
export function parseBlock(p: Cursor, terminators: readonly TokenKind[], opener: Tok): Block {
  return p.nested(() =>
    p.withLineBreaks(true, () => {
      const statements: Statement[] = [];
      const startOffset = p.offsetAt(p.pos);
      while (!p.atAny(terminators)) {
        if (p.at("eof")) {
          p.problem("E-SYN-UNCLOSED", p.spanOf(opener), { opener: p.textAt(opener) }, { edits: [p.endAtEndOfFile()] });
          throw new ParseAbort();
        }
        const statement = parseStatementLine(p, terminators);
        if (statement !== undefined) statements.push(statement);
      }
      return {
        kind: "Block",
        statements,
        span: { file: p.file, start: startOffset, end: Math.max(startOffset, p.offsetAt(p.pos)) },
      };
    }),
  );
}

/** One statement and the end of its line; on a syntax error, skips to the next line. */
function parseStatementLine(p: Cursor, terminators: readonly TokenKind[]): Statement | undefined {
  const start = p.pos;
  try {
    const statement = parseStatement(p);
    if (!p.atLineBreak && !p.atAny(terminators) && !p.at("eof")) {
      const token = p.pos;
      p.problem("E-SYN-STATEMENT", p.spanOf(token), { after: "statement", found: p.describeCurrent() });
      p.synchronize(start);
    }
    return statement;
  } catch (e) {
    if (!(e instanceof SyntaxFailure)) throw e;
    if (p.pos === start && p.atAny(["end", "else", "when"])) {
      // A closing word where a statement should be: leave it to the enclosing block.
      p.advance();
      return undefined;
    }
    p.synchronize(start);
    return undefined;
  }
}

export function parseStatement(p: Cursor): Statement {
  const token = p.pos;
  switch (p.kindAt(token)) {
    case "let":
      return parseLet(p);
    case "var":
      return parseVar(p);
    case "set":
      return parseSet(p);
    case "if":
      return parseIf(p);
    case "for":
      return parseFor(p);
    case "while":
      return parseWhile(p);
    case "stop":
      p.advance();
      return { kind: "Stop", span: p.spanOf(token) };
    case "skip":
      p.advance();
      return { kind: "Skip", span: p.spanOf(token) };
    case "return": {
      p.advance();
      if (endsHere(p)) return { kind: "Return", span: p.spanOf(token) };
      const value = parseExpression(p);
      return { kind: "Return", value, span: p.spanFrom(token) };
    }
    case "fail": {
      p.advance();
      if (!p.atOnLine("with")) return { kind: "Fail", span: p.spanOf(token) };
      p.advance();
      const value = parseExpression(p);
      return { kind: "Fail", value, span: p.spanFrom(token) };
    }
    case "crash": {
      p.advance();
      p.expect("with", "`with` and a message after `crash`", { guide: "crash", sameLine: true });
      const message = parseExpression(p);
      return { kind: "Crash", message, span: p.spanFrom(token) };
    }
    case "check":
      return parseCheck(p);
    case "run":
      return parseRunConcurrently(p);
    case "match": {
      const match = parseMatch(p);
      return { kind: "ExprStatement", expr: match, span: match.span };
    }
    case "end":
    case "else":
    case "when":
      return p.failWith("E-SYN-UNEXPECTED-END", p.missing(true).span, { word: p.kindAt(token), where: "block" });
    case "function":
    case "type":
    case "test":
    case "use":
    case "public":
      if (p.peekKind() !== "(") return nestedDefinition(p);
  }
  const expr = parseExpression(p);
  return { kind: "ExprStatement", expr, span: expr.span };
}

/**
 * A definition inside a block is reported, then read as a definition and
 * dropped, so that its `end` does not close the block around it.
 */
function nestedDefinition(p: Cursor): never {
  const token = p.pos;
  p.problem("E-SYN-NESTED-DEFINITION", p.spanOf(token), { definition: p.kindAt(token) });
  parseItem(p);
  throw new SyntaxFailure();
}

/** Where an optional value is absent: the line, or the block, ends. */
function endsHere(p: Cursor): boolean {
  return p.atLineBreak || p.atAny(["end", "else", "when", "eof"]);
}

function parseLet(p: Cursor): Statement {
  const start = p.advance();
  const pattern = parsePattern(p);
  const type = p.eat(":") ? parseType(p) : undefined;
  p.expect("be", "`be` after the name", {
    guide: "let",
    sameLine: true,
  });
  const value = parseExpression(p);
  return { kind: "Let", pattern, ...(type ? { type } : {}), value, span: p.spanFrom(start) };
}

function parseVar(p: Cursor): Statement {
  const start = p.advance();
  const name = p.expectName("a name for the variable", { sameLine: true });
  const type = p.eat(":") ? parseType(p) : undefined;
  p.expect("be", "`be` after the name", { guide: "var", sameLine: true });
  const value = parseExpression(p);
  return { kind: "Var", name, ...(type ? { type } : {}), value, span: p.spanFrom(start) };
}

function parseSet(p: Cursor): Statement {
  const start = p.advance();
  const name = p.expectName("the name of a `var` to change", { sameLine: true });
  if (p.atOnLine(".") || p.atOnLine("[")) {
    p.failWith("E-SYN-SET-TARGET", p.missing().span, { name: name.name });
  }
  p.expect("to", "`to` after the name", { guide: "set", name: name.name, sameLine: true });
  const value = parseExpression(p);
  return { kind: "Set", name, value, span: p.spanFrom(start) };
}

function parseIf(p: Cursor): Statement {
  const start = p.advance();
  const condition = parseExpression(p);
  if (p.atOnLine("then") && !p.newlineAt(p.pos + 1)) {
    // The one-line form: `if c then STATEMENT [else STATEMENT]`.
    p.advance();
    const body = inlineBlock(p);
    const branch: IfBranch = { kind: "IfBranch", condition, body, span: p.spanFrom(start) };
    let elseBody: Block | undefined;
    if (p.atOnLine("else")) {
      p.advance();
      elseBody = inlineBlock(p);
    }
    return { kind: "If", branches: [branch], ...(elseBody ? { elseBody } : {}), inline: true, span: p.spanFrom(start) };
  }
  p.eat("then");
  const branches: IfBranch[] = [];
  let elseBody: Block | undefined;
  let branchStart: Tok = start;
  let branchCondition: Expr = condition;
  while (true) {
    // `if c STATEMENT` on one line lacks only its `then`.
    if (!p.atLineBreak && p.kindAt(p.pos - 1) !== "then")
      p.fail("a new line after the condition", { guide: "block" }, p.insertion("then"));
    expectLineBreak(p, "the condition");
    const body = parseBlock(p, ["else", "end"], start);
    branches.push({ kind: "IfBranch", condition: branchCondition, body, span: p.spanFrom(branchStart) });
    if (p.at("end")) break;
    const elseToken = p.advance();
    if (p.atOnLine("if")) {
      branchStart = p.advance();
      branchCondition = parseExpression(p);
      p.eat("then");
      continue;
    }
    expectLineBreak(p, "`else`");
    elseBody = parseBlock(p, ["end"], elseToken);
    // A second `else` is not seen here: the block above stops only at `end`,
    // and reads a stray `else` as E-SYN-UNEXPECTED-END.
    if (p.at("else")) p.failWith("E-SYN-UNEXPECTED-END", p.spanOf(p.pos), { word: "else", where: "block" });
    break;
  }
  p.expect("end", "`end` to close the `if`");
  return { kind: "If", branches, ...(elseBody ? { elseBody } : {}), inline: false, span: p.spanFrom(start) };
}

/** One statement on the same line, as a block of its own. */
function inlineBlock(p: Cursor): Block {
  return p.nested(() => {
    const statement = parseStatement(p);
    return { kind: "Block", statements: [statement], span: statement.span };
  });
}

function expectLineBreak(p: Cursor, after: string): void {
  if (!p.atLineBreak) {
    p.fail(`a new line after ${after}`, { guide: "block" });
  }
}

function parseFor(p: Cursor): Statement {
  const start = p.advance();
  p.expect("each", "`each` after `for`", { guide: "for-each" });
  const pattern = parsePattern(p);
  p.expect("in", "`in` after the loop's name", { guide: "for-in" });
  const iterable = parseExpression(p);
  expectLineBreak(p, "the loop's header");
  const body = parseBlock(p, ["end"], start);
  p.expect("end", "`end` to close the loop");
  return { kind: "ForEach", pattern, iterable, body, span: p.spanFrom(start) };
}

function parseWhile(p: Cursor): Statement {
  const start = p.advance();
  const condition = parseExpression(p);
  expectLineBreak(p, "the condition");
  const body = parseBlock(p, ["end"], start);
  p.expect("end", "`end` to close the loop");
  return { kind: "While", condition, body, span: p.spanFrom(start) };
}

function parseCheck(p: Cursor): Statement {
  const start = p.advance();
  const expr = parseExpression(p);
  if (p.atOnLine("fails")) {
    p.advance();
    p.expect("with", "`with` and a pattern after `fails`", { guide: "check-fails" });
    const pattern = parsePattern(p);
    return { kind: "CheckFails", expr, pattern, span: p.spanFrom(start) };
  }
  return { kind: "Check", condition: expr, span: p.spanFrom(start) };
}

function parseRunConcurrently(p: Cursor): Statement {
  const start = p.advance();
  p.expect("concurrently", "`concurrently` after `run`", { guide: "run-concurrently" });
  expectLineBreak(p, "`run concurrently`");
  const body = parseBlock(p, ["end"], start);
  p.expect("end", "`end` to close `run concurrently`");
  return { kind: "RunConcurrently", body, span: p.spanFrom(start) };
}

/**
 * `when PATTERN then STATEMENT` or `when PATTERN` and a block, until `end`.
 * Used by `match` and by `otherwise` with arms; line breaks count inside.
 */
export function parseArms(p: Cursor, owner: "match" | "otherwise"): MatchArm[] {
  const arms: MatchArm[] = [];
  while (!p.at("end") && !p.at("eof")) {
    const armStart = p.pos;
    try {
      if (!p.at("when")) {
        p.fail("`when` to start an arm", {
          guide: owner === "match" ? "match-arm" : "otherwise-arm",
          lineStart: true,
        });
      }
      const start = p.advance();
      const pattern = parsePattern(p);
      if (p.atOnLine("then") && !p.newlineAt(p.pos + 1)) {
        p.advance();
        const body = inlineBlock(p);
        arms.push({ kind: "MatchArm", pattern, body, inline: true, span: p.spanFrom(start) });
        if (!p.atLineBreak && !p.at("end")) p.fail("a new line after this arm");
      } else {
        p.eat("then");
        expectLineBreak(p, "the pattern");
        const body = parseBlock(p, ["when", "end"], start);
        arms.push({ kind: "MatchArm", pattern, body, inline: false, span: p.spanFrom(start) });
      }
    } catch (e) {
      if (!(e instanceof SyntaxFailure)) throw e;
      p.synchronize(armStart);
    }
  }
  return arms;
}
