// The parser's state: the tokens, the position, the diagnostics, the nesting
// depth and whether line breaks end statements here. The grammar lives in the
// files beside this one, each a set of functions over a Cursor.

import { error, type Diagnostic } from "../diagnostics.js";
import type { Span } from "../source.js";
import { describeToken, KEYWORD_SET, type Token, type TokenKind } from "../lex/tokens.js";
import type { Ident } from "./tree.js";

/** Thrown to abandon the statement being read; the diagnostic is already recorded. */
export class SyntaxFailure {
  readonly tag = "SyntaxFailure";
}

/** Thrown to abandon the whole file (too deep, too many errors). */
export class ParseAbort {
  readonly tag = "ParseAbort";
}

/** Nesting of expressions, blocks, types and patterns (seed 002: E-SYN-TOO-DEEP). */
export const MAX_NESTING = 128;

/** A file with this many syntax errors has more wrong than a list can help with. */
export const MAX_ERRORS = 100;

export class Cursor {
  pos = 0;
  depth = 0;
  readonly diagnostics: Diagnostic[] = [];
  private errorCount = 0;
  /** Whether a line break ends what is being read; false inside brackets. */
  private lineBreaks: boolean[] = [true];

  /**
   * @param quietLines lines where the lexer already reported an error: the
   * parser's complaints there are most often echoes of it, so they are dropped.
   */
  constructor(
    readonly file: string,
    readonly tokens: Token[],
    private readonly quietLines: ReadonlySet<number> = new Set(),
  ) {}

  // ---- looking ----

  get token(): Token {
    return this.tokens[this.pos]!;
  }

  peek(ahead = 1): Token {
    return this.tokens[Math.min(this.pos + ahead, this.tokens.length - 1)]!;
  }

  at(kind: TokenKind): boolean {
    return this.tokens[this.pos]!.kind === kind;
  }

  atAny(kinds: readonly TokenKind[]): boolean {
    return kinds.includes(this.tokens[this.pos]!.kind);
  }

  /** True where the current token starts a new line and line breaks count here. */
  get atLineBreak(): boolean {
    return this.tokens[this.pos]!.newlineBefore && this.lineBreaks[this.lineBreaks.length - 1]!;
  }

  /** The current token is `kind` and on the same logical line. */
  atOnLine(kind: TokenKind): boolean {
    return this.at(kind) && !this.atLineBreak;
  }

  get lineBreaksCount(): boolean {
    return this.lineBreaks[this.lineBreaks.length - 1]!;
  }

  // ---- moving ----

  advance(): Token {
    const token = this.tokens[this.pos]!;
    if (token.kind !== "eof") this.pos++;
    return token;
  }

  eat(kind: TokenKind): Token | undefined {
    if (this.tokens[this.pos]!.kind === kind) return this.advance();
    return undefined;
  }

  expect(kind: TokenKind, what: string, extra: ErrorExtra = {}): Token {
    if (this.at(kind) && !(this.atLineBreak && extra.sameLine === true)) return this.advance();
    return this.fail(what, extra);
  }

  /** A name where the grammar wants one; a keyword gets its own message. */
  expectName(what: string, extra: ErrorExtra = {}): Ident {
    const token = this.token;
    if (token.kind === "name" && !(this.atLineBreak && extra.sameLine === true)) {
      this.advance();
      return this.ident(token);
    }
    if (KEYWORD_SET.has(token.kind) && !this.atLineBreak) {
      this.report("E-SYN-KEYWORD", this.spanOf(token), `\`${token.kind}\` is a keyword, so it cannot be ${what}`, {
        label: "a keyword",
        hint: `Choose another name, such as \`${token.kind}_value\`. Keywords may be used as field names and argument labels only.`,
      });
      throw new SyntaxFailure();
    }
    return this.fail(what, extra);
  }

  /** A label before `:` (argument, field, with-update): any name, keywords included. */
  atLabel(): boolean {
    const token = this.token;
    return isLabelToken(token) && this.peek().kind === ":";
  }

  ident(token: Token): Ident {
    return { kind: "Ident", name: token.text, span: this.spanOf(token) };
  }

  // ---- spans ----

  spanOf(token: Token): Span {
    return { file: this.file, start: token.offset, end: token.offset + token.length };
  }

  /** From the start of `first` to the end of the last token consumed. */
  spanFrom(first: Token | Span): Span {
    const start = "offset" in first ? first.offset : first.start;
    const last = this.tokens[this.pos - 1];
    const end = last === undefined ? start : Math.max(start, last.offset + last.length);
    return { file: this.file, start, end };
  }

  // ---- line breaks ----

  /** Reads with line breaks counting (`true`) or not (`false`, inside brackets). */
  withLineBreaks<T>(count: boolean, read: () => T): T {
    this.lineBreaks.push(count);
    try {
      return read();
    } finally {
      this.lineBreaks.pop();
    }
  }

  // ---- nesting ----

  /** Enters one level of nesting; past MAX_NESTING the whole parse stops. */
  enter(): void {
    if (++this.depth > MAX_NESTING) {
      this.diagnostics.push(error("E-SYN-TOO-DEEP", this.spanOf(this.token), `This is nested more than ${MAX_NESTING} levels deep`, {
        label: "too deep here",
        notes: [`Expressions, blocks, types and patterns may nest at most ${MAX_NESTING} levels; a chain of operators counts one level per operator.`],
        hint: "Give the inner parts names with `let`, or move them into functions.",
      }));
      throw new ParseAbort();
    }
  }

  leave(): void {
    this.depth--;
  }

  nested<T>(read: () => T): T {
    this.enter();
    try {
      return read();
    } finally {
      this.depth--;
    }
  }

  // ---- errors ----

  report(code: string, span: Span, message: string, extra: Partial<Diagnostic> = {}): void {
    if (this.quietLines.size > 0 && this.quietLines.has(this.lineOf(span.start))) return;
    this.diagnostics.push(error(code, span, message, extra));
    if (++this.errorCount >= MAX_ERRORS) {
      this.diagnostics.push(
        error("E-SYN-TOO-MANY", span, `Stopped after ${MAX_ERRORS} syntax errors in this file`, {
          notes: ["Fix the first ones and check again; later errors are often caused by earlier ones."],
        }),
      );
      throw new ParseAbort();
    }
  }

  private lineOf(offset: number): number {
    // The last token that starts at or before `offset` knows its line.
    let low = 0;
    let high = this.tokens.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.tokens[mid]!.offset <= offset) low = mid;
      else high = mid - 1;
    }
    return this.tokens[low]!.line;
  }

  /** What the current token is, as a message says it. */
  describeCurrent(): string {
    if (this.atLineBreak) return "the end of the line";
    return describeToken(this.token);
  }

  /** Reports "expected WHAT, found ..." at the current token and abandons the statement. */
  fail(what: string, extra: ErrorExtra = {}): never {
    const token = this.token;
    const atBreak = this.atLineBreak && extra.lineStart !== true;
    // At a line break, point just after the previous token: that is where something is missing.
    const previous = this.tokens[this.pos - 1];
    const span =
      atBreak && previous !== undefined
        ? { file: this.file, start: previous.offset + previous.length, end: previous.offset + previous.length + 1 }
        : this.spanOf(token);
    const found = atBreak ? "the end of the line" : describeToken(token);
    this.report(extra.code ?? "E-SYN-EXPECTED", span, extra.message ?? `I expected ${what}, but found ${found}`, {
      label: extra.label ?? `expected ${what}`,
      ...(extra.hint === undefined ? {} : { hint: extra.hint }),
      ...(extra.notes === undefined ? {} : { notes: extra.notes }),
      ...(extra.related === undefined ? {} : { related: extra.related }),
    });
    throw new SyntaxFailure();
  }

  /**
   * Skips to where reading can start again: the next token at the start of a
   * line, at the same bracket level, or a word that closes a block.
   */
  synchronize(statementStart: number): void {
    const start = this.pos;
    while (!this.at("eof")) {
      const token = this.token;
      // A token that starts a line after the failed statement's first one is
      // where the next statement begins, even if the error was found on it.
      if (token.newlineBefore && (this.pos > start || this.pos > statementStart)) return;
      if ((token.kind === "(" || token.kind === "[" || token.kind === "{") && token.partner > this.pos) {
        this.pos = token.partner + 1;
        continue;
      }
      this.pos++;
    }
  }
}

export interface ErrorExtra {
  code?: string;
  message?: string;
  label?: string;
  hint?: string;
  notes?: string[];
  related?: { span: Span; message: string }[];
  /** The token must be on the same line. */
  sameLine?: boolean;
  /** What was expected starts a line: name the token found, not the line break before it. */
  lineStart?: boolean;
}

/** Names and keywords both serve as labels, field names and member names (language.md section 15). */
export function isLabelToken(token: Token): boolean {
  return token.kind === "name" || KEYWORD_SET.has(token.kind);
}
