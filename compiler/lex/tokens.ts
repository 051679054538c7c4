// The tokens of Renyi (spec/grammar.md, section 2).

export const KEYWORDS = [
  "use",
  "as",
  "public",
  "function",
  "returns",
  "or",
  "fails",
  "with",
  "needs",
  "purpose",
  "let",
  "var",
  "be",
  "set",
  "to",
  "if",
  "then",
  "else",
  "end",
  "for",
  "each",
  "in",
  "while",
  "stop",
  "skip",
  "return",
  "fail",
  "crash",
  "otherwise",
  "match",
  "when",
  "is",
  "not",
  "and",
  "type",
  "record",
  "variant",
  "test",
  "check",
  "replays",
  "at",
  "most",
  "per",
  "only",
  "run",
  "concurrently",
  "from",
  "where",
  "sort",
  "by",
  "descending",
  "group",
  "into",
  "select",
  "take",
  "drop",
  "distinct",
  "true",
  "false",
  "nothing",
  "until",
  "mod",
] as const;

export type Keyword = (typeof KEYWORDS)[number];

export const KEYWORD_SET: ReadonlySet<string> = new Set(KEYWORDS);

const PUNCTUATION = [
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ".",
  "...",
  ":",
  "=",
  "=>",
  "+",
  "-",
  "*",
  "/",
  "<",
  "<=",
  ">",
  ">=",
] as const;

type Punctuation = (typeof PUNCTUATION)[number];

/**
 * Token kinds. Keywords and punctuation are their own text; the rest:
 * - `name`: a lower-case name (values, functions, fields, modules), `_` included
 * - `upper`: a capitalised name (types, variant cases)
 * - `int`, `float`: number literals, their value parsed
 * - a text literal is `text_start`, then `text_part` and `interp_start` ... `interp_end`
 *   in any order, then `text_end`
 * - `prose`: the rest of a `purpose:` line
 */
export type TokenKind =
  | Keyword
  | Punctuation
  | "name"
  | "upper"
  | "int"
  | "float"
  | "text_start"
  | "text_part"
  | "interp_start"
  | "interp_end"
  | "text_end"
  | "prose"
  | "eof";

/** One token, as a value: what `TokenList.token(i)` gives tests and tools. */
export interface Token {
  readonly kind: TokenKind;
  /** The source text of the token (for `text_part`, the raw text before escapes are read). */
  readonly text: string;
  /** Numbers: the value; `text_part` and `prose`: the text it stands for; others: the text. */
  readonly value: string | number;
  readonly file: string;
  /** UTF-16 offset into the file. */
  readonly offset: number;
  readonly length: number;
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units. */
  readonly column: number;
  /** A line break (or a comment ending in one) comes between this token and the one before. */
  readonly newlineBefore: boolean;
  /** For `(`, `[` and `{`: the index of the matching closing token, or -1. */
  readonly partner: number;
}

/**
 * The lexer's output, stored by column rather than as one object a token: a
 * program of 100,000 lines has over half a million tokens, and objects for
 * each cost more in allocation and garbage collection than all the lexing.
 * Token i's fields are `kinds[i]`, `offsets[i]`, and so on.
 */
export class TokenList {
  count = 0;
  kinds: TokenKind[];
  values: (string | number)[];
  offsets: Int32Array;
  lengths: Int32Array;
  lines: Int32Array;
  columns: Int32Array;
  partners: Int32Array;
  newlines: Uint8Array;

  constructor(
    readonly file: string,
    readonly source: string,
    capacity = 1024,
  ) {
    // Made at their full size and filled in place: pushing grew them by copies, which cost more than the lexing.
    // `finish` cuts them to the tokens there are.
    this.kinds = new Array<TokenKind>(capacity);
    this.values = new Array<string | number>(capacity);
    this.offsets = new Int32Array(capacity);
    this.lengths = new Int32Array(capacity);
    this.lines = new Int32Array(capacity);
    this.columns = new Int32Array(capacity);
    this.partners = new Int32Array(capacity);
    this.newlines = new Uint8Array(capacity);
  }

  push(
    kind: TokenKind,
    value: string | number,
    offset: number,
    length: number,
    line: number,
    column: number,
    newline: boolean,
  ): number {
    const i = this.count;
    if (i === this.offsets.length) this.grow();
    this.kinds[i] = kind;
    this.values[i] = value;
    this.offsets[i] = offset;
    this.lengths[i] = length;
    this.lines[i] = line;
    this.columns[i] = column;
    this.partners[i] = -1;
    this.newlines[i] = newline ? 1 : 0;
    this.count = i + 1;
    return i;
  }

  /** Cuts the lists of kinds and values to the tokens pushed (the lexer calls it once, after the last). */
  finish(): void {
    this.kinds.length = this.count;
    this.values.length = this.count;
  }

  private grow(): void {
    const size = this.offsets.length * 2;
    const grown = <T extends Int32Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(size);
      b.set(a);
      return b;
    };
    this.offsets = grown(this.offsets);
    this.lengths = grown(this.lengths);
    this.lines = grown(this.lines);
    this.columns = grown(this.columns);
    this.partners = grown(this.partners);
    this.newlines = grown(this.newlines);
  }

  text(i: number): string {
    return this.source.slice(this.offsets[i]!, this.offsets[i]! + this.lengths[i]!);
  }

  token(i: number): Token {
    const kind = this.kinds[i]!;
    const text = this.text(i);
    return {
      kind,
      text,
      // Names store no value of their own (see the lexer's scanName).
      value: kind === "name" || kind === "upper" ? text : this.values[i]!,
      file: this.file,
      offset: this.offsets[i]!,
      length: this.lengths[i]!,
      line: this.lines[i]!,
      column: this.columns[i]!,
      newlineBefore: this.newlines[i] === 1,
      partner: this.partners[i]!,
    };
  }

  toArray(): Token[] {
    const out: Token[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.token(i));
    return out;
  }
}

/** How token `i` is named in a message: `let`, `(`, a name, a text, the end of the file. */
export function describeToken(tokens: TokenList, i: number): string {
  const kind = tokens.kinds[i]!;
  switch (kind) {
    case "name":
    case "upper":
      return `the name \`${tokens.text(i)}\``;
    case "int":
    case "float":
      return `the number \`${tokens.text(i)}\``;
    case "text_start":
      return "a text";
    case "text_part":
    case "text_end":
      return "the end of a text";
    case "interp_start":
      return "`{`";
    case "interp_end":
      return "`}`";
    case "prose":
      return "prose";
    case "eof":
      return "the end of the file";
    default:
      return KEYWORD_SET.has(kind) ? `the keyword \`${kind}\`` : `\`${kind}\``;
  }
}
