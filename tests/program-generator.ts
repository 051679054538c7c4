// Random Renyi programs from the grammar, for the compiler's property test.
//
// The generator is type-directed: it keeps the locals in scope with their types
// and writes only expressions of the type a place needs, so that most programs
// pass the checker and reach the code generator. It covers every statement and
// expression form (spec/grammar.md sections 7 to 10) and names its locals,
// parameters, fields, functions and types after JavaScript's globals and
// reserved words, the names compiled code must keep apart from its own.
//
// A program is a function of its seed alone (a small PRNG, no global state), so
// a failing case is reproduced from the seed it prints.

import { KEYWORD_SET } from "../compiler/lex/tokens.js";

/** Mulberry32: a small, fast PRNG that is good enough to pick grammar forms. */
class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [low, high]. */
  int(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  }
}

// ---------------------------------------------------------------------------
// Names

/**
 * JavaScript's globals, the words of its strict mode and the properties every object has: lower-case ones are Renyi
 * names.
 */
const JAVASCRIPT_WORDS = [
  "require",
  "process",
  "eval",
  "globalThis",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "arguments",
  "module",
  "exports",
  "window",
  "self",
  "undefined",
  "__proto__",
  "then",
  "call",
  "apply",
  "bind",
  "caller",
  "callee",
  "import_",
  "async",
  "of",
  "get",
  "set",
  "static",
  "tests",
  "main",
  "test",
  "g",
  "t1",
  "hasOwnProperty",
  "toJSON",
  "length",
  "name",
  "await",
  "yield",
  "enum",
  "delete",
  "typeof",
  "instanceof",
  "new",
  "this",
  "super",
  "class",
  "const",
  "null",
  "void",
  "do",
  "switch",
  "case",
  "default",
  "try",
  "catch",
  "finally",
  "throw",
  "extends",
  "export",
  "import",
  "package",
  "private",
  "protected",
  "interface",
  "implements",
  "debugger",
  "continue",
  "break",
  "let",
  "function",
  "return",
  "var",
  "__dirname",
  "__filename",
  "_",
  "_t1",
  "t",
  "s",
  "e",
  "error",
];

/**
 * Capitalised globals of JavaScript for types, cases and type parameters (none a Renyi type, so none is a duplicate).
 */
const JAVASCRIPT_TYPES = [
  "Function",
  "Object",
  "Array",
  "Promise",
  "JSON",
  "Math",
  "Symbol",
  "Reflect",
  "Proxy",
  "NaN",
  "Infinity",
  "S",
  "Error",
  "Number",
  "String",
  "RegExp",
  "WeakMap",
  "BigInt",
  "Buffer",
  "Intl",
  "Atomics",
  "Uint8Array",
  "ArrayBuffer",
  "WebAssembly",
  "Iterator",
  "Exports",
  "Module",
  "T1",
  "U",
];

/** The library's modules: a program's function may not take one of these names. */
const LIBRARY_MODULES = new Set([
  "console",
  "time",
  "random",
  "environment",
  "http",
  "server",
  "filesystem",
  "database",
  "process",
  "foreign",
  "json",
  "text",
  "list",
  "map",
  "math",
  "sets",
  "optional",
  "bytes",
]);

/**
 * Names that mean something to every program in a way the generator does not track: `error` is bound by every
 * `otherwise`, `_` is the wildcard.
 */
const NOT_FOR_LOCALS = new Set(["error", "_", "main"]);

/** Lower-case words that are not Renyi keywords: the names a local, parameter or function may have. */
const PLAIN_NAMES = JAVASCRIPT_WORDS.filter((n) => !KEYWORD_SET.has(n) && /^[a-z_][A-Za-z0-9_]*$/.test(n));

/** Field names may also be keywords (`then: Text`, `group: Int`). */
const FIELD_NAMES = [
  ...PLAIN_NAMES.filter((n) => n !== "_"),
  "then",
  "set",
  "test",
  "group",
  "select",
  "from",
  "in",
  "is",
];

// ---------------------------------------------------------------------------
// Types

/**
 * The types the generator writes values of. Lists, options and maps hold Ints
 * (or Texts, for `TextList`), which is enough to reach every form while keeping
 * the type of every expression known.
 */
type Type =
  | { kind: "Int" }
  | { kind: "Text" }
  | { kind: "Boolean" }
  | { kind: "List" }
  | { kind: "TextList" }
  | { kind: "Optional" }
  | { kind: "Map" }
  | { kind: "Pair" }
  | { kind: "Fn" }
  | { kind: "Instant" }
  | { kind: "Record"; decl: RecordDecl }
  | { kind: "Variant"; decl: VariantDecl };

interface Field {
  name: string;
  type: Type;
}
interface RecordDecl {
  name: string;
  fields: Field[];
}
interface Case {
  name: string;
  fields: Field[];
}
interface VariantDecl {
  name: string;
  cases: Case[];
  isError: boolean;
}

const INT: Type = { kind: "Int" };
const TEXT: Type = { kind: "Text" };
const BOOLEAN: Type = { kind: "Boolean" };
const LIST: Type = { kind: "List" };
const TEXT_LIST: Type = { kind: "TextList" };
const OPTIONAL: Type = { kind: "Optional" };
const MAP: Type = { kind: "Map" };
const PAIR: Type = { kind: "Pair" };
const FN: Type = { kind: "Fn" };
const INSTANT: Type = { kind: "Instant" };

function spell(t: Type): string {
  switch (t.kind) {
    case "List":
      return "List<Int>";
    case "TextList":
      return "List<Text>";
    case "Optional":
      return "Optional<Int>";
    case "Map":
      return "Map<Text, Int>";
    case "Pair":
      return "(Int, Text)";
    case "Fn":
      return "function(Int) returns Int";
    case "Record":
    case "Variant":
      return t.decl.name;
    default:
      return t.kind;
  }
}

function same(a: Type, b: Type): boolean {
  if (a.kind === "Record" || a.kind === "Variant")
    return (b.kind === "Record" || b.kind === "Variant") && a.decl === b.decl;
  return a.kind === b.kind;
}

/** Whether values of the type have equality, `to_text` and the other derived abilities: a function has none. */
function isData(t: Type): boolean {
  return t.kind !== "Fn" && t.kind !== "Instant";
}

// ---------------------------------------------------------------------------
// Functions and scopes

interface Param {
  name: string;
  type: Type;
  defaultValue?: string;
  keywordName: boolean;
}

interface FunctionDecl {
  name: string;
  params: Param[];
  returns?: Type;
  /** The error variant it fails with. */
  fails?: VariantDecl;
  /** Needs console and time. */
  effectful: boolean;
  /** `function NAME<T>(...)`: its shape is one of the generic templates. */
  generic?: "append" | "show";
}

interface Local {
  name: string;
  type: Type;
  mutable: boolean /** a while loop's counter, which only its loop sets */;
  counter: boolean;
}

/** Where a statement or expression is written, which decides what it may do. */
interface Context {
  /** The scopes of the function being written, innermost last. */
  scopes: Map<string, Local>[];
  /** Scopes below this index belong outside a lambda, function value or task: their `var`s cannot be used. */
  barrier: number;
  returns?: Type;
  /** True when the function returns nothing (`return` alone may end it). */
  returnsNothing: boolean;
  fails?: VariantDecl;
  effectful: boolean;
  inLoop: boolean;
  /** A run concurrently task: no return, and no stop or skip of a loop around the block. */
  inTask: boolean;
  inTest: boolean;
  /** A lambda body or a query clause: no calls that need capabilities. */
  pure: boolean;
  /** A lambda or a query: nothing may leave it (no return, fail, stop or skip). */
  noLeave: boolean;
  /** The functions it may call (those defined before it, so that no call recurses). */
  callable: FunctionDecl[];
  depth: number;
}

export interface GeneratedProgram {
  seed: number;
  /** The deliberate mistake the program holds, which the checker must refuse; undefined when it holds none. */
  mistake?: string;
  /** The entry module's name (its file is NAME.ry). */
  entry: string;
  source: string;
}

export interface GeneratorOptions {
  /** The share of programs with one deliberate mistake that the checker must refuse (0 to 1). */
  mistakes?: number;
}

/** One random program from the seed. */
export function generateProgram(seed: number, options: GeneratorOptions = {}): GeneratedProgram {
  return new ProgramWriter(new Random(seed), options).program(seed);
}

// Small programs, many of them: a bug shows in a few lines more often than in many.
const MAX_EXPRESSION_DEPTH = 3;
const MAX_BLOCK_DEPTH = 2;

class ProgramWriter {
  private records: RecordDecl[] = [];
  private variants: VariantDecl[] = [];
  private errorType!: VariantDecl;
  private functions: FunctionDecl[] = [];
  /** Names local to functions: the plain names that no function took. */
  private localNames: string[] = [];
  private upperNames: string[] = [];
  private counter = 0;
  private mistakeMade: string | undefined;

  constructor(
    private readonly r: Random,
    private readonly options: GeneratorOptions,
  ) {}

  program(seed: number): GeneratedProgram {
    const r = this.r;
    const entry = r.pick(["program", "exports", "require", "module", "globalThis", "window", "self", "prototype"]);
    const names = r.shuffle(PLAIN_NAMES.filter((n) => !NOT_FOR_LOCALS.has(n) && n !== entry));
    const functionCount = r.int(1, 3);
    const functionNames = names.filter((n) => !LIBRARY_MODULES.has(n)).slice(0, functionCount);
    this.localNames = names.filter((n) => !functionNames.includes(n));
    this.upperNames = r.shuffle(JAVASCRIPT_TYPES);

    const parts: string[] = [];
    for (let i = r.int(0, 2); i > 0; i--) parts.push(this.recordDecl());
    for (let i = r.int(0, 1); i > 0; i--) parts.push(this.variantDecl());
    parts.push(this.errorDecl());

    for (const name of functionNames) {
      const fn = this.signature(name);
      parts.push(this.functionDefinition(fn));
      this.functions.push(fn);
    }
    parts.push(this.mainDefinition());
    if (r.chance(0.4)) parts.push(this.testDefinition(1));
    return { seed, entry, mistake: this.mistakeMade, source: `-- seed ${seed}\n${parts.join("\n")}` };
  }

  // --- declarations --------------------------------------------------------

  private upper(): string {
    return this.upperNames.pop() ?? `T${++this.counter}`;
  }

  private fieldType(): Type {
    return this.r.pick([INT, INT, TEXT, BOOLEAN, LIST, OPTIONAL, TEXT_LIST]);
  }

  private fields(count: number): Field[] {
    return this.r
      .shuffle(FIELD_NAMES)
      .slice(0, count)
      .map((name) => ({ name, type: this.fieldType() }));
  }

  private recordDecl(): string {
    const decl: RecordDecl = { name: this.upper(), fields: this.fields(this.r.int(1, 4)) };
    this.records.push(decl);
    const purpose = this.r.chance(0.3) ? "  purpose: A record named like a JavaScript global.\n" : "";
    return (
      `type ${decl.name} is record\n` +
      `${purpose}${decl.fields.map((f) => `  ${f.name}: ${spell(f.type)}\n`).join("")}end\n`
    );
  }

  private variantDecl(): string {
    const cases: Case[] = [];
    for (let i = this.r.int(1, 4); i > 0; i--)
      cases.push({ name: this.upper(), fields: this.fields(this.r.int(0, 2)) });
    const decl: VariantDecl = { name: this.upper(), cases, isError: false };
    this.variants.push(decl);
    return this.spellVariant(decl);
  }

  /**
   * The failure type of the program: one case wraps ParseError (so `otherwise fail` passes a failed `to_int` on), one
   * carries a reason.
   */
  private errorDecl(): string {
    const wrap = this.upper();
    const reason = this.upper();
    const decl: VariantDecl = {
      name: this.upper(),
      cases: [
        {
          name: wrap,
          fields: [
            {
              name: this.r.pick(["error", "constructor", "then", "cause"]),
              type: { kind: "Record", decl: PARSE_ERROR },
            },
          ],
        },
        { name: reason, fields: [{ name: this.r.pick(["reason", "toString", "__proto__", "message"]), type: TEXT }] },
      ],
      isError: true,
    };
    this.errorType = decl;
    this.variants.push(decl);
    return this.spellVariant(decl);
  }

  private spellVariant(decl: VariantDecl): string {
    const cases = decl.cases.map(
      (c) =>
        `  ${c.name}${c.fields.length === 0 ? "" : `(${c.fields.map((f) => `${f.name}: ${f.type.kind === "Record" && f.type.decl === PARSE_ERROR ? "ParseError" : spell(f.type)}`).join(", ")})`}\n`,
    );
    return `type ${decl.name} is variant\n${cases.join("")}end\n`;
  }

  // --- functions -------------------------------------------------------------

  private signature(name: string): FunctionDecl {
    const r = this.r;
    if (r.chance(0.15)) {
      return { name, params: [], effectful: false, generic: r.chance(0.5) ? "append" : "show" };
    }
    const params: Param[] = [];
    const taken = new Set<string>();
    for (let i = r.int(0, 3); i > 0; i--) {
      // A parameter may not be named by a keyword (E-NAME-KEYWORD: the body could never use it); fields may.
      const keywordName = false;
      const paramName = this.pickName(taken);
      taken.add(paramName);
      params.push({ name: paramName, type: this.valueType(), keywordName });
    }
    // Defaults only at the end, so that positional calls stay simple.
    for (let i = params.length - 1; i >= 0 && r.chance(0.4); i--)
      params[i]!.defaultValue = this.literal(params[i]!.type);
    const returns = r.chance(0.8) ? this.valueType() : undefined;
    const fails = r.chance(0.3) ? this.errorType : undefined;
    return { name, params, returns, fails, effectful: r.chance(0.35) };
  }

  /** A type for a parameter, a local or a result. */
  private valueType(): Type {
    const r = this.r;
    const choices: Type[] = [INT, INT, INT, TEXT, TEXT, BOOLEAN, LIST, OPTIONAL, MAP, PAIR, TEXT_LIST, FN];
    if (this.records.length > 0 && r.chance(0.2)) return { kind: "Record", decl: r.pick(this.records) };
    const plain = this.variants.filter((v) => !v.isError);
    if (plain.length > 0 && r.chance(0.15)) return { kind: "Variant", decl: r.pick(plain) };
    return r.pick(choices);
  }

  private pickName(taken: ReadonlySet<string>): string {
    for (let tries = 0; tries < 6; tries++) {
      const name = this.r.pick(this.localNames);
      if (!taken.has(name)) return name;
    }
    let name: string;
    do name = `${this.r.pick(this.localNames)}${++this.counter}`;
    while (taken.has(name));
    return name;
  }

  private header(fn: FunctionDecl): string {
    const params = fn.params.map(
      (p) => `${p.name}: ${spell(p.type)}${p.defaultValue !== undefined ? ` = ${p.defaultValue}` : ""}`,
    );
    // `returns function(Int) returns Int or fails with E` would read the failure as the function type's.
    const returns =
      fn.returns && fn.fails && fn.returns.kind === "Fn" ? `(${spell(fn.returns)})` : fn.returns && spell(fn.returns);
    return `function ${fn.name}(${params.join(", ")})${returns ? ` returns ${returns}` : ""}${fn.fails ? ` or fails with ${fn.fails.name}` : ""}`;
  }

  private functionDefinition(fn: FunctionDecl): string {
    if (fn.generic !== undefined) return this.genericDefinition(fn);
    const scope = new Map<string, Local>();
    for (const p of fn.params)
      if (!p.keywordName) scope.set(p.name, { name: p.name, type: p.type, mutable: false, counter: false });
    const context = this.context(fn, [scope]);
    const lines: string[] = [];
    const isPublic = this.r.chance(0.2);
    lines.push(`${isPublic ? "public " : ""}${this.header(fn)}`);
    if (isPublic) lines.push("  purpose: A function named like a JavaScript global.");
    if (fn.effectful) lines.push(this.r.chance(0.5) ? "  needs console, time" : "  needs time, console");
    lines.push(...this.body(context, 1));
    lines.push("end");
    return `${lines.join("\n")}\n`;
  }

  /** Generic functions: `append` joins an item to a list of its type, `show` writes any value as text. */
  private genericDefinition(fn: FunctionDecl): string {
    const t = this.upper();
    const [a, b] = [this.pickName(new Set()), this.pickName(new Set())];
    const second = a === b ? `${b}2` : b;
    if (fn.generic === "append") {
      fn.params = [
        { name: a, type: INT, keywordName: false },
        { name: second, type: LIST, keywordName: false },
      ];
      fn.returns = LIST;
      const body = this.r.chance(0.5)
        ? `  return ${second} + [${a}]`
        : `  let ${second}_all be [${a}] + ${second}\n  return ${second}_all.reverse()`;
      return `function ${fn.name}<${t}>(${a}: ${t}, ${second}: List<${t}>) returns List<${t}>\n${body}\nend\n`;
    }
    fn.params = [{ name: a, type: INT, keywordName: false }];
    fn.returns = TEXT;
    return `function ${fn.name}<${t}>(${a}: ${t}) returns Text\n  return "<{${a}}>"\nend\n`;
  }

  private context(
    fn: { returns?: Type; fails?: VariantDecl; effectful: boolean },
    scopes: Map<string, Local>[],
    inTest = false,
  ): Context {
    return {
      scopes,
      barrier: 0,
      returns: fn.returns,
      // A test's body returns nothing, but the generator keeps `return` out of tests.
      returnsNothing: fn.returns === undefined && !inTest,
      fails: fn.fails,
      effectful: fn.effectful,
      inLoop: false,
      inTask: false,
      inTest,
      pure: !fn.effectful,
      noLeave: false,
      callable: [...this.functions],
      depth: 0,
    };
  }

  private mainDefinition(): string {
    const fails = this.r.chance(0.4) ? this.errorType : undefined;
    const context = this.context({ fails, effectful: true }, [new Map()]);
    const lines = [
      `public function main()${fails ? ` or fails with ${fails.name}` : ""}`,
      "  purpose: Exercise generated code.",
      "  needs console, time",
    ];
    lines.push(...this.body(context, 1));
    if (this.r.chance(this.options.mistakes ?? 0)) lines.push(`  ${this.mistake(context)}`);
    // Print what main bound, so that the run shows it.
    const shown = [...context.scopes[0]!.values()].filter((l) => isData(l.type)).slice(0, 4);
    if (shown.length > 0) lines.push(`  console.print("${shown.map((l) => `${l.name}={${l.name}}`).join(" ")}")`);
    lines.push("end");
    return `${lines.join("\n")}\n`;
  }

  /**
   * One statement the checker must refuse: a name of JavaScript's that nothing declares, a captured var, a set of a
   * let, a keyword as a name.
   */
  private mistake(context: Context): string {
    const bound = new Set(this.visible(context).map((l) => l.name));
    const unbound = this.localNames.filter((n) => !bound.has(n) && !LIBRARY_MODULES.has(n));
    const global = unbound.length > 0 ? this.r.pick(unbound) : "globalThis_never_bound";
    const name = this.fresh(context);
    const lets = this.visible(context).filter((l) => !l.mutable);
    const kinds: [string, string][] = [
      [`unknown name \`${global}\``, `let ${name} be ${global}`],
      [`unknown name \`${global}\` called`, `console.print(${global}("1"))`],
      [`method of an unknown name \`${global}\``, `console.print(${global}.toString())`],
      [
        "a var used in a lambda",
        `var ${name} be 1
  let ${name}_f be (x: Int) => x + ${name}`,
      ],
      [
        "a function the library's process module does not have",
        bound.has("process") ? `process.exit(1)` : `let ${name} be process.exit(1)`,
      ],
      [
        "a keyword as a local name",
        `let ${this.r.pick(["function", "return", "var", "let", "in", "with", "if", "for", "while", "true"])} be 1`,
      ],
      ["a record field JavaScript has but the value does not", `console.print([1].constructor)`],
    ];
    if (lets.length > 0)
      kinds.push([`set of the let \`${lets[0]!.name}\``, `set ${lets[0]!.name} to ${this.literal(lets[0]!.type)}`]);
    const [description, statement] = this.r.pick(kinds);
    this.mistakeMade = description;
    return statement;
  }

  private testDefinition(index: number): string {
    const context = this.context({ fails: undefined, effectful: false }, [new Map()], true);
    const lines = [`test "generated test ${index} with \\"quotes\\" and \`backticks\`"`];
    lines.push(...this.block(context, 1));
    lines.push(`  ${this.check(context)}`);
    lines.push("end");
    return `${lines.join("\n")}\n`;
  }

  // --- statements --------------------------------------------------------------

  /** A function's body: statements, then a return of the result when it has one. */
  private body(context: Context, indent: number): string[] {
    const lines = this.block(context, indent, false);
    if (context.returns) lines.push(`${pad(indent)}return ${this.expression(context.returns, context, 1)}`);
    return lines;
  }

  /** A block of statements; when `mayEnd`, its last statement may leave (return, fail, stop, skip, crash). */
  private block(context: Context, indent: number, mayEnd = true): string[] {
    const lines: string[] = [];
    const count = context.depth >= MAX_BLOCK_DEPTH ? 1 : this.r.int(1, context.depth === 0 ? 3 : 2);
    for (let i = 0; i < count; i++) lines.push(...this.statement(context, indent));
    if (mayEnd && this.r.chance(0.2)) {
      const leave = this.leave(context);
      if (leave) lines.push(`${pad(indent)}${leave}`);
    }
    return lines;
  }

  private nested(context: Context, change: Partial<Context> = {}): Context {
    return { ...context, scopes: [...context.scopes, new Map()], depth: context.depth + 1, ...change };
  }

  /** Statements that end a block, when the context allows one. */
  private leave(context: Context): string | undefined {
    const r = this.r;
    const options: (() => string)[] = [];
    if (!context.inTask) {
      if (context.returnsNothing) options.push(() => "return");
      else if (context.returns) options.push(() => `return ${this.expression(context.returns!, context, 1)}`);
      if (context.inLoop)
        options.push(
          () => "stop",
          () => "skip",
        );
    }
    if (context.fails) options.push(() => `fail with ${this.reasonCase(context.fails!)}`);
    if (r.chance(0.1)) options.push(() => `crash with ${this.textLiteral()}`);
    return options.length === 0 ? undefined : r.pick(options)();
  }

  private reasonCase(error: VariantDecl): string {
    const reason = error.cases[1]!;
    return this.r.chance(0.5)
      ? `${error.name}.${reason.name}(${reason.fields[0]!.name}: ${this.textLiteral()})`
      : `${error.name}.${reason.name}(${this.textLiteral()})`;
  }

  private statement(context: Context, indent: number): string[] {
    const r = this.r;
    const p = pad(indent);
    const deep = context.depth >= MAX_BLOCK_DEPTH;
    const choice = r.int(0, deep ? 5 : 15);
    switch (choice) {
      case 0:
      case 1:
        return this.letStatement(context, indent);
      case 2:
        return this.varStatement(context, indent);
      case 3:
        return this.setStatement(context, indent);
      case 4:
        return this.effectStatement(context, indent);
      case 5:
        return this.destructure(context, indent);
      case 6:
      case 7:
        return this.ifStatement(context, indent);
      case 8:
        return this.forEach(context, indent);
      case 9:
        return this.whileLoop(context, indent);
      case 10:
      case 11:
        return this.matchStatement(context, indent);
      case 12:
        return this.otherwiseArms(context, indent);
      case 13:
        return this.runConcurrently(context, indent);
      case 14:
        if (context.inTest) return [`${p}${this.check(context)}`];
        return this.oneLineIf(context, indent);
      default:
        return this.oneLineIf(context, indent);
    }
  }

  private bind(context: Context, name: string, type: Type, mutable = false, counter = false): void {
    context.scopes[context.scopes.length - 1]!.set(name, { name, type, mutable, counter });
  }

  /** A name bound nowhere in the function (names are bound once per function, E-NAME-SHADOWED). */
  private fresh(context: Context): string {
    const taken = new Set<string>();
    for (const scope of context.scopes) for (const name of scope.keys()) taken.add(name);
    return this.pickName(taken);
  }

  private letStatement(context: Context, indent: number): string[] {
    const type = this.valueType();
    const annotate = this.r.chance(0.3);
    const value = this.topExpression(type, context, indent, annotate);
    const name = this.fresh(context);
    this.bind(context, name, type);
    return [`${pad(indent)}let ${name}${annotate ? `: ${spell(type)}` : ""} be ${value}`];
  }

  private varStatement(context: Context, indent: number): string[] {
    const type = this.r.pick([INT, TEXT, LIST, BOOLEAN, TEXT_LIST]);
    const annotate = this.r.chance(0.3);
    const value = this.expression(type, context, 1, annotate);
    const name = this.fresh(context);
    this.bind(context, name, type, true);
    return [`${pad(indent)}var ${name}${annotate ? `: ${spell(type)}` : ""} be ${value}`];
  }

  private setStatement(context: Context, indent: number): string[] {
    const vars = this.visible(context).filter((l) => l.mutable && !l.counter);
    if (vars.length === 0) return this.varStatement(context, indent);
    const target = this.r.pick(vars);
    const value =
      target.type.kind === "List" && this.r.chance(0.5)
        ? `${target.name} + [${this.expression(INT, context, 1)}]`
        : this.expression(target.type, context, 1);
    return [`${pad(indent)}set ${target.name} to ${value}`];
  }

  /** A statement that does something: a print, or a call of a function that returns nothing. */
  private effectStatement(context: Context, indent: number): string[] {
    const p = pad(indent);
    const procedures = context.callable.filter((f) => f.returns === undefined && (!f.effectful || context.effectful));
    if (procedures.length > 0 && this.r.chance(0.4)) {
      const fn = this.r.pick(procedures);
      const call = this.call(fn, { ...context, callable: context.callable.filter((f) => f.fails === undefined) }, 1);
      // A call that can fail and gives nothing is handled by a leave, or goes on with `nothing`.
      if (call && fn.fails) return [`${p}${call} otherwise ${this.handlerForNothing(context, fn.fails)}`];
      if (call) return [`${p}${call}`];
    }
    if (context.effectful) return [`${p}console.print(${this.expression(TEXT, context, 1)})`];
    return this.letStatement(context, indent);
  }

  private handlerForNothing(context: Context, error: VariantDecl): string {
    const options = ["nothing", `crash with ${this.textLiteral()}`];
    if (!context.noLeave && (context.fails === error || context.inTest)) options.push("fail");
    const leave = this.leave(context);
    if (leave && !leave.startsWith("crash")) options.push(leave);
    return this.r.pick(options);
  }

  /** `let (a, b) be PAIR`: a pattern in a `let` must match every value, and a pair's does (a list's would not). */
  private destructure(context: Context, indent: number): string[] {
    const value = this.expression(PAIR, context, 1);
    const a = this.fresh(context);
    this.bind(context, a, INT);
    const useWildcard = this.r.chance(0.3);
    const b = useWildcard ? "_" : this.fresh(context);
    if (!useWildcard) this.bind(context, b, TEXT);
    return [`${pad(indent)}let (${a}, ${b}) be ${value}`];
  }

  private ifStatement(context: Context, indent: number): string[] {
    const p = pad(indent);
    const lines = [`${p}if ${this.expression(BOOLEAN, context, 1)}${this.r.chance(0.3) ? " then" : ""}`];
    lines.push(...this.block(this.nested(context), indent + 1));
    for (let i = this.r.int(0, 2); i > 0; i--) {
      lines.push(`${p}else if ${this.expression(BOOLEAN, context, 1)}`);
      lines.push(...this.block(this.nested(context), indent + 1));
    }
    if (this.r.chance(0.5)) {
      lines.push(`${p}else`);
      lines.push(...this.block(this.nested(context), indent + 1));
    }
    lines.push(`${p}end`);
    return lines;
  }

  /** `if C then STATEMENT [else STATEMENT]` on one line; the else may be another one-line `if`. */
  private oneLineIf(context: Context, indent: number): string[] {
    const condition = this.expression(BOOLEAN, context, 1);
    const leave = this.leave(context);
    if (!context.effectful) {
      // Without console, the statements that fit are the ways to leave.
      if (leave === undefined) return this.letStatement(context, indent);
      return [`${pad(indent)}if ${condition} then ${leave}`];
    }
    const print = (): string => `console.print(${this.expression(TEXT, context, 2)})`;
    const then = leave !== undefined && this.r.chance(0.6) ? leave : print();
    const choice = this.r.int(0, 4);
    if (choice === 0)
      return [
        `${pad(indent)}if ${condition} then ${then} else if ${this.expression(BOOLEAN, context, 2)} then ` +
          `${print()} else ${print()}`,
      ];
    if (choice <= 2) return [`${pad(indent)}if ${condition} then ${then} else ${print()}`];
    return [`${pad(indent)}if ${condition} then ${then}`];
  }

  private forEach(context: Context, indent: number): string[] {
    const p = pad(indent);
    const inner = this.nested(context, { inLoop: true });
    if (this.r.chance(0.25)) {
      const map = this.expression(MAP, context, 1, false);
      const k = this.fresh(context);
      this.bind(inner, k, TEXT);
      const value = this.fresh(inner);
      this.bind(inner, value, INT);
      return [`${p}for each (${k}, ${value}) in ${map}`, ...this.block(inner, indent + 1), `${p}end`];
    }
    const list = this.r.chance(0.5)
      ? this.expression(LIST, context, 1, false)
      : this.r.pick(["1 to 3", "0 until 4", "[3, 1, 2]"]);
    const item = this.fresh(context);
    this.bind(inner, item, INT);
    return [`${p}for each ${item} in ${list}`, ...this.block(inner, indent + 1), `${p}end`];
  }

  /** A while loop ends: its counter goes up first thing in every round, so `skip` cannot keep it from ending. */
  private whileLoop(context: Context, indent: number): string[] {
    const p = pad(indent);
    const counter = this.fresh(context);
    this.bind(context, counter, INT, true, true);
    const inner = this.nested(context, { inLoop: true });
    const limit = this.r.int(0, 4);
    const condition = this.r.chance(0.7)
      ? `${counter} < ${limit}`
      : `${counter} < ${limit} and ${this.expression(BOOLEAN, inner, 2)}`;
    return [
      `${p}var ${counter} be 0`,
      `${p}while ${condition}`,
      `${pad(indent + 1)}set ${counter} to ${counter} + 1`,
      ...this.block(inner, indent + 1),
      `${p}end`,
    ];
  }

  private matchStatement(context: Context, indent: number): string[] {
    const p = pad(indent);
    const type = this.matchableType();
    const subject = this.expression(type, context, 1, false);
    const lines = [`${p}match ${subject}`];
    for (const arm of this.arms(type, context)) {
      const inner = this.nested(context);
      for (const [name, t] of arm.binds) this.bind(inner, name, t);
      if (this.r.chance(0.5)) {
        const statement = this.oneLineStatement(inner);
        lines.push(`${pad(indent + 1)}when ${arm.pattern} then ${statement}`);
      } else {
        lines.push(`${pad(indent + 1)}when ${arm.pattern}`);
        lines.push(...this.block(inner, indent + 2));
      }
    }
    lines.push(`${p}end`);
    return lines;
  }

  /** A statement that fits after `then` on one line. */
  private oneLineStatement(context: Context): string {
    const leave = this.r.chance(0.4) ? this.leave(context) : undefined;
    if (leave) return leave;
    if (context.effectful) return `console.print(${this.expression(TEXT, context, 2)})`;
    if (context.inTest) return this.check(context);
    const vars = this.visible(context).filter((l) => l.mutable && !l.counter);
    if (vars.length > 0) {
      const target = this.r.pick(vars);
      return `set ${target.name} to ${this.expression(target.type, context, 2)}`;
    }
    return this.leave(context) ?? `crash with "no statement fits here"`;
  }

  /** `let x be CALL otherwise` with `when` arms over the failure. */
  private otherwiseArms(context: Context, indent: number): string[] {
    const p = pad(indent);
    const failing = this.failingCall(context, 1);
    if (!failing) return this.letStatement(context, indent);
    const name = this.fresh(context);
    const lines = [`${p}let ${name} be ${failing.call} otherwise`];
    const armContext = this.nested(context);
    for (const arm of this.failureArms(failing.error)) {
      const passOn = !context.noLeave && (context.fails !== undefined || context.inTest) && this.r.chance(0.2);
      const leave = this.r.chance(0.2) ? this.leave(armContext) : undefined;
      lines.push(
        `${pad(indent + 1)}when ${arm} then ${passOn ? "fail" : (leave ?? this.expression(failing.type, armContext, 2))}`,
      );
    }
    lines.push(`${p}end`);
    this.bind(context, name, failing.type);
    return lines;
  }

  private failureArms(error: VariantDecl | "ParseError"): string[] {
    if (error === "ParseError") return this.r.pick([["ParseError(text: _, expected: _)"], ["ParseError(_, _)"], ["_"]]);
    if (this.r.chance(0.3)) return ["_"];
    return error.cases.map((c) => `${error.name}.${c.name}(_)`);
  }

  /**
   * `run concurrently`: tasks that bind names (let, var, a nested block) or call
   * effectful functions. What a task binds is in scope after `end` and in no other
   * task, so the bindings wait in `pending` until the outermost block ends.
   */
  private runConcurrently(context: Context, indent: number, depth = 0, pending: Local[] = []): string[] {
    const p = pad(indent);
    const q = pad(indent + 1);
    const lines = [`${p}run concurrently`];
    const task: Context = {
      ...context,
      barrier: context.scopes.length,
      inTask: true,
      inLoop: false,
      depth: context.depth + 1,
    };
    const name = (): string => {
      const taken = new Set(pending.map((l) => l.name));
      for (const scope of context.scopes) for (const n of scope.keys()) taken.add(n);
      return this.pickName(taken);
    };
    const later = (n: string, type: Type, mutable = false): void =>
      void pending.push({ name: n, type, mutable, counter: false });
    for (let i = this.r.int(1, 4); i > 0; i--) {
      const choice = this.r.int(0, depth < 1 ? 5 : 4);
      if (choice === 0 || choice === 1) {
        const type = this.valueType();
        const value = this.expression(type, task, 1, false);
        const n = name();
        lines.push(`${q}let ${n} be ${value}`);
        later(n, type);
      } else if (choice === 2) {
        const type = this.r.pick([INT, TEXT, LIST]);
        const value = this.expression(type, task, 1, false);
        const n = name();
        lines.push(`${q}var ${n} be ${value}`);
        later(n, type, true);
      } else if (choice === 3 && context.effectful) {
        const n = name();
        lines.push(`${q}let ${n} be time.now()`);
        later(n, INSTANT);
      } else if (choice === 4) {
        lines.push(`${q}${this.taskCall(task, later, name)}`);
      } else {
        lines.push(...this.runConcurrently(context, indent + 1, depth + 1, pending));
      }
    }
    lines.push(`${p}end`);
    if (depth === 0) for (const local of pending) this.bind(context, local.name, local.type, local.mutable);
    return lines;
  }

  /** A task that calls a function: one that needs time or console when the block may, else any that returns nothing. */
  private taskCall(task: Context, later: (n: string, type: Type) => void, name: () => string): string {
    const effectful = task.callable.filter(
      (f) =>
        f.effectful && task.effectful && f.returns !== undefined && f.fails === undefined && f.generic === undefined,
    );
    if (effectful.length > 0 && this.r.chance(0.7)) {
      const fn = this.r.pick(effectful);
      const call = this.call(fn, task, 1);
      if (call) {
        const n = name();
        later(n, fn.returns!);
        return `let ${n} be ${call}`;
      }
    }
    const procedures = task.callable.filter(
      (f) => f.returns === undefined && f.fails === undefined && (!f.effectful || task.effectful),
    );
    const call = procedures.length > 0 ? this.call(this.r.pick(procedures), task, 1) : undefined;
    if (call) return call;
    if (task.effectful) return `console.print(${this.expression(TEXT, task, 2)})`;
    const n = name();
    later(n, INT);
    return `let ${n} be ${this.expression(INT, task, 1)}`;
  }

  /** `check` in a test: a Boolean, an `is` between two values, or a call that fails. */
  private check(context: Context): string {
    const r = this.r;
    const choice = r.int(0, 2);
    if (choice === 0) return `check ${this.expression(BOOLEAN, context, 1)}`;
    if (choice === 1) {
      const type = this.r.pick([INT, TEXT, LIST, OPTIONAL]);
      return `check ${this.expression(type, context, 2)} is ${this.expression(type, context, 2)}`;
    }
    const failing = this.failingCall(context, 1);
    if (!failing) return `check "12".to_int() fails with ParseError(_, _)`;
    const error = failing.error;
    const pattern =
      error === "ParseError"
        ? r.pick(["ParseError(_, _)", "_", "ParseError(text: _, expected: _)"])
        : r.pick(["_", ...error.cases.map((c) => `${error.name}.${c.name}(_)`)]);
    return `check ${failing.call} fails with ${pattern}`;
  }

  // --- patterns ----------------------------------------------------------------

  private matchableType(): Type {
    const plain = this.variants.filter((v) => !v.isError);
    if (plain.length > 0 && this.r.chance(0.25)) return { kind: "Variant", decl: this.r.pick(plain) };
    if (this.records.length > 0 && this.r.chance(0.1)) return { kind: "Record", decl: this.r.pick(this.records) };
    return this.r.pick([INT, TEXT, BOOLEAN, OPTIONAL, LIST, PAIR]);
  }

  /** Arms that together cover every value of the type, each with the names it binds. */
  private arms(type: Type, context: Context): { pattern: string; binds: [string, Type][] }[] {
    const r = this.r;
    const name = (): string => this.fresh(context);
    const catchAll = (): { pattern: string; binds: [string, Type][] } => {
      if (r.chance(0.5)) return { pattern: "_", binds: [] };
      const n = name();
      return { pattern: n, binds: [[n, type]] };
    };
    switch (type.kind) {
      case "Int":
        return [
          ...r
            .shuffle(["0", "1", "-1", "42", "9_007_199_254_740_991"])
            .slice(0, r.int(0, 3))
            .map((pattern) => ({ pattern, binds: [] })),
          catchAll(),
        ];
      case "Text":
        return [
          ...r
            .shuffle(['"a"', '""', '"constructor"', '"__proto__"', '"\\{x\\}"'])
            .slice(0, r.int(0, 3))
            .map((pattern) => ({ pattern, binds: [] })),
          catchAll(),
        ];
      case "Boolean":
        return r.chance(0.7)
          ? r.shuffle([
              { pattern: "true", binds: [] },
              { pattern: "false", binds: [] },
            ])
          : [{ pattern: "true", binds: [] }, catchAll()];
      case "Optional": {
        const n = name();
        const arms = [
          { pattern: `Some(${n})`, binds: [[n, INT]] as [string, Type][] },
          { pattern: "None", binds: [] },
        ];
        if (r.chance(0.3)) arms.unshift({ pattern: "Some(0)", binds: [] });
        return arms;
      }
      case "List": {
        const head = name();
        const rest = r.chance(0.3) ? "_" : `${head}_rest`;
        const arms: { pattern: string; binds: [string, Type][] }[] = [];
        if (r.chance(0.4)) arms.push({ pattern: "[1, 2]", binds: [] });
        arms.push({ pattern: "[]", binds: [] });
        arms.push({
          pattern: `[${head}, ...${rest}]`,
          binds:
            rest === "_"
              ? [[head, INT]]
              : [
                  [head, INT],
                  [rest, LIST],
                ],
        });
        return r.shuffle(arms.slice(0, -1)).concat(arms.slice(-1));
      }
      case "Pair": {
        const a = name();
        const arms: { pattern: string; binds: [string, Type][] }[] = [];
        if (r.chance(0.5)) arms.push({ pattern: '(0, "a")', binds: [] });
        if (r.chance(0.5)) arms.push({ pattern: `(${a}, _)`, binds: [[a, INT]] });
        else arms.push({ pattern: "(_, _)", binds: [] });
        return arms;
      }
      case "Variant": {
        const decl = type.decl;
        const arms = r
          .shuffle(decl.cases)
          .filter(() => r.chance(0.85))
          .map((c) => this.casePattern(decl, c, context));
        if (arms.length < decl.cases.length) arms.push(catchAll());
        return arms;
      }
      case "Record": {
        const field = r.pick(type.decl.fields);
        const n = name();
        return [{ pattern: `${type.decl.name}(${field.name}: ${n})`, binds: [[n, field.type]] }];
      }
      default:
        return [catchAll()];
    }
  }

  private casePattern(decl: VariantDecl, c: Case, context: Context): { pattern: string; binds: [string, Type][] } {
    if (c.fields.length === 0) return { pattern: `${decl.name}.${c.name}`, binds: [] };
    const binds: [string, Type][] = [];
    // Fields matched by position (`Case(a, _)`) or by name (`Case(field: a)`), all one way.
    const byName = this.r.chance(0.5);
    const parts = c.fields.map((f) => {
      let sub = "_";
      const n = this.fresh(context);
      // Two fields of one case bind two names: keep them apart from each other too.
      if (this.r.chance(0.7) && !binds.some(([b]) => b === n)) {
        binds.push([n, f.type]);
        sub = n;
      }
      return byName ? `${f.name}: ${sub}` : sub;
    });
    return { pattern: `${decl.name}.${c.name}(${parts.join(", ")})`, binds };
  }

  // --- expressions ---------------------------------------------------------------

  private visible(context: Context): Local[] {
    const locals: Local[] = [];
    context.scopes.forEach((scope, i) => {
      for (const local of scope.values()) if (!local.mutable || i >= context.barrier) locals.push(local);
    });
    return locals;
  }

  private localOf(type: Type, context: Context): string | undefined {
    const matching = this.visible(context).filter((l) => same(l.type, type));
    return matching.length === 0 ? undefined : this.r.pick(matching).name;
  }

  /**
   * An expression that may take several lines: a match, a function value, an `if` expression or a query; used after
   * `be`.
   */
  private topExpression(type: Type, context: Context, indent: number, annotated: boolean): string {
    const r = this.r;
    if (r.chance(0.15)) return this.matchExpression(type, context, indent, annotated);
    if (type.kind === "Fn" && r.chance(0.5)) return this.functionValue(context, indent);
    if (type.kind === "Text" && r.chance(0.15)) return this.tripleQuoted(context, indent);
    return this.expression(type, context, 0, annotated);
  }

  private matchExpression(type: Type, context: Context, indent: number, known: boolean): string {
    const subjectType = this.matchableType();
    const lines = [`match ${this.expression(subjectType, context, 1, false)}`];
    const arms = this.arms(subjectType, context);
    arms.forEach((arm, i) => {
      const inner = this.nested(context);
      for (const [name, t] of arm.binds) this.bind(inner, name, t);
      // The last arm gives a value, so that the match has a type even when every other arm leaves.
      const leave = i < arms.length - 1 && this.r.chance(0.1) ? this.leave(inner) : undefined;
      lines.push(`${pad(indent + 1)}when ${arm.pattern} then ${leave ?? this.expression(type, inner, 2, known)}`);
    });
    lines.push(`${pad(indent)}end`);
    return lines.join("\n");
  }

  /** `function (a: Int) returns Int ... end`: its own function, which sees the lets around it but no var. */
  private functionValue(context: Context, indent: number): string {
    const param = this.fresh(context);
    const inner: Context = {
      ...context,
      scopes: [...context.scopes, new Map([[param, { name: param, type: INT, mutable: false, counter: false }]])],
      barrier: context.scopes.length,
      returns: INT,
      returnsNothing: false,
      fails: undefined,
      effectful: false,
      pure: true,
      noLeave: false,
      inLoop: false,
      inTask: false,
      inTest: false,
      depth: context.depth + 1,
    };
    const body = this.body(inner, indent + 1);
    return [`function (${param}: Int) returns Int`, ...body, `${pad(indent)}end`].join("\n");
  }

  /**
   * A one-line expression of the type. `level` is how deep it is; past the
   * limit only literals and locals are written. `known` says whether the
   * type is known from around it, so that `[]`, `{}` and `None` may stand alone.
   */
  private expression(type: Type, context: Context, level: number, known = true): string {
    const r = this.r;
    if (level > MAX_EXPRESSION_DEPTH || r.chance(0.45)) {
      const local = r.chance(0.7) ? this.localOf(type, context) : undefined;
      return local ?? this.literal(type, known);
    }
    const next = level + 1;
    const forms = this.forms(type, context, next, known);
    for (let tries = 0; tries < 4; tries++) {
      const made = r.pick(forms)();
      if (made !== undefined) return made;
    }
    return this.literal(type, known);
  }

  /** The ways to write a value of each type; a form returns undefined when it does not fit the context. */
  private forms(type: Type, context: Context, next: number, known: boolean): (() => string | undefined)[] {
    const e = (t: Type, k = true): string => this.expression(t, context, next, k);
    // A method's receiver gets no type from around it, so it is never a bare `[]`, `{}` or `None`.
    const recv = (t: Type): string => this.expression(t, context, next, false);
    const r = this.r;
    const common: (() => string | undefined)[] = [
      () => this.localOf(type, context),
      () => `(if ${e(BOOLEAN)} then ${e(type, known)} else ${e(type)})`,
      () => this.callReturning(type, context, next),
      () => this.failingWithValue(type, context, next),
    ];
    switch (type.kind) {
      case "Int":
        return [
          ...common,
          () => `(${e(INT)} ${r.pick(["+", "-", "*"])} ${e(INT)})`,
          () => `(${e(INT)} ${r.pick(["/", "mod"])} ${r.int(1, 9)})`,
          () => `(-(${e(INT)}))`,
          () => `${recv(LIST)}.${r.pick(["count", "length", "sum"])}()`,
          () => `${recv(OPTIONAL)}.or_else(${e(INT)})`,
          () => `${recv(LIST)}.fold(0, (${this.lambdaParams(context, 2)}) => ${this.lambdaBody(context, 2)})`,
          () => `(${recv(TEXT)}.to_int() otherwise ${this.handler(INT, context, next)})`,
          () => this.fieldOf(INT, context, next),
          () => this.fnCall(context, next),
          () => `${recv(TEXT)}.length()`,
          () => `${recv(MAP)}.length()`,
          () => `math.${r.pick(["max", "min"])}(${e(INT)}, ${e(INT)})`,
        ];
      case "Text":
        return [
          ...common,
          () => this.interpolation(context, next),
          () => `(${e(TEXT)} + ${e(TEXT)})`,
          () => `${recv(TEXT)}.${r.pick(["upper", "lower", "trim", "reverse"])}()`,
          () => `${recv(r.pick([INT, BOOLEAN, LIST, OPTIONAL, PAIR, MAP]))}.to_text()`,
          () => `text.join(${e(TEXT_LIST)}, ${this.textLiteral()})`,
          () => this.fieldOf(TEXT, context, next),
          () => this.genericShow(context, next),
        ];
      case "Boolean":
        return [
          ...common,
          () => `(${e(INT)} ${r.pick(["<", "<=", ">", ">="])} ${e(INT)})`,
          () => {
            const t = this.dataType();
            return `(${recv(t)} ${r.pick(["is", "is not"])} ${e(t)})`;
          },
          () => `(not ${e(BOOLEAN)})`,
          () => `(${e(BOOLEAN)} ${r.pick(["and", "or"])} ${e(BOOLEAN)})`,
          () => `${recv(LIST)}.contains(${e(INT)})`,
          () => `${recv(OPTIONAL)}.${r.pick(["is_some", "is_none"])}()`,
          () => `${recv(TEXT)}.${r.pick(["starts_with", "contains"])}(${e(TEXT)})`,
          () => `${recv(MAP)}.contains(${this.mapKey()})`,
          () => this.fieldOf(BOOLEAN, context, next),
        ];
      case "List":
        return [
          ...common,
          () => this.listLiteral(context, next, known),
          () => `(${r.int(0, 3)} ${r.pick(["to", "until"])} ${r.int(0, 5)})`,
          () => `(${e(LIST, known)} + ${e(LIST)})`,
          () => `${recv(LIST)}.map(${this.intFunction(context, next)})`,
          () => `${recv(LIST)}.filter((${this.lambdaParams(context, 1)}) => ${this.lambdaBoolean(context)})`,
          () => `${recv(LIST)}.${r.pick(["reverse", "sort"])}()`,
          () => this.query(INT, context, next),
          () => this.fieldOf(LIST, context, next),
          () => this.genericAppend(context, next),
        ];
      case "TextList":
        return [
          ...common,
          () => `[${this.textLiteral()}, ${e(TEXT)}]`,
          () => `${recv(TEXT)}.split(${r.pick(['","', '" "', '""'])})`,
          () => `${recv(LIST)}.map((${this.lambdaParams(context, 1)}) => "{${this.lastLambdaParam}}")`,
          () => this.query(TEXT, context, next),
          () => this.fieldOf(TEXT_LIST, context, next),
        ];
      case "Optional":
        return [
          ...common,
          () => `Some(${e(INT)})`,
          () => (known ? "None" : undefined),
          () => `${recv(LIST)}.${r.pick(["first", "max", "min"])}()`,
          () => `${recv(LIST)}.get(${e(INT)})`,
          () => `${recv(MAP)}.get(${this.mapKey()})`,
          () => `${recv(OPTIONAL)}.map(${this.intFunction(context, next)})`,
          () => this.fieldOf(OPTIONAL, context, next),
        ];
      case "Map":
        return [
          ...common,
          () => (known && r.chance(0.3) ? "{}" : `{${this.mapKey()}: ${e(INT)}, ${this.mapKey()}: ${e(INT)}}`),
          () => `${recv(MAP)}.put(${this.mapKey()}, ${e(INT)})`,
        ];
      case "Pair":
        return [...common, () => `(${e(INT)}, ${e(TEXT)})`];
      case "Fn":
        return [() => this.localOf(FN, context), () => this.intFunction(context, next, !known)];
      case "Record":
        return [
          ...common,
          () => this.recordValue(type.decl, context, next),
          () => `(${e(type)} with ${this.recordUpdates(type.decl, context, next)})`,
        ];
      case "Variant":
        return [...common, () => this.caseValue(type.decl, context, next)];
      case "Instant":
        return [() => this.localOf(INSTANT, context)];
    }
  }

  /** A type with equality, for `is`. */
  private dataType(): Type {
    let t = this.valueType();
    while (!isData(t)) t = this.valueType();
    return t;
  }

  /** The literal (or simplest) value of each type. */
  private literal(type: Type, known = true): string {
    const r = this.r;
    switch (type.kind) {
      // A negative literal is in parentheses: `-(-3)` and `(-3).to_text()` keep their meaning, and no `--` starts a
      // comment.
      case "Int":
        return r.pick(["0", "1", "2", "7", "42", "(-3)", "1_000", String(r.int(0, 100)), "9_007_199_254_740_991"]);
      case "Text":
        return this.textLiteral();
      case "Boolean":
        return r.pick(["true", "false"]);
      case "List":
        return known && r.chance(0.3) ? "[]" : `[${r.int(0, 9)}, ${r.int(0, 9)}]`;
      case "TextList":
        return known && r.chance(0.3) ? "[]" : `[${this.textLiteral()}]`;
      case "Optional":
        return known && r.chance(0.5) ? "None" : `Some(${r.int(0, 9)})`;
      case "Map":
        return known && r.chance(0.3) ? "{}" : `{${this.mapKey()}: ${r.int(0, 9)}}`;
      case "Pair":
        return `(${r.int(0, 9)}, ${this.textLiteral()})`;
      // No local is ever called x or n, so these parameters shadow nothing.
      case "Fn":
        return known ? r.pick(["(x) => x * 2", "(n) => n + 1"]) : r.pick(["(x: Int) => x * 2", "(n: Int) => n - 1"]);
      case "Record":
        return `${type.decl.name}(${type.decl.fields.map((f) => `${f.name}: ${this.literal(f.type)}`).join(", ")})`;
      case "Variant": {
        const c = type.decl.cases[0]!;
        return c.fields.length === 0
          ? `${type.decl.name}.${c.name}`
          : `${type.decl.name}.${c.name}(${c.fields.map((f) => this.literal(f.type)).join(", ")})`;
      }
      case "Instant":
        return "time.now()";
    }
  }

  private textLiteral(): string {
    return this.r.pick([
      '""',
      '"a"',
      '"hello"',
      '"constructor"',
      '"__proto__"',
      '"$\\{process.exit(1)\\}"',
      '"`tick`"',
      '"</script>"',
      '"\\{not interpolated\\}"',
      '"\\u{1F600}"',
      '"quote \\" and backslash \\\\"',
      '"tab\\tnew\\nline"',
      '"é and ü"',
      '"-- not a comment"',
      '"/* nor this */"',
      '"12"',
      '"-7"',
      '"x"',
      '"\\0"',
      '"it\'s"',
    ]);
  }

  private mapKey(): string {
    return this.r.pick([
      '"a"',
      '"b"',
      '"__proto__"',
      '"constructor"',
      '"toString"',
      '"then"',
      '"hasOwnProperty"',
      '""',
    ]);
  }

  private interpolation(context: Context, next: number): string {
    const parts: string[] = [];
    for (let i = this.r.int(1, 3); i > 0; i--) {
      const type = this.r.pick([INT, TEXT, BOOLEAN, LIST, OPTIONAL, TEXT_LIST, PAIR, MAP]);
      parts.push(this.r.pick(["", "x=", " ", "$", "` ", "\\{", "$\\{"]));
      parts.push(`{${this.expression(type, context, next)}}`);
    }
    return `"${parts.join("")}"`;
  }

  /** A `"""` text over several lines, with interpolations; its common indentation is removed. */
  private tripleQuoted(context: Context, indent: number): string {
    const inner = pad(indent + 1);
    const lines = [
      '"""',
      `${inner}first {${this.expression(INT, context, 2)}} line`,
      `${inner}  indented "quoted" {${this.expression(TEXT, context, 2)}}`,
      `${inner}\\{ braces \\} and \\u{1F600}`,
      `${inner}"""`,
    ];
    return lines.join("\n");
  }

  private listLiteral(context: Context, next: number, known: boolean): string {
    const count = this.r.int(known ? 0 : 1, 3);
    return `[${Array.from({ length: count }, () => this.expression(INT, context, next)).join(", ")}]`;
  }

  // --- lambdas and function values ---------------------------------------------

  private lastLambdaParam = "x";
  private lambdaScope: Local[] = [];

  /** Fresh parameter names for a lambda; they are in scope in its body only. */
  private lambdaParams(context: Context, count: number): string {
    const names: string[] = [];
    const taken = new Set<string>();
    for (const scope of context.scopes) for (const name of scope.keys()) taken.add(name);
    for (let i = 0; i < count; i++) {
      const name = this.pickName(taken);
      taken.add(name);
      names.push(name);
    }
    this.lambdaScope = names.map((name) => ({ name, type: INT, mutable: false, counter: false }));
    this.lastLambdaParam = names[names.length - 1]!;
    return names.join(", ");
  }

  private lambdaContext(context: Context): Context {
    return {
      ...context,
      scopes: [...context.scopes, new Map(this.lambdaScope.map((l) => [l.name, l]))],
      barrier: context.scopes.length,
      effectful: false,
      pure: true,
      noLeave: true,
      inLoop: false,
      depth: context.depth + 1,
    };
  }

  /** An Int from the lambda's parameters (all Ints). */
  private lambdaBody(context: Context, level: number): string {
    const inner = this.lambdaContext(context);
    const params = this.lambdaScope.map((l) => l.name);
    const pieces = params.map((p) => (this.r.chance(0.7) ? p : this.expression(INT, inner, level + 1)));
    return pieces.join(` ${this.r.pick(["+", "*", "-"])} `);
  }

  private lambdaBoolean(context: Context): string {
    const inner = this.lambdaContext(context);
    return `${this.lastLambdaParam} ${this.r.pick(["<", ">", "is", "is not", ">="])} ${this.expression(INT, inner, 3)}`;
  }

  /** A `function(Int) returns Int`: a lambda, a typed lambda, or a program function of that shape. */
  private intFunction(context: Context, level: number, standalone = false): string {
    const r = this.r;
    const named = context.callable.filter(
      (f) =>
        !f.effectful &&
        f.fails === undefined &&
        f.params.length === 1 &&
        f.params[0]!.type.kind === "Int" &&
        !f.params[0]!.keywordName &&
        f.returns?.kind === "Int" &&
        f.generic === undefined,
    );
    if (named.length > 0 && r.chance(0.2)) return r.pick(named).name;
    const local = this.localOf(FN, context);
    if (local && r.chance(0.3)) return local;
    const params = this.lambdaParams(context, 1);
    const body = this.lambdaBody(context, level);
    return standalone || r.chance(0.3) ? `(${params}: Int) => ${body}` : `(${params}) => ${body}`;
  }

  /** A call of a function value, `f(x)`. */
  private fnCall(context: Context, next: number): string | undefined {
    const local = this.localOf(FN, context);
    return local ? `${local}(${this.expression(INT, context, next)})` : undefined;
  }

  // --- records, variants, fields -------------------------------------------------

  private recordValue(decl: RecordDecl, context: Context, next: number): string {
    if (this.r.chance(0.3))
      return `${decl.name}(${decl.fields.map((f) => this.expression(f.type, context, next)).join(", ")})`;
    return `${decl.name}(${this.r
      .shuffle(decl.fields)
      .map((f) => `${f.name}: ${this.expression(f.type, context, next)}`)
      .join(", ")})`;
  }

  private recordUpdates(decl: RecordDecl, context: Context, next: number): string {
    const fields = this.r.shuffle(decl.fields).slice(0, this.r.int(1, decl.fields.length));
    return fields.map((f) => `${f.name}: ${this.expression(f.type, context, next + 1)}`).join(", ");
  }

  private caseValue(decl: VariantDecl, context: Context, next: number): string {
    const c = this.r.pick(decl.cases);
    if (c.fields.length === 0) return `${decl.name}.${c.name}`;
    const named = this.r.chance(0.6);
    return `${decl.name}.${c.name}(${c.fields.map((f) => `${named ? `${f.name}: ` : ""}${this.expression(f.type, context, next)}`).join(", ")})`;
  }

  /** `value.field` of a record in scope (or built on the spot) whose field has the type. */
  private fieldOf(type: Type, context: Context, next: number): string | undefined {
    const holders = this.records.filter((rec) => rec.fields.some((f) => same(f.type, type)));
    if (holders.length === 0) return undefined;
    const decl = this.r.pick(holders);
    const field = this.r.pick(decl.fields.filter((f) => same(f.type, type)));
    const recordType: Type = { kind: "Record", decl };
    const holder = this.localOf(recordType, context) ?? `${this.recordValue(decl, context, next + 1)}`;
    return `${holder}.${field.name}`;
  }

  // --- calls -----------------------------------------------------------------------

  /** Arguments for a call: positional first, then named ones in any order; defaults may be left out. */
  private call(fn: FunctionDecl, context: Context, next: number): string | undefined {
    if (fn.effectful && (!context.effectful || context.pure)) return undefined;
    const r = this.r;
    const positional: string[] = [];
    const named: string[] = [];
    let naming = false;
    for (const p of fn.params) {
      if (p.defaultValue !== undefined && r.chance(0.4)) {
        naming = true;
        continue;
      }
      if (p.keywordName || r.chance(0.3)) naming = true;
      const value = this.expression(p.type, context, next + 1);
      if (naming) named.push(`${p.name}: ${value}`);
      else positional.push(value);
    }
    return `${fn.name}(${[...positional, ...r.shuffle(named)].join(", ")})`;
  }

  /** A call of a program function that returns the type and cannot fail. */
  private callReturning(type: Type, context: Context, next: number): string | undefined {
    const candidates = context.callable.filter(
      (f) => f.returns !== undefined && same(f.returns, type) && f.fails === undefined && f.generic === undefined,
    );
    if (candidates.length === 0) return undefined;
    return this.call(this.r.pick(candidates), context, next);
  }

  /** A call that can fail, with the type it gives and what it fails with. */
  private failingCall(
    context: Context,
    next: number,
  ): { call: string; type: Type; error: VariantDecl | "ParseError" } | undefined {
    const candidates = context.callable.filter(
      (f) => f.fails !== undefined && f.returns !== undefined && (!f.effectful || (context.effectful && !context.pure)),
    );
    if (candidates.length > 0 && this.r.chance(0.6)) {
      const fn = this.r.pick(candidates);
      const call = this.call(fn, { ...context, callable: context.callable.filter((f) => f.fails === undefined) }, next);
      if (call) return { call, type: fn.returns!, error: fn.fails! };
    }
    return {
      call: `${this.expression(TEXT, { ...context, callable: context.callable.filter((f) => f.fails === undefined) }, next + 1)}.to_int()`,
      type: INT,
      error: "ParseError",
    };
  }

  /** `CALL otherwise HANDLER` in a place that needs a value of the type: the handler gives one, or leaves. */
  private failingWithValue(type: Type, context: Context, next: number): string | undefined {
    const candidates = context.callable.filter(
      (f) =>
        f.fails !== undefined &&
        f.returns !== undefined &&
        same(f.returns, type) &&
        (!f.effectful || (context.effectful && !context.pure)),
    );
    if (candidates.length === 0 || context.depth > 4) return undefined;
    const fn = this.r.pick(candidates);
    const call = this.call(fn, { ...context, callable: context.callable.filter((f) => f.fails === undefined) }, next);
    if (!call) return undefined;
    return `(${call} otherwise ${this.handler(type, context, next)})`;
  }

  /**
   * What follows `otherwise` on one line: a value of the call's type (half the
   * time), or a way to leave that the context allows. A failure passes on with
   * `fail` where the function fails with the program's error type (which wraps
   * ParseError too), or in a test.
   */
  private handler(type: Type, context: Context, next: number): string {
    if (this.r.chance(0.5)) return this.expression(type, context, next + 1);
    const handlers: string[] = [`crash with ${this.textLiteral()}`];
    if (!context.noLeave) {
      if (context.fails || context.inTest) handlers.push("fail");
      if (context.fails) handlers.push(`fail with ${this.reasonCase(context.fails)}`);
    }
    if (context.inLoop && !context.inTask && !context.noLeave) handlers.push(this.r.pick(["skip", "stop"]));
    // A bare `return` needs the line to end after it, so in parentheses it always gives a value.
    if (!context.inTask && !context.noLeave && context.returns)
      handlers.push(`return ${this.expression(context.returns, context, next + 1)}`);
    return this.r.pick(handlers);
  }

  private genericAppend(context: Context, next: number): string | undefined {
    const fns = context.callable.filter((f) => f.generic === "append");
    if (fns.length === 0) return undefined;
    return `${this.r.pick(fns).name}(${this.expression(INT, context, next)}, ${this.expression(LIST, context, next)})`;
  }

  private genericShow(context: Context, next: number): string | undefined {
    const fns = context.callable.filter((f) => f.generic === "show");
    if (fns.length === 0) return undefined;
    return `${this.r.pick(fns).name}(${this.expression(this.dataType(), context, next)})`;
  }

  // --- queries ---------------------------------------------------------------------

  /** `from x in xs where ... let ... sort by ... take ... drop ... [concurrently] select ...`, in parentheses. */
  private query(result: Type, context: Context, next: number): string {
    const r = this.r;
    const clauseContext: Context = {
      ...context,
      scopes: [...context.scopes, new Map()],
      pure: true,
      effectful: false,
      noLeave: true,
      inLoop: false,
      depth: context.depth + 1,
    };
    const item = this.fresh(clauseContext);
    const source = this.expression(LIST, context, next, false);
    this.bind(clauseContext, item, INT);
    const parts = [`from ${item} in ${source}`];
    if (r.chance(0.3)) {
      const other = this.fresh(clauseContext);
      parts.push(
        `from ${other} in ${r.pick(["[1, 2]", "1 to 3", this.expression(LIST, clauseContext, next + 1, false)])}`,
      );
      this.bind(clauseContext, other, INT);
    }
    if (r.chance(0.6)) parts.push(`where ${this.expression(BOOLEAN, clauseContext, next + 1)}`);
    if (r.chance(0.3)) {
      const derived = this.fresh(clauseContext);
      parts.push(`let ${derived} be ${this.expression(INT, clauseContext, next + 1)}`);
      this.bind(clauseContext, derived, INT);
    }
    if (r.chance(0.15)) {
      const group = this.fresh(clauseContext);
      parts.push(`group by (${item} mod 2) into ${group}`);
      const selected =
        result.kind === "Int" ? `${group}.key + ${group}.items.count()` : `"{${group}.key}: {${group}.items}"`;
      return `(${parts.join(" ")} select ${selected})`;
    }
    if (r.chance(0.4))
      parts.push(`sort by ${this.expression(INT, clauseContext, next + 1)}${r.chance(0.5) ? " descending" : ""}`);
    if (r.chance(0.2)) parts.push(`take ${r.int(0, 5)}`);
    if (r.chance(0.2)) parts.push(`drop ${r.int(0, 2)}`);
    const selectContext: Context = { ...clauseContext, pure: context.pure, effectful: context.effectful };
    const effectful = context.callable.filter(
      (f) => f.effectful && f.fails === undefined && f.returns !== undefined && same(f.returns, result),
    );
    if (context.effectful && !context.pure && effectful.length > 0 && r.chance(0.5)) {
      const call = this.call(r.pick(effectful), selectContext, next + 1);
      if (call) {
        parts.push(r.chance(0.5) ? "concurrently" : `concurrently at most ${r.int(1, 4)} at a time`);
        return `(${parts.join(" ")} select ${call})`;
      }
    }
    // Anywhere, also where nothing can be awaited (a function without needs, a lambda, a clause).
    if (r.chance(0.2)) parts.push("concurrently");
    return (
      `(${parts.join(" ")} select ` +
      `${r.chance(0.2) ? "distinct " : ""}${this.expression(result, selectContext, next + 1)})`
    );
  }
}

const PARSE_ERROR: RecordDecl = { name: "ParseError", fields: [] };

function pad(indent: number): string {
  return "  ".repeat(indent);
}
