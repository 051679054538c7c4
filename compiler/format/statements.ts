// Blocks and statements: one statement a line, each block one step deeper than
// the line that opens it, `end` back at that line's depth. The one-line forms
// (`if c then s`, `when p then s`) stay on one line. The `then` a block `if` or
// a block arm may end with is kept or left out as the author wrote it: the
// grammar allows both, and the house's programs (whose recordings name their
// text by its hash) have both.

import type { Block, MatchArm, Needs, Param, Statement, TypeExpr, UnusedCalls } from "../parse/tree.js";
import { bracketed } from "./brackets.js";
import { expr } from "./expressions.js";
import { ARM, CLOSES, type Lines, type Tail } from "./lines.js";
import { breaksBetween, findAhead } from "./source-text.js";
import { capabilityText, grantItemText, patternText, writeType } from "./types.js";

export function block(o: Lines, body: Block, indent: number): void {
  for (const statement of body.statements) {
    o.start(indent, statement.span.start);
    line(o, statement);
  }
}

/** `end` on a line of its own, at `offset` in the source. */
export function endLine(o: Lines, indent: number, offset: number): void {
  o.start(indent, offset, CLOSES);
  o.write("end");
  o.reach(offset + 3);
}

/** A statement, on the current line (and the lines of its blocks). */
function line(o: Lines, s: Statement, tail: Tail = "end"): void {
  const src = o.src;
  const indent = o.indent;
  switch (s.kind) {
    case "Let":
      o.write("let ");
      o.write(patternText(src, s.pattern));
      typed(o, s.type);
      o.write(" be ");
      expr(o, s.value, 0, tail);
      break;
    case "Var":
      o.write("var ");
      o.write(s.name.name);
      typed(o, s.type);
      o.write(" be ");
      expr(o, s.value, 0, tail);
      break;
    case "Set":
      o.write("set ");
      o.write(s.name.name);
      o.write(" to ");
      expr(o, s.value, 0, tail);
      break;
    case "If":
      if (s.inline) {
        const branch = s.branches[0]!;
        o.write("if ");
        expr(o, branch.condition);
        o.write(" then ");
        line(o, branch.body.statements[0]!, s.elseBody ? "end" : tail);
        if (s.elseBody !== undefined) {
          o.write(" else ");
          line(o, s.elseBody.statements[0]!, tail);
        }
        break;
      }
      s.branches.forEach((branch, i) => {
        if (i > 0) o.start(indent, s.branches[i - 1]!.body.span.end, CLOSES);
        o.write(i > 0 ? "else if " : "if ");
        expr(o, branch.condition);
        if (thenAfter(src, branch.condition.span.end)) o.write(" then");
        o.open();
        block(o, branch.body, indent + 1);
      });
      if (s.elseBody !== undefined) {
        o.start(indent, s.branches.at(-1)!.body.span.end, CLOSES);
        o.write("else");
        o.open();
        block(o, s.elseBody, indent + 1);
      }
      endLine(o, indent, (s.elseBody ?? s.branches.at(-1)!.body).span.end);
      break;
    case "ForEach":
      o.write("for each ");
      o.write(patternText(src, s.pattern));
      o.write(" in ");
      expr(o, s.iterable);
      opened(o, s.body, indent);
      break;
    case "While":
      o.write("while ");
      expr(o, s.condition);
      opened(o, s.body, indent);
      break;
    case "RunConcurrently":
      o.write("run concurrently");
      opened(o, s.body, indent);
      break;
    case "Stop":
    case "Skip":
    case "Return":
    case "Crash":
      leave(o, s, tail);
      break;
    case "Fail":
      o.write("fail");
      if (s.value !== undefined) {
        o.write(" with ");
        expr(o, s.value, 0, tail);
      }
      break;
    case "Check":
      o.write("check ");
      expr(o, s.condition, 0, tail);
      break;
    case "CheckFails":
      o.write("check ");
      expr(o, s.expr);
      o.write(" fails with ");
      o.write(patternText(src, s.pattern));
      break;
    case "ExprStatement":
      // `if` at the start of a statement opens an `if` statement: an `if` value there keeps its parentheses.
      if (s.expr.kind === "IfExpr") {
        o.write("(");
        expr(o, s.expr);
        o.write(")");
      } else {
        expr(o, s.expr, 0, tail);
      }
      break;
  }
  o.reach(s.span.end);
}

/** `: Type` after a name, when there is a type. */
function typed(o: Lines, type: TypeExpr | undefined): void {
  if (type === undefined) return;
  o.write(": ");
  writeType(o, type);
}

/** ` returns T` and ` or fails with E` after a function's parameters, those it has. */
export function signatureTail(o: Lines, f: { returns?: TypeExpr | undefined; fails?: TypeExpr | undefined }): void {
  if (f.returns !== undefined) {
    o.write(" returns ");
    writeType(o, f.returns, f.fails ? "more" : "end");
  }
  if (f.fails !== undefined) {
    o.write(" or fails with ");
    writeType(o, f.fails);
  }
}

function opened(o: Lines, body: Block, indent: number): void {
  o.open();
  block(o, body, indent + 1);
  endLine(o, indent, body.span.end);
}

/** `return [value]`, `stop`, `skip`, `crash with message`: statements, and what an `otherwise` may do. */
export function leave(
  o: Lines,
  s: Extract<Statement, { kind: "Return" | "Stop" | "Skip" | "Crash" }>,
  tail: Tail,
): void {
  switch (s.kind) {
    case "Stop":
      return o.write("stop");
    case "Skip":
      return o.write("skip");
    case "Return":
      o.write("return");
      if (s.value === undefined) return;
      o.write(" ");
      return expr(o, s.value, 0, tail);
    case "Crash":
      o.write("crash with ");
      return expr(o, s.message, 0, tail);
  }
}

/** The arms of a `match` or an `otherwise`, one step deeper than the current line, then `end` at `endAt`. */
export function arms(o: Lines, list: readonly MatchArm[], endAt: number): void {
  const indent = o.indent;
  o.open();
  for (const arm of list) {
    o.start(indent + 1, arm.span.start, ARM);
    o.write("when ");
    o.write(patternText(o.src, arm.pattern));
    if (arm.inline || thenAfter(o.src, arm.pattern.span.end)) o.write(" then");
    if (arm.inline) {
      o.write(" ");
      line(o, arm.body.statements[0]!);
    } else {
      o.open();
      block(o, arm.body, indent + 2);
    }
  }
  endLine(o, indent, endAt);
}

/** `(name: Type = default, ...)`, its `(` at `openAt`. */
export function params(o: Lines, openAt: number, list: readonly Param[]): void {
  const closeAt = findAhead(o.src, list.at(-1)?.span.end ?? openAt + 1, ")");
  bracketed(o, "(", ")", openAt, closeAt, list, param);
}

function param(o: Lines, p: Param, tail: Tail): void {
  o.write(p.name.name);
  o.write(": ");
  writeType(o, p.type, p.default === undefined && tail === "comma" ? "comma" : "end");
  if (p.default !== undefined) {
    o.write(" = ");
    expr(o, p.default, 0, tail);
  }
  o.reach(p.span.end);
}

/** The `purpose:` and `needs` lines under a signature, in the order written. */
export function headerLines(
  o: Lines,
  indent: number,
  purpose: { text: string; span: { start: number; end: number } } | undefined,
  needs: Needs | undefined,
): void {
  const needsFirst = needs !== undefined && purpose !== undefined && needs.span.start < purpose.span.start;
  if (needsFirst) needsLine(o, indent, needs);
  if (purpose !== undefined) {
    o.start(indent, purpose.span.start);
    o.write("purpose: ");
    o.write(purpose.text);
    o.reach(purpose.span.end);
  }
  if (needs !== undefined && !needsFirst) needsLine(o, indent, needs);
}

function needsLine(o: Lines, indent: number, needs: Needs): void {
  o.start(indent, needs.span.start);
  needsList(o, needs);
}

/** `needs a, b`, on the current line; items the author put on later lines go there, one step deeper. */
export function needsList(o: Lines, needs: Needs): void {
  const indent = o.indent;
  o.write("needs ");
  for (let i = 0; i < needs.items.length; i++) {
    const item = needs.items[i]!;
    if (i > 0) {
      o.write(",");
      if (breaksBetween(o.src, needs.items[i - 1]!.span.end, item.span.start)) o.start(indent + 1, item.span.start);
      else o.write(" ");
    }
    o.write(grantItemText(o.src, item));
    o.reach(item.span.end);
  }
}

/** A test's `unused console, time`: its items broken over lines where the author broke them, as a `needs` line's. */
export function unusedList(o: Lines, unused: UnusedCalls): void {
  const indent = o.indent;
  o.write("unused ");
  for (let i = 0; i < unused.items.length; i++) {
    const item = unused.items[i]!;
    if (i > 0) {
      o.write(",");
      if (breaksBetween(o.src, unused.items[i - 1]!.span.end, item.span.start)) o.start(indent + 1, item.span.start);
      else o.write(" ");
    }
    o.write(capabilityText(o.src, item));
    o.reach(item.span.end);
  }
}

/** Whether the word `then` is the next thing after `offset` (past spaces, line breaks, comments and `)`). */
function thenAfter(src: string, offset: number): boolean {
  let i = offset;
  while (i < src.length) {
    const c = src.charCodeAt(i);
    // A parenthesised condition or pattern ends before its `)`.
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 41) i++;
    else if (c === 45 && src.charCodeAt(i + 1) === 45) while (i < src.length && src.charCodeAt(i) !== 10) i++;
    else break;
  }
  return src.startsWith("then", i) && !/[A-Za-z0-9_]/.test(src.charAt(i + 4));
}
