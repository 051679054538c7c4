// Babel's node builders, with the ones the lowering calls most made without
// @babel/types' field validation: the lowering builds only well-formed nodes
// (its own tests print every kind), and validating each field of each node
// took a large part of compile time. Every other builder is Babel's own.

import { createRequire } from "node:module";
import type * as T from "@babel/types";

export type * from "@babel/types";

// The rest of Babel's builders. @babel/types is CommonJS with thousands of
// exports: imported from an ES module, Node reads it and every file it
// re-exports to learn their names, which took about 70 ms of every compile's
// start; required, it loads in about 50 ms in all.
const babel = createRequire(import.meta.url)("@babel/types") as typeof T;
export const {
  arrayPattern,
  arrowFunctionExpression,
  breakStatement,
  catchClause,
  classBody,
  classDeclaration,
  classMethod,
  continueStatement,
  exportNamedDeclaration,
  exportSpecifier,
  forOfStatement,
  forStatement,
  functionDeclaration,
  importDeclaration,
  importSpecifier,
  isLiteral,
  isTemplateLiteral,
  metaProperty,
  objectExpression,
  objectProperty,
  parenthesizedExpression,
  program,
  restElement,
  spreadElement,
  templateElement,
  templateLiteral,
  thisExpression,
  throwStatement,
  tryStatement,
  unaryExpression,
  updateExpression,
  whileStatement,
} = babel;

export const identifier = (name: string): T.Identifier => ({ type: "Identifier", name }) as T.Identifier;
export const stringLiteral = (value: string): T.StringLiteral => ({ type: "StringLiteral", value }) as T.StringLiteral;
export const numericLiteral = (value: number): T.NumericLiteral => ({ type: "NumericLiteral", value }) as T.NumericLiteral;
export const booleanLiteral = (value: boolean): T.BooleanLiteral => ({ type: "BooleanLiteral", value }) as T.BooleanLiteral;
export const nullLiteral = (): T.NullLiteral => ({ type: "NullLiteral" }) as T.NullLiteral;
export const memberExpression = (object: T.Expression, property: T.Expression | T.Identifier, computed = false): T.MemberExpression =>
  ({ type: "MemberExpression", object, property, computed, optional: null }) as T.MemberExpression;
export const callExpression = (callee: T.Expression, args: T.CallExpression["arguments"]): T.CallExpression =>
  ({ type: "CallExpression", callee, arguments: args }) as T.CallExpression;
export const newExpression = (callee: T.Expression, args: T.NewExpression["arguments"]): T.NewExpression =>
  ({ type: "NewExpression", callee, arguments: args }) as T.NewExpression;
export const expressionStatement = (expression: T.Expression): T.ExpressionStatement => ({ type: "ExpressionStatement", expression }) as T.ExpressionStatement;
export const binaryExpression = (operator: T.BinaryExpression["operator"], left: T.Expression, right: T.Expression): T.BinaryExpression =>
  ({ type: "BinaryExpression", operator, left, right }) as T.BinaryExpression;
export const logicalExpression = (operator: T.LogicalExpression["operator"], left: T.Expression, right: T.Expression): T.LogicalExpression =>
  ({ type: "LogicalExpression", operator, left, right }) as T.LogicalExpression;
export const assignmentExpression = (operator: string, left: T.LVal, right: T.Expression): T.AssignmentExpression =>
  ({ type: "AssignmentExpression", operator, left, right }) as T.AssignmentExpression;
export const conditionalExpression = (test: T.Expression, consequent: T.Expression, alternate: T.Expression): T.ConditionalExpression =>
  ({ type: "ConditionalExpression", test, consequent, alternate }) as T.ConditionalExpression;
export const sequenceExpression = (expressions: T.Expression[]): T.SequenceExpression => ({ type: "SequenceExpression", expressions }) as T.SequenceExpression;
export const ifStatement = (test: T.Expression, consequent: T.Statement, alternate: T.Statement | null = null): T.IfStatement =>
  ({ type: "IfStatement", test, consequent, alternate }) as T.IfStatement;
export const blockStatement = (body: T.Statement[]): T.BlockStatement => ({ type: "BlockStatement", body, directives: [] }) as T.BlockStatement;
export const returnStatement = (argument: T.Expression | null = null): T.ReturnStatement => ({ type: "ReturnStatement", argument }) as T.ReturnStatement;
export const variableDeclaration = (kind: T.VariableDeclaration["kind"], declarations: T.VariableDeclarator[]): T.VariableDeclaration =>
  ({ type: "VariableDeclaration", kind, declarations }) as T.VariableDeclaration;
export const variableDeclarator = (id: T.LVal, init: T.Expression | null = null): T.VariableDeclarator => ({ type: "VariableDeclarator", id, init }) as T.VariableDeclarator;
export const arrayExpression = (elements: T.ArrayExpression["elements"] = []): T.ArrayExpression => ({ type: "ArrayExpression", elements }) as T.ArrayExpression;
export const awaitExpression = (argument: T.Expression): T.AwaitExpression => ({ type: "AwaitExpression", argument }) as T.AwaitExpression;
