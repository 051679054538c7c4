// The highlighter as VS Code runs it: editors/renyi.tmLanguage.json read by
// vscode-textmate on the Oniguruma engine (vscode-oniguruma's WebAssembly), a
// line at a time with the state carried from line to line. And the one
// mapping from the lexer's token kinds to the scopes the grammar must give
// them, which the agreement tests hold the grammar to.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import textmate from "vscode-textmate";
import oniguruma from "vscode-oniguruma";
import { lex } from "../compiler/lex/lexer.js";
import { KEYWORD_SET, type TokenKind } from "../compiler/lex/tokens.js";
import { ROOT } from "./golden.js";

const GRAMMAR_PATH = join(ROOT, "editors", "renyi.tmLanguage.json");

/** One token of the grammar's: where it is in the file (UTF-16 offsets) and its scopes, outermost first. */
export interface HighlightToken {
  line: number;
  column: number;
  start: number;
  end: number;
  text: string;
  scopes: string[];
}

export type Highlighter = (source: string) => HighlightToken[];

let loading: Promise<Highlighter> | undefined;

/** The grammar, loaded once per process. */
export function loadHighlighter(): Promise<Highlighter> {
  loading ??= load();
  return loading;
}

async function load(): Promise<Highlighter> {
  const wasm = readFileSync(join(ROOT, "node_modules", "vscode-oniguruma", "release", "onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text: string) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName: string) =>
      scopeName === "source.renyi" ? textmate.parseRawGrammar(readFileSync(GRAMMAR_PATH, "utf8"), GRAMMAR_PATH) : null,
  });
  const grammar = await registry.loadGrammar("source.renyi");
  if (grammar === null) throw new Error(`${GRAMMAR_PATH} did not load`);
  return (source) => {
    const out: HighlightToken[] = [];
    let state = textmate.INITIAL;
    let lineStart = 0;
    // VS Code hands the grammar each line without its line break, a `\r` before it included.
    source.split("\n").forEach((raw, i) => {
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      const result = grammar.tokenizeLine(line, state);
      state = result.ruleStack;
      for (const t of result.tokens) {
        const end = Math.min(t.endIndex, line.length);
        if (end <= t.startIndex) continue;
        out.push({
          line: i + 1,
          column: t.startIndex + 1,
          start: lineStart + t.startIndex,
          end: lineStart + end,
          text: line.slice(t.startIndex, end),
          scopes: t.scopes,
        });
      }
      lineStart += raw.length + 1;
    });
    return out;
  };
}

/** A token as a golden file shows it: `line:column "text" scopes` (the root scope left out). */
export function dumpTokens(tokens: readonly HighlightToken[]): string {
  return tokens
    .filter((t) => t.text.trim() !== "" || t.scopes.some((s) => /^(string|comment)\./.test(s)))
    .map((t) => `${t.line}:${t.column} ${JSON.stringify(t.text)} ${t.scopes.slice(1).join(" ")}`)
    .join("\n");
}

/** What a piece of a program is, as far as colour goes: the classes the lexer's tokens and the grammar's scopes share. */
export type TokenClass =
  | "comment"
  | "text"
  | "interpolation"
  | "prose"
  | "number"
  | "keyword"
  | "type"
  | "name"
  | "punctuation"
  | "invalid"
  | "other";

/**
 * The class of a grammar token, from its innermost scope that says one. Word operators (`and`, `mod`) are keywords,
 * symbol operators punctuation; `constant.language` is `true`, `false`, `nothing` and a budget's unit; inside an
 * interpolation (`meta.embedded`) the text around no longer counts.
 */
export function classOfScopes(scopes: readonly string[]): TokenClass {
  for (let i = scopes.length - 1; i >= 0; i--) {
    const scope = scopes[i]!;
    const is = (prefix: string) => scope.startsWith(prefix);
    if (is("comment.") || is("punctuation.definition.comment.")) return "comment";
    if (is("string.unquoted.prose.")) return "prose";
    if (is("punctuation.section.interpolation.")) return "interpolation";
    if (is("constant.character.escape.") || is("punctuation.definition.string.") || is("string.")) return "text";
    if (is("meta.embedded.")) return "other";
    if (is("constant.numeric.")) return "number";
    if (is("invalid.")) return "invalid";
    if (is("keyword.operator.word.")) return "keyword";
    if (is("keyword.operator.")) return "punctuation";
    if (is("keyword.") || is("storage.") || is("constant.language.")) return "keyword";
    if (is("entity.name.type.")) return "type";
    if (is("punctuation.")) return "punctuation";
    if (
      is("variable.") ||
      is("entity.name.function.") ||
      is("entity.name.namespace.") ||
      is("support.type.capability.")
    )
      return "name";
  }
  return "other";
}

/** Before a colon these stay constants: they are map keys (`{true: 1}`), not labels. */
const CONSTANTS: ReadonlySet<string> = new Set(["true", "false", "nothing"]);
const UNITS = new Set(["second", "minute", "hour", "day", "run"]);

/**
 * The class the grammar must give each lexer token, and where the grammar reads more than the lexer does:
 * - a keyword used as a label (before `:`, after `.`: `as: T`, `event.type`) is a name, but for `true`, `false` and
 *   `nothing`, which before a colon are map keys;
 * - a budget's unit (`per minute`) and the words of `at a time` are keywords, though `minute`, `a` and `time` are names
 *   to the lexer;
 * - another language's operator (`==`, `&&`) is an error, though the lexer reads it as the Renyi word.
 */
function expectedClass(kinds: readonly TokenKind[], texts: readonly string[], i: number): TokenClass | undefined {
  const kind = kinds[i]!;
  const text = texts[i]!;
  switch (kind) {
    case "eof":
      return undefined;
    case "name":
      if (UNITS.has(text) && kinds[i - 1] === "per") return "keyword";
      if (text === "a" && kinds[i - 1] === "at" && texts[i + 1] === "time") return "keyword";
      if (text === "time" && texts[i - 1] === "a" && kinds[i - 2] === "at") return "keyword";
      if (isRecordingPartWord(kinds, texts, i)) return "keyword";
      return "name";
    case "upper":
      return "type";
    case "int":
    case "float":
      return "number";
    case "text_start":
    case "text_part":
    case "text_end":
      return "text";
    case "interp_start":
    case "interp_end":
      return "interpolation";
    case "prose":
      return "prose";
  }
  if (KEYWORD_SET.has(kind)) {
    if (!/^[a-z]+$/.test(text)) return "invalid";
    const isProse = kind === "purpose" && kinds[i + 2] === "prose";
    if (kinds[i - 1] === ".") return "name";
    if (!isProse && kinds[i + 1] === ":" && !CONSTANTS.has(kind)) return "name";
    return "keyword";
  }
  return "punctuation";
}

/**
 * `calls` right after a test's recording path, and `unused` after that path or after `calls N to M`: words of a
 * test's header (spec/grammar.md), keywords there only.
 */
function isRecordingPartWord(kinds: readonly TokenKind[], texts: readonly string[], i: number): boolean {
  const text = texts[i];
  if (text !== "calls" && text !== "unused") return false;
  let at = i - 1;
  if (text === "unused" && kinds[at] === "int" && kinds[at - 1] === "to" && kinds[at - 2] === "int") {
    if (texts[at - 3] !== "calls") return false;
    at -= 4;
  }
  if (kinds[at] !== "text_end") return false;
  while (at > 0 && kinds[at] !== "text_start") at--;
  return kinds[at - 1] === "replays";
}

/** A place where the grammar and the lexer disagree. */
export interface Disagreement {
  line: number;
  column: number;
  text: string;
  expected: TokenClass;
  got: TokenClass;
  scopes: string[];
}

/**
 * Every character of every lexer token, and of every comment, compared with the class of the grammar's token over it.
 * Returns the first disagreement, or undefined when they agree (and the lexer found no problem: on bad input the two
 * may part ways, and no class is compared).
 */
export function disagreement(highlight: Highlighter, source: string): Disagreement | undefined | "lex-error" {
  const { tokens, diagnostics } = lex("agree.ry", source);
  if (diagnostics.length > 0) return "lex-error";
  const grammarTokens = highlight(source);
  const classAt = new Array<TokenClass>(source.length).fill("other");
  const tokenAt = new Array<HighlightToken | undefined>(source.length);
  for (const t of grammarTokens) {
    const cls = classOfScopes(t.scopes);
    for (let at = t.start; at < t.end; at++) {
      classAt[at] = cls;
      tokenAt[at] = t;
    }
  }
  const texts = tokens.kinds.map((_, i) => tokens.text(i));
  const expected = new Array<TokenClass | undefined>(source.length);
  let gapStart = 0;
  for (let i = 0; i < tokens.count; i++) {
    const start = tokens.offsets[i]!;
    markComments(source, gapStart, start, expected);
    const cls = expectedClass(tokens.kinds, texts, i);
    const end = start + tokens.lengths[i]!;
    if (cls !== undefined) for (let at = start; at < end; at++) expected[at] = cls;
    gapStart = Math.max(gapStart, end);
  }
  markComments(source, gapStart, source.length, expected);
  for (let at = 0; at < source.length; at++) {
    const want = expected[at];
    if (want === undefined || want === classAt[at] || source[at] === "\r" || source[at] === "\n") continue;
    const lineStart = source.lastIndexOf("\n", at - 1) + 1;
    const line = source.slice(0, at).split("\n").length;
    const t = tokenAt[at];
    return {
      line,
      column: at - lineStart + 1,
      text: t?.text ?? source[at]!,
      expected: want,
      got: classAt[at]!,
      scopes: t?.scopes ?? [],
    };
  }
  return undefined;
}

/** Between two tokens there are only spaces and comments: each `--` there runs to the end of its line. */
function markComments(source: string, from: number, to: number, expected: (TokenClass | undefined)[]): void {
  let at = source.indexOf("--", from);
  while (at >= 0 && at < to) {
    let end = source.indexOf("\n", at);
    if (end < 0 || end > to) end = to;
    for (let k = at; k < end; k++) expected[k] = "comment";
    at = source.indexOf("--", end);
  }
}

export function describeDisagreement(d: Disagreement): string {
  return (
    `${d.line}:${d.column} ${JSON.stringify(d.text)}: the lexer's token is a ${d.expected}, the grammar's a ${d.got} ` +
    `(${d.scopes.slice(1).join(" ") || "no scope"})`
  );
}
