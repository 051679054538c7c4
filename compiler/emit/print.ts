// The compiler's printer of the lowered tree, for every bundle (`renyic build`'s
// and the code `renyi run` and `renyi test` run): a string built in one pass,
// with the mappings of each positioned node (its start to its `.ry` position),
// where @babel/generator spent about 60% of a compile and most of its garbage.
// It prints only the kinds the lowering makes (lower/js.ts), and refuses any
// other. Parenthesising is decided in one place (`expression`, by each kind's
// precedence); escaping of texts in another (`stringLiteral`).
// tests/printers.test.ts holds it to Babel's printer: it parses what both print
// and compares the trees, on every fixture and on generated programs.

import type * as T from "../lower/js.js";
import { MappingsWriter } from "./sourcemap.js";

// Precedence, from loosest to tightest.
const SEQUENCE = 1;
const ASSIGN = 2;
const CONDITIONAL = 3;
const UNARY = 15;
const POSTFIX = 16;
const NEW = 17;
const CALL = 18;
const PRIMARY = 19;

const BINARY: Readonly<Record<string, number>> = {
  "??": 4,
  "||": 4,
  "&&": 5,
  "|": 6,
  "^": 7,
  "&": 8,
  "==": 9,
  "!=": 9,
  "===": 9,
  "!==": 9,
  "<": 10,
  ">": 10,
  "<=": 10,
  ">=": 10,
  instanceof: 10,
  in: 10,
  "<<": 11,
  ">>": 11,
  ">>>": 11,
  "+": 12,
  "-": 12,
  "*": 13,
  "/": 13,
  "%": 13,
  "**": 14,
};

/** The code, and with `mapped` its mappings (one source, index 0), encoded as they are made. */
export function printStatements(
  statements: readonly T.Statement[],
  mapped: boolean,
): { code: string; mappings: string } {
  const printer = new Printer(mapped);
  statements.forEach((s, i) => {
    if (i > 0) printer.newline();
    printer.statement(s);
  });
  return { code: printer.text(), mappings: printer.mappings?.toString() ?? "" };
}

class Printer {
  // One string grown by `+=`: the engine keeps it as a rope and flattens it once, where an array of millions of pieces
  // joined cost more than the printing.
  private out = "";
  private column = 0;
  private indent = "";
  readonly mappings: MappingsWriter | undefined;
  /** The generated column of the current line's last segment. */
  private lastMarked = -1;

  constructor(mapped: boolean) {
    this.mappings = mapped ? new MappingsWriter() : undefined;
  }

  text(): string {
    return this.out;
  }

  newline(): void {
    this.out += `\n${this.indent}`;
    this.column = this.indent.length;
    this.mappings?.nextLine();
    this.lastMarked = -1;
  }

  /** Text without a line break. */
  private put(text: string): void {
    this.out += text;
    this.column += text.length;
  }

  /** Text that may hold line breaks (a template's raw pieces). */
  private putMultiline(text: string): void {
    const lines = text.split("\n");
    this.put(lines[0]!);
    for (let i = 1; i < lines.length; i++) {
      this.out += `\n${lines[i]!}`;
      this.column = lines[i]!.length;
      this.mappings?.nextLine();
      this.lastMarked = -1;
    }
  }

  private mark(n: T.Node): void {
    if (this.mappings === undefined || n.loc == null || this.lastMarked === this.column) return;
    this.mappings.segment(this.column, 0, n.loc.start.line - 1, n.loc.start.column);
    this.lastMarked = this.column;
  }

  // ---- statements ----

  statement(s: T.Statement): void {
    this.mark(s);
    switch (s.type) {
      case "ExpressionStatement":
        // A statement that would begin with `{` is a block: such an expression is one only in parentheses.
        this.expression(s.expression, startsWithObject(s.expression) ? PRIMARY + 1 : SEQUENCE);
        return this.put(";");
      case "VariableDeclaration":
        this.declaration(s);
        return this.put(";");
      case "BlockStatement":
        return this.block(s.body);
      case "IfStatement":
        return this.ifStatement(s);
      case "ReturnStatement":
        this.put("return");
        if (s.argument != null) {
          this.put(" ");
          this.expression(s.argument, SEQUENCE);
        }
        return this.put(";");
      case "ThrowStatement":
        this.put("throw ");
        this.expression(s.argument, SEQUENCE);
        return this.put(";");
      case "BreakStatement":
        return this.put("break;");
      case "ContinueStatement":
        return this.put("continue;");
      case "WhileStatement":
        this.put("while (");
        this.expression(s.test, SEQUENCE);
        this.put(") ");
        return this.statement(s.body);
      case "ForStatement":
        this.put("for (");
        if (s.init != null) {
          if (s.init.type === "VariableDeclaration") this.declaration(s.init);
          else this.expression(s.init, SEQUENCE);
        }
        this.put(";");
        if (s.test != null) {
          this.put(" ");
          this.expression(s.test, SEQUENCE);
        }
        this.put(";");
        if (s.update != null) {
          this.put(" ");
          this.expression(s.update, SEQUENCE);
        }
        this.put(") ");
        return this.statement(s.body);
      case "ForOfStatement":
        this.put("for (");
        this.declaration(s.left as T.VariableDeclaration);
        this.put(" of ");
        this.expression(s.right, ASSIGN);
        this.put(") ");
        return this.statement(s.body);
      case "TryStatement":
        this.put("try ");
        this.block(s.block.body);
        if (s.handler != null) {
          this.put(" catch ");
          if (s.handler.param != null) {
            this.put("(");
            this.pattern(s.handler.param);
            this.put(") ");
          }
          this.block(s.handler.body.body);
        }
        if (s.finalizer != null) {
          this.put(" finally ");
          this.block(s.finalizer.body);
        }
        return;
      case "FunctionDeclaration":
        if (s.async) this.put("async ");
        this.put(`function ${s.id!.name}(`);
        this.params(s.params);
        this.put(") ");
        return this.block(s.body.body);
      case "ClassDeclaration":
        return this.classDeclaration(s);
      case "ExportNamedDeclaration":
        this.put("export ");
        if (s.declaration != null) return this.statement(s.declaration as T.Statement);
        this.put("{ ");
        s.specifiers.forEach((spec, i) => {
          if (i > 0) this.put(", ");
          const e = spec as T.ExportSpecifier;
          const exported = (e.exported as T.Identifier).name;
          this.put(e.local.name === exported ? exported : `${e.local.name} as ${exported}`);
        });
        return this.put(" };");
      default:
        throw new Error(`internal: the printer does not print a ${s.type}`);
    }
  }

  private declaration(d: T.VariableDeclaration): void {
    this.put(`${d.kind} `);
    d.declarations.forEach((v, i) => {
      if (i > 0) this.put(", ");
      this.mark(v);
      this.pattern(v.id);
      if (v.init != null) {
        this.put(" = ");
        this.expression(v.init, ASSIGN);
      }
    });
  }

  private block(body: readonly T.Statement[]): void {
    if (body.length === 0) return this.put("{}");
    this.put("{");
    const outer = this.indent;
    this.indent += "  ";
    for (const s of body) {
      this.newline();
      this.statement(s);
    }
    this.indent = outer;
    this.newline();
    this.put("}");
  }

  private ifStatement(s: T.IfStatement): void {
    this.put("if (");
    this.expression(s.test, SEQUENCE);
    this.put(") ");
    // An `if` without `else` inside one with an `else` would take that `else`: braces keep it its own.
    const dangling = s.alternate != null && endsInOpenIf(s.consequent);
    if (dangling) this.block([s.consequent]);
    else this.statement(s.consequent);
    if (s.alternate != null) {
      this.put(" else ");
      this.statement(s.alternate);
    }
  }

  private classDeclaration(c: T.ClassDeclaration): void {
    this.put(`class ${c.id!.name} `);
    if (c.superClass != null) throw new Error("internal: the printer does not print a class that extends another");
    if (c.body.body.length === 0) return this.put("{}");
    this.put("{");
    const outer = this.indent;
    this.indent += "  ";
    for (const m of c.body.body) {
      if (m.type !== "ClassMethod" || m.computed || m.static || m.kind === "get" || m.kind === "set")
        throw new Error(`internal: the printer does not print this member of a class`);
      this.newline();
      this.mark(m);
      if (m.async) this.put("async ");
      this.put(`${(m.key as T.Identifier).name}(`);
      this.params(m.params as T.Node[]);
      this.put(") ");
      this.block(m.body.body);
    }
    this.indent = outer;
    this.newline();
    this.put("}");
  }

  private params(params: readonly T.Node[]): void {
    params.forEach((p, i) => {
      if (i > 0) this.put(", ");
      this.pattern(p);
    });
  }

  private pattern(p: T.Node): void {
    this.mark(p);
    switch (p.type) {
      case "Identifier":
        return this.put(p.name);
      case "RestElement":
        this.put("...");
        return this.pattern(p.argument);
      case "ArrayPattern":
        this.put("[");
        p.elements.forEach((e, i) => {
          if (i > 0) this.put(", ");
          if (e != null) this.pattern(e);
        });
        if (p.elements.length > 0 && p.elements[p.elements.length - 1] == null) this.put(",");
        return this.put("]");
      default:
        throw new Error(`internal: the printer does not print a ${p.type} as a pattern`);
    }
  }

  // ---- expressions ----

  /** Prints `e`, in parentheses when its precedence is looser than `min`. */
  expression(e: T.Expression | T.Node, min: number): void {
    const own = precedence(e);
    const wrap = own < min;
    if (wrap) this.put("(");
    this.mark(e);
    this.bare(e);
    if (wrap) this.put(")");
  }

  private bare(e: T.Node): void {
    switch (e.type) {
      case "Identifier":
        return this.put(e.name);
      case "StringLiteral":
        return this.stringLiteral(e.value);
      case "NumericLiteral":
        return this.put(numberText(e.value));
      case "BooleanLiteral":
        return this.put(e.value ? "true" : "false");
      case "NullLiteral":
        return this.put("null");
      case "ThisExpression":
        return this.put("this");
      case "TemplateLiteral":
        this.put("`");
        e.quasis.forEach((q, i) => {
          this.putMultiline(q.value.raw);
          if (i < e.expressions.length) {
            this.put("${");
            this.expression(e.expressions[i] as T.Expression, SEQUENCE);
            this.put("}");
          }
        });
        return this.put("`");
      case "ArrayExpression":
        this.put("[");
        e.elements.forEach((item, i) => {
          if (i > 0) this.put(", ");
          if (item != null) this.expression(item, ASSIGN);
        });
        if (e.elements.length > 0 && e.elements[e.elements.length - 1] == null) this.put(",");
        return this.put("]");
      case "ObjectExpression":
        if (e.properties.length === 0) return this.put("{}");
        this.put("{ ");
        e.properties.forEach((p, i) => {
          if (i > 0) this.put(", ");
          this.mark(p);
          if (p.type === "SpreadElement") {
            this.put("...");
            this.expression(p.argument, ASSIGN);
            return;
          }
          if (p.type !== "ObjectProperty")
            throw new Error(`internal: the printer does not print a ${p.type} in an object`);
          if (p.computed) {
            this.put("[");
            this.expression(p.key, ASSIGN);
            this.put("]");
          } else if (p.key.type === "Identifier") this.put(p.key.name);
          else if (p.key.type === "StringLiteral") this.stringLiteral(p.key.value);
          else if (p.key.type === "NumericLiteral") this.put(numberText(p.key.value));
          else throw new Error(`internal: the printer does not print a ${p.key.type} as a key`);
          this.put(": ");
          this.expression(p.value as T.Expression, ASSIGN);
        });
        return this.put(" }");
      case "SpreadElement":
        this.put("...");
        return this.expression(e.argument, ASSIGN);
      case "ParenthesizedExpression":
        this.put("(");
        this.expression(e.expression, SEQUENCE);
        return this.put(")");
      case "SequenceExpression":
        // A sequence in a sequence is the same sequence: written flat, as Babel writes it.
        return e.expressions.forEach((x, i) => {
          if (i > 0) this.put(", ");
          this.expression(x, x.type === "SequenceExpression" ? SEQUENCE : ASSIGN);
        });
      case "AssignmentExpression":
        this.expression(e.left as T.Node, CALL);
        this.put(` ${e.operator} `);
        return this.expression(e.right, ASSIGN);
      case "ConditionalExpression":
        this.expression(e.test, CONDITIONAL + 1);
        this.put(" ? ");
        this.expression(e.consequent, ASSIGN);
        this.put(" : ");
        return this.expression(e.alternate, ASSIGN);
      case "ArrowFunctionExpression":
        if (e.async) this.put("async ");
        this.put("(");
        this.params(e.params);
        this.put(") => ");
        if (e.body.type === "BlockStatement") return this.block(e.body.body);
        // A value that starts with an object is in parentheses, or the object would be a block.
        if (startsWithObject(e.body)) {
          this.put("(");
          this.expression(e.body, SEQUENCE);
          return this.put(")");
        }
        return this.expression(e.body, ASSIGN);
      case "BinaryExpression":
      case "LogicalExpression": {
        const own = BINARY[e.operator]!;
        const rightAssociative = e.operator === "**";
        // `-x ** 2` is no program: a unary operand of `**` on its left is in parentheses.
        this.expression(e.left as T.Expression, rightAssociative ? POSTFIX : own);
        this.put(` ${e.operator} `);
        return this.expression(e.right, rightAssociative ? own : own + 1);
      }
      case "UnaryExpression": {
        const word = /^[a-z]/.test(e.operator);
        this.put(word ? `${e.operator} ` : e.operator);
        // `- -x` and `+ +x` are not `--x` and `++x`: the operand is then in parentheses.
        const argument = e.argument;
        const clash =
          !word &&
          (argument.type === "UnaryExpression" || argument.type === "UpdateExpression") &&
          argument.operator[0] === e.operator;
        const negative =
          !word && argument.type === "NumericLiteral" && (argument.value < 0 || Object.is(argument.value, -0));
        return this.expression(argument, clash || negative ? PRIMARY + 1 : UNARY);
      }
      case "UpdateExpression":
        if (e.prefix) {
          this.put(e.operator);
          return this.expression(e.argument, UNARY);
        }
        this.expression(e.argument, CALL);
        return this.put(e.operator);
      case "AwaitExpression":
        this.put("await ");
        return this.expression(e.argument, UNARY);
      case "MemberExpression": {
        // `1.x` reads as a number; `(1).x` does not. `new X().y` and `f().y` need nothing.
        const object = e.object;
        const numeric = object.type === "NumericLiteral";
        this.expression(object, numeric ? PRIMARY + 1 : CALL);
        if (e.computed) {
          this.put("[");
          this.expression(e.property as T.Expression, SEQUENCE);
          return this.put("]");
        }
        return this.put(`.${(e.property as T.Identifier).name}`);
      }
      case "CallExpression":
        this.expression(e.callee as T.Expression, CALL);
        return this.arguments(e.arguments);
      case "NewExpression": {
        this.put("new ");
        // A call in the callee of `new` would take the `new`'s arguments: parentheses keep them apart.
        const callee = e.callee as T.Expression;
        this.expression(callee, containsCall(callee) ? PRIMARY + 1 : NEW + 1);
        return this.arguments(e.arguments);
      }
      case "MetaProperty":
        return this.put(`${e.meta.name}.${e.property.name}`);
      default:
        throw new Error(`internal: the printer does not print a ${e.type}`);
    }
  }

  private arguments(args: readonly T.Node[]): void {
    this.put("(");
    args.forEach((a, i) => {
      if (i > 0) this.put(", ");
      this.expression(a, ASSIGN);
    });
    this.put(")");
  }

  /**
   * A text as a JavaScript string literal: JSON's escapes, which JavaScript reads the same,
   * and U+2028 and U+2029, which JSON leaves as they are but the engine counts as line
   * breaks (every position after one, in a stack trace and so in the map, a line off).
   */
  private stringLiteral(value: string): void {
    this.put(
      JSON.stringify(value)
        .replace(/\u2028/g, "\\u2028")
        .replace(/\u2029/g, "\\u2029"),
    );
  }
}

function precedence(e: T.Node): number {
  switch (e.type) {
    case "SequenceExpression":
      return SEQUENCE;
    case "AssignmentExpression":
    case "ArrowFunctionExpression":
      return ASSIGN;
    case "ConditionalExpression":
      return CONDITIONAL;
    case "BinaryExpression":
    case "LogicalExpression":
      return BINARY[e.operator]!;
    case "UnaryExpression":
    case "AwaitExpression":
      return UNARY;
    case "UpdateExpression":
      return e.prefix ? UNARY : POSTFIX;
    case "NewExpression":
      return NEW;
    case "CallExpression":
    case "MemberExpression":
      return CALL;
    default:
      return PRIMARY;
  }
}

/** Whether a statement ends with an `if` that has no `else` of its own, which a following `else` would join. */
function endsInOpenIf(s: T.Statement): boolean {
  switch (s.type) {
    case "IfStatement":
      return s.alternate == null || endsInOpenIf(s.alternate);
    case "WhileStatement":
    case "ForStatement":
    case "ForOfStatement":
      return endsInOpenIf(s.body);
    default:
      return false;
  }
}

/** Whether the leftmost part of `e`, printed first, is an object literal. */
function startsWithObject(e: T.Node): boolean {
  switch (e.type) {
    case "ObjectExpression":
      return true;
    case "CallExpression":
      return startsWithObject(e.callee);
    case "MemberExpression":
      return startsWithObject(e.object);
    case "BinaryExpression":
    case "LogicalExpression":
    case "AssignmentExpression":
      return startsWithObject(e.left);
    case "ConditionalExpression":
      return startsWithObject(e.test);
    case "SequenceExpression":
      return startsWithObject(e.expressions[0]!);
    case "UpdateExpression":
      return !e.prefix && startsWithObject(e.argument);
    default:
      return false;
  }
}

/**
 * Whether a call is reached from `e` through its callee and object positions (`new (f().g)()` needs the parentheses).
 */
function containsCall(e: T.Node): boolean {
  if (e.type === "CallExpression") return true;
  if (e.type === "MemberExpression") return containsCall(e.object);
  return false;
}

function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`internal: the printer does not print the number ${value}`);
  return Object.is(value, -0) ? "-0" : String(value);
}
