// Folding ranges: every block of a module, by line (0-based, as editors count
// them). From the syntax tree: type, function and test bodies, if and else
// branches, matches and their arms, loops, `run concurrently`, `otherwise`
// arms, function values, multi-line lists, maps, calls, queries and texts.
// From the text: runs of comment lines (lines that start with `--`) and runs
// of `use` lines, the imports. A range that ends with `end`, `else` or the
// next `when` stops on the line before it, so that the closing word stays in
// sight; a block on one line folds nothing.

import type { Block, Expr, Item, MatchArm, Statement } from "../compiler/parse/tree.js";
import type { Span } from "../compiler/source.js";
import type { ModuleView } from "./analysis.js";

export interface FoldingRange {
  /** 0-based lines, both shown folded into the first. */
  readonly startLine: number;
  readonly endLine: number;
  readonly kind?: "comment" | "imports";
}

export function foldingRanges(view: ModuleView): FoldingRange[] {
  const folds = new Folds(view);
  for (const item of view.syntax.items) folds.item(item);
  folds.commentsAndImports();
  return folds.sorted();
}

class Folds {
  private readonly ranges: FoldingRange[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly view: ModuleView) {}

  sorted(): FoldingRange[] {
    return this.ranges.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  }

  /** 0-based line of an offset. */
  private line(offset: number): number {
    return this.view.source.position(offset).line - 1;
  }

  /** The line of the last character of `span` that is not white space. */
  private lastLine(span: Span): number {
    const text = this.view.text;
    let end = Math.min(span.end, text.length);
    while (end > span.start && /\s/.test(text.charAt(end - 1))) end--;
    return this.line(Math.max(span.start, end - 1));
  }

  private add(startLine: number, endLine: number, kind?: FoldingRange["kind"]): void {
    if (endLine <= startLine) return;
    const key = `${startLine}:${endLine}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.ranges.push(kind === undefined ? { startLine, endLine } : { startLine, endLine, kind });
  }

  /** A construct closed by `end` on its own last line: folded up to the line before it. */
  private closed(span: Span): void {
    this.add(this.line(span.start), this.lastLine(span) - 1);
  }

  item(item: Item): void {
    switch (item.kind) {
      case "TypeDef":
        this.closed(item.span);
        return;
      case "FunctionDef":
        this.closed(item.span);
        for (const p of item.params) if (p.default) this.expr(p.default);
        this.block(item.body);
        return;
      case "TestDef":
        this.closed(item.span);
        this.block(item.body);
        return;
      case "Use":
        return;
    }
  }

  private block(block: Block): void {
    for (const s of block.statements) this.statement(s);
  }

  private statement(s: Statement): void {
    switch (s.kind) {
      case "Let":
      case "Var":
      case "Set":
        this.expr(s.value);
        return;
      case "If": {
        // The branches fold one by one (the first from `if` to the line before `else`, or before `end`).
        const ends = [
          ...s.branches.slice(1).map((b) => b.span.start),
          s.elseBody ? this.elseStart(s.elseBody) : s.span.end,
        ];
        s.branches.forEach((b, i) => {
          this.expr(b.condition);
          const next = ends[i]!;
          this.add(this.line(b.span.start), next === s.span.end ? this.lastLine(s.span) - 1 : this.line(next) - 1);
          this.block(b.body);
        });
        if (s.elseBody) {
          this.add(this.line(this.elseStart(s.elseBody)), this.lastLine(s.span) - 1);
          this.block(s.elseBody);
        }
        return;
      }
      case "ForEach":
        this.closed(s.span);
        this.expr(s.iterable);
        this.block(s.body);
        return;
      case "While":
        this.closed(s.span);
        this.expr(s.condition);
        this.block(s.body);
        return;
      case "RunConcurrently":
        this.closed(s.span);
        this.block(s.body);
        return;
      case "Return":
      case "Fail":
        if (s.value) this.expr(s.value);
        return;
      case "Crash":
        this.expr(s.message);
        return;
      case "Check":
        this.expr(s.condition);
        return;
      case "CheckFails":
        this.expr(s.expr);
        return;
      case "ExprStatement":
        this.expr(s.expr);
        return;
      case "Stop":
      case "Skip":
        return;
    }
  }

  /** The offset of the `else` before an else block (the block itself starts on the line after it). */
  private elseStart(body: Block): number {
    const at = this.view.text.lastIndexOf("else", body.span.start);
    return at < 0 ? body.span.start : at;
  }

  private arms(arms: readonly MatchArm[], closing: Span): void {
    arms.forEach((arm, i) => {
      const next = arms[i + 1];
      if (!arm.inline)
        this.add(
          this.line(arm.span.start),
          next === undefined ? this.lastLine(closing) - 1 : this.line(next.span.start) - 1,
        );
      this.block(arm.body);
    });
  }

  /** A bracketed construct over several lines: folded up to the line before its closing bracket. */
  private bracketed(span: Span): void {
    const last = this.lastLine(span);
    const closing = this.view.text.charAt(this.lastNonSpace(span));
    this.add(this.line(span.start), closing === "]" || closing === ")" || closing === "}" ? last - 1 : last);
  }

  private lastNonSpace(span: Span): number {
    let end = Math.min(span.end, this.view.text.length);
    while (end > span.start && /\s/.test(this.view.text.charAt(end - 1))) end--;
    return end - 1;
  }

  private expr(e: Expr): void {
    switch (e.kind) {
      case "ListLiteral":
        this.bracketed(e.span);
        for (const item of e.items) this.expr(item);
        return;
      case "MapLiteral":
        this.bracketed(e.span);
        for (const entry of e.entries) {
          this.expr(entry.key);
          this.expr(entry.value);
        }
        return;
      case "Call":
        this.bracketed({ file: e.span.file, start: e.callee.span.end, end: e.span.end });
        this.expr(e.callee);
        for (const a of e.args) this.expr(a.value);
        return;
      case "TextLiteral":
        this.add(this.line(e.span.start), this.lastLine(e.span) - 1);
        for (const part of e.parts) if (part.kind !== "TextChunk") this.expr(part);
        return;
      case "Member":
        this.expr(e.object);
        return;
      case "Index":
        this.expr(e.object);
        this.expr(e.index);
        return;
      case "With":
        this.expr(e.record);
        for (const u of e.updates) this.expr(u.value);
        return;
      case "Unary":
        this.expr(e.operand);
        return;
      case "Binary":
        this.expr(e.left);
        this.expr(e.right);
        return;
      case "Otherwise":
        this.expr(e.expr);
        if (e.handler.kind === "OtherwiseArms") {
          this.add(this.line(e.handler.span.start), this.lastLine(e.handler.span) - 1);
          this.arms(e.handler.arms, e.handler.span);
        } else if (e.handler.kind === "OtherwiseDefault" || (e.handler.kind === "OtherwiseFail" && e.handler.value))
          this.expr(e.handler.value!);
        return;
      case "PairLiteral":
        this.expr(e.first);
        this.expr(e.second);
        return;
      case "Lambda":
        this.expr(e.body);
        return;
      case "FunctionExpr":
        this.closed(e.span);
        this.block(e.body);
        return;
      case "IfExpr":
        this.expr(e.condition);
        this.expr(e.then);
        this.expr(e.else);
        return;
      case "Match":
        this.closed(e.span);
        this.expr(e.subject);
        this.arms(e.arms, e.span);
        return;
      case "Query":
        this.add(this.line(e.span.start), this.lastLine(e.span));
        return;
      default:
        return;
    }
  }

  /** Runs of two or more comment lines, and of two or more `use` lines (blank lines between them allowed). */
  commentsAndImports(): void {
    const lines = this.view.source.lineStarts.length;
    let comments: [number, number] | undefined;
    let uses: [number, number] | undefined;
    const flushComments = () => {
      if (comments) this.add(comments[0], comments[1], "comment");
      comments = undefined;
    };
    const flushUses = () => {
      if (uses) this.add(uses[0], uses[1], "imports");
      uses = undefined;
    };
    for (let i = 0; i < lines; i++) {
      const text = this.view.source.lineText(i + 1).trimStart();
      if (text.startsWith("--")) {
        comments = comments ? [comments[0], i] : [i, i];
        continue;
      }
      flushComments();
      if (/^use\b/.test(text)) uses = uses ? [uses[0], i] : [i, i];
      else if (text !== "") flushUses();
    }
    flushComments();
    flushUses();
  }
}
