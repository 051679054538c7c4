// What is being typed at a position, read from the text around it alone (the
// module may not parse there): in a comment, in a text, after a `.` and what
// stands before it, after `needs` (or a `,`, `or`, `only to` of a needs line),
// after a test's `replays "PATH"` (its `calls` and `unused`, and `unused`'s capabilities),
// after `per` of a budget, after `when`, after `use`, where a type is written,
// at the start of a statement. Looks at the line being typed, and for a needs
// line or a text in triple quotes a little above it; never at the whole module.

export type CompletionContext =
  | { readonly kind: "none" }
  | { readonly kind: "member"; readonly chain: readonly string[]; readonly inNeeds: boolean }
  | { readonly kind: "capability" }
  | { readonly kind: "budget-unit" }
  | { readonly kind: "recording-part"; readonly words: readonly ("calls" | "unused")[] }
  | { readonly kind: "case" }
  | { readonly kind: "use" }
  | { readonly kind: "type" }
  | { readonly kind: "name"; readonly statementStart: boolean; readonly lineStart: boolean };

export interface ContextAt {
  readonly context: CompletionContext;
  /** Where the word being typed starts: an item replaces the text from here to the position. */
  readonly wordStart: number;
}

const WORD = /[A-Za-z0-9_]/;

/** How much of the line before the word being typed its patterns read. */
const SHORT_LINE = 1000;

/** How far above the position a needs line or a text in triple quotes is looked for. */
const LOOK_BACK = 4000;

export function contextAt(text: string, offset: number): ContextAt {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  let wordStart = offset;
  while (wordStart > lineStart && offset - wordStart < SHORT_LINE && WORD.test(text.charAt(wordStart - 1))) wordStart--;
  const none = { context: { kind: "none" } as const, wordStart };
  const line = lineState(text.slice(lineStart, offset));
  if (line !== "code" || inTripleText(text, lineStart)) return none;
  // What the patterns below look at: the end of the line before the word, no more than SHORT_LINE of it, so
  // that a line of a megabyte costs what one of a hundred characters does.
  const before = text.slice(Math.max(lineStart, wordStart - SHORT_LINE), wordStart);
  // The rest of a `purpose:` line is prose.
  if (/^\s*purpose\s*:/.test(before)) return none;
  const trimmed = before.trimEnd();
  if (trimmed.endsWith(".")) {
    const chain = chainBefore(trimmed.slice(0, -1));
    if (chain === undefined) return none;
    return { context: { kind: "member", chain, inNeeds: inNeedsLine(text, lineStart, wordStart) }, wordStart };
  }
  const previous = lastWord(trimmed);
  const firstOnLine = trimmed.trim() === "";
  if (previous === "per" && inNeedsLine(text, lineStart, lineStart + trimmed.length))
    return { context: { kind: "budget-unit" }, wordStart };
  if (
    previous === "needs" ||
    ((trimmed.endsWith(",") || previous === "or" || /\bonly\s+to$/.test(trimmed) || firstOnLine) &&
      inNeedsLine(text, lineStart, lineStart + trimmed.length))
  )
    return { context: { kind: "capability" }, wordStart };
  const part = recordingPart(trimmed);
  if (part === "capability") return { context: { kind: "capability" }, wordStart };
  if (part !== undefined) return { context: { kind: "recording-part", words: part }, wordStart };
  if (previous === "when" && trimmed.trim() === "when") return { context: { kind: "case" }, wordStart };
  if (previous === "use" && trimmed.trim() === "use") return { context: { kind: "use" }, wordStart };
  if (isTypePosition(trimmed)) return { context: { kind: "type" }, wordStart };
  const statementStart = firstOnLine || /\b(then|else)$/.test(trimmed);
  return { context: { kind: "name", statementStart, lineStart: firstOnLine }, wordStart };
}

/**
 * After a test's `replays "PATH"` on its line: the words that may follow (`calls`, `unused`), or `capability` after
 * `unused` or a comma of its list (spec/grammar.md).
 */
function recordingPart(trimmed: string): readonly ("calls" | "unused")[] | "capability" | undefined {
  const after = /\breplays\s+"[^"]*"(.*)$/.exec(trimmed);
  if (after === null) return undefined;
  const rest = after[1]!.trim();
  if (rest === "") return ["calls", "unused"];
  const range = /^calls\s+\d[\d_]*\s+to\s+\d[\d_]*/.exec(rest);
  const tail = range === null ? rest : rest.slice(range[0].length).trim();
  if (tail === "") return range === null ? undefined : ["unused"];
  return /^unused(\s.*,)?$/.test(tail) ? "capability" : undefined;
}

/** Whether the end of a line's text is in code, a text or a comment. */
function lineState(prefix: string): "code" | "text" | "comment" {
  // Each entry: a text (its interpolations nest inside it), or an interpolation and its open braces.
  const modes: ("text" | number)[] = [];
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix.charAt(i);
    const top = modes[modes.length - 1];
    if (top === "text") {
      if (c === "\\") i++;
      else if (c === '"') modes.pop();
      else if (c === "{") modes.push(0);
      continue;
    }
    if (c === "-" && prefix.charAt(i + 1) === "-") return "comment";
    if (c === '"') {
      if (prefix.startsWith('"""', i)) {
        const close = prefix.indexOf('"""', i + 3);
        if (close < 0) return "text";
        i = close + 2;
      } else modes.push("text");
    } else if (c === "{" && typeof top === "number") modes[modes.length - 1] = top + 1;
    else if (c === "}" && typeof top === "number") {
      if (top === 0) modes.pop();
      else modes[modes.length - 1] = top - 1;
    }
  }
  return modes[modes.length - 1] === "text" ? "text" : "code";
}

/** Whether the line starting at `lineStart` is inside a text in triple quotes opened on a line above. */
function inTripleText(text: string, lineStart: number): boolean {
  const from = Math.max(0, lineStart - LOOK_BACK);
  let count = 0;
  let at = text.indexOf('"""', from);
  while (at >= 0 && at < lineStart) {
    // A `"""` in a comment opens nothing.
    const start = text.lastIndexOf("\n", at - 1) + 1;
    if (!text.slice(start, at).includes("--")) count++;
    at = text.indexOf('"""', at + 3);
  }
  return count % 2 === 1;
}

/**
 * What stands before a dot: `a.b.c` as names; an empty list for an expression
 * that is no chain of names (`f(x).`, `items[0].`, `f(x).a.`), whose type the
 * parsed definition tells; undefined for what has no members (`1.`, a text).
 */
function chainBefore(text: string): string[] | undefined {
  const end = text.trimEnd();
  const last = end.charAt(end.length - 1);
  if (last === ")" || last === "]") return [];
  const m = /([A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)$/.exec(end);
  if (m === null) return undefined;
  const before = end.slice(0, m.index).trimEnd();
  const previous = before.charAt(before.length - 1);
  // `f(x).a.`: the chain goes on from a call or an index.
  if (previous === ".") return [];
  // A number's digits (`1.`) or a text's end are not names.
  if (/[0-9"]/.test(end.charAt(m.index - 1))) return undefined;
  return m[1]!.split(".").map((p) => p.trim());
}

function lastWord(text: string): string {
  return /([A-Za-z_][A-Za-z0-9_]*)$/.exec(text)?.[1] ?? "";
}

/**
 * Whether position `at` (on the line from `lineStart`) is in the items of a
 * `needs` line: after `needs` on this line, or on a line that continues one
 * (the line above ends with a `,`, `or` or `to`).
 */
function inNeedsLine(text: string, lineStart: number, at: number): boolean {
  let start = lineStart;
  let end = at;
  for (let lines = 0; lines < 50 && start >= 0; lines++) {
    const segment = text.slice(start, end);
    const needs = /(^|[^A-Za-z0-9_.])needs\b/.exec(segment);
    if (needs !== null) {
      // Between `needs` and the position, no word that ends the needs line (`replays`, a statement).
      return !/\breplays\b/.test(segment.slice(needs.index));
    }
    if (start === 0) return false;
    const above = text.slice(text.lastIndexOf("\n", start - 2) + 1, start - 1).trimEnd();
    if (!/(,|\bor|\bto)$/.test(above)) return false;
    end = start - 1;
    start = text.lastIndexOf("\n", start - 2) + 1;
  }
  return false;
}

/** Whether the word being typed is a type: after `returns`, `fails with`, `: ` of a declaration, `as:`, `<`. */
function isTypePosition(before: string): boolean {
  if (/\b(returns|fails\s+with)$/.test(before)) return true;
  if (/[<]\s*$/.test(before) || /<[^>()]*,\s*$/.test(before)) return true;
  if (!before.endsWith(":")) return false;
  const head = before.trimStart();
  // `as: T` in a call; a parameter of a definition or a function value; a field; a let's or var's annotation.
  if (/\bas\s*:$/.test(before)) return true;
  if (/^(public\s+)?function\b/.test(head) || /\bfunction\s*\(/.test(head)) return true;
  if (/^(let|var)\s+[A-Za-z_][A-Za-z0-9_]*\s*:$/.test(head)) return true;
  if (/^[a-z_][A-Za-z0-9_]*\s*:$/.test(head)) return true;
  return false;
}
