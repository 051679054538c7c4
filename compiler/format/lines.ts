// The formatter's output before comments go in: a list of lines, each with its
// indentation and the span of source it was printed from. Printing writes to
// the current line and starts new ones; comments and blank lines are woven in
// afterwards by where each line came from (weave.ts).
//
// Formatting a long file makes about one line for every line of source, and the
// lines live until the text is joined: they are kept in columns of numbers
// rather than as an object each, and a line's text as the pieces written (most
// of them constants or names the tree holds already) rather than as a string
// built up piece by piece, so that printing allocates little the collector
// must then copy.

/** What follows an expression where it stands: nothing that could join it, a comma, or a binary operator. */
export type Tail = "end" | "comma" | "operator";

/** The line opens a block or a broken bracket: no blank line after it. */
export const OPENS = 1;
/** The line closes one (`end`, `else`, a closing bracket): no blank line before it. */
export const CLOSES = 2;
/** The line is a match arm (`when ...`): a comment indented deeper than it belongs to the arm above. */
export const ARM = 4;

export class Lines {
  /** How many lines there are; each of the columns below holds one entry a line, by its index. */
  count = 0;
  /** In steps of two spaces. */
  indents: Int32Array;
  /**
   * The line is `parts[from]` up to, not including, `parts[to]`: its indentation, its pieces and its line break, the
   * last part.
   */
  froms: Int32Array;
  tos: Int32Array;
  /** The offset of the source token the line starts with. */
  starts: Int32Array;
  /** The end of the last source printed on the line. */
  ends: Int32Array;
  /** OPENS, CLOSES and ARM. */
  flags: Uint8Array;
  /** The index of the top-level item the line belongs to. */
  items: Int32Array;
  /**
   * The text of every line, in pieces, indentation and line breaks included: joined once at the end. Its first
   * `partCount` entries are written; it is made long enough for most files at the start, so that it seldom grows
   * (each growth copies it).
   */
  readonly parts: string[];
  partCount = 0;
  /** Source ranges printed as written (multi-line texts): comments inside them are already in the output. */
  readonly verbatim: { start: number; end: number }[] = [];
  item = -1;
  /** The index of the line being written, or -1 between lines. */
  private current = -1;

  constructor(readonly src: string) {
    // About one printed line for every 35 characters of a typical program; the columns grow when there are more.
    const capacity = Math.max(64, src.length >> 5);
    this.indents = new Int32Array(capacity);
    this.froms = new Int32Array(capacity);
    this.tos = new Int32Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.items = new Int32Array(capacity);
    // About one piece for every four characters.
    this.parts = new Array<string>(Math.max(256, src.length >> 2));
  }

  /** Starts a new line at `indent` for the source at `start`; `flags` are CLOSES and ARM, those that apply. */
  start(indent: number, start: number, flags = 0): void {
    this.finish();
    if (this.count === this.indents.length) this.grow();
    const line = this.count++;
    this.indents[line] = indent;
    this.froms[line] = this.partCount;
    this.starts[line] = start;
    this.ends[line] = start;
    this.flags[line] = flags;
    this.items[line] = this.item;
    this.current = line;
    this.parts[this.partCount++] = pad(indent);
  }

  /** Ends the current line. */
  finish(): void {
    if (this.current < 0) return;
    this.parts[this.partCount++] = "\n";
    this.tos[this.current] = this.partCount;
    this.current = -1;
  }

  get indent(): number {
    return this.indents[this.current]!;
  }

  write(text: string): void {
    this.parts[this.partCount++] = text;
  }

  /** The source up to `end` is on the current line now. */
  reach(end: number): void {
    if (end > this.ends[this.current]!) this.ends[this.current] = end;
  }

  /** The current line opens a block: what follows goes one step deeper. */
  open(): void {
    this.flags[this.current]! |= OPENS;
  }

  /** Writes source text as it stands (a multi-line text), and remembers where it was. */
  writeVerbatim(start: number, end: number): void {
    this.write(this.src.slice(start, end));
    this.verbatim.push({ start, end });
    this.reach(end);
  }

  private grow(): void {
    const capacity = this.indents.length * 2;
    const wider = <T extends Int32Array | Uint8Array>(column: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(column);
      return next;
    };
    const ints = (n: number) => new Int32Array(n);
    this.indents = wider(this.indents, ints);
    this.froms = wider(this.froms, ints);
    this.tos = wider(this.tos, ints);
    this.starts = wider(this.starts, ints);
    this.ends = wider(this.ends, ints);
    this.flags = wider(this.flags, (n) => new Uint8Array(n));
    this.items = wider(this.items, ints);
  }
}

const PADS: string[] = [];

/** `indent` steps of two spaces. */
export function pad(indent: number): string {
  while (PADS.length <= indent) PADS.push("  ".repeat(PADS.length));
  return PADS[indent]!;
}
