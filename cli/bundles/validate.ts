// Validating a bundle before it runs, whoever built it (an artifact is
// revalidated before every execution). The bundle, parsed again with acorn,
// must be made only of what the compiler writes: an allow-list of node types,
// each with the fields it may have (every child is visited), names that are
// declared in the bundle or imported from the runtime's program interface, a
// few of JavaScript's globals, and property names of the shape the compiler
// gives record fields and library functions. Anything else is refused.

import { parse } from "acorn";
import { ALLOWED_GLOBALS, isEmittedPropertyName, isLibraryFunctionName } from "../../compiler/lower/names.js";
import { LIBRARY_NAMESPACES, PROGRAM_RUNTIME } from "../../compiler/lower/runtime-names.js";
import { Scopes } from "../../compiler/emit/scopes.js";

export const RUNTIME_SPECIFIER = "renyi/runtime";

export { sha256 } from "../../report/sha256.js";

/**
 * `body`: the bundle's statements as acorn read them, for what else reads the bundle (its own grant) without parsing it
 * again.
 */
export type Validation =
  | { ok: true; importStart: number; importEnd: number; body: readonly object[] }
  | { ok: false; problem: string };

type Node = { type: string; start: number; end: number; [key: string]: unknown };

/** What a bundle exports, besides main: the names `renyi run` and `renyi test` read. */
const EXPORTS = new Set(["main", "mainParameters", "mainGrant", "mainPurpose", "origins", "tests"]);

/**
 * An ES module built by `renyic build` ("module"), or the CommonJS form
 * `renyi run` compiles for its worker ("commonjs", which must require `runtime`).
 */
export function validateBundle(
  code: string,
  format: { kind: "module" } | { kind: "commonjs"; runtime: string } = { kind: "module" },
): Validation {
  let ast: Node;
  try {
    ast = parse(code, {
      ecmaVersion: 2022,
      sourceType: format.kind === "module" ? "module" : "script",
      allowAwaitOutsideFunction: format.kind === "module",
    }) as unknown as Node;
  } catch (e) {
    return { ok: false, problem: `the bundle is not valid JavaScript: ${e instanceof Error ? e.message : String(e)}` };
  }
  try {
    const body = ast["body"] as Node[];
    const head = format.kind === "module" ? moduleHead(body) : commonjsHead(body, format.runtime);
    if ("problem" in head) return { ok: false, problem: head.problem };
    const checker = new Checker(head.imported, format.kind === "commonjs");
    checker.program(body.slice(head.skip));
    return { ok: true, importStart: head.start, importEnd: head.end, body };
  } catch (e) {
    if (e instanceof Refused) return { ok: false, problem: e.message };
    if (e instanceof RangeError) return { ok: false, problem: NESTED_TOO_DEEPLY };
    throw e;
  }
}

/** The problem of a bundle nested past what the validator's stack can follow (see compile-into-cache.ts). */
export const NESTED_TOO_DEEPLY = "the bundle is nested more deeply than compiled code ever is";

class Refused extends Error {}

function refuse(problem: string): never {
  throw new Refused(problem);
}

type Head = { imported: Set<string>; skip: number; start: number; end: number } | { problem: string };

/**
 * `import { name as $$name, ... } from "renyi/runtime";` first, then
 * `const $name = $$name, ...;` binding each to the name compiled code uses
 * (bundles built before the constants imported `name as $name` directly, and
 * are read too); no other import or re-export anywhere.
 */
function moduleHead(body: Node[]): Head {
  const first = body[0];
  if (first?.type !== "ImportDeclaration") return { problem: "the bundle does not import the runtime first" };
  const source = first["source"] as Node & { value: unknown };
  if (source.value !== RUNTIME_SPECIFIER)
    return {
      problem: `the bundle imports ${JSON.stringify(source.value)}; a bundle may import only ${RUNTIME_SPECIFIER}`,
    };
  const specifiers = first["specifiers"] as Node[];
  const viaConstants =
    specifiers.length > 0 &&
    specifiers.every(
      (spec) => spec.type === "ImportSpecifier" && String((spec["local"] as Node)["name"]).startsWith("$$"),
    );
  const imported = new Set<string>();
  const constants = new Map<string, string>();
  for (const spec of specifiers) {
    if (spec.type !== "ImportSpecifier")
      return { problem: "the bundle imports the runtime as a whole; it may import only names of it" };
    const name = (spec["imported"] as Node)["name"];
    const local = (spec["local"] as Node)["name"];
    if (viaConstants) {
      const bound = runtimeBinding(name, typeof local === "string" ? local.slice(1) : local);
      constants.set(`$${bound}`, bound);
    } else imported.add(runtimeBinding(name, local));
  }
  if (!viaConstants) return { imported, skip: 1, start: source.start, end: source.end };
  // The second statement binds every imported name, and nothing else, to its constant.
  const second = body[1];
  if (second?.type === "ImportDeclaration") {
    const other = (second["source"] as Node & { value: unknown }).value;
    return {
      problem:
        other === RUNTIME_SPECIFIER
          ? "the bundle imports the runtime twice"
          : `the bundle imports ${JSON.stringify(other)}; a bundle may import only ${RUNTIME_SPECIFIER}`,
    };
  }
  const declarators =
    second?.type === "VariableDeclaration" && second["kind"] === "const" ? (second["declarations"] as Node[]) : [];
  if (declarators.length !== constants.size)
    return { problem: "the bundle does not bind the runtime's names as the compiler does" };
  for (const d of declarators) {
    const id = d["id"] as Node;
    const init = d["init"] as Node | null;
    const target = id.type === "Identifier" ? String(id["name"]) : "";
    if (init?.type !== "Identifier" || constants.get(String(init["name"])) !== target)
      return { problem: "the bundle does not bind the runtime's names as the compiler does" };
    imported.add(target);
  }
  return { imported, skip: 2, start: source.start, end: source.end };
}

/** `"use strict"; const { name: $name, ... } = require(RUNTIME);` first. */
function commonjsHead(body: Node[], runtime: string): Head {
  const [strict, declaration] = body;
  const directive = strict?.type === "ExpressionStatement" ? (strict["expression"] as Node) : undefined;
  if (directive?.type !== "Literal" || directive["value"] !== "use strict")
    return { problem: "the program is not strict" };
  const declarator =
    declaration?.type === "VariableDeclaration" && declaration["kind"] === "const"
      ? (declaration["declarations"] as Node[])[0]
      : undefined;
  const init = declarator?.["init"] as Node | undefined;
  const pattern = declarator?.["id"] as Node | undefined;
  const argument = init?.type === "CallExpression" ? (init["arguments"] as Node[])[0] : undefined;
  if (
    init === undefined ||
    (init["callee"] as Node)["name"] !== "require" ||
    argument?.["value"] !== runtime ||
    pattern?.type !== "ObjectPattern" ||
    (declaration!["declarations"] as Node[]).length !== 1
  ) {
    return { problem: "the program does not require the runtime first" };
  }
  const imported = new Set<string>();
  for (const property of pattern["properties"] as Node[]) {
    if (property.type !== "Property" || property["computed"] || (property["value"] as Node).type !== "Identifier")
      return { problem: "the program requires the runtime in a form the compiler never writes" };
    imported.add(runtimeBinding((property["key"] as Node)["name"], (property["value"] as Node)["name"]));
  }
  return { imported, skip: 2, start: argument!.start, end: argument!.end };
}

function runtimeBinding(name: unknown, local: unknown): string {
  if (typeof name !== "string" || !PROGRAM_RUNTIME.has(name))
    refuse(`the bundle imports ${JSON.stringify(name)} from the runtime, which compiled code never uses`);
  if (local !== `$${name}`) refuse("the bundle renames what it imports from the runtime");
  return local;
}

const UNARY = new Set(["-", "+", "!", "typeof"]);
const VARIABLE_KINDS = new Set(["let", "const"]);

class Checker {
  private readonly scopes: Scopes;
  /** Inside a class's constructor, the only place compiled code writes `this`. */
  private inConstructor = false;

  constructor(
    imported: Set<string>,
    private readonly commonjs: boolean,
  ) {
    this.scopes = new Scopes(imported);
  }

  program(body: Node[]): void {
    const names = new Set<string>();
    for (const s of body) this.declare(s, names);
    this.scopes.within(names, () => {
      for (const s of body) this.topLevel(s);
    });
  }

  /** A top-level statement: an export is allowed only here, and only of the names a bundle exports. */
  private topLevel(s: Node): void {
    if (s.type === "ImportDeclaration") {
      const source = (s["source"] as Node)["value"];
      refuse(
        source === RUNTIME_SPECIFIER
          ? "the bundle imports the runtime twice"
          : `the bundle imports ${JSON.stringify(source)}; a bundle may import only ${RUNTIME_SPECIFIER}`,
      );
    }
    if (s.type === "ExportAllDeclaration" || s.type === "ExportDefaultDeclaration")
      refuse("the bundle exports in a form the compiler never writes");
    if (s.type === "ExportNamedDeclaration") {
      if (this.commonjs || s["source"] != null) refuse("the bundle re-exports another module");
      const declaration = s["declaration"] as Node | null;
      if (declaration != null) {
        if (declaration.type !== "VariableDeclaration")
          refuse("the bundle exports in a form the compiler never writes");
        for (const d of declaration["declarations"] as Node[])
          if (!EXPORTS.has((d["id"] as Node)["name"] as string))
            refuse("the bundle exports a name compiled code never exports");
        return this.node(declaration);
      }
      for (const spec of s["specifiers"] as Node[]) {
        if (spec.type !== "ExportSpecifier" || !EXPORTS.has((spec["exported"] as Node)["name"] as string))
          refuse("the bundle exports a name compiled code never exports");
        this.node(spec["local"] as Node);
      }
      return;
    }
    if (this.commonjs && s.type === "ExpressionStatement") {
      // `exports.main = ...;`
      const e = s["expression"] as Node;
      const target = e["left"] as Node | undefined;
      if (
        e.type === "AssignmentExpression" &&
        target?.type === "MemberExpression" &&
        (target["object"] as Node)["name"] === "exports"
      ) {
        if (target["computed"] || !EXPORTS.has((target["property"] as Node)["name"] as string))
          refuse("the program exports a name compiled code never exports");
        return this.node(e["right"] as Node);
      }
    }
    this.node(s);
  }

  private declare(s: Node, into: Set<string>): void {
    if (s.type === "FunctionDeclaration" || s.type === "ClassDeclaration")
      declareOnce((s["id"] as Node)["name"] as string, into);
    else if (s.type === "VariableDeclaration")
      for (const d of s["declarations"] as Node[]) this.patternNames(d["id"] as Node, into);
    else if (s.type === "ExportNamedDeclaration" && s["declaration"] != null)
      this.declare(s["declaration"] as Node, into);
  }

  /** The names a pattern binds; a pattern is a name, `[a, b, ...rest]`, or `...rest`. */
  private patternNames(p: Node, into: Set<string>): void {
    if (p.type === "Identifier") declareOnce(p["name"] as string, into);
    else if (p.type === "RestElement") this.patternNames(p["argument"] as Node, into);
    else if (p.type === "ArrayPattern")
      for (const e of p["elements"] as (Node | null)[]) e === null ? undefined : this.patternNames(e, into);
    else refuse(`the bundle binds names with a ${p.type}, which compiled code never does`);
  }

  private scoped(names: Set<string>, walk: () => void): void {
    this.scopes.within(names, walk);
  }

  private block(statements: Node[], names = new Set<string>()): void {
    for (const s of statements) this.declare(s, names);
    this.scoped(names, () => {
      for (const s of statements) this.node(s);
    });
  }

  /** Whether a name here is the runtime's import, not a declaration of the bundle's that hides it. */
  private isImport(name: string): boolean {
    return this.scopes.isOutermost(name);
  }

  private reference(name: string): void {
    if (!this.scopes.declares(name) && !ALLOWED_GLOBALS.has(name))
      refuse(`the bundle names the global \`${name}\`, which compiled code never uses`);
  }

  private function(n: Node): void {
    if (n["generator"]) refuse("the bundle holds a generator, which compiled code never has");
    const names = new Set<string>();
    for (const p of n["params"] as Node[]) this.patternNames(p, names);
    const body = n["body"] as Node;
    this.scoped(names, () => (body.type === "BlockStatement" ? this.block(body["body"] as Node[]) : this.node(body)));
  }

  private all(nodes: unknown): void {
    for (const n of nodes as (Node | null)[]) if (n !== null) this.node(n);
  }

  /** Every node: its type must be one compiled code has, and each of its children is checked. */
  private node(n: Node | null | undefined): void {
    if (n == null) return;
    switch (n.type) {
      case "Identifier":
        return this.reference(n["name"] as string);
      case "Literal": {
        const value = n["value"];
        if (
          n["regex"] !== undefined ||
          n["bigint"] !== undefined ||
          (value !== null && !["string", "number", "boolean"].includes(typeof value))
        )
          refuse("the bundle holds a literal compiled code never writes");
        return;
      }
      case "TemplateLiteral":
        return this.all(n["expressions"]);
      case "FunctionDeclaration":
      case "FunctionExpression":
      case "ArrowFunctionExpression":
        return this.function(n);
      case "ClassDeclaration":
        return this.classDeclaration(n);
      case "VariableDeclaration":
        if (!VARIABLE_KINDS.has(n["kind"] as string))
          refuse("the bundle declares a `var`, which compiled code never does");
        for (const d of n["declarations"] as Node[]) this.node(d["init"] as Node | null);
        return;
      case "BlockStatement":
        return this.block(n["body"] as Node[]);
      case "ExpressionStatement":
        return this.node(n["expression"] as Node);
      case "ReturnStatement":
      case "ThrowStatement":
      case "AwaitExpression":
      case "SpreadElement":
        return this.node(n["argument"] as Node | null);
      case "IfStatement":
      case "ConditionalExpression":
        return this.all([n["test"], n["consequent"], n["alternate"]]);
      case "WhileStatement":
        return this.all([n["test"], n["body"]]);
      case "ForStatement": {
        const names = new Set<string>();
        const init = n["init"] as Node | null;
        if (init?.type === "VariableDeclaration") this.declare(init, names);
        return this.scoped(names, () => this.all([init, n["test"], n["update"], n["body"]]));
      }
      case "ForOfStatement": {
        if (n["await"]) refuse("the bundle holds `for await`, which compiled code never has");
        const left = n["left"] as Node;
        if (left.type !== "VariableDeclaration" || !VARIABLE_KINDS.has(left["kind"] as string))
          refuse("the bundle holds a loop over a target compiled code never writes");
        this.node(n["right"] as Node);
        const names = new Set<string>();
        this.declare(left, names);
        return this.scoped(names, () => this.node(n["body"] as Node));
      }
      case "BreakStatement":
      case "ContinueStatement":
        if (n["label"] != null) refuse("the bundle holds a label, which compiled code never has");
        return;
      case "TryStatement":
        return this.all([n["block"], n["handler"], n["finalizer"]]);
      case "CatchClause": {
        const names = new Set<string>();
        if (n["param"] != null) this.patternNames(n["param"] as Node, names);
        return this.scoped(names, () => this.block((n["body"] as Node)["body"] as Node[]));
      }
      case "CallExpression":
      case "NewExpression":
        if (n["optional"]) refuse("the bundle holds an optional call, which compiled code never has");
        this.node(n["callee"] as Node);
        return this.all(n["arguments"]);
      case "MemberExpression":
        return this.member(n);
      case "AssignmentExpression": {
        const left = n["left"] as Node;
        if (left.type !== "Identifier" && left.type !== "MemberExpression")
          refuse("the bundle assigns to a pattern, which compiled code never does");
        return this.all([left, n["right"]]);
      }
      case "BinaryExpression":
      case "LogicalExpression":
        return this.all([n["left"], n["right"]]);
      case "UnaryExpression":
        if (!UNARY.has(n["operator"] as string))
          refuse(`the bundle uses \`${String(n["operator"])}\`, which compiled code never does`);
        return this.node(n["argument"] as Node);
      case "UpdateExpression": {
        const argument = n["argument"] as Node;
        if (argument.type !== "Identifier" && argument.type !== "MemberExpression")
          refuse("the bundle updates something compiled code never updates");
        return this.node(argument);
      }
      case "SequenceExpression":
        return this.all(n["expressions"]);
      case "ArrayExpression":
        return this.all(n["elements"]);
      case "ObjectExpression":
        for (const p of n["properties"] as Node[]) this.property(p);
        return;
      case "ThisExpression":
        if (!this.inConstructor) refuse("the bundle uses `this` outside a record's constructor");
        return;
      case "MetaProperty":
        return refuse("the bundle uses `import.meta` or `new.target` where compiled code never does");
      default:
        refuse(`the bundle holds JavaScript the compiler never writes (${n.type})`);
    }
  }

  /** `a.name` with a name of the shape compiled code gives properties, `a[0]`, or `import.meta.url`. */
  private member(n: Node): void {
    if (n["optional"]) refuse("the bundle holds an optional member, which compiled code never has");
    const object = n["object"] as Node;
    const property = n["property"] as Node;
    if (n["computed"]) {
      if (property.type !== "Literal" || typeof property["value"] !== "number")
        refuse("the bundle reads a property by a computed name, which compiled code never does");
      return this.node(object);
    }
    const name = property["name"] as string;
    if (object.type === "MetaProperty") {
      if ((object["meta"] as Node)["name"] !== "import" || name !== "url")
        refuse("the bundle uses `import.meta` where compiled code never does");
      return;
    }
    // A library function (`$foreign.call`): the namespace of a library module holds its functions and nothing else.
    const library =
      object.type === "Identifier" &&
      LIBRARY_NAMESPACES.has((object["name"] as string).slice(1)) &&
      this.isImport(object["name"] as string);
    if (!(library ? isLibraryFunctionName(name) : isEmittedPropertyName(name)))
      refuse(`the bundle reads the property \`${name}\`, which compiled code never reads`);
    this.node(object);
  }

  private property(p: Node): void {
    if (p.type !== "Property" || p["kind"] !== "init" || p["method"] || p["computed"] || p["shorthand"])
      refuse("the bundle holds an object member compiled code never writes");
    const key = p["key"] as Node;
    const name = key.type === "Identifier" ? key["name"] : key["value"];
    if (typeof name !== "string" || !isEmittedPropertyName(name))
      refuse(`the bundle makes an object with the key ${JSON.stringify(name)}, which compiled code never makes`);
    this.node(p["value"] as Node);
  }

  /** `class X { constructor(f_a, f_b) { this.a = f_a; ... } }`, with no heritage. */
  private classDeclaration(n: Node): void {
    if (n["superClass"] != null) refuse("the bundle holds a class that extends another, which compiled code never has");
    for (const member of (n["body"] as Node)["body"] as Node[]) {
      const key = member["key"] as Node;
      if (
        member.type !== "MethodDefinition" ||
        member["kind"] !== "constructor" ||
        member["static"] ||
        member["computed"] ||
        key["name"] !== "constructor"
      ) {
        refuse("the bundle holds a class member other than a constructor");
      }
      this.inConstructor = true;
      try {
        this.function(member["value"] as Node);
      } finally {
        this.inConstructor = false;
      }
    }
  }
}

/**
 * A name declared in a scope. Twice is refused: in a CommonJS script two functions of
 * one name are allowed, the second silently replacing the first (a bundle could swap its
 * main for another), and compiled code never declares a name twice in one scope.
 */
function declareOnce(name: string, into: Set<string>): void {
  if (into.has(name)) refuse(`the bundle declares \`${name}\` twice in one scope, which compiled code never does`);
  into.add(name);
}
