// The tokens of Renyi (language.md section 2).

export const KEYWORDS = [
  "use", "as", "public", "function", "returns", "or", "fails", "with", "needs", "purpose",
  "let", "var", "be", "set", "to", "if", "then", "else", "end", "for", "each", "in", "while",
  "stop", "skip", "return", "fail", "crash", "otherwise", "match", "when", "is", "not", "and",
  "type", "record", "variant", "test", "check", "replays", "at", "most", "per", "only", "run",
  "concurrently", "from", "where", "sort", "by", "descending", "group", "into", "select", "take",
  "drop", "distinct", "true", "false", "nothing", "until", "mod",
] as const;

export type Keyword = (typeof KEYWORDS)[number];

export const KEYWORD_SET: ReadonlySet<string> = new Set(KEYWORDS);

export const PUNCTUATION = [
  "(", ")", "[", "]", "{", "}", ",", ".", "...", ":", "=", "=>",
  "+", "-", "*", "/", "<", "<=", ">", ">=",
] as const;

export type Punctuation = (typeof PUNCTUATION)[number];

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

export interface Token {
  kind: TokenKind;
  /** The source text of the token (for `text_part`, the raw text before escapes are read). */
  text: string;
  /** Numbers: the value; `text_part` and `prose`: the text it stands for. */
  value: string | number;
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
  partner: number;
}

/** How a token is named in a message: `let`, `(`, a name, a text, the end of the file. */
export function describeToken(token: Token): string {
  switch (token.kind) {
    case "name":
      return `the name \`${token.text}\``;
    case "upper":
      return `the name \`${token.text}\``;
    case "int":
    case "float":
      return `the number \`${token.text}\``;
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
      return KEYWORD_SET.has(token.kind) ? `the keyword \`${token.kind}\`` : `\`${token.kind}\``;
  }
}
