// Comments and blank lines go back in. Each comment is placed by where it
// stands among the printed lines' sources: one with code before it on its line
// ends the line that code is on; one on a line of its own goes on a line of its
// own before the next printed line, at that line's depth (one step deeper before
// `end`, `else` or a closing bracket, which close what it was written in). A
// blank line the author left between two lines or comments stays, one however
// many there were, except right after a line that opens a block and right
// before one that closes it.

import type { Comment } from "../lex/lexer.js";
import { type Line, pad } from "./lines.js";
import { blankLineBetween, columnOf, startsItsLine } from "./source-text.js";

export interface Woven {
  readonly text: string;
  /**
   * Where each top-level item's lines are in the text, by its index: from its first line to the end of its last (when
   * asked for).
   */
  readonly items: { start: number; end: number }[];
}

export function weave(
  src: string,
  lines: readonly Line[],
  /** Lines.parts, which weaving changes in place. */
  parts: string[],
  verbatim: readonly { start: number; end: number }[],
  comments: readonly Comment[],
  withItems = false,
): Woven {
  // Most lines have no comment: the comments before a line and after it are kept only for those that do.
  const before = new Map<number, Comment[]>();
  const trailing = new Map<number, Comment>();
  let next = 0;
  let skip = 0;
  for (const comment of comments) {
    // A comment inside a text printed as written is already in the output.
    while (skip < verbatim.length && verbatim[skip]!.end <= comment.start) skip++;
    if (skip < verbatim.length && verbatim[skip]!.start <= comment.start) continue;
    while (next < lines.length && lines[next]!.start <= comment.start) next++;
    const previous = next - 1;
    const waiting = before.get(next);
    if (!startsItsLine(src, comment.start) && previous >= 0 && !trailing.has(previous) && waiting === undefined) {
      trailing.set(previous, comment);
    } else if (waiting === undefined) {
      before.set(next, [comment]);
    } else {
      waiting.push(comment);
    }
  }

  // What goes in before a line is written in front of its first part, a trailing comment in front of its line
  // break: the parts are then joined once.
  const text = parts;
  let sourceEnd = 0;
  let afterOpener = false;
  let first = true;
  for (let i = 0; i <= lines.length; i++) {
    const line = lines[i];
    let inserted = "";
    for (const comment of before.get(i) ?? []) {
      if (!first && !afterOpener && blankLineBetween(src, sourceEnd, comment.start)) inserted += "\n";
      inserted += `${pad(commentIndent(src, comment, line))}${commentText(src, comment)}\n`;
      sourceEnd = Math.max(sourceEnd, comment.end);
      afterOpener = false;
      first = false;
    }
    if (line === undefined) {
      if (inserted !== "") text.push(inserted);
      break;
    }
    if (!first && !afterOpener && !line.closes && blankLineBetween(src, sourceEnd, line.start)) inserted += "\n";
    if (inserted !== "") text[line.from] = inserted + text[line.from]!;
    first = false;
    sourceEnd = Math.max(sourceEnd, line.end);
    const comment = trailing.get(i);
    if (comment !== undefined) {
      text[line.to - 1] = ` ${commentText(src, comment)}\n`;
      sourceEnd = Math.max(sourceEnd, comment.end);
    }
    afterOpener = line.opens;
  }
  return { text: text.join(""), items: withItems ? itemRanges(lines, text) : [] };
}

/** Where each item's lines are in the joined parts: from its first line's first character to its last line's end. */
function itemRanges(lines: readonly Line[], parts: readonly string[]): { start: number; end: number }[] {
  const items: { start: number; end: number }[] = [];
  let offset = 0;
  let index = 0;
  for (const line of lines) {
    for (; index < line.from; index++) offset += parts[index]!.length;
    // Inserted comments and blank lines stand before the line's indentation, ending in a line break.
    const head = parts[line.from]!;
    const start = offset + head.lastIndexOf("\n") + 1;
    for (; index < line.to; index++) offset += parts[index]!.length;
    const end = offset - 1;
    const range = items[line.item];
    if (range === undefined) items[line.item] = { start, end };
    else range.end = end;
  }
  return items;
}

function commentText(src: string, comment: Comment): string {
  return src.slice(comment.start, comment.end).trimEnd();
}

function commentIndent(src: string, comment: Comment, line: Line | undefined): number {
  if (line === undefined) return 0;
  if (line.closes) return line.indent + 1;
  // Under an arm's block, a comment deeper than the next `when` is the block's last line.
  if (line.arm && columnOf(src, comment.start) > columnOf(src, line.start)) return line.indent + 1;
  return line.indent;
}
