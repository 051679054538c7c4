// Lowering `run concurrently`: each statement a task.

import * as t from "./js.js";
import type { CStatement } from "../check/checked.js";
import type { Lowerer } from "./context.js";
import { awaited, depthBack } from "./depth.js";
import { chargeStatement, statementSteps } from "./fuel.js";
import { lowerStatement } from "./statements.js";

/**
 * Each statement runs as a task. What the tasks bind at their top level (their
 * locals, with what the lowering adds beside them: ownership flags,
 * temporaries) is declared before the tasks start, and each task assigns it: so
 * every name used after `end` is declared around it, whatever kind of statement
 * bound it (`let`, `var`, a nested `run concurrently`). In a function without
 * needs, the tasks can have no effects and run one after another.
 */
export function lowerRunConcurrently(lw: Lowerer, s: Extract<CStatement, { kind: "RunConcurrently" }>): void {
  const hoisted: t.Identifier[] = [];
  // With guards, each task keeps its own context, starting from the one the tasks start in.
  const outerCx = lw.cx;
  const taskCx: (t.Identifier | undefined)[] = [];
  const bodies = s.tasks.map((task) => {
    const own = lw.guarded && lw.async && outerCx !== undefined ? lw.temp("cx") : undefined;
    taskCx.push(own);
    if (own !== undefined) lw.cx = own;
    try {
      const statements = lw.collect(() => {
        const charge = chargeStatement(lw, statementSteps(task), task.span);
        if (charge !== undefined) lw.emit(charge);
        lowerStatement(lw, task);
      });
      return statements.flatMap((statement) => assignInstead(statement, hoisted));
    } finally {
      lw.cx = outerCx;
    }
  });
  const declared = new Set(hoisted.map((id) => id.name));
  for (const local of s.bound) {
    // The checker's list and the declarations found must agree: a local it puts in scope after `end` is declared here.
    if (!declared.has(lw.local(local).name))
      throw new Error(`internal: \`${local.name}\` is bound by a task but not declared by its lowering`);
  }
  if (hoisted.length > 0)
    lw.emit(
      t.variableDeclaration(
        "let",
        hoisted.map((id) => t.variableDeclarator(id)),
      ),
    );
  if (!lw.async) {
    for (const body of bodies) lw.emit(t.blockStatement(body));
    return;
  }
  const tasks = bodies.map((body, i) => {
    const own = taskCx[i];
    const start = own === undefined ? [] : [t.variableDeclaration("let", [t.variableDeclarator(own, outerCx!)])];
    return t.callExpression(
      t.arrowFunctionExpression([], t.blockStatement([...start, ...depthBack(lw), ...body]), true),
      [],
    );
  });
  lw.emit(
    t.expressionStatement(
      awaited(
        lw,
        t.callExpression(t.memberExpression(t.identifier("Promise"), t.identifier("all")), [t.arrayExpression(tasks)]),
      ),
    ),
  );
}

/** A task's top-level declaration as assignments to names declared before the tasks (collected into `hoisted`). */
function assignInstead(statement: t.Statement, hoisted: t.Identifier[]): t.Statement[] {
  if (statement.type !== "VariableDeclaration") return [statement];
  const out: t.Statement[] = [];
  for (const declarator of statement.declarations) {
    if (declarator.id.type !== "Identifier") throw new Error("internal: a task declares a pattern");
    hoisted.push(t.identifier(declarator.id.name));
    if (declarator.init == null) continue;
    const assignment = t.expressionStatement(
      t.assignmentExpression("=", t.identifier(declarator.id.name), declarator.init),
    );
    assignment.loc = statement.loc ?? null;
    out.push(assignment);
  }
  return out;
}
