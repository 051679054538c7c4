// A bracketed, comma-separated list: on one line, or, when the author put a
// line break after the opening bracket, broken: one row per line of the
// source, one step deeper, and the closing bracket on a line of its own.

import { CLOSES, type Lines, type Tail } from "./lines.js";
import { breaksBetween } from "./source-text.js";

export function bracketed<T extends { span: { start: number; end: number } }>(
  o: Lines,
  open: string,
  close: string,
  openAt: number,
  closeAt: number,
  items: readonly T[],
  /** Prints one item; it is given `o` rather than closing over it, so that a call makes no function. */
  print: (o: Lines, item: T, tail: Tail) => void,
): void {
  o.write(open);
  const first = items[0];
  if (first === undefined || !breaksBetween(o.src, openAt + 1, first.span.start)) {
    for (let i = 0; i < items.length; i++) {
      if (i > 0) o.write(", ");
      print(o, items[i]!, i < items.length - 1 ? "comma" : "end");
    }
    o.write(close);
    return o.reach(closeAt + 1);
  }
  const indent = o.indent;
  o.open();
  o.start(indent + 1, first.span.start);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (i > 0) {
      o.write(",");
      if (breaksBetween(o.src, items[i - 1]!.span.end, item.span.start)) o.start(indent + 1, item.span.start);
      else o.write(" ");
    }
    print(o, item, i < items.length - 1 ? "comma" : "end");
  }
  o.start(indent, closeAt, CLOSES);
  o.write(close);
  o.reach(closeAt + 1);
}
