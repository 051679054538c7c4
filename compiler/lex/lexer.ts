// The lexer: source text in, tokens and diagnostics out. It never throws.
//
// Texts with interpolation are lexed flat, with a stack of modes: inside a text
// the lexer reads characters; at `{` it pushes an interpolation and reads
// ordinary tokens until the `}` that balances it, which may themselves open
// texts. Nothing here recurses, so no input can exhaust the stack.

import type { CompileCode, CompileFacts } from "../../vocabulary/problems/compile.js";
import { diagnose } from "../diagnose.js";
import type { Diagnostic, Places } from "../diagnostics.js";
import type { Span } from "../source.js";
import { EDIT_TITLES } from "../../vocabulary/problems/syntax.js";
import { KEYWORDS, TokenList, type Keyword, type TokenKind } from "./tokens.js";
import { dedentTriple, readEscapes } from "./text.js";

export interface LexResult {
  tokens: TokenList;
  diagnostics: Diagnostic[];
  /** Every comment, in order: where it starts (at its `--`) and ends (before the line break). The formatter keeps them. */
  comments: Comment[];
}

export interface Comment {
  readonly start: number;
  readonly end: number;
}

type Mode =
  | { kind: "text"; triple: boolean; start: number; parts: number[] }
  | { kind: "interp"; depth: number; start: number; singleLine: boolean };

// Character codes used below.
const NL = 10,
  CR = 13,
  SPACE = 32,
  TAB = 9,
  QUOTE = 34,
  BACKSLASH = 92;
const LBRACE = 123,
  RBRACE = 125,
  UNDERSCORE = 95,
  DOT = 46;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isLower(c: number): boolean {
  return (c >= 97 && c <= 122) || c === UNDERSCORE;
}
function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}
function isNameChar(c: number): boolean {
  return isLower(c) || isUpper(c) || isDigit(c);
}

// Operators from other languages, each read as Renyi's own so that parsing
// goes on, with a diagnostic that says what to write.
const FOREIGN_OPERATORS: Record<string, { kinds: TokenKind[]; write: string }> = {
  "==": { kinds: ["is"], write: "is" },
  "!=": { kinds: ["is", "not"], write: "is not" },
  "&&": { kinds: ["and"], write: "and" },
  "||": { kinds: ["or"], write: "or" },
  "%": { kinds: ["mod"], write: "mod" },
  "!": { kinds: ["not"], write: "not" },
};

/**
 * The hash of a name's characters, one more: kept to 30 bits, so that it is always a small integer to the engine (a
 * hash of 31 or 32 bits was a number allocated for each name, and a slower lookup).
 */
function nextHash(hash: number, c: number): number {
  return (Math.imul(hash, 31) + c) & 0x3fffffff;
}

/** Keywords by the hash scanName computes; the tests check that no two collide. */
export const KEYWORD_BY_HASH: ReadonlyMap<number, Keyword> = new Map(
  KEYWORDS.map((keyword) => {
    let hash = keyword.charCodeAt(0);
    for (let i = 1; i < keyword.length; i++) hash = nextHash(hash, keyword.charCodeAt(i));
    return [hash, keyword];
  }),
);

export function lex(file: string, text: string): LexResult {
  return new Lexer(file, text).run();
}

class Lexer {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private newline = true;
  private readonly tokens: TokenList;
  private readonly diagnostics: Diagnostic[] = [];
  private readonly comments: Comment[] = [];
  private readonly modes: Mode[] = [];
  /** Indices of open brackets not yet closed, for `partner`. */
  private readonly brackets: number[] = [];

  constructor(
    private readonly file: string,
    private readonly src: string,
  ) {
    // About one token for every six characters of a typical program.
    this.tokens = new TokenList(file, src, Math.max(256, src.length >> 2));
  }

  run(): LexResult {
    const src = this.src;
    const modes = this.modes;
    while (true) {
      // Outside every text the stack is empty, and reading its element -1 is a slow lookup of a property named "-1".
      const mode = modes.length === 0 ? undefined : modes[modes.length - 1];
      if (mode !== undefined && mode.kind === "text") {
        this.scanTextBody(mode);
        continue;
      }
      const singleLine = mode?.singleLine ?? false;
      this.skipTrivia(singleLine);
      if (singleLine && this.src.charCodeAt(this.pos) === NL) {
        this.unwindLine();
        continue;
      }
      if (this.pos >= src.length) break;
      this.scanToken(mode);
    }
    this.closeModesAtEnd();
    this.push("eof", "", this.pos, 0);
    this.tokens.finish();
    return { tokens: this.tokens, diagnostics: this.diagnostics, comments: this.comments };
  }

  private span(start: number, end: number): Span {
    return { file: this.file, start, end };
  }

  problem<C extends CompileCode>(code: C, start: number, end: number, facts: CompileFacts<C>, places?: Places): void {
    this.diagnostics.push(diagnose(code, this.span(start, end), facts, places));
  }

  private push(kind: TokenKind, text: string, offset: number, length: number, value: string | number = text): number {
    const index = this.tokens.push(kind, value, offset, length, this.line, offset - this.lineStart + 1, this.newline);
    this.newline = false;
    return index;
  }

  private breakLine(at: number): void {
    this.line++;
    this.lineStart = at + 1;
  }

  /** Spaces, line breaks and comments; a line break sets `newlineBefore` on the next token. */
  private skipTrivia(stopAtNewline: boolean): void {
    const src = this.src;
    while (this.pos < src.length) {
      const c = src.charCodeAt(this.pos);
      if (c === SPACE || c === TAB || c === CR) {
        this.pos++;
      } else if (c === NL) {
        if (stopAtNewline) return;
        this.breakLine(this.pos);
        this.pos++;
        this.newline = true;
      } else if (c === 45 && src.charCodeAt(this.pos + 1) === 45) {
        // `--` starts a comment everywhere outside a text (spec/grammar.md, section 2).
        const end = src.indexOf("\n", this.pos);
        const stop = end < 0 ? src.length : end;
        this.comments.push({ start: this.pos, end: stop });
        this.pos = stop;
      } else {
        return;
      }
    }
  }

  private scanToken(mode: Extract<Mode, { kind: "interp" }> | undefined): void {
    const src = this.src;
    const start = this.pos;
    const c = src.charCodeAt(start);
    if (isLower(c) || isUpper(c)) return this.scanName(start, c);
    if (isDigit(c)) return this.scanNumber(start);
    if (c === QUOTE) return this.openText(start);
    switch (c) {
      case 40: // (
      case 91: // [
        return this.open(src[start] as TokenKind, start);
      case LBRACE:
        if (mode !== undefined) mode.depth++;
        return this.open("{", start);
      case 41: // )
      case 93: // ]
        return this.close(src[start] as TokenKind, start);
      case RBRACE:
        if (mode !== undefined && mode.depth === 0) {
          this.modes.pop();
          this.pos++;
          this.push("interp_end", "}", start, 1);
          return;
        }
        if (mode !== undefined) mode.depth--;
        return this.close("}", start);
      case 44: // ,
      case 58: // :
      case 43: // +
      case 45: // -
      case 42: // *
      case 47: // /
        this.pos++;
        this.push(src[start] as TokenKind, src[start]!, start, 1);
        return;
      case DOT:
        if (src.startsWith("...", start)) return this.simple("...", start);
        return this.simple(".", start);
      case 61: // =
        if (src.charCodeAt(start + 1) === 62) return this.simple("=>", start);
        if (src.charCodeAt(start + 1) === 61) return this.foreign("==", start);
        return this.simple("=", start);
      case 60: // <
        if (src.charCodeAt(start + 1) === 61) return this.simple("<=", start);
        return this.simple("<", start);
      case 62: // >
        if (src.charCodeAt(start + 1) === 61) return this.simple(">=", start);
        return this.simple(">", start);
      case 33: // !
        return this.foreign(src.charCodeAt(start + 1) === 61 ? "!=" : "!", start);
      case 38: // &
        if (src.charCodeAt(start + 1) === 38) return this.foreign("&&", start);
        break;
      case 124: // |
        if (src.charCodeAt(start + 1) === 124) return this.foreign("||", start);
        break;
      case 37: // %
        return this.foreign("%", start);
    }
    this.scanUnexpected(start);
  }

  private simple(kind: TokenKind, start: number): void {
    this.pos = start + kind.length;
    this.push(kind, kind, start, kind.length);
  }

  private foreign(op: string, start: number): void {
    const { kinds, write } = FOREIGN_OPERATORS[op]!;
    const end = start + op.length;
    // The word needs a space on each side where the symbol had none: `a==b` becomes `a is b`.
    const before = start > 0 && !" \t\n([{".includes(this.src.charAt(start - 1)) ? " " : "";
    const after = end < this.src.length && !" \t\r\n)]},".includes(this.src.charAt(end)) ? " " : "";
    const edit = {
      title: EDIT_TITLES.replace(op, write),
      span: this.span(start, end),
      replacement: `${before}${write}${after}`,
    };
    this.problem("E-SYN-OPERATOR", start, end, { operator: op, write }, { edits: [edit] });
    for (const kind of kinds) this.push(kind, op, start, op.length);
    this.pos = start + op.length;
  }

  /** A run of characters no token starts with becomes one diagnostic, however long. */
  private scanUnexpected(start: number): void {
    const src = this.src;
    let end = start + 1;
    while (end < src.length) {
      const c = src.charCodeAt(end);
      if (c === SPACE || c === NL || c === TAB || c === CR || c < 128) break;
      end++;
    }
    // Stop a run of unknown characters at the first character a token could start with.
    while (end < src.length && !this.canStartToken(src.charCodeAt(end)) && src.charCodeAt(end) !== NL) end++;
    const shown = src.slice(start, Math.min(end, start + 20));
    const code = shown.codePointAt(0) ?? 0;
    const what =
      code < 32 || code === 127 || code === 0xfffd
        ? `U+${code.toString(16).toUpperCase().padStart(4, "0")}`
        : `\`${String.fromCodePoint(code)}\``;
    this.problem("E-SYN-CHARACTER", start, end, { character: what, count: end - start });
    this.pos = end;
  }

  private canStartToken(c: number): boolean {
    return (
      isNameChar(c) ||
      c === QUOTE ||
      c === SPACE ||
      c === TAB ||
      c === CR ||
      "()[]{},.:=+-*/<>".includes(String.fromCharCode(c))
    );
  }

  private scanName(start: number, first: number): void {
    const src = this.src;
    let end = start + 1;
    let hash = first;
    while (end < src.length) {
      const c = src.charCodeAt(end);
      if (!isNameChar(c)) break;
      hash = nextHash(hash, c);
      end++;
    }
    this.pos = end;
    // Names keep no text of their own (the parser reads it from the source when
    // it needs it), and keywords are found by a hash of their characters: no
    // string is made for either here.
    if (isUpper(first)) {
      this.push("upper", "", start, end - start, 0);
      return;
    }
    const keyword = KEYWORD_BY_HASH.get(hash);
    if (keyword === undefined || keyword.length !== end - start || !src.startsWith(keyword, start)) {
      this.push("name", "", start, end - start, 0);
      return;
    }
    const atLineStart = this.newline || this.tokens.count === 0;
    this.push(keyword, keyword, start, end - start);
    if (keyword === "purpose" && atLineStart && this.modes.length === 0) this.scanProse();
  }

  /** `purpose:` at the start of a line takes the rest of the line as prose. */
  private scanProse(): void {
    const src = this.src;
    let at = this.pos;
    while (src.charCodeAt(at) === SPACE || src.charCodeAt(at) === TAB) at++;
    if (src.charCodeAt(at) !== 58) return;
    this.push(":", ":", at, 1);
    let end = src.indexOf("\n", at + 1);
    if (end < 0) end = src.length;
    const raw = src.slice(at + 1, end);
    const prose = raw.trim();
    const proseStart = at + 1 + (raw.length - raw.trimStart().length);
    this.push("prose", prose, proseStart, prose.length, prose);
    this.pos = end;
  }

  private scanNumber(start: number): void {
    const src = this.src;
    let end = this.scanDigits(start);
    let isFloat = false;
    if (src.charCodeAt(end) === DOT && isDigit(src.charCodeAt(end + 1))) {
      isFloat = true;
      end = this.scanDigits(end + 1);
    }
    const e = src.charCodeAt(end);
    if (e === 101 || e === 69) {
      let at = end + 1;
      const sign = src.charCodeAt(at);
      if (sign === 43 || sign === 45) at++;
      if (isDigit(src.charCodeAt(at))) {
        isFloat = true;
        end = this.scanDigits(at);
      }
    }
    // A number runs into no name: `12px` is one mistake, not a number and a name.
    let tail = end;
    while (tail < src.length && isNameChar(src.charCodeAt(tail))) tail++;
    const text = src.slice(start, tail);
    this.pos = tail;
    if (tail > end) {
      this.problem("E-SYN-NUMBER", start, tail, { problem: "runs-into-name", text });
      this.push(isFloat ? "float" : "int", text, start, tail - start, 0);
      return;
    }
    const digits = text.replace(/_/g, "");
    if (/_$|__|_\.|\._|_e|e_/i.test(text)) {
      this.problem("E-SYN-NUMBER", start, end, { problem: "underscore", text });
    }
    if (isFloat) {
      const value = Number(digits);
      if (!Number.isFinite(value)) {
        this.problem("E-SYN-NUMBER", start, end, { problem: "too-large", text, type: "Float" });
      }
      this.push("float", text, start, end - start, Number.isFinite(value) ? value : 0);
      return;
    }
    const value = Number(digits);
    if (!Number.isSafeInteger(value)) {
      this.problem("E-SYN-NUMBER", start, end, { problem: "too-large", text, type: "Int" });
    }
    this.push("int", text, start, end - start, Number.isSafeInteger(value) ? value : 0);
  }

  private scanDigits(from: number): number {
    const src = this.src;
    let end = from;
    while (end < src.length) {
      const c = src.charCodeAt(end);
      if (isDigit(c) || (c === UNDERSCORE && isDigit(src.charCodeAt(end - 1)) && isDigit(src.charCodeAt(end + 1))))
        end++;
      else if (c === UNDERSCORE)
        end++; // kept so that the error covers it
      else break;
    }
    return end;
  }

  private open(kind: TokenKind, start: number): void {
    this.pos = start + 1;
    this.brackets.push(this.tokens.count);
    this.push(kind, kind, start, 1);
  }

  private close(kind: TokenKind, start: number): void {
    this.pos = start + 1;
    const opener = kind === ")" ? "(" : kind === "]" ? "[" : "{";
    const index = this.tokens.count;
    // Link to the innermost matching opener; openers above it stay unpartnered.
    for (let i = this.brackets.length - 1; i >= 0; i--) {
      const open = this.brackets[i]!;
      if (this.tokens.kinds[open] === opener) {
        this.tokens.partners[open] = index;
        this.brackets.length = i;
        break;
      }
    }
    this.push(kind, kind, start, 1);
  }

  // ---- texts -------------------------------------------------------------

  private openText(start: number): void {
    const triple = this.src.startsWith('"""', start);
    const width = triple ? 3 : 1;
    this.pos = start + width;
    this.push("text_start", triple ? '"""' : '"', start, width);
    this.modes.push({ kind: "text", triple, start, parts: [] });
  }

  /** Reads characters of the innermost text up to its end, a `{`, or a line break. */
  private scanTextBody(mode: Extract<Mode, { kind: "text" }>): void {
    const src = this.src;
    const start = this.pos;
    let at = start;
    while (at < src.length) {
      const c = src.charCodeAt(at);
      if (c === QUOTE && (!mode.triple || src.startsWith('"""', at))) break;
      if (c === LBRACE) break;
      if (c === NL) {
        if (!mode.triple) break;
        this.breakLine(at);
      }
      if (c === BACKSLASH) {
        at = this.checkEscape(at);
        continue;
      }
      at++;
    }
    if (at > start) {
      mode.parts.push(this.tokens.count);
      const raw = src.slice(start, at);
      this.pushPart(raw, start, mode.triple);
    }
    this.pos = at;
    if (src.charCodeAt(at) === NL && !mode.triple) {
      this.unwindLine();
      return;
    }
    if (at >= src.length) {
      this.unclosedText(mode, at);
      return;
    }
    if (src.charCodeAt(at) === LBRACE) {
      this.pos = at + 1;
      this.push("interp_start", "{", at, 1);
      this.modes.push({ kind: "interp", depth: 0, start: at, singleLine: !mode.triple });
      return;
    }
    const width = mode.triple ? 3 : 1;
    this.pos = at + width;
    this.push("text_end", src.slice(at, at + width), at, width);
    this.modes.pop();
    if (mode.triple) this.finishTriple(mode);
  }

  /** Text parts keep their raw text; the value is read now, or after dedenting for `"""`. */
  private pushPart(raw: string, start: number, triple: boolean): void {
    // The token's line is where the part starts; a triple part may span lines.
    const lineStart = triple ? this.lineStartOf(start) : this.lineStart;
    const line = triple ? this.lineOf(start) : this.line;
    this.tokens.push(
      "text_part",
      triple ? raw : readEscapes(raw),
      start,
      raw.length,
      line,
      start - lineStart + 1,
      this.newline,
    );
    this.newline = false;
  }

  private lineOf(offset: number): number {
    // Parts start on the current line unless they are triple parts that crossed line
    // breaks; count back from the current line.
    let line = this.line;
    for (let i = this.lineStart - 1; i >= offset; i--) if (this.src.charCodeAt(i) === NL) line--;
    return line;
  }

  private lineStartOf(offset: number): number {
    const nl = this.src.lastIndexOf("\n", offset - 1);
    return nl + 1;
  }

  /** Checks one escape at `at` (a backslash) and returns the offset after it. */
  private checkEscape(at: number): number {
    const src = this.src;
    const next = src[at + 1];
    if (next !== undefined && 'nt"\\{}r0'.includes(next)) return at + 2;
    if (next === "u") {
      const match = /^u\{([0-9a-fA-F]{1,6})\}/.exec(src.slice(at + 1, at + 12));
      if (match !== null) {
        const code = parseInt(match[1]!, 16);
        if (code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)) return at + 1 + match[0].length;
        this.problem("E-SYN-ESCAPE", at, at + 1 + match[0].length, { problem: "not-a-character", hex: match[1]! });
        return at + 1 + match[0].length;
      }
      this.problem("E-SYN-ESCAPE", at, at + 2, { problem: "incomplete-unicode" });
      return at + 2;
    }
    if (next === "\n" || next === undefined) return at + 1;
    this.problem("E-SYN-ESCAPE", at, at + 2, { problem: "unknown", escape: next });
    return at + 2;
  }

  /**
   * A line break inside a one-line text or its interpolation closes every one
   * of them that is open, with one diagnostic for the outermost: in `"a {x"`
   * the `{` was left open, not a second text begun.
   */
  private unwindLine(): void {
    let outerText: Extract<Mode, { kind: "text" }> | undefined;
    let outerInterp: Extract<Mode, { kind: "interp" }> | undefined;
    while (this.modes.length > 0) {
      const mode = this.modes[this.modes.length - 1]!;
      if (mode.kind === "text" ? mode.triple : !mode.singleLine) break;
      this.modes.pop();
      if (mode.kind === "text") {
        outerText = mode;
        this.push("text_end", "", this.pos, 0);
      } else {
        outerInterp = mode;
        this.push("interp_end", "", this.pos, 0);
      }
    }
    if (outerInterp !== undefined) this.reportUnclosedInterpolation(outerInterp);
    else if (outerText !== undefined) this.reportUnclosedText(outerText, this.pos);
  }

  private unclosedText(mode: Extract<Mode, { kind: "text" }>, at: number): void {
    this.reportUnclosedText(mode, at);
    this.push("text_end", "", at, 0);
    this.modes.pop();
    if (mode.triple) this.finishTriple(mode);
  }

  private reportUnclosedText(mode: Extract<Mode, { kind: "text" }>, at: number): void {
    this.problem("E-SYN-UNCLOSED-TEXT", mode.start, at, { problem: "text", triple: mode.triple });
  }

  private finishTriple(mode: Extract<Mode, { kind: "text" }>): void {
    // Parts are separated by interpolations; the text may also begin or end with one.
    const tokens = this.tokens;
    const first = mode.parts[0];
    const last = mode.parts[mode.parts.length - 1];
    const startsWithPart = first !== undefined && tokens.kinds[first - 1] === "text_start";
    const endsWithPart = last !== undefined && tokens.kinds[last + 1] === "text_end";
    const raws = dedentTriple(
      mode.parts.map((i) => tokens.text(i)),
      startsWithPart,
      endsWithPart,
    );
    mode.parts.forEach((i, k) => {
      tokens.values[i] = readEscapes(raws[k]!);
    });
  }

  private closeModesAtEnd(): void {
    while (this.modes.length > 0) {
      const mode = this.modes[this.modes.length - 1]!;
      if (mode.kind === "text") {
        this.unclosedText(mode, this.src.length);
      } else {
        this.unclosedInterpolation(mode);
      }
    }
  }

  private unclosedInterpolation(mode: Extract<Mode, { kind: "interp" }>): void {
    this.reportUnclosedInterpolation(mode);
    this.modes.pop();
    this.push("interp_end", "", this.pos, 0);
  }

  private reportUnclosedInterpolation(mode: Extract<Mode, { kind: "interp" }>): void {
    this.problem("E-SYN-UNCLOSED-TEXT", mode.start, this.pos, { problem: "interpolation" });
  }
}
