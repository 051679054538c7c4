// The formatter's output before comments go in: a list of lines, each with its
// indentation and the span of source it was printed from. Printing writes to
// the current line and starts new ones; comments and blank lines are woven in
// afterwards by where each line came from (weave.ts).

/** What follows an expression where it stands: nothing that could join it, a comma, or a binary operator. */
export type Tail = "end" | "comma" | "operator";

export interface Line {
  /** In steps of two spaces. */
  readonly indent: number;
  text: string;
  /** The offset of the source token the line starts with. */
  readonly start: number;
  /** The end of the last source printed on the line. */
  end: number;
  /** The line opens a block or a broken bracket: no blank line after it. */
  opens: boolean;
  /** The line closes one (`end`, `else`, a closing bracket): no blank line before it. */
  readonly closes: boolean;
  /** The line is a match arm (`when ...`): a comment indented deeper than it belongs to the arm above. */
  readonly arm: boolean;
  /** The index of the top-level item the line belongs to. */
  readonly item: number;
}

export interface LineFlags {
  readonly closes?: boolean;
  readonly arm?: boolean;
}

export class Lines {
  readonly lines: Line[] = [];
  /** Source ranges printed as written (multi-line texts): comments inside them are already in the output. */
  readonly verbatim: { start: number; end: number }[] = [];
  item = -1;
  private current: Line | undefined;

  constructor(readonly src: string) {}

  /** Starts a new line at `indent` for the source at `start`. */
  start(indent: number, start: number, flags: LineFlags = {}): void {
    const line: Line = {
      indent,
      text: "",
      start,
      end: start,
      opens: false,
      closes: flags.closes === true,
      arm: flags.arm === true,
      item: this.item,
    };
    this.lines.push(line);
    this.current = line;
  }

  get indent(): number {
    return this.current!.indent;
  }

  write(text: string): void {
    this.current!.text += text;
  }

  /** The source up to `end` is on the current line now. */
  reach(end: number): void {
    if (end > this.current!.end) this.current!.end = end;
  }

  /** The current line opens a block: what follows goes one step deeper. */
  open(): void {
    this.current!.opens = true;
  }

  /** Writes source text as it stands (a multi-line text), and remembers where it was. */
  writeVerbatim(start: number, end: number): void {
    this.write(this.src.slice(start, end));
    this.verbatim.push({ start, end });
    this.reach(end);
  }
}
