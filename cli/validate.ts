// Validating a bundle before it runs, whoever built it (seed 002: an artifact is
// revalidated before every execution). The manifest's hash must match the
// bundle's bytes, and the bundle, parsed again with acorn, may import nothing
// but the runtime, may use only the JavaScript the compiler writes, and may
// name no global outside a short allow-list.

import { createHash } from "node:crypto";
import { parse } from "acorn";

export const RUNTIME_SPECIFIER = "renyi/runtime";

/** Globals compiled code uses. Anything else (process, globalThis, require, eval, Function...) is refused. */
const ALLOWED_GLOBALS = new Set(["undefined", "JSON", "Math", "Promise", "Array"]);

export function sha256(text: string | Buffer): string {
  return "sha256:" + createHash("sha256").update(text).digest("hex");
}

export type Validation = { ok: true; importStart: number; importEnd: number } | { ok: false; problem: string };

type Node = { type: string; start: number; end: number; [key: string]: unknown };

export function validateBundle(code: string): Validation {
  let ast: Node;
  try {
    ast = parse(code, { ecmaVersion: 2022, sourceType: "module", allowAwaitOutsideFunction: true }) as unknown as Node;
  } catch (e) {
    return { ok: false, problem: `the bundle is not valid JavaScript: ${e instanceof Error ? e.message : String(e)}` };
  }
  const body = ast["body"] as Node[];
  let importAt: { start: number; end: number } | undefined;
  for (const statement of body) {
    if (statement.type === "ImportDeclaration") {
      const source = statement["source"] as Node & { value: string };
      if (source.value !== RUNTIME_SPECIFIER) return { ok: false, problem: `the bundle imports ${JSON.stringify(source.value)}; a bundle may import only ${RUNTIME_SPECIFIER}` };
      if (importAt !== undefined) return { ok: false, problem: "the bundle imports the runtime twice" };
      importAt = { start: source.start, end: source.end };
    }
    if ((statement.type === "ExportNamedDeclaration" || statement.type === "ExportAllDeclaration") && statement["source"] != null) {
      return { ok: false, problem: "the bundle re-exports another module" };
    }
  }
  if (importAt === undefined) return { ok: false, problem: "the bundle does not import the runtime" };
  const problem = new ScopeChecker().program(ast);
  if (problem !== undefined) return { ok: false, problem };
  return { ok: true, importStart: importAt.start, importEnd: importAt.end };
}

/** The node types the compiler writes; any other is refused. */
const KNOWN = new Set([
  "Program", "ImportDeclaration", "ImportSpecifier", "ExportNamedDeclaration", "ExportSpecifier", "FunctionDeclaration",
  "ClassDeclaration", "ClassBody", "MethodDefinition", "FunctionExpression", "ArrowFunctionExpression", "VariableDeclaration",
  "VariableDeclarator", "Identifier", "Literal", "TemplateLiteral", "TemplateElement", "BlockStatement", "ExpressionStatement",
  "ReturnStatement", "IfStatement", "ForOfStatement", "ForStatement", "RestElement", "WhileStatement", "BreakStatement", "ContinueStatement", "ThrowStatement",
  "TryStatement", "CatchClause", "CallExpression", "NewExpression", "MemberExpression", "AssignmentExpression", "BinaryExpression",
  "LogicalExpression", "UnaryExpression", "UpdateExpression", "ConditionalExpression", "SequenceExpression", "ArrayExpression",
  "ObjectExpression", "Property", "SpreadElement", "AwaitExpression", "ArrayPattern", "ThisExpression", "MetaProperty",
  "ParenthesizedExpression",
]);

class ScopeChecker {
  private scopes: Set<string>[] = [];

  program(ast: Node): string | undefined {
    this.scopes.push(this.declaredIn(ast["body"] as Node[]));
    return this.statements(ast["body"] as Node[]);
  }

  private declaredIn(statements: Node[]): Set<string> {
    const names = new Set<string>();
    for (const s of statements) {
      if (s.type === "FunctionDeclaration" || s.type === "ClassDeclaration") names.add(((s["id"] as Node)["name"]) as string);
      if (s.type === "VariableDeclaration") for (const d of s["declarations"] as Node[]) this.patternNames(d["id"] as Node, names);
      if (s.type === "ImportDeclaration") for (const spec of s["specifiers"] as Node[]) names.add((spec["local"] as Node)["name"] as string);
      if (s.type === "ExportNamedDeclaration" && s["declaration"] != null) {
        for (const n of this.declaredIn([s["declaration"] as Node])) names.add(n);
      }
    }
    return names;
  }

  private patternNames(pattern: Node, into: Set<string>): void {
    if (pattern.type === "Identifier") into.add(pattern["name"] as string);
    else if (pattern.type === "RestElement") this.patternNames(pattern["argument"] as Node, into);
    else if (pattern.type === "ArrayPattern") for (const e of pattern["elements"] as (Node | null)[]) if (e) this.patternNames(e, into);
  }

  private isDeclared(name: string): boolean {
    return this.scopes.some((s) => s.has(name)) || ALLOWED_GLOBALS.has(name);
  }

  private statements(statements: Node[]): string | undefined {
    for (const s of statements) {
      const problem = this.node(s);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }

  private withScope(names: Set<string>, read: () => string | undefined): string | undefined {
    this.scopes.push(names);
    try {
      return read();
    } finally {
      this.scopes.pop();
    }
  }

  private node(n: Node | null | undefined): string | undefined {
    if (n == null) return undefined;
    if (!KNOWN.has(n.type)) return `the bundle holds JavaScript the compiler never writes (${n.type})`;
    switch (n.type) {
      case "Identifier": {
        const name = n["name"] as string;
        return this.isDeclared(name) ? undefined : `the bundle names the global \`${name}\`, which compiled code never uses`;
      }
      case "MetaProperty":
        // Only `import.meta.url`, which the entry passes to the runtime.
        return (n["meta"] as Node)["name"] === "import" ? undefined : "the bundle uses `new.target`";
      case "MemberExpression":
        return this.node(n["object"] as Node) ?? (n["computed"] ? this.node(n["property"] as Node) : undefined);
      case "Property":
        return (n["computed"] ? this.node(n["key"] as Node) : undefined) ?? this.node(n["value"] as Node);
      case "MethodDefinition":
        return this.node(n["value"] as Node);
      case "ImportDeclaration":
      case "ExportSpecifier":
        return undefined;
      case "ExportNamedDeclaration":
        return this.node(n["declaration"] as Node);
      case "VariableDeclarator":
        return this.node(n["init"] as Node);
      case "FunctionDeclaration":
      case "FunctionExpression":
      case "ArrowFunctionExpression": {
        const names = new Set<string>();
        for (const p of n["params"] as Node[]) this.patternNames(p, names);
        const body = n["body"] as Node;
        return this.withScope(names, () => (body.type === "BlockStatement" ? this.block(body) : this.node(body)));
      }
      case "ClassDeclaration":
        return this.node(n["body"] as Node);
      case "BlockStatement":
        return this.block(n);
      case "CatchClause": {
        const names = new Set<string>();
        if (n["param"]) this.patternNames(n["param"] as Node, names);
        return this.withScope(names, () => this.block(n["body"] as Node));
      }
      case "ForStatement": {
        const names = new Set<string>();
        const init = n["init"] as Node | null;
        if (init?.type === "VariableDeclaration") for (const d of init["declarations"] as Node[]) this.patternNames(d["id"] as Node, names);
        return this.withScope(names, () => this.node(init) ?? this.node(n["test"] as Node) ?? this.node(n["update"] as Node) ?? this.node(n["body"] as Node));
      }
      case "RestElement":
        return undefined;
      case "ForOfStatement": {
        const names = new Set<string>();
        const left = n["left"] as Node;
        if (left.type === "VariableDeclaration") for (const d of left["declarations"] as Node[]) this.patternNames(d["id"] as Node, names);
        return this.node(n["right"] as Node) ?? this.withScope(names, () => this.node(n["body"] as Node));
      }
      default:
        return this.children(n);
    }
  }

  private block(n: Node): string | undefined {
    const body = n["body"] as Node[];
    return this.withScope(this.declaredIn(body), () => this.statements(body));
  }

  private children(n: Node): string | undefined {
    for (const [key, value] of Object.entries(n)) {
      if (key === "type" || key === "start" || key === "end" || key === "loc" || key === "range") continue;
      if (Array.isArray(value)) {
        for (const v of value) if (v && typeof v === "object" && "type" in v) {
          const problem = this.node(v as Node);
          if (problem !== undefined) return problem;
        }
      } else if (value && typeof value === "object" && "type" in value) {
        const problem = this.node(value as Node);
        if (problem !== undefined) return problem;
      }
    }
    return undefined;
  }
}
