// The parser's state: the tokens, the position, the diagnostics, the nesting
// depth and whether line breaks end statements here. The grammar lives in the
// files beside this one, each a set of functions over a Cursor.

import type { CompileCode, CompileFacts } from "../../vocabulary/problems/compile.js";
import { EDIT_TITLES, type Opener, type SyntaxGuide } from "../../vocabulary/problems/syntax.js";
import { diagnose } from "../diagnose.js";
import type { Diagnostic, Places, SuggestedEdit } from "../diagnostics.js";
import type { Span } from "../source.js";
import { describeToken, KEYWORD_SET, type TokenKind, type TokenList } from "../lex/tokens.js";
import type { Ident } from "./tree.js";

/** Thrown to abandon the statement being read; the diagnostic is already recorded. */
export class SyntaxFailure {
  readonly tag = "SyntaxFailure";
}

/** Thrown to abandon the whole file (too deep, too many errors). */
export class ParseAbort {
  readonly tag = "ParseAbort";
}

/** Nesting of expressions, blocks, types and patterns (spec/grammar.md, section 11: E-SYN-TOO-DEEP). */
const MAX_NESTING = 128;

/** A file with this many syntax errors has more wrong than a list can help with. */
const MAX_ERRORS = 100;

/** A token, by its index in the TokenList. */
export type Tok = number;

export class Cursor {
  pos = 0;
  depth = 0;
  readonly diagnostics: Diagnostic[] = [];
  private errorCount = 0;
  /** Whether a line break ends what is being read; false inside brackets. */
  private lineBreaks: boolean[] = [true];
  private readonly last: number;

  /**
   * @param quietLines lines where the lexer already reported an error: the
   * parser's complaints there are most often echoes of it, so they are dropped.
   */
  constructor(
    readonly file: string,
    readonly t: TokenList,
    private readonly quietLines: ReadonlySet<number> = new Set(),
  ) {
    this.last = t.count - 1;
  }

  // ---- looking ----

  /** The current token's kind. */
  get kind(): TokenKind {
    return this.t.kinds[this.pos]!;
  }

  /** The kind of token i; past the end, `eof`. */
  kindAt(i: Tok): TokenKind {
    return this.t.kinds[Math.min(i, this.last)]!;
  }

  textAt(i: Tok): string {
    return this.t.text(i);
  }

  valueAt(i: Tok): string | number {
    return this.t.values[i]!;
  }

  offsetAt(i: Tok): number {
    return this.t.offsets[i]!;
  }

  newlineAt(i: Tok): boolean {
    return this.t.newlines[i] === 1;
  }

  partnerAt(i: Tok): number {
    return this.t.partners[i]!;
  }

  peekKind(ahead = 1): TokenKind {
    return this.t.kinds[Math.min(this.pos + ahead, this.last)]!;
  }

  peekText(ahead = 1): string {
    return this.t.text(Math.min(this.pos + ahead, this.last));
  }

  at(kind: TokenKind): boolean {
    return this.t.kinds[this.pos] === kind;
  }

  atAny(kinds: readonly TokenKind[]): boolean {
    return kinds.includes(this.t.kinds[this.pos]!);
  }

  /** True where the current token starts a new line and line breaks count here. */
  get atLineBreak(): boolean {
    return this.t.newlines[this.pos] === 1 && this.lineBreaks[this.lineBreaks.length - 1]!;
  }

  /** The current token is `kind` and on the same logical line. */
  atOnLine(kind: TokenKind): boolean {
    return this.t.kinds[this.pos] === kind && !this.atLineBreak;
  }

  // ---- moving ----

  advance(): Tok {
    const i = this.pos;
    if (i < this.last) this.pos = i + 1;
    return i;
  }

  eat(kind: TokenKind): boolean {
    if (this.t.kinds[this.pos] !== kind) return false;
    this.advance();
    return true;
  }

  expect(kind: TokenKind, expected: string, how: Expect = {}): Tok {
    if (this.at(kind) && !(this.atLineBreak && how.sameLine === true)) return this.advance();
    return this.fail(expected, how, this.insertion(kind, how));
  }

  /** A name where the grammar wants one; a keyword gets its own message. */
  expectName(expected: string, how: Expect = {}): Ident {
    const kind = this.kind;
    if (kind === "name" && !(this.atLineBreak && how.sameLine === true)) return this.ident(this.advance());
    if (KEYWORD_SET.has(kind) && !this.atLineBreak) {
      this.problem("E-SYN-KEYWORD", this.spanOf(this.pos), { keyword: kind, expected });
      throw new SyntaxFailure();
    }
    return this.fail(expected, how);
  }

  /** A label before `:` (argument, field, with-update): any name, keywords included. */
  atLabel(at: Tok = this.pos): boolean {
    return isLabelKind(this.t.kinds[at]!) && this.t.kinds[at + 1] === ":";
  }

  ident(i: Tok): Ident {
    return { kind: "Ident", name: this.t.text(i), span: this.spanOf(i) };
  }

  // ---- spans ----

  spanOf(i: Tok): Span {
    const start = this.t.offsets[i]!;
    return { file: this.file, start, end: start + this.t.lengths[i]! };
  }

  /** From the start of token `first` (or a span) to the end of the last token consumed. */
  spanFrom(first: Tok | Span): Span {
    const start = typeof first === "number" ? this.t.offsets[first]! : first.start;
    const previous = this.pos - 1;
    const end = previous < 0 ? start : Math.max(start, this.t.offsets[previous]! + this.t.lengths[previous]!);
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
      this.diagnostics.push(diagnose("E-SYN-TOO-DEEP", this.spanOf(this.pos), { limit: MAX_NESTING }));
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

  /** Reports a problem of the catalogue, unless its line is already known to be wrong. */
  problem<C extends CompileCode>(code: C, span: Span, facts: CompileFacts<C>, places?: Places): void {
    this.add(span, () => diagnose(code, span, facts, places));
  }

  private add(span: Span, make: () => Diagnostic): void {
    if (this.quietLines.size > 0 && this.quietLines.has(this.lineOf(span.start))) return;
    this.diagnostics.push(make());
    if (++this.errorCount >= MAX_ERRORS) {
      this.diagnostics.push(diagnose("E-SYN-TOO-MANY", span, { limit: MAX_ERRORS }));
      throw new ParseAbort();
    }
  }

  private lineOf(offset: number): number {
    // The last token that starts at or before `offset` knows its line.
    let low = 0;
    let high = this.last;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.t.offsets[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return this.t.lines[low]!;
  }

  /** What the current token is, as a message says it. */
  describeCurrent(): string {
    if (this.atLineBreak) return "the end of the line";
    return describeToken(this.t, this.pos);
  }

  /**
   * Where something is missing, and what stands there instead: at a line
   * break, just after the previous token (unless what was expected starts a
   * line: then the token that starts it); elsewhere, the current token.
   */
  missing(lineStart = false): { span: Span; found: string; atBreak: boolean } {
    const atBreak = this.atLineBreak && !lineStart;
    const previous = this.pos - 1;
    const after = previous >= 0 ? this.t.offsets[previous]! + this.t.lengths[previous]! : 0;
    const span = atBreak && previous >= 0 ? { file: this.file, start: after, end: after + 1 } : this.spanOf(this.pos);
    return { span, found: atBreak ? "the end of the line" : describeToken(this.t, this.pos), atBreak };
  }

  /** Reports "expected WHAT, found ..." where something is missing and abandons the statement. */
  fail(expected: string, how: Expect = {}, edit?: SuggestedEdit): never {
    const { span, found } = this.missing(how.lineStart);
    const facts = {
      expected,
      found,
      ...(how.guide === undefined ? {} : { guide: how.guide }),
      ...(how.name === undefined ? {} : { name: how.name }),
      ...(how.opened === undefined ? {} : { opener: how.opened.by }),
    };
    const places: Places = {
      ...(how.opened === undefined ? {} : { related: [this.spanOf(how.opened.at)] }),
      ...(edit === undefined ? {} : { edits: [edit] }),
    };
    this.problem("E-SYN-EXPECTED", span, facts, places);
    throw new SyntaxFailure();
  }

  /** Reports a problem of the catalogue and abandons the statement. */
  failWith<C extends CompileCode>(code: C, span: Span, facts: CompileFacts<C>, places?: Places): never {
    this.problem(code, span, facts, places);
    throw new SyntaxFailure();
  }

  /** The edit that closes a block left open at the end of the file: `end` on a line of its own. */
  endAtEndOfFile(): SuggestedEdit {
    const end = this.t.offsets[this.last]!;
    const replacement = this.newlineAt(this.last) || end === 0 ? "end\n" : "\nend\n";
    return { title: EDIT_TITLES.insert("end"), span: { file: this.file, start: end, end }, replacement };
  }

  /**
   * The edit that puts in a missing token, where the parser knows exactly what
   * it is: a closing bracket opened on this line and not closed by its end, or
   * a word (`then`, `be`, `to`) between two parts of one line; `=` written for
   * `be` or `to` is replaced.
   */
  insertion(kind: TokenKind, how: Expect = {}): SuggestedEdit | undefined {
    const previous = this.pos - 1;
    if (previous < 0) return undefined;
    const after = this.t.offsets[previous]! + this.t.lengths[previous]!;
    const endOfLine = this.atLineBreak || this.at("eof");
    if (CLOSERS.has(kind)) {
      const openedOnThisLine = how.opened !== undefined && this.t.lines[how.opened.at] === this.t.lines[previous];
      if (!openedOnThisLine || !(this.newlineAt(this.pos) || this.at("eof"))) return undefined;
      return {
        title: EDIT_TITLES.insert(kind),
        span: { file: this.file, start: after, end: after },
        replacement: kind,
      };
    }
    if (!INSERTED_WORDS.has(kind) || endOfLine) return undefined;
    if (this.at("=") && kind !== "then")
      return { title: EDIT_TITLES.replace("=", kind), span: this.spanOf(this.pos), replacement: kind };
    const at = this.t.offsets[this.pos]!;
    return { title: EDIT_TITLES.insert(kind), span: { file: this.file, start: at, end: at }, replacement: `${kind} ` };
  }

  /**
   * Skips to where reading can start again: the next token at the start of a
   * line, at the same bracket level, or a word that closes a block.
   */
  synchronize(statementStart: number): void {
    const start = this.pos;
    while (!this.at("eof")) {
      const kind = this.kind;
      // A token that starts a line after the failed statement's first one is
      // where the next statement begins, even if the error was found on it.
      if (this.newlineAt(this.pos) && (this.pos > start || this.pos > statementStart)) return;
      const partner = this.t.partners[this.pos]!;
      if ((kind === "(" || kind === "[" || kind === "{") && partner > this.pos) {
        this.pos = partner + 1;
        continue;
      }
      this.pos++;
    }
  }
}

/** How a missing token is reported: the words come from the catalogue's E-SYN-EXPECTED. */
export interface Expect {
  /** The construct being read, whose usual form the hint shows. */
  guide?: SyntaxGuide;
  /** A name already read that the guide's example uses. */
  name?: string;
  /** The bracket or block this token would close, and what opened it. */
  opened?: { at: Tok; by: Opener };
  /** The token must be on the same line. */
  sameLine?: boolean;
  /** What was expected starts a line: name the token found, not the line break before it. */
  lineStart?: boolean;
}

/** Tokens an editor may insert at the end of a line when they are missing there. */
const CLOSERS: ReadonlySet<TokenKind> = new Set<TokenKind>([")", "]", "}", ">"]);

/** Words an editor may insert between two parts of a line (`let x be 1`, `if c then a else b`). */
const INSERTED_WORDS: ReadonlySet<TokenKind> = new Set<TokenKind>(["be", "then", "to"]);

/** Names and keywords both serve as labels, field names and member names (spec/grammar.md, section 4). */
export function isLabelKind(kind: TokenKind): boolean {
  return kind === "name" || KEYWORD_SET.has(kind);
}
