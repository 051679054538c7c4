// Expressions, printed with the fewest parentheses that keep the tree: by the
// precedence of spec/grammar.md section 8, and by what follows an expression
// where its last part would take more than it should (a `with` before a comma
// or an operator). Brackets and queries the author broke over lines stay
// broken where the author broke them; everything else is on one line.

import type {
  Argument,
  BinaryOperator,
  Concurrently,
  Expr,
  FunctionExpr,
  Query,
  Select,
  TextLiteral,
} from "../parse/tree.js";
import { PRECEDENCE } from "../parse/expressions.js";
import { bracketed } from "./brackets.js";
import type { Lines, Tail } from "./lines.js";
import { breaksBetween, findAhead } from "./source-text.js";
import { arms, block, endLine, headerLines, leave, params, signatureTail } from "./statements.js";
import { patternText, raw, typeText, writeType } from "./types.js";

/** Each operator with a space on each side, made once. */
const SPACED = {} as Record<BinaryOperator, string>;

for (const op of Object.keys(PRECEDENCE) as BinaryOperator[]) SPACED[op] = ` ${op} `;

/** Postfix forms and primaries: what a `.name`, a call or an index applies to. */
const POSTFIX = 10;

function level(e: Expr): number {
  switch (e.kind) {
    case "Query":
    case "Otherwise":
    case "Lambda":
    case "IfExpr":
      return 0;
    case "Binary":
      return PRECEDENCE[e.op];
    case "Unary":
      return e.op === "not" ? 3 : 8;
    case "With":
      return 8.5;
    default:
      return POSTFIX;
  }
}

/** Prints `e` where an expression of at least precedence `min` stands, followed by `tail`. */
export function expr(o: Lines, e: Expr, min = 0, tail: Tail = "end"): void {
  // `r with a: 1` takes any operator after it into its last value, and a `name:` after a comma as one more field.
  if (level(e) < min || (e.kind === "With" && tail !== "end")) {
    o.write("(");
    bare(o, e, "end");
    o.write(")");
  } else {
    bare(o, e, tail);
  }
  o.reach(e.span.end);
}

function bare(o: Lines, e: Expr, tail: Tail): void {
  const src = o.src;
  switch (e.kind) {
    case "IntLiteral":
    case "FloatLiteral":
      return o.write(raw(src, e));
    case "TextLiteral":
      return text(o, e);
    case "BooleanLiteral":
      return o.write(e.value ? "true" : "false");
    case "NothingLiteral":
      return o.write("nothing");
    case "Name":
    case "UpperName":
      return o.write(e.name);
    case "Member":
      expr(o, e.object, POSTFIX, "operator");
      o.write(".");
      return o.write(e.name.name);
    case "Call":
      expr(o, e.callee, POSTFIX, "operator");
      return bracketed(o, "(", ")", findAhead(src, e.callee.span.end, "("), e.span.end - 1, e.args, argument);
    case "Index":
      expr(o, e.object, POSTFIX, "operator");
      o.write("[");
      expr(o, e.index);
      return o.write("]");
    case "With":
      expr(o, e.record, POSTFIX, "operator");
      o.write(" with ");
      for (let i = 0; i < e.updates.length; i++) {
        const update = e.updates[i]!;
        if (i > 0) o.write(", ");
        o.write(update.name.name);
        o.write(": ");
        expr(o, update.value, 1, i < e.updates.length - 1 ? "comma" : tail);
      }
      return;
    case "Unary":
      if (e.op === "not") {
        o.write("not ");
        // `not a is b` is `not (a is b)`; the parentheses say so to a reader who has not read the grammar.
        if (e.operand.kind === "Binary") {
          o.write("(");
          expr(o, e.operand);
          return o.write(")");
        }
        return expr(o, e.operand, 4, tail);
      }
      o.write("-");
      // `--` would start a comment.
      if (e.operand.kind === "Unary" && e.operand.op === "-") {
        o.write("(");
        expr(o, e.operand);
        return o.write(")");
      }
      return expr(o, e.operand, 8, tail);
    case "Binary": {
      const precedence = PRECEDENCE[e.op];
      // Comparisons and ranges do not chain: their left side is one step tighter too.
      expr(o, e.left, precedence === 4 || precedence === 5 ? precedence + 1 : precedence, "operator");
      o.write(SPACED[e.op]);
      // `7 - (-2)` rather than `7 - -2`, which reads as a slip.
      if (e.op === "-" && e.right.kind === "Unary" && e.right.op === "-") {
        o.write("(");
        expr(o, e.right);
        return o.write(")");
      }
      return expr(o, e.right, precedence + 1, tail);
    }
    case "Otherwise":
      expr(o, e.expr, 1, "end");
      o.write(e.handler.kind === "OtherwiseArms" ? " otherwise" : " otherwise ");
      return handler(o, e.handler, tail);
    case "ListLiteral":
      return bracketed(o, "[", "]", e.span.start, e.span.end - 1, e.items, listItem);
    case "MapLiteral":
      return bracketed(o, "{", "}", e.span.start, e.span.end - 1, e.entries, mapEntry);
    case "PairLiteral":
      return bracketed(o, "(", ")", e.span.start, e.span.end - 1, [e.first, e.second], listItem);
    case "Lambda": {
      const names = e.params.map((p) =>
        p.type === undefined ? p.name.name : `${p.name.name}: ${typeText(src, p.type)}`,
      );
      o.write(`(${names.join(", ")}) => `);
      return expr(o, e.body, 0, tail);
    }
    case "FunctionExpr":
      return functionValue(o, e);
    case "IfExpr":
      o.write("if ");
      expr(o, e.condition);
      o.write(" then ");
      expr(o, e.then);
      o.write(" else ");
      return expr(o, e.else, 0, tail);
    case "Match":
      o.write("match ");
      expr(o, e.subject);
      return arms(o, e.arms, e.span.end - 3);
    case "Query":
      return query(o, e, tail);
    case "TypeArgument":
      return writeType(o, e.type);
    case "ErrorExpr":
      throw new Error("a tree with a syntax error is not formatted");
  }
}

function listItem(o: Lines, item: Expr, tail: Tail): void {
  expr(o, item, 0, tail);
}

function mapEntry(o: Lines, entry: { key: Expr; value: Expr }, tail: Tail): void {
  expr(o, entry.key, 0, "comma");
  o.write(": ");
  expr(o, entry.value, 0, tail);
}

function argument(o: Lines, arg: Argument, tail: Tail): void {
  if (arg.label !== undefined) {
    o.write(arg.label.name);
    o.write(": ");
  }
  expr(o, arg.value, 0, tail);
}

function handler(o: Lines, h: Extract<Expr, { kind: "Otherwise" }>["handler"], tail: Tail): void {
  switch (h.kind) {
    case "OtherwiseFail":
      o.write("fail");
      if (h.value !== undefined) {
        o.write(" with ");
        expr(o, h.value, 0, tail);
      }
      return;
    case "OtherwiseDefault":
      return expr(o, h.value, 0, tail);
    case "OtherwiseLeave":
      return leave(o, h.statement, tail);
    case "OtherwiseArms":
      return arms(o, h.arms, h.span.end - 3);
  }
}

/** A text as written: its characters and escapes untouched, its interpolations printed; a `"""` text whole. */
function text(o: Lines, e: TextLiteral): void {
  if (o.src.startsWith('"""', e.span.start)) return o.writeVerbatim(e.span.start, e.span.end);
  o.write('"');
  for (const part of e.parts) {
    if (part.kind === "TextChunk") {
      o.write(raw(o.src, part));
    } else {
      o.write("{");
      expr(o, part);
      o.write("}");
    }
  }
  o.write('"');
}

/** `function (PARAMS) [returns T] [or fails with E]`, its `needs` line, its body and `end`. */
function functionValue(o: Lines, e: FunctionExpr): void {
  const indent = o.indent;
  o.write("function ");
  params(o, findAhead(o.src, e.span.start + "function".length, "("), e.params);
  signatureTail(o, e);
  o.open();
  // A function value's `purpose:` line is read but not kept in the tree; it is kept here, as written.
  const purpose = purposeIn(o.src, e.params.at(-1)?.span.end ?? e.span.start, e.body.span.start);
  headerLines(o, indent + 1, purpose, e.needs);
  block(o, e.body, indent + 1);
  endLine(o, indent, e.body.span.end);
}

/** A query: its clauses on one line, but where the author broke the line between two, one step deeper. */
function query(o: Lines, q: Query, tail: Tail): void {
  const indent = o.indent;
  let previous: { span: { end: number } } | undefined;
  const next = (part: Query["clauses"][number] | Concurrently | Select): void => {
    if (previous !== undefined) {
      if (breaksBetween(o.src, previous.span.end, part.span.start)) o.start(indent + 1, part.span.start);
      else o.write(" ");
    }
    clause(o, part, tail);
    previous = part;
  };
  for (const part of q.clauses) next(part);
  if (q.concurrently) next(q.concurrently);
  next(q.select);
}

function clause(o: Lines, part: Query["clauses"][number] | Concurrently | Select, tail: Tail): void {
  const src = o.src;
  switch (part.kind) {
    case "FromClause":
      o.write("from ");
      o.write(patternText(src, part.pattern));
      o.write(" in ");
      return expr(o, part.source, 1);
    case "WhereClause":
      o.write("where ");
      return expr(o, part.condition, 1);
    case "LetClause":
      o.write("let ");
      o.write(part.name.name);
      o.write(" be ");
      return expr(o, part.value, 1);
    case "SortClause":
      o.write("sort by ");
      part.keys.forEach((key, k) => {
        if (k > 0) o.write(", ");
        expr(o, key.value, 1, k < part.keys.length - 1 && !key.descending ? "comma" : "end");
        if (key.descending) o.write(" descending");
      });
      return;
    case "GroupClause":
      o.write("group by ");
      expr(o, part.key, 1);
      o.write(" into ");
      return o.write(part.into.name);
    case "TakeClause":
      o.write("take ");
      return expr(o, part.count, 1);
    case "DropClause":
      o.write("drop ");
      return expr(o, part.count, 1);
    case "Concurrently":
      o.write("concurrently");
      if (part.limit !== undefined) o.write(` at most ${raw(src, part.limit)} at a time`);
      return o.reach(part.span.end);
    case "Select":
      o.write(part.distinct ? "select distinct " : "select ");
      return expr(o, part.value, 0, tail);
  }
}

function purposeIn(
  src: string,
  from: number,
  to: number,
): { text: string; span: { start: number; end: number } } | undefined {
  const found = /(^|\n)([ \t]*)purpose[ \t]*:([^\n]*)/.exec(src.slice(from, to));
  if (found === null) return undefined;
  const start = from + found.index + found[1]!.length + found[2]!.length;
  return { text: found[3]!.trim(), span: { start, end: from + found.index + found[0].length } };
}
