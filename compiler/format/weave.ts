// Comments and blank lines go back in. Each comment is placed by where it
// stands among the printed lines' sources: one with code before it on its line
// ends the line that code is on; one on a line of its own goes on a line of its
// own before the next printed line, at that line's depth (one step deeper before
// `end`, `else` or a closing bracket, which close what it was written in). A
// blank line the author left between two lines or comments stays, one however
// many there were, except right after a line that opens a block and right
// before one that closes it.

import type { Comment } from "../lex/lexer.js";
import { ARM, CLOSES, type Lines, OPENS, pad } from "./lines.js";
import { blankLineBetween, columnOf, startsItsLine } from "./source-text.js";

export interface Woven {
  readonly text: string;
  /**
   * Where each top-level item's lines are in the text, by its index: from its first line to the end of its last (when
   * asked for).
   */
  readonly items: { start: number; end: number }[];
}

/** Weaves `comments` into the printed `lines`, whose parts it changes in place, and joins them. */
export function weave(src: string, lines: Lines, comments: readonly Comment[], withItems = false): Woven {
  const { count, starts, ends, flags, froms, tos, verbatim } = lines;
  // Most lines have no comment: the comments before a line and after it are kept only for those that do.
  const before = new Map<number, Comment[]>();
  const trailing = new Map<number, Comment>();
  let next = 0;
  let skip = 0;
  for (const comment of comments) {
    // A comment inside a text printed as written is already in the output.
    while (skip < verbatim.length && verbatim[skip]!.end <= comment.start) skip++;
    if (skip < verbatim.length && verbatim[skip]!.start <= comment.start) continue;
    while (next < count && starts[next]! <= comment.start) next++;
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
  const text = lines.parts;
  let sourceEnd = 0;
  let afterOpener = false;
  let first = true;
  for (let i = 0; i <= count; i++) {
    let inserted = "";
    const above = before.size === 0 ? undefined : before.get(i);
    if (above !== undefined) {
      for (const comment of above) {
        if (!first && !afterOpener && blankLineBetween(src, sourceEnd, comment.start)) inserted += "\n";
        inserted += `${pad(commentIndent(src, comment, lines, i))}${commentText(src, comment)}\n`;
        sourceEnd = Math.max(sourceEnd, comment.end);
        afterOpener = false;
        first = false;
      }
    }
    if (i === count) {
      if (inserted !== "") text[lines.partCount++] = inserted;
      break;
    }
    const lineFlags = flags[i]!;
    if (!first && !afterOpener && (lineFlags & CLOSES) === 0 && blankLineBetween(src, sourceEnd, starts[i]!))
      inserted += "\n";
    if (inserted !== "") text[froms[i]!] = inserted + text[froms[i]!]!;
    first = false;
    sourceEnd = Math.max(sourceEnd, ends[i]!);
    const comment = trailing.size === 0 ? undefined : trailing.get(i);
    if (comment !== undefined) {
      text[tos[i]! - 1] = ` ${commentText(src, comment)}\n`;
      sourceEnd = Math.max(sourceEnd, comment.end);
    }
    afterOpener = (lineFlags & OPENS) !== 0;
  }
  return { text: joined(text, lines.partCount), items: withItems ? itemRanges(lines) : [] };
}

/**
 * The first `count` parts as one string. Joined a few thousand at a time and then the pieces: one join of hundreds of
 * thousands of parts allocates several times the text's size along the way.
 */
function joined(parts: readonly string[], count: number): string {
  const CHUNK = 4096;
  if (count <= CHUNK) return parts.slice(0, count).join("");
  const chunks: string[] = [];
  for (let from = 0; from < count; from += CHUNK)
    chunks.push(parts.slice(from, Math.min(from + CHUNK, count)).join(""));
  return chunks.join("");
}

/** Where each item's lines are in the joined parts: from its first line's first character to its last line's end. */
function itemRanges(lines: Lines): { start: number; end: number }[] {
  const parts = lines.parts;
  const items: { start: number; end: number }[] = [];
  let offset = 0;
  let index = 0;
  for (let line = 0; line < lines.count; line++) {
    const from = lines.froms[line]!;
    const to = lines.tos[line]!;
    for (; index < from; index++) offset += parts[index]!.length;
    // Inserted comments and blank lines stand before the line's indentation, ending in a line break.
    const head = parts[from]!;
    const start = offset + head.lastIndexOf("\n") + 1;
    for (; index < to; index++) offset += parts[index]!.length;
    const end = offset - 1;
    const item = lines.items[line]!;
    const range = items[item];
    if (range === undefined) items[item] = { start, end };
    else range.end = end;
  }
  return items;
}

function commentText(src: string, comment: Comment): string {
  return src.slice(comment.start, comment.end).trimEnd();
}

/** The depth of a comment on a line of its own before line `line` (or after the last, when it is `lines.count`). */
function commentIndent(src: string, comment: Comment, lines: Lines, line: number): number {
  if (line === lines.count) return 0;
  const indent = lines.indents[line]!;
  const lineFlags = lines.flags[line]!;
  if ((lineFlags & CLOSES) !== 0) return indent + 1;
  // Under an arm's block, a comment deeper than the next `when` is the block's last line.
  if ((lineFlags & ARM) !== 0 && columnOf(src, comment.start) > columnOf(src, lines.starts[line]!)) return indent + 1;
  return indent;
}
