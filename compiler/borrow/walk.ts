// The children of the checked tree's expressions and statements, for the
// walks of the borrow analysis (index.ts) and of the looking positions
// (looking.ts).

import type { CBlock, CExpr, CStatement } from "../check/checked.js";

/** Calls `onExpr` on each direct child expression of `e`, `onBlock` on each block, `onStatement` on each statement. */
export function forEachChild(
  e: CExpr,
  onExpr: (child: CExpr) => void,
  onBlock: (b: CBlock) => void,
  onStatement: (s: CStatement) => void,
): void {
  const child = (c: CExpr | undefined): void => {
    if (c !== undefined) onExpr(c);
  };
  switch (e.kind) {
    case "Text":
      for (const p of e.parts) if (typeof p !== "string") child(p);
      return;
    case "Call":
      if (e.callee.kind === "Value") onExpr(e.callee.expr);
      for (const a of e.args) child(a);
      return;
    case "Field":
      return child(e.object);
    case "Index":
      child(e.object);
      return child(e.index);
    case "With":
      child(e.record);
      for (const u of e.updates) child(u.value);
      return;
    case "Unary":
      return child(e.operand);
    case "Binary":
      child(e.left);
      return child(e.right);
    case "Otherwise":
      child(e.expr);
      switch (e.handler.kind) {
        case "Fail":
          return child(e.handler.value);
        case "Default":
          return child(e.handler.value);
        case "Leave":
          return onStatement(e.handler.statement);
        case "Arms":
          for (const arm of e.handler.arms) {
            onBlock(arm.body);
            child(arm.value);
          }
          return;
      }
      return;
    case "List":
      for (const item of e.items) child(item);
      return;
    case "Map":
      for (const entry of e.entries) {
        child(entry.key);
        child(entry.value);
      }
      return;
    case "Pair":
      child(e.first);
      return child(e.second);
    case "Lambda":
      return onBlock(e.body);
    case "If":
      child(e.condition);
      child(e.then);
      return child(e.else);
    case "Match":
      child(e.subject);
      for (const arm of e.arms) {
        onBlock(arm.body);
        child(arm.value);
      }
      return;
    case "Query":
      for (const c of e.clauses) {
        switch (c.kind) {
          case "From":
            child(c.source);
            break;
          case "Where":
            child(c.condition);
            break;
          case "Let":
            child(c.value);
            break;
          case "Sort":
            for (const k of c.keys) child(k.value);
            break;
          case "Group":
            child(c.key);
            break;
          case "Take":
          case "Drop":
            child(c.count);
            break;
        }
      }
      return child(e.select);
    default:
      return;
  }
}

export function forEachStatementChild(
  s: CStatement,
  onExpr: (e: CExpr) => void,
  onBlock: (b: CBlock) => void,
  onStatement: (s: CStatement) => void,
): void {
  switch (s.kind) {
    case "Let":
    case "Var":
    case "Set":
      return onExpr(s.value);
    case "If":
      for (const b of s.branches) {
        onExpr(b.condition);
        onBlock(b.body);
      }
      if (s.elseBody !== undefined) onBlock(s.elseBody);
      return;
    case "ForEach":
      onExpr(s.iterable);
      return onBlock(s.body);
    case "While":
      onExpr(s.condition);
      return onBlock(s.body);
    case "Return":
    case "Fail":
      if (s.value !== undefined) onExpr(s.value);
      return;
    case "Crash":
      return onExpr(s.message);
    case "Check":
      return onExpr(s.condition);
    case "CheckFails":
      return onExpr(s.expr);
    case "RunConcurrently":
      for (const task of s.tasks) onStatement(task);
      return;
    case "Expr":
      return onExpr(s.expr);
    case "Stop":
    case "Skip":
      return;
  }
}
