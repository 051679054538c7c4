// The formatter's output before comments go in: a list of lines, each with its
// indentation and the span of source it was printed from. Printing writes to
// the current line and starts new ones; comments and blank lines are woven in
// afterwards by where each line came from (weave.ts).

/** What follows an expression where it stands: nothing that could join it, a comma, or a binary operator. */
export type Tail = "end" | "comma" | "operator";

export interface Line {
  /** In steps of two spaces. */
  readonly indent: number;
  /**
   * The line is `parts[from]` up to, not including, `parts[to]` (of Lines.parts): its indentation, its pieces and its
   * line break, the last part.
   */
  readonly from: number;
  to: number;
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
  /** The text of every line, in pieces, indentation and line breaks included: joined once at the end. */
  readonly parts: string[] = [];
  /** Source ranges printed as written (multi-line texts): comments inside them are already in the output. */
  readonly verbatim: { start: number; end: number }[] = [];
  item = -1;
  private current: Line | undefined;
  /** The current line's text, since its indentation. */
  private text = "";

  constructor(readonly src: string) {}

  /** Starts a new line at `indent` for the source at `start`. */
  start(indent: number, start: number, flags?: LineFlags): void {
    this.finish();
    const line: Line = {
      indent,
      from: this.parts.length,
      to: this.parts.length,
      start,
      end: start,
      opens: false,
      closes: flags?.closes === true,
      arm: flags?.arm === true,
      item: this.item,
    };
    this.lines.push(line);
    this.current = line;
    this.parts.push(pad(indent));
  }

  /** Ends the current line. */
  finish(): void {
    if (this.current === undefined) return;
    this.parts.push(this.text, "\n");
    this.text = "";
    this.current.to = this.parts.length;
    this.current = undefined;
  }

  get indent(): number {
    return this.current!.indent;
  }

  write(text: string): void {
    this.text += text;
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

const PADS: string[] = [];

/** `indent` steps of two spaces. */
export function pad(indent: number): string {
  while (PADS.length <= indent) PADS.push("  ".repeat(PADS.length));
  return PADS[indent]!;
}
