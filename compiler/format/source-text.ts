// Questions about the source text between two nodes: whether the author broke
// the line there, left a blank line, or where a bracket stands. Each looks only
// at the characters between its bounds, so the formatter stays linear.

const NL = 10,
  CR = 13,
  SPACE = 32,
  TAB = 9;

/** A line break in `[from, to)`. */
export function breaksBetween(src: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (src.charCodeAt(i) === NL) return true;
  return false;
}

/** A line holding nothing but spaces in `[from, to)`: two line breaks with only spaces between. */
export function blankLineBetween(src: string, from: number, to: number): boolean {
  let sawBreak = false;
  for (let i = from; i < to; i++) {
    const c = src.charCodeAt(i);
    if (c === NL) {
      if (sawBreak) return true;
      sawBreak = true;
    } else if (c !== SPACE && c !== TAB && c !== CR) {
      sawBreak = false;
    }
  }
  return false;
}

/**
 * The offset of `char` at or after `from`, past spaces, line breaks, commas and comments: where a
 * bracket the tree does not record stands (the `(` after a callee, the `)` after the last parameter).
 */
export function findAhead(src: string, from: number, char: string): number {
  const code = char.charCodeAt(0);
  let i = from;
  while (i < src.length) {
    const c = src.charCodeAt(i);
    if (c === code) return i;
    if (c === 45 && src.charCodeAt(i + 1) === 45) {
      while (i < src.length && src.charCodeAt(i) !== NL) i++;
    } else {
      i++;
    }
  }
  return src.length;
}

/** The column (0-based) of `offset` on its line. */
export function columnOf(src: string, offset: number): number {
  let i = offset;
  while (i > 0 && src.charCodeAt(i - 1) !== NL) i--;
  return offset - i;
}

/** Whether only spaces stand before `offset` on its line. */
export function startsItsLine(src: string, offset: number): boolean {
  for (let i = offset - 1; i >= 0; i--) {
    const c = src.charCodeAt(i);
    if (c === NL) return true;
    if (c !== SPACE && c !== TAB && c !== CR && c !== 0xfeff) return false;
  }
  return true;
}

/** The offset where the line holding `offset` starts. */
export function lineStartOf(src: string, offset: number): number {
  let i = offset;
  while (i > 0 && src.charCodeAt(i - 1) !== NL) i--;
  return i;
}

/** The offset of the line break that ends the line holding `offset` (or the end of the text). */
export function lineEndOf(src: string, offset: number): number {
  let i = offset;
  while (i < src.length && src.charCodeAt(i) !== NL) i++;
  return i > 0 && src.charCodeAt(i - 1) === CR ? i - 1 : i;
}
