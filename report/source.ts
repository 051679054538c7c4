// Source files and spans: the positions every later phase reports through.
//
// Offsets are UTF-16 code units into the decoded text (what JavaScript strings
// index by, and what source maps count); lines and columns are 1-based.

/** A stretch of one source file, by offsets: `start` inclusive, `end` exclusive. */
export interface Span {
  readonly file: string;
  readonly start: number;
  readonly end: number;
}

export interface Position {
  readonly line: number;
  readonly column: number;
}

export class SourceFile {
  readonly lineStarts: number[];

  constructor(
    readonly path: string,
    readonly text: string,
  ) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) === 10) starts.push(i + 1);
    }
    this.lineStarts = starts;
  }

  /** The 1-based line and column of an offset (binary search over line starts). */
  position(offset: number): Position {
    // An offset outside the text (from a source map that does not fit it) is its nearest end.
    if (!(offset >= 0)) offset = 0;
    else if (offset > this.text.length) offset = this.text.length;
    const starts = this.lineStarts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - starts[low]! + 1 };
  }

  /** The text of a 1-based line, without its line break. */
  lineText(line: number): string {
    const start = this.lineStarts[line - 1] ?? this.text.length;
    let end = this.lineStarts[line] ?? this.text.length;
    if (end > start && this.text.charCodeAt(end - 1) === 10) end--;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return this.text.slice(start, end);
  }
}

/** Text decoded from a file's bytes, or the offset of the first byte that is not UTF-8. */
export type Decoded = { ok: true; text: string } | { ok: false; text: string; badOffset: number };

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const lenientUtf8 = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false });

/**
 * Renyi files are UTF-8. Invalid bytes are reported, not silently replaced: the
 * lenient decoding is returned so that the report can show the line, and the
 * offset points at the first replacement character it produced.
 */
export function decodeSource(bytes: Uint8Array): Decoded {
  try {
    return { ok: true, text: strictUtf8.decode(bytes) };
  } catch {
    const text = lenientUtf8.decode(bytes);
    const badOffset = Math.max(0, text.indexOf("\uFFFD"));
    return { ok: false, text, badOffset };
  }
}
