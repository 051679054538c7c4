// Babel's node builders, made as plain objects of Babel's shapes, without
// @babel/types: the lowering builds only well-formed nodes (its own tests print
// every kind, and tests/printers.test.ts compares the two printers on every
// fixture), validating each field of each node took a large part of compile
// time, and loading @babel/types took about 50 ms of every first run. The
// printers read these objects: the compiler's own (compiler/emit/print.ts),
// for every bundle, and @babel/generator, the reference the tests hold it to.

import type * as T from "@babel/types";

export type * from "@babel/types";

const node = <N extends T.Node>(fields: Record<string, unknown>): N => fields as unknown as N;

export const arrayPattern = (elements: (T.PatternLike | T.LVal | null)[]): T.ArrayPattern =>
  node({ type: "ArrayPattern", elements });
export const arrowFunctionExpression = (
  params: T.ArrowFunctionExpression["params"],
  body: T.BlockStatement | T.Expression,
  async = false,
): T.ArrowFunctionExpression =>
  node({
    type: "ArrowFunctionExpression",
    params,
    body,
    async,
    expression: body.type !== "BlockStatement",
    generator: false,
  });
export const breakStatement = (): T.BreakStatement => node({ type: "BreakStatement", label: null });
export const catchClause = (param: T.Identifier | null | undefined, body: T.BlockStatement): T.CatchClause =>
  node({ type: "CatchClause", param: param ?? null, body });
export const classBody = (body: T.ClassBody["body"]): T.ClassBody => node({ type: "ClassBody", body });
export const classDeclaration = (
  id: T.Identifier,
  superClass: T.Expression | null,
  body: T.ClassBody,
): T.ClassDeclaration => node({ type: "ClassDeclaration", id, superClass, body, decorators: null });
export const classMethod = (
  kind: "constructor" | "method",
  key: T.Identifier,
  params: T.ClassMethod["params"],
  body: T.BlockStatement,
): T.ClassMethod =>
  node({
    type: "ClassMethod",
    kind,
    key,
    params,
    body,
    computed: false,
    static: false,
    generator: false,
    async: false,
  });
export const continueStatement = (): T.ContinueStatement => node({ type: "ContinueStatement", label: null });
export const exportNamedDeclaration = (
  declaration: T.Declaration | null,
  specifiers: T.ExportSpecifier[] = [],
): T.ExportNamedDeclaration => node({ type: "ExportNamedDeclaration", declaration, specifiers, source: null });
export const exportSpecifier = (local: T.Identifier, exported: T.Identifier): T.ExportSpecifier =>
  node({ type: "ExportSpecifier", local, exported });
export const forOfStatement = (left: T.VariableDeclaration, right: T.Expression, body: T.Statement): T.ForOfStatement =>
  node({ type: "ForOfStatement", left, right, body, await: false });
export const forStatement = (
  init: T.VariableDeclaration | T.Expression | null,
  test: T.Expression | null,
  update: T.Expression | null,
  body: T.Statement,
): T.ForStatement => node({ type: "ForStatement", init, test, update, body });
export const functionDeclaration = (
  id: T.Identifier,
  params: T.FunctionDeclaration["params"],
  body: T.BlockStatement,
  generator = false,
  async = false,
): T.FunctionDeclaration => node({ type: "FunctionDeclaration", id, params, body, generator, async });
export const isLiteral = (n: T.Node | null | undefined): n is T.Literal =>
  n != null &&
  [
    "StringLiteral",
    "NumericLiteral",
    "BooleanLiteral",
    "NullLiteral",
    "TemplateLiteral",
    "RegExpLiteral",
    "BigIntLiteral",
  ].includes(n.type);
export const isLoop = (n: T.Node): n is T.ForStatement | T.WhileStatement | T.ForOfStatement =>
  n.type === "ForStatement" || n.type === "WhileStatement" || n.type === "ForOfStatement";
export const isTemplateLiteral = (n: T.Node | null | undefined): n is T.TemplateLiteral =>
  n != null && n.type === "TemplateLiteral";
export const metaProperty = (meta: T.Identifier, property: T.Identifier): T.MetaProperty =>
  node({ type: "MetaProperty", meta, property });
export const objectExpression = (properties: T.ObjectExpression["properties"]): T.ObjectExpression =>
  node({ type: "ObjectExpression", properties });
export const objectProperty = (
  key: T.Expression,
  value: T.Expression | T.PatternLike,
  computed = false,
): T.ObjectProperty => node({ type: "ObjectProperty", key, value, computed, shorthand: false, decorators: null });
export const parenthesizedExpression = (expression: T.Expression): T.ParenthesizedExpression =>
  node({ type: "ParenthesizedExpression", expression });
export const program = (body: T.Statement[]): T.Program =>
  node({ type: "Program", body, directives: [], sourceType: "script", interpreter: null });
export const restElement = (argument: T.LVal): T.RestElement => node({ type: "RestElement", argument });
export const spreadElement = (argument: T.Expression): T.SpreadElement => node({ type: "SpreadElement", argument });
export const templateElement = (value: { raw: string; cooked?: string }, tail = false): T.TemplateElement =>
  node({ type: "TemplateElement", value, tail });
export const templateLiteral = (
  quasis: T.TemplateElement[],
  expressions: T.TemplateLiteral["expressions"],
): T.TemplateLiteral => node({ type: "TemplateLiteral", quasis, expressions });
export const thisExpression = (): T.ThisExpression => node({ type: "ThisExpression" });
export const throwStatement = (argument: T.Expression): T.ThrowStatement => node({ type: "ThrowStatement", argument });
export const tryStatement = (
  block: T.BlockStatement,
  handler: T.CatchClause | null = null,
  finalizer: T.BlockStatement | null = null,
): T.TryStatement => node({ type: "TryStatement", block, handler, finalizer });
export const unaryExpression = (
  operator: T.UnaryExpression["operator"],
  argument: T.Expression,
  prefix = true,
): T.UnaryExpression => node({ type: "UnaryExpression", operator, argument, prefix });
export const updateExpression = (
  operator: T.UpdateExpression["operator"],
  argument: T.Expression,
  prefix = false,
): T.UpdateExpression => node({ type: "UpdateExpression", operator, argument, prefix });
export const whileStatement = (test: T.Expression, body: T.Statement): T.WhileStatement =>
  node({ type: "WhileStatement", test, body });

export const identifier = (name: string): T.Identifier => ({ type: "Identifier", name }) as T.Identifier;
export const stringLiteral = (value: string): T.StringLiteral => ({ type: "StringLiteral", value }) as T.StringLiteral;
export const numericLiteral = (value: number): T.NumericLiteral =>
  ({ type: "NumericLiteral", value }) as T.NumericLiteral;
export const booleanLiteral = (value: boolean): T.BooleanLiteral =>
  ({ type: "BooleanLiteral", value }) as T.BooleanLiteral;
export const nullLiteral = (): T.NullLiteral => ({ type: "NullLiteral" }) as T.NullLiteral;
export const memberExpression = (
  object: T.Expression,
  property: T.Expression | T.Identifier,
  computed = false,
): T.MemberExpression =>
  ({ type: "MemberExpression", object, property, computed, optional: null }) as T.MemberExpression;
export const callExpression = (callee: T.Expression, args: T.CallExpression["arguments"]): T.CallExpression =>
  ({ type: "CallExpression", callee, arguments: args }) as T.CallExpression;
export const newExpression = (callee: T.Expression, args: T.NewExpression["arguments"]): T.NewExpression =>
  ({ type: "NewExpression", callee, arguments: args }) as T.NewExpression;
export const expressionStatement = (expression: T.Expression): T.ExpressionStatement =>
  ({ type: "ExpressionStatement", expression }) as T.ExpressionStatement;
export const binaryExpression = (
  operator: T.BinaryExpression["operator"],
  left: T.Expression,
  right: T.Expression,
): T.BinaryExpression => ({ type: "BinaryExpression", operator, left, right }) as T.BinaryExpression;
export const logicalExpression = (
  operator: T.LogicalExpression["operator"],
  left: T.Expression,
  right: T.Expression,
): T.LogicalExpression => ({ type: "LogicalExpression", operator, left, right }) as T.LogicalExpression;
export const assignmentExpression = (operator: string, left: T.LVal, right: T.Expression): T.AssignmentExpression =>
  ({ type: "AssignmentExpression", operator, left, right }) as T.AssignmentExpression;
export const conditionalExpression = (
  test: T.Expression,
  consequent: T.Expression,
  alternate: T.Expression,
): T.ConditionalExpression =>
  ({ type: "ConditionalExpression", test, consequent, alternate }) as T.ConditionalExpression;
export const sequenceExpression = (expressions: T.Expression[]): T.SequenceExpression =>
  ({ type: "SequenceExpression", expressions }) as T.SequenceExpression;
export const ifStatement = (
  test: T.Expression,
  consequent: T.Statement,
  alternate: T.Statement | null = null,
): T.IfStatement => ({ type: "IfStatement", test, consequent, alternate }) as T.IfStatement;
export const blockStatement = (body: T.Statement[]): T.BlockStatement =>
  ({ type: "BlockStatement", body, directives: [] }) as T.BlockStatement;
export const returnStatement = (argument: T.Expression | null = null): T.ReturnStatement =>
  ({ type: "ReturnStatement", argument }) as T.ReturnStatement;
export const variableDeclaration = (
  kind: T.VariableDeclaration["kind"],
  declarations: T.VariableDeclarator[],
): T.VariableDeclaration => ({ type: "VariableDeclaration", kind, declarations }) as T.VariableDeclaration;
export const variableDeclarator = (id: T.LVal, init: T.Expression | null = null): T.VariableDeclarator =>
  ({ type: "VariableDeclarator", id, init }) as T.VariableDeclarator;
export const arrayExpression = (elements: T.ArrayExpression["elements"] = []): T.ArrayExpression =>
  ({ type: "ArrayExpression", elements }) as T.ArrayExpression;
export const awaitExpression = (argument: T.Expression): T.AwaitExpression =>
  ({ type: "AwaitExpression", argument }) as T.AwaitExpression;

/** Whether field `key` of `node` is a block's list of statements. */
export const isStatementList = (node: T.Node, key: string): boolean => node.type === "BlockStatement" && key === "body";

/**
 * Whether `test` holds for some child node of `node` (in CHILD_KEYS' order, stopping at the
 * first); `inList`: the child is a statement of a block's list.
 */
export function someChild(node: T.Node, test: (child: T.Node, inList: boolean) => boolean): boolean {
  const fields = node as unknown as Record<string, unknown>;
  for (const key of CHILD_KEYS[node.type] ?? []) {
    const child = fields[key];
    const inList = isStatementList(node, key);
    if (Array.isArray(child)) {
      for (const c of child) if (c != null && test(c as T.Node, inList)) return true;
    } else if (child != null && typeof child === "object" && test(child as T.Node, false)) return true;
  }
  return false;
}

/**
 * The fields of each kind of node the lowering makes that hold child nodes, in
 * source order: what a walk over the lowered tree visits (emit/free-names.ts,
 * emit/print.ts). A kind missing here is a fault of the compiler's.
 */
export const CHILD_KEYS: Readonly<Record<string, readonly string[]>> = {
  ArrayExpression: ["elements"],
  ArrayPattern: ["elements"],
  ArrowFunctionExpression: ["params", "body"],
  AssignmentExpression: ["left", "right"],
  AwaitExpression: ["argument"],
  BinaryExpression: ["left", "right"],
  BlockStatement: ["body"],
  BooleanLiteral: [],
  BreakStatement: [],
  CallExpression: ["callee", "arguments"],
  CatchClause: ["param", "body"],
  ClassBody: ["body"],
  ClassDeclaration: ["id", "superClass", "body"],
  ClassMethod: ["key", "params", "body"],
  ConditionalExpression: ["test", "consequent", "alternate"],
  ContinueStatement: [],
  ExportNamedDeclaration: ["declaration", "specifiers"],
  ExportSpecifier: ["local", "exported"],
  ExpressionStatement: ["expression"],
  ForOfStatement: ["left", "right", "body"],
  ForStatement: ["init", "test", "update", "body"],
  FunctionDeclaration: ["id", "params", "body"],
  Identifier: [],
  IfStatement: ["test", "consequent", "alternate"],
  LogicalExpression: ["left", "right"],
  MemberExpression: ["object", "property"],
  MetaProperty: ["meta", "property"],
  NewExpression: ["callee", "arguments"],
  NullLiteral: [],
  NumericLiteral: [],
  ObjectExpression: ["properties"],
  ObjectProperty: ["key", "value"],
  ParenthesizedExpression: ["expression"],
  Program: ["body"],
  RestElement: ["argument"],
  ReturnStatement: ["argument"],
  SequenceExpression: ["expressions"],
  SpreadElement: ["argument"],
  StringLiteral: [],
  TemplateElement: [],
  TemplateLiteral: ["quasis", "expressions"],
  ThisExpression: [],
  ThrowStatement: ["argument"],
  TryStatement: ["block", "handler", "finalizer"],
  UnaryExpression: ["argument"],
  UpdateExpression: ["argument"],
  VariableDeclaration: ["declarations"],
  VariableDeclarator: ["id", "init"],
  WhileStatement: ["test", "body"],
};
