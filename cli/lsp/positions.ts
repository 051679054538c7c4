// Positions between the compiler's offsets and the protocol's. Both count
// UTF-16 code units (the protocol's default encoding); the protocol counts
// lines from 0 and the compiler from 1. A position past a line's end, or past
// the text's, is its nearest end: a client's stale position is never a crash.

import type { Position, Range } from "vscode-languageserver/node";
import type { SourceFile, Span } from "../../compiler/source.js";

function positionAt(source: SourceFile, offset: number): Position {
  const at = source.position(offset);
  return { line: at.line - 1, character: at.column - 1 };
}

export function rangeOf(source: SourceFile, span: Span): Range {
  return { start: positionAt(source, span.start), end: positionAt(source, Math.max(span.start, span.end)) };
}

/** The offset of a position, clamped to its line (before the line's break) and to the text. */
export function offsetAt(source: SourceFile, position: Position): number {
  const starts = source.lineStarts;
  const line = Number.isFinite(position.line) ? Math.trunc(position.line) : 0;
  if (line < 0) return 0;
  if (line >= starts.length) return source.text.length;
  const start = starts[line]!;
  let end = line + 1 < starts.length ? starts[line + 1]! - 1 : source.text.length;
  if (end > start && source.text.charCodeAt(end - 1) === 13) end--;
  const character = Number.isFinite(position.character) ? Math.trunc(position.character) : 0;
  return Math.min(end, start + Math.max(0, character));
}
