// Comments and blank lines go back in. Each comment is placed by where it
// stands among the printed lines' sources: one with code before it on its line
// ends the line that code is on; one on a line of its own goes on a line of its
// own before the next printed line, at that line's depth (one step deeper before
// `end`, `else` or a closing bracket, which close what it was written in). A
// blank line the author left between two lines or comments stays, one however
// many there were, except right after a line that opens a block and right
// before one that closes it.

import type { Comment } from "../lex/lexer.js";
import type { Line } from "./lines.js";
import { blankLineBetween, columnOf, startsItsLine } from "./source-text.js";

export interface Woven {
  readonly text: string;
  /** Where each top-level item's lines are in the text, by its index: from its first line to the end of its last. */
  readonly items: { start: number; end: number }[];
}

export function weave(
  src: string,
  lines: readonly Line[],
  verbatim: readonly { start: number; end: number }[],
  comments: readonly Comment[],
): Woven {
  const before: Comment[][] = Array.from({ length: lines.length + 1 }, () => []);
  const trailing: (Comment | undefined)[] = new Array(lines.length).fill(undefined);
  let next = 0;
  let skip = 0;
  for (const comment of comments) {
    // A comment inside a text printed as written is already in the output.
    while (skip < verbatim.length && verbatim[skip]!.end <= comment.start) skip++;
    if (skip < verbatim.length && verbatim[skip]!.start <= comment.start) continue;
    while (next < lines.length && lines[next]!.start <= comment.start) next++;
    const previous = next - 1;
    if (!startsItsLine(src, comment.start) && previous >= 0 && !trailing[previous] && before[next]!.length === 0) {
      trailing[previous] = comment;
    } else {
      before[next]!.push(comment);
    }
  }

  let out = "";
  const items: { start: number; end: number }[] = [];
  let sourceEnd = 0;
  let afterOpener = false;
  const blank = (start: number, closes: boolean): void => {
    if (out !== "" && !afterOpener && !closes && blankLineBetween(src, sourceEnd, start)) out += "\n";
  };
  for (let i = 0; i <= lines.length; i++) {
    const line = lines[i];
    for (const comment of before[i]!) {
      blank(comment.start, false);
      out += `${"  ".repeat(commentIndent(src, comment, line))}${commentText(src, comment)}\n`;
      sourceEnd = Math.max(sourceEnd, comment.end);
      afterOpener = false;
    }
    if (line === undefined) break;
    blank(line.start, line.closes);
    const start = out.length;
    out += "  ".repeat(line.indent) + line.text;
    sourceEnd = Math.max(sourceEnd, line.end);
    const comment = trailing[i];
    if (comment !== undefined) {
      out += ` ${commentText(src, comment)}`;
      sourceEnd = Math.max(sourceEnd, comment.end);
    }
    const range = items[line.item];
    if (range === undefined) items[line.item] = { start, end: out.length };
    else range.end = out.length;
    out += "\n";
    afterOpener = line.opens;
  }
  return { text: out, items };
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
