// The names a lowered program uses without declaring them. A bundle may use no
// name but its own declarations, the runtime's imports and a few of
// JavaScript's (ALLOWED_GLOBALS): a Renyi program must never reach a global
// such as `require` or `process`. Checked on the lowered tree before it is
// printed; a free name is a fault of the compiler's, reported as one, never run.

import type * as T from "@babel/types";

import { CHILD_KEYS } from "../lower/js.js";
import { ALLOWED_GLOBALS } from "../lower/names.js";
import { Scopes } from "./scopes.js";

type AnyNode = T.Node & Record<string, unknown>;

/**
 * Every name `statements` use that nothing around them declares, with `outer` declared around them; in order of use,
 * once each.
 */
export function freeNames(statements: readonly T.Statement[], outer: ReadonlySet<string>): string[] {
  const walker = new Walker(outer);
  walker.block(statements);
  return [...walker.free];
}

class Walker {
  readonly free = new Set<string>();
  private readonly scopes: Scopes;

  constructor(outer: ReadonlySet<string>) {
    this.scopes = new Scopes(outer);
  }

  block(statements: readonly T.Statement[]): void {
    // Most blocks declare nothing: they open no scope (a walk this size made a set for each).
    let names: Set<string> | undefined;
    for (const s of statements) if (declares(s)) declaredBy(s, (names ??= new Set()));
    if (names !== undefined) this.scopes.enter(names);
    for (const s of statements) this.node(s);
    if (names !== undefined) this.scopes.leave();
  }

  /** Walks `nodes` with `names` declared in a scope of their own. */
  private scoped(names: Set<string>, ...nodes: (T.Node | null | undefined)[]): void {
    this.scopes.enter(names);
    for (const n of nodes) this.node(n);
    this.scopes.leave();
  }

  private reference(name: string): void {
    if (!this.scopes.declares(name) && !ALLOWED_GLOBALS.has(name)) this.free.add(name);
  }

  private node(n: T.Node | null | undefined): void {
    if (n == null) return;
    switch (n.type) {
      case "Identifier":
        return this.reference(n.name);
      case "MemberExpression":
        this.node(n.object);
        if (n.computed) this.node(n.property);
        return;
      case "ObjectProperty":
        if (n.computed) this.node(n.key);
        return this.node(n.value);
      case "ClassMethod":
        if (n.computed) this.node(n.key);
        return this.function(n.params, n.body);
      case "FunctionDeclaration":
      case "FunctionExpression":
      case "ArrowFunctionExpression":
        return this.function(n.params, n.body);
      case "BlockStatement":
        return this.block(n.body);
      case "ClassDeclaration":
        this.node(n.superClass);
        return this.node(n.body);
      case "VariableDeclaration":
        for (const d of n.declarations) {
          this.patternDefaults(d.id);
          this.node(d.init);
        }
        return;
      case "CatchClause": {
        const names = new Set<string>();
        if (n.param) patternNames(n.param, names);
        return this.scoped(names, n.body);
      }
      case "ForStatement": {
        const names = new Set<string>();
        if (n.init?.type === "VariableDeclaration") declaredBy(n.init, names);
        return this.scoped(names, n.init, n.test, n.update, n.body);
      }
      case "ForOfStatement": {
        this.node(n.right);
        const names = new Set<string>();
        if (n.left.type === "VariableDeclaration") declaredBy(n.left, names);
        else this.node(n.left);
        return this.scoped(names, n.body);
      }
      case "ImportDeclaration":
      case "MetaProperty":
        return;
      case "ExportNamedDeclaration":
        if (n.declaration) return this.node(n.declaration);
        for (const s of n.specifiers) if (s.type === "ExportSpecifier") this.node(s.local);
        return;
      // The kinds most nodes are, walked field by field as CHILD_KEYS lists them: the generic walk reads
      // each field by its name, a lookup the engine cannot make fast, and took most of this walk's time.
      case "StringLiteral":
      case "NumericLiteral":
      case "BooleanLiteral":
      case "NullLiteral":
      case "TemplateElement":
      case "ThisExpression":
      case "BreakStatement":
      case "ContinueStatement":
        return;
      case "CallExpression":
      case "NewExpression":
        this.node(n.callee);
        return this.list(n.arguments);
      case "BinaryExpression":
      case "LogicalExpression":
      case "AssignmentExpression":
        this.node(n.left);
        return this.node(n.right);
      case "ExpressionStatement":
      case "ParenthesizedExpression":
        return this.node(n.expression);
      case "ReturnStatement":
      case "UnaryExpression":
      case "UpdateExpression":
      case "AwaitExpression":
      case "SpreadElement":
      case "ThrowStatement":
        return this.node(n.argument);
      case "IfStatement":
      case "ConditionalExpression":
        this.node(n.test);
        this.node(n.consequent);
        return this.node(n.alternate);
      case "ArrayExpression":
        return this.list(n.elements);
      case "ObjectExpression":
        return this.list(n.properties);
      case "SequenceExpression":
        return this.list(n.expressions);
      case "TemplateLiteral":
        this.list(n.quasis);
        return this.list(n.expressions);
      default:
        return this.children(n);
    }
  }

  private list(nodes: readonly (T.Node | null | undefined)[]): void {
    for (const n of nodes) this.node(n);
  }

  private function(params: readonly T.Node[], body: T.Node): void {
    const names = new Set<string>();
    for (const p of params) patternNames(p, names);
    this.scopes.enter(names);
    for (const p of params) this.patternDefaults(p);
    if (body.type === "BlockStatement") this.block(body.body);
    else this.node(body);
    this.scopes.leave();
  }

  /** What a pattern reads: its defaults and computed keys (the names it binds are declared where it is). */
  private patternDefaults(p: T.Node): void {
    if (p.type === "Identifier") return;
    if (p.type === "AssignmentPattern") {
      this.patternDefaults(p.left);
      return this.node(p.right);
    }
    if (p.type === "RestElement") return this.patternDefaults(p.argument);
    if (p.type === "ArrayPattern") {
      for (const e of p.elements) if (e) this.patternDefaults(e);
      return;
    }
    // Any other pattern is walked as a whole, so that nothing in it goes unseen.
    this.children(p);
  }

  private children(n: T.Node): void {
    const keys = CHILD_KEYS[n.type];
    // A kind the table does not know would go unseen: a fault of the compiler's.
    if (keys === undefined)
      throw new Error(`internal: the compiled program holds a ${n.type}, which the check of its names does not know`);
    for (const key of keys) {
      const value = (n as AnyNode)[key];
      if (Array.isArray(value)) for (const v of value) this.node(v as T.Node | null);
      else this.node(value as T.Node | null);
    }
  }
}

/** Whether a statement declares a name in the block around it. */
function declares(s: T.Node): boolean {
  return (
    s.type === "FunctionDeclaration" ||
    s.type === "ClassDeclaration" ||
    s.type === "VariableDeclaration" ||
    s.type === "ImportDeclaration" ||
    (s.type === "ExportNamedDeclaration" && s.declaration != null)
  );
}

/** The names a statement declares in the block around it. */
function declaredBy(s: T.Node, into: Set<string>): void {
  if ((s.type === "FunctionDeclaration" || s.type === "ClassDeclaration") && s.id) into.add(s.id.name);
  else if (s.type === "VariableDeclaration") for (const d of s.declarations) patternNames(d.id, into);
  else if (s.type === "ImportDeclaration") for (const spec of s.specifiers) into.add(spec.local.name);
  else if (s.type === "ExportNamedDeclaration" && s.declaration) declaredBy(s.declaration, into);
}

function patternNames(p: T.Node, into: Set<string>): void {
  if (p.type === "Identifier") into.add(p.name);
  else if (p.type === "RestElement") patternNames(p.argument, into);
  else if (p.type === "AssignmentPattern") patternNames(p.left, into);
  else if (p.type === "ArrayPattern")
    for (const e of p.elements)
      if (e) patternNames(e, into);
      else if ((p as T.Node).type === "ObjectPattern")
        for (const prop of (p as unknown as T.ObjectPattern).properties)
          patternNames(prop.type === "RestElement" ? prop : (prop.value as T.Node), into);
}

/** The names the top level of `statements` declares. */
export function topLevelNames(statements: readonly T.Statement[]): string[] {
  const names = new Set<string>();
  for (const s of statements) if (declares(s)) declaredBy(s, names);
  return [...names];
}
