// Reading text literals: escapes, and the indentation of `"""` texts.

const SIMPLE_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "0": "\0",
  '"': '"',
  "\\": "\\",
  "{": "{",
  "}": "}",
};

/**
 * The text a raw literal part stands for. The lexer has already reported
 * malformed escapes; here they are kept as written so that nothing is lost.
 * A line break written as CR LF in the file is one `\n` in the text.
 */
export function readEscapes(raw: string): string {
  if (!raw.includes("\\") && !raw.includes("\r")) return raw;
  let out = "";
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === "\r" && raw[i + 1] === "\n") continue;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const next = raw[i + 1];
    if (next !== undefined && next in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[next];
      i++;
      continue;
    }
    const unicode = next === "u" ? /^u\{([0-9a-fA-F]{1,6})\}/.exec(raw.slice(i + 1, i + 12)) : null;
    if (unicode !== null) {
      const code = parseInt(unicode[1]!, 16);
      if (code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)) {
        out += String.fromCodePoint(code);
        i += unicode[0].length;
        continue;
      }
    }
    out += c;
  }
  return out;
}

function isBlank(s: string): boolean {
  return /^[ \t\r]*$/.test(s);
}

function indentOf(s: string): number {
  const m = /^[ \t]*/.exec(s);
  return m === null ? 0 : m[0].length;
}

/**
 * Removes the common indentation of a `"""` text (the rule of Java's text blocks
 * and Kotlin's trimIndent):
 * - a line break right after the opening `"""` (with only spaces before it) is dropped;
 * - when the closing `"""` stands on its own line, that line and the line break
 *   before it are dropped, and its indentation counts towards the common one;
 * - the common indentation is the smallest of every line that holds more than
 *   spaces, and is removed from every line.
 *
 * `raws` are the literal parts between interpolations (the text is
 * raws[0] {..} raws[1] {..} ...); `startsWithPart` and `endsWithPart` say whether
 * the text begins and ends with a literal part rather than an interpolation.
 */
export function dedentTriple(raws: readonly string[], startsWithPart: boolean, endsWithPart: boolean): string[] {
  const parts = raws.map((r) => r.replace(/\r\n/g, "\n"));
  if (parts.length === 0) return parts;
  if (startsWithPart) parts[0] = parts[0]!.replace(/^[ \t]*\n/, "");
  let closingIndent = Infinity;
  if (endsWithPart) {
    const last = parts[parts.length - 1]!;
    const m = /\n([ \t]*)$/.exec(last);
    if (m !== null) {
      closingIndent = m[1]!.length;
      parts[parts.length - 1] = last.slice(0, m.index);
    } else if (parts.length === 1 && isBlank(last) && startsWithPart && raws[0]!.includes("\n")) {
      // `"""\n   """`: the whole text is the closing line.
      closingIndent = last.length;
      parts[0] = "";
    }
  }
  // Lines start at the beginning of the text and after every line break in a part.
  // A line holds more than spaces if it has a non-space character, or an
  // interpolation, before its end.
  let common = closingIndent;
  const consider = (lineText: string, followedByInterpolation: boolean) => {
    if (!isBlank(lineText) || followedByInterpolation) common = Math.min(common, indentOf(lineText));
  };
  parts.forEach((part, k) => {
    const lines = part.split("\n");
    const hasInterpolationAfter = k < parts.length - 1;
    lines.forEach((line, j) => {
      const startsLine = j > 0 || (k === 0 && startsWithPart);
      if (!startsLine) return;
      const lastLine = j === lines.length - 1;
      consider(line, lastLine && hasInterpolationAfter);
    });
  });
  if (!Number.isFinite(common) || common === 0) return parts;
  return parts.map((part, k) =>
    part
      .split("\n")
      .map((line, j) => {
        const startsLine = j > 0 || (k === 0 && startsWithPart);
        return startsLine ? line.slice(Math.min(common, indentOf(line))) : line;
      })
      .join("\n"),
  );
}
