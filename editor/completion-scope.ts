// The names in scope at a position, and their types: the parameters and the
// locals declared before it in the blocks around it. Read from the syntax tree
// of the definition the position is in. When that definition did not parse (a
// line half typed, a block still open), its text up to the word being typed is
// parsed again alone, with `end`s put after it, which costs a parse of that
// one definition, not of the module. Types come from the checked tree when the
// module checks, and are otherwise worked out from what the syntax says: an
// annotation, a constructor, a call of a known function, a field of a known
// record, an item of a known list.

import type { CExpr, CFunction, CPattern, CStatement, CTest, Local } from "../compiler/check/checked.js";
import { libraryScopes } from "../compiler/check/declare.js";
import { METHOD_MODULES } from "../compiler/check/library.js";
import type { Type } from "../compiler/check/types.js";
import { parseSource } from "../compiler/index.js";
import type * as S from "../compiler/parse/tree.js";
import type { ModuleView, Snapshot } from "./analysis.js";
import {
  casesOfTy,
  fieldsOfTy,
  fromType,
  fromTypeExpr,
  named,
  preludeType,
  UNKNOWN,
  usedModule,
  type Ty,
  type TypeNames,
} from "./offer-types.js";

interface Binding {
  readonly name: string;
  readonly kind: "parameter" | "local";
  /** Where it is declared, in the file. */
  readonly start: number;
  /** Its type, worked out when first asked. */
  readonly type: () => Ty;
}

export interface ScopeAt {
  /** The definition the position is in, as parsed (perhaps alone; see `base`). */
  readonly item?: S.FunctionDef | S.TestDef | S.TypeDef;
  /** Bindings in declaration order: a later one of the same name hides an earlier one. */
  readonly bindings: readonly Binding[];
  readonly names: TypeNames;
  /** The type of an expression of the definition's syntax tree, by the names in scope. */
  readonly typeOf: (e: S.Expr) => Ty;
  /** The type of the value the innermost `match` (or `otherwise` with arms) around the position matches. */
  readonly matchSubject?: () => Ty;
  /** The type of the expression that ends at `cut` (before a dot: `f(x)` of `f(x).`), when one does. */
  readonly typeEndingAtCut: () => Ty | undefined;
}

type Item = S.FunctionDef | S.TestDef | S.TypeDef;

/**
 * The scope at `offset` of `view`. When the definition is parsed again alone,
 * its text is taken up to `cut` (at most `offset`): the start of the word being
 * typed or the dot before it, and `filler` put after it to finish what is
 * being typed (`_` after `when`, so that the arm is one).
 */
export function scopeAt(snapshot: Snapshot, view: ModuleView, offset: number, cut = offset, filler = ""): ScopeAt {
  const found = enclosingItem(view, offset, Math.min(cut, offset), filler);
  const names: TypeNames = { snapshot, view, params: new Map() };
  const env = new Env(
    snapshot,
    view,
    names,
    found?.base ?? 0,
    found === undefined ? undefined : checkedOf(view, found.item),
  );
  if (found === undefined || found.item.kind === "TypeDef")
    return {
      ...(found ? { item: found.item } : {}),
      bindings: [],
      names,
      typeOf: (e) => env.infer(e),
      typeEndingAtCut: () => undefined,
    };
  const { item, at, cut: cutAt } = found;
  if (item.kind === "FunctionDef")
    for (const p of item.params) env.bind(p.name, "parameter", () => fromTypeExpr(p.type, env.names));
  env.block(item.body, at);
  const subject = env.matchSubject;
  return {
    item,
    bindings: env.bindings,
    names: env.names,
    typeOf: (e) => env.infer(e),
    ...(subject ? { matchSubject: subject } : {}),
    typeEndingAtCut: () => {
      const e = postfixEndingAt(item, cutAt);
      return e === undefined ? undefined : env.infer(e);
    },
  };
}

interface Found {
  readonly item: Item;
  /** Where the text the item was parsed from starts in the file: its offsets are relative to it. */
  readonly base: number;
  /** The position, relative to `base`. */
  readonly at: number;
  /** The cut, relative to `base`. */
  readonly cut: number;
}

/**
 * The definition `offset` is in: from the module's tree when it parsed without
 * a problem; otherwise its text up to `cut`, parsed alone.
 */
function enclosingItem(view: ModuleView, offset: number, cut: number, filler: string): Found | undefined {
  let lowest = 0;
  let start: number | undefined;
  for (const item of view.syntax.items) {
    if (item.span.start > offset) break;
    if (item.span.end >= offset) {
      if (item.kind === "Use") return undefined;
      const broken = view.syntaxDiagnostics.some(
        (d) => d.span.start >= item.span.start && d.span.start <= item.span.end,
      );
      if (!broken) return { item, base: 0, at: offset, cut };
      start = item.span.start;
      break;
    }
    lowest = item.span.end;
  }
  const text = view.text;
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  // Not in a definition that parsed: the nearest line above that starts one, past the last definition that did.
  if (start === undefined) {
    start = lineStart;
    for (;;) {
      if (/^(public\s+)?(function|test|type)\b/.test(text.slice(start, start + 20))) break;
      if (start <= lowest) return undefined;
      start = text.lastIndexOf("\n", start - 2) + 1;
      if (start < lowest) return undefined;
    }
  }
  const head = text.slice(start, Math.max(start, cut));
  // Enough `end`s for every block the head may leave open; an extra one is a problem outside the definition.
  const opened = (head.match(/\b(function|test|type|if|while|for|match|concurrently|otherwise)\b/g) ?? []).length;
  const parsed = parseSource(view.file, `${head}${filler}\n${"end\n".repeat(opened + 1)}`);
  const item = parsed.module.items[0];
  if (item === undefined || item.kind === "Use") return undefined;
  return { item, base: start, at: head.length, cut: head.length };
}

/** The checked function or test of `item`, when the module checked. */
function checkedOf(view: ModuleView, item: Item): CFunction | CTest | undefined {
  if (view.checked === undefined) return undefined;
  if (item.kind === "FunctionDef") return view.checked.functions.find((f) => f.name === item.name.name);
  if (item.kind === "TestDef") return view.checked.tests.find((t) => t.name === item.name.value);
  return undefined;
}

class Env {
  readonly bindings: Binding[] = [];
  matchSubject: (() => Ty) | undefined;
  private checkedLocals: Map<number, Local> | undefined;
  private inferring = new Set<S.Expr>();

  constructor(
    readonly snapshot: Snapshot,
    readonly view: ModuleView,
    readonly names: TypeNames,
    private readonly base: number,
    private readonly checked: CFunction | CTest | undefined,
  ) {}

  /** The checked tree's local declared at `start` (file offset), when the module checked. */
  private checkedLocal(name: string, start: number): Local | undefined {
    if (this.checked === undefined) return undefined;
    if (this.checkedLocals === undefined) {
      this.checkedLocals = new Map();
      const all = this.checkedLocals;
      const add = (l: Local) => {
        if (!all.has(l.span.start)) all.set(l.span.start, l);
      };
      if ("params" in this.checked) for (const p of this.checked.params) add(p.local);
      collectLocals(this.checked.body.statements, add);
    }
    const local = this.checkedLocals.get(start);
    return local?.name === name ? local : undefined;
  }

  bind(ident: S.Ident, kind: Binding["kind"], guess: () => Ty): void {
    const start = ident.span.start + this.base;
    let memo: Ty | undefined;
    const type = (): Ty => {
      if (memo !== undefined) return memo;
      memo = UNKNOWN;
      const local = this.checkedLocal(ident.name, start);
      const checked = local === undefined ? undefined : fromType(local.type);
      // A local whose type the checker could not work out (a mistake in its value) is guessed from the syntax.
      memo = checked !== undefined && checked.text !== "" ? checked : guess();
      return memo;
    };
    this.bindings.push({ name: ident.name, kind, start, type });
  }

  /** The bindings of `block` declared before `at`, and those of the blocks inside it that hold `at`. */
  block(block: S.Block, at: number): void {
    for (const s of block.statements) {
      if (s.span.start > at) return;
      // A statement that ends where the position is is the one being typed: its names are not yet in scope.
      if (s.span.end < at && !opensAt(s, at)) {
        this.statementBindings(s);
        continue;
      }
      this.inside(s, at);
      return;
    }
  }

  private statementBindings(s: S.Statement): void {
    if (s.kind === "Let")
      this.patternBindings(s.pattern, () => (s.type ? fromTypeExpr(s.type, this.names) : this.infer(s.value)));
    else if (s.kind === "Var")
      this.bind(s.name, "local", () => (s.type ? fromTypeExpr(s.type, this.names) : this.infer(s.value)));
    else if (s.kind === "RunConcurrently") for (const t of s.body.statements) this.statementBindings(t);
  }

  /** The names a pattern binds, given the type of the value it matches. */
  private patternBindings(p: S.Pattern, type: () => Ty): void {
    switch (p.kind) {
      case "BindPattern":
        this.bind(p.name, "local", type);
        return;
      case "PairPattern":
        this.patternBindings(p.first, () => type().args[0] ?? UNKNOWN);
        this.patternBindings(p.second, () => type().args[1] ?? UNKNOWN);
        return;
      case "ListPattern":
        for (const item of p.items) this.patternBindings(item, () => type().args[0] ?? UNKNOWN);
        if (p.rest?.name) this.bind(p.rest.name, "local", type);
        return;
      case "CasePattern": {
        const caseName = p.path[p.path.length - 1]?.name ?? "";
        const fields = () => caseFields(type(), caseName);
        p.args.forEach((arg, i) => {
          const label = arg.label?.name;
          this.patternBindings(arg.pattern, () => {
            const all = fields();
            return (label === undefined ? all[i] : all.find((f) => f.name === label))?.type ?? UNKNOWN;
          });
        });
        return;
      }
      default:
        return;
    }
  }

  /** Into the statement that holds `at`: the block of it that holds `at`, with what that block binds first. */
  private inside(s: S.Statement, at: number): void {
    switch (s.kind) {
      case "If": {
        const branch = [...s.branches].reverse().find((b) => b.span.start <= at);
        const last = s.branches[s.branches.length - 1];
        // Past the last branch's statements: in the else block once its `else` is behind the position.
        const inElse =
          s.elseBody !== undefined &&
          branch === last &&
          last !== undefined &&
          last.span.end <= at &&
          /\belse\b/.test(this.view.text.slice(this.base + last.span.end, this.base + at));
        if (inElse) this.block(s.elseBody!, at);
        else if (branch) {
          this.expr(branch.condition, at);
          this.block(branch.body, at);
        }
        return;
      }
      case "ForEach":
        if (at > s.iterable.span.end) {
          this.patternBindings(s.pattern, () => itemOf(this.infer(s.iterable)));
          this.block(s.body, at);
        } else this.expr(s.iterable, at);
        return;
      case "While":
        this.block(s.body, at);
        return;
      case "RunConcurrently":
        this.block(s.body, at);
        return;
      case "Let":
      case "Var":
      case "Set":
        this.expr(s.value, at);
        return;
      case "Return":
      case "Fail":
        if (s.value) this.expr(s.value, at);
        return;
      case "Crash":
        this.expr(s.message, at);
        return;
      case "Check":
        this.expr(s.condition, at);
        return;
      case "CheckFails":
        this.expr(s.expr, at);
        return;
      case "ExprStatement":
        this.expr(s.expr, at);
        return;
      default:
        return;
    }
  }

  /** Into the expression that holds `at`: lambdas, function values, match arms, `otherwise` arms. */
  private expr(e: S.Expr, at: number): void {
    if (e.span.start > at || e.span.end < at) return;
    switch (e.kind) {
      case "Match":
        if (at <= e.subject.span.end) return this.expr(e.subject, at);
        this.matchSubject = () => this.infer(e.subject);
        return this.arms(e.arms, this.matchSubject, at);
      case "Otherwise":
        if (at <= e.expr.span.end) return this.expr(e.expr, at);
        if (e.handler.kind === "OtherwiseArms") {
          this.matchSubject = () => this.failureOf(e.expr);
          return this.arms(e.handler.arms, this.matchSubject, at);
        }
        if (e.handler.kind === "OtherwiseDefault") return this.expr(e.handler.value, at);
        return;
      case "Lambda":
        for (const p of e.params) this.bind(p.name, "parameter", () => fromTypeExpr(p.type, this.names));
        return this.expr(e.body, at);
      case "FunctionExpr":
        for (const p of e.params) this.bind(p.name, "parameter", () => fromTypeExpr(p.type, this.names));
        return this.block(e.body, at);
      case "Call":
        this.expr(e.callee, at);
        for (const a of e.args) this.expr(a.value, at);
        return;
      case "Binary":
        this.expr(e.left, at);
        this.expr(e.right, at);
        return;
      case "ListLiteral":
        for (const i of e.items) this.expr(i, at);
        return;
      case "TextLiteral":
        for (const part of e.parts) if (part.kind !== "TextChunk") this.expr(part, at);
        return;
      case "Query":
        for (const c of e.clauses) {
          if (c.span.start > at) break;
          if (c.kind === "FromClause") this.patternBindings(c.pattern, () => itemOf(this.infer(c.source)));
          if (c.kind === "LetClause") this.bind(c.name, "local", () => this.infer(c.value));
          if (c.kind === "GroupClause") this.bind(c.into, "local", () => UNKNOWN);
        }
        return;
      default:
        return;
    }
  }

  private arms(arms: readonly S.MatchArm[], subject: () => Ty, at: number): void {
    const arm = [...arms].reverse().find((a) => a.span.start <= at);
    if (arm === undefined || at <= arm.pattern.span.end) return;
    this.patternBindings(arm.pattern, subject);
    this.block(arm.body, at);
  }

  /** The failure type of a call: what its function's signature says it fails with. */
  private failureOf(e: S.Expr): Ty {
    const sig = this.calledSignature(e);
    return sig?.fails ?? UNKNOWN;
  }

  /** The binding a name stands for at this point of the walk. */
  private lookup(name: string): Binding | undefined {
    for (let i = this.bindings.length - 1; i >= 0; i--) if (this.bindings[i]!.name === name) return this.bindings[i];
    return undefined;
  }

  /** The type of an expression, as far as the syntax tells it; `base` says where the expression's offsets start. */
  infer(e: S.Expr): Ty {
    if (this.inferring.has(e)) return UNKNOWN;
    this.inferring.add(e);
    try {
      return this.inferOnce(e);
    } finally {
      this.inferring.delete(e);
    }
  }

  private inferOnce(e: S.Expr): Ty {
    switch (e.kind) {
      case "IntLiteral":
        return named("Int");
      case "FloatLiteral":
        return named("Float");
      case "TextLiteral":
        return named("Text");
      case "BooleanLiteral":
        return named("Boolean");
      case "NothingLiteral":
        return named("Nothing");
      case "Name":
        return this.lookup(e.name)?.type() ?? UNKNOWN;
      case "Member":
        return fieldsOfTy(this.infer(e.object)).find((f) => f.name === e.name.name)?.type ?? UNKNOWN;
      case "Index": {
        const of = this.infer(e.object);
        return of.name === "List" ? (of.args[0] ?? UNKNOWN) : UNKNOWN;
      }
      case "Call":
        return this.callType(e);
      case "Otherwise":
        return this.infer(e.expr);
      case "With":
        return this.infer(e.record);
      case "IfExpr":
        return this.infer(e.then);
      case "ListLiteral":
        return named("List", [e.items[0] ? this.infer(e.items[0]) : UNKNOWN]);
      case "PairLiteral":
        return named("Pair", [this.infer(e.first), this.infer(e.second)]);
      case "Binary":
        if (["is", "is not", "<", "<=", ">", ">=", "and", "or"].includes(e.op)) return named("Boolean");
        if (e.op === "to" || e.op === "until") return named("List", [named("Int")]);
        return this.infer(e.left);
      case "Unary":
        return e.op === "not" ? named("Boolean") : this.infer(e.operand);
      case "UpperName":
        return this.typeByName(e.name) ?? UNKNOWN;
      default:
        return UNKNOWN;
    }
  }

  private typeByName(name: string): Ty | undefined {
    const t = fromTypeExpr(
      { kind: "NamedType", path: [{ kind: "Ident", name, span: NOWHERE }], args: [], span: NOWHERE },
      this.names,
    );
    return t.decl === undefined ? undefined : t;
  }

  private callType(call: S.Call): Ty {
    const callee = call.callee;
    // `Point(x: 1)` makes a Point; `Shape.Circle(1.0)` and `Some(x)` a value of their variant.
    if (callee.kind === "UpperName") {
      if (callee.name === "Some") return named("Optional", [call.args[0] ? this.infer(call.args[0].value) : UNKNOWN]);
      return this.typeByName(callee.name) ?? UNKNOWN;
    }
    if (callee.kind === "Member" && callee.object.kind === "UpperName")
      return this.typeByName(callee.object.name) ?? UNKNOWN;
    const sig = this.calledSignature(call);
    if (sig === undefined) return UNKNOWN;
    return sig.returns(call);
  }

  /** The signature of the function a call calls, when it is one of the module's, a used module's or the library's. */
  private calledSignature(e: S.Expr): Signature | undefined {
    if (e.kind !== "Call") return undefined;
    const callee = e.callee;
    if (callee.kind === "Name" && this.lookup(callee.name) === undefined)
      return this.ownSignature(this.view, callee.name);
    if (callee.kind !== "Member") return undefined;
    const object = callee.object;
    const name = callee.name.name;
    if (object.kind === "Name" && this.lookup(object.name) === undefined) {
      const used = usedModule(this.snapshot, this.view, object.name);
      if (used !== undefined) return this.ownSignature(used, name);
      const module = libraryScopes().library.get(object.name);
      const fn = module?.functions.get(name);
      if (fn !== undefined) return librarySignature(fn.params, fn.returns, fn.fails, 0, this.names);
      return undefined;
    }
    // A method: the function of its type's module, the object its first argument.
    const of = this.infer(object);
    const moduleName = METHOD_MODULES.get(of.name);
    const fn = moduleName === undefined ? undefined : libraryScopes().library.get(moduleName)?.functions.get(name);
    if (fn === undefined) return undefined;
    const subst = new Map<number, Ty>();
    if (fn.params[0]) match(fn.params[0].type, of, subst);
    return librarySignature(fn.params, fn.returns, fn.fails, 1, this.names, subst);
  }

  private ownSignature(view: ModuleView, name: string): Signature | undefined {
    const checked = view.checked?.functions.find((f) => f.name === name);
    if (checked !== undefined)
      return {
        returns: () => fromType(checked.returns),
        ...(checked.fails ? { fails: fromType(checked.fails) } : {}),
      };
    const def = view.syntax.items.find((i): i is S.FunctionDef => i.kind === "FunctionDef" && i.name.name === name);
    if (def === undefined) return undefined;
    const names: TypeNames = { snapshot: this.snapshot, view, params: new Map() };
    return {
      returns: () => (def.returns ? fromTypeExpr(def.returns, names) : named("Nothing")),
      ...(def.fails ? { fails: fromTypeExpr(def.fails, names) } : {}),
    };
  }
}

interface Signature {
  readonly returns: (call: S.Call) => Ty;
  readonly fails?: Ty;
}

const NOWHERE = { file: "", start: 0, end: 0 };

/** A library function's signature; `as: T` arguments fix `T` to the type they name. */
function librarySignature(
  params: readonly { name: string; type: Type; typeArgument: boolean }[],
  returns: Type,
  fails: Type | undefined,
  skip: number,
  names: TypeNames,
  subst = new Map<number, Ty>(),
): Signature {
  return {
    returns: (call) => {
      const own = new Map(subst);
      params.forEach((p, i) => {
        if (!p.typeArgument) return;
        const arg = call.args.find((a) => a.label?.name === p.name) ?? call.args[i - skip];
        const resolved = resolveParam(p.type);
        if (arg?.value.kind === "TypeArgument" && resolved !== undefined)
          own.set(resolved, fromTypeExpr(arg.value.type, names));
      });
      return fromType(returns, own);
    },
    ...(fails ? { fails: fromType(fails, subst) } : {}),
  };
}

function resolveParam(t: Type): number | undefined {
  return t.kind === "Param" ? t.id : undefined;
}

/** Learns the type parameters of `pattern` from a value's type: `List<T>` and `List<Int>` give T = Int. */
function match(pattern: Type, ty: Ty, subst: Map<number, Ty>): void {
  const p = pattern.kind === "Meta" && pattern.solution ? pattern.solution : pattern;
  if (p.kind === "Param") {
    if (!subst.has(p.id) && ty !== UNKNOWN) subst.set(p.id, ty);
    return;
  }
  if (p.kind === "Con" && p.name === ty.name)
    p.args.forEach((a, i) => {
      const arg = ty.args[i];
      if (arg !== undefined) match(a, arg, subst);
    });
}

/** The items of a list or set; of a map, its pairs; of a range, Ints. */
function itemOf(ty: Ty): Ty {
  if (ty.name === "List" || ty.name === "Set") return ty.args[0] ?? UNKNOWN;
  if (ty.name === "Map") return named("Pair", [ty.args[0] ?? UNKNOWN, ty.args[1] ?? UNKNOWN]);
  return UNKNOWN;
}

/** The fields of the case `name` of a variant type (`Some` of an Optional). */
function caseFields(ty: Ty, name: string): readonly { name: string; type: Ty }[] {
  const found = casesOfTy(ty).find((c) => c.name === name);
  if (found !== undefined) return found.fields;
  if (name === "Some" || name === "None")
    return casesOfTy(preludeType("Optional", ty.args) ?? UNKNOWN).find((c) => c.name === name)?.fields ?? [];
  return [];
}

/** Expressions a `.` after them applies to whole: the operand of a member access, not a sum it ends. */
const POSTFIX: ReadonlySet<string> = new Set([
  "Name",
  "UpperName",
  "Member",
  "Call",
  "Index",
  "TextLiteral",
  "ListLiteral",
  "MapLiteral",
  "PairLiteral",
]);

/** The outermost postfix expression of `item` that ends at `end`: what a dot there applies to. */
function postfixEndingAt(item: Item, end: number): S.Expr | undefined {
  let best: S.Expr | undefined;
  const visit = (node: unknown, depth: number): void => {
    if (depth > 200 || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child, depth + 1);
      return;
    }
    const n = node as { kind?: string; span?: { start: number; end: number } };
    if (n.span !== undefined && (n.span.end < end || n.span.start > end)) return;
    if (n.kind !== undefined && POSTFIX.has(n.kind) && n.span?.end === end)
      if (best === undefined || n.span.start < best.span.start) best = n as S.Expr;
    for (const [key, value] of Object.entries(n)) if (key !== "span") visit(value, depth + 1);
  };
  visit(item, 0);
  return best;
}

/** Whether a statement is one whose block is still being written at `at` (it ends where `at` is). */
function opensAt(s: S.Statement, at: number): boolean {
  return s.span.end === at && s.kind !== "Let" && s.kind !== "Var" && s.kind !== "Set" && s.kind !== "ExprStatement";
}

/** Every local the checked statements declare. */
function collectLocals(statements: readonly CStatement[], add: (l: Local) => void): void {
  const pattern = (p: CPattern): void => {
    if (p.kind === "Bind") add(p.local);
    else if (p.kind === "Case" || p.kind === "Record") p.args.forEach(pattern);
    else if (p.kind === "Pair") {
      pattern(p.first);
      pattern(p.second);
    } else if (p.kind === "List") {
      p.items.forEach(pattern);
      if (p.rest) pattern(p.rest);
    }
  };
  const expr = (e: CExpr | undefined): void => {
    if (e === undefined) return;
    switch (e.kind) {
      case "Call":
        if (e.callee.kind === "Value") expr(e.callee.expr);
        e.args.forEach(expr);
        return;
      case "Text":
        for (const p of e.parts) if (typeof p !== "string") expr(p);
        return;
      case "Field":
        return expr(e.object);
      case "Index":
        expr(e.object);
        return expr(e.index);
      case "With":
        expr(e.record);
        for (const u of e.updates) expr(u.value);
        return;
      case "Unary":
        return expr(e.operand);
      case "Binary":
        expr(e.left);
        return expr(e.right);
      case "Otherwise":
        expr(e.expr);
        add(e.error);
        if (e.handler.kind === "Arms")
          for (const arm of e.handler.arms) {
            pattern(arm.pattern);
            block(arm.body.statements);
            expr(arm.value);
          }
        else if (e.handler.kind === "Leave") block([e.handler.statement]);
        else expr(e.handler.value);
        return;
      case "List":
        return e.items.forEach(expr);
      case "Map":
        for (const entry of e.entries) {
          expr(entry.key);
          expr(entry.value);
        }
        return;
      case "Pair":
        expr(e.first);
        return expr(e.second);
      case "Lambda":
        e.params.forEach(add);
        return block(e.body.statements);
      case "If":
        expr(e.condition);
        expr(e.then);
        return expr(e.else);
      case "Match":
        expr(e.subject);
        for (const arm of e.arms) {
          pattern(arm.pattern);
          block(arm.body.statements);
          expr(arm.value);
        }
        return;
      case "Query":
        for (const c of e.clauses) {
          if (c.kind === "From") {
            pattern(c.pattern);
            expr(c.source);
          } else if (c.kind === "Let") {
            add(c.local);
            expr(c.value);
          } else if (c.kind === "Group") add(c.into);
        }
        return expr(e.select);
      default:
        return;
    }
  };
  const block = (list: readonly CStatement[]): void => {
    for (const s of list) {
      switch (s.kind) {
        case "Let":
          pattern(s.pattern);
          expr(s.value);
          break;
        case "Var":
          add(s.local);
          expr(s.value);
          break;
        case "Set":
          expr(s.value);
          break;
        case "If":
          for (const b of s.branches) {
            expr(b.condition);
            block(b.body.statements);
          }
          if (s.elseBody) block(s.elseBody.statements);
          break;
        case "ForEach":
          pattern(s.pattern);
          expr(s.iterable);
          block(s.body.statements);
          break;
        case "While":
          expr(s.condition);
          block(s.body.statements);
          break;
        case "Return":
        case "Fail":
          expr(s.value);
          break;
        case "Crash":
          expr(s.message);
          break;
        case "Check":
          expr(s.condition);
          break;
        case "CheckFails":
          expr(s.expr);
          pattern(s.pattern);
          break;
        case "RunConcurrently":
          block(s.tasks);
          break;
        case "Expr":
          expr(s.expr);
          break;
        default:
          break;
      }
    }
  };
  block(statements);
}
