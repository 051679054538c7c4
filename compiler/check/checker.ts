// The checker's entry: syntax trees of a program's modules in, a checked tree
// and diagnostics out. First every declaration (declare.ts), then every body.

import type { Diagnostic } from "../diagnostics.js";
import type * as S from "../parse/tree.js";
import type { CFunction, CModule, CTest, Program } from "./checked.js";
import { Bounds } from "./bounds.js";
import { Context, newProgramWork, type ProgramWork } from "./context.js";
import { declareProgram, libraryScopes, PRELUDE_NAME, type SourceModule } from "./declare.js";
import { checkExpr } from "./expressions.js";
import { checkNeeds } from "./grants.js";
import type { FunctionSig, ModuleScope, Program as Scopes } from "./scope.js";
import { blockEnds } from "./ends.js";
import { checkBlock } from "./statements.js";
import { article } from "./context.js";
import { hasMeta, isCon, numberedFromStart, resolve, typeToText, zonk, type Type } from "./types.js";

export type { SourceModule };

export interface CheckResult {
  program: Program;
  diagnostics: Diagnostic[];
}

export function checkProgram(sources: readonly SourceModule[], entry: string): CheckResult {
  libraryScopes(); // the library takes its type ids once, before the program numbers its own
  return numberedFromStart(() => checkDeclared(sources, entry));
}

function checkDeclared(sources: readonly SourceModule[], entry: string): CheckResult {
  const scopes = declareProgram(sources, entry);
  const diagnostics = scopes.diagnostics;
  const modules: CModule[] = [];
  let main: CFunction | undefined;
  const bounds = new Bounds();
  const work = newProgramWork();
  for (const source of sources) {
    const scope = scopes.modules.get(source.name)!;
    const module = checkModule(scopes, scope, source.syntax, diagnostics, bounds, work);
    modules.push(module);
    if (source.name === entry) {
      main = module.functions.find((f) => f.name === "main");
      if (main !== undefined) checkMain(scope.functions.get("main")!, diagnostics);
    }
  }
  bounds.finish(diagnostics);
  return { program: { modules, ...(main ? { main } : {}) }, diagnostics };
}

function checkModule(scopes: Scopes, scope: ModuleScope, syntax: S.Module, diagnostics: Diagnostic[], bounds: Bounds, work: ProgramWork): CModule {
  const functions: CFunction[] = [];
  const tests: CTest[] = [];
  for (const item of syntax.items) {
    if (item.kind === "FunctionDef") {
      const sig = scope.functions.get(item.name.name);
      if (sig === undefined || sig.syntax !== item) continue;
      requirePurpose(item.public, item.purpose, "function", item.name, diagnostics);
      functions.push(checkFunction(scopes, scope, sig, item, diagnostics, bounds, work));
    } else if (item.kind === "TestDef") {
      tests.push(checkTest(scopes, scope, item, diagnostics, bounds, work));
    } else if (item.kind === "TypeDef") {
      requirePurpose(item.public, item.purpose, "type", item.name, diagnostics);
    }
  }
  return { name: scope.name, file: scope.file, types: [...scope.types.values()], functions, tests };
}

/** Every public definition says what it is for (spec/types.md, section 7); the narration prints it. */
function requirePurpose(isPublic: boolean, purpose: S.Purpose | undefined, what: string, name: S.Ident, diagnostics: Diagnostic[]): void {
  if (!isPublic || purpose !== undefined) return;
  diagnostics.push({
    code: "E-PURPOSE-MISSING",
    severity: "error",
    message: `The public ${what} \`${name.name}\` has no \`purpose:\` line`,
    span: name.span,
    label: "public, without a purpose",
    notes: ["Every public function and type says what it is for; a narrated run (`--explain`) prints it."],
    hint: what === "function"
      ? `Add a line after the signature: \`purpose: Fetch the forecast for a city.\``
      : `Add a line after \`type ${name.name} is ...\`: \`purpose: What one ${name.name} holds.\``,
  });
}

function checkFunction(scopes: Scopes, scope: ModuleScope, sig: FunctionSig, item: S.FunctionDef, diagnostics: Diagnostic[], bounds: Bounds, work: ProgramWork): CFunction {
  const typeParams = new Map<string, Type>(sig.typeParams.map((p) => [p.name, p]));
  const ctx = new Context(scopes, scope, typeParams, diagnostics, work);
  const owner = `\`${sig.name}\``;
  return ctx.withFrame({ kind: "function", returns: sig.returns, ...(sig.fails ? { fails: sig.fails } : {}), failsDeclared: true, grant: sig.needs, owner }, () => {
    const params = item.params.map((p, i) => {
      const type = sig.params[i]?.type ?? resolve({ kind: "Error" });
      // A default is read where the function is defined, before its parameters exist.
      const defaultValue = p.default === undefined ? undefined : checkExpr(ctx, p.default, type);
      if (defaultValue !== undefined) ctx.expectType(defaultValue.type, type, defaultValue.span, `The default of \`${p.name.name}\``);
      return { p, type, defaultValue };
    }).map(({ p, type, defaultValue }, i) => {
      // A parameter declared twice is reported once, by the declaration pass.
      const repeated = item.params.slice(0, i).some((q) => q.name.name === p.name.name);
      const local = repeated ? { id: -1, name: p.name.name, type, mutable: false, span: p.name.span } : ctx.declare(p.name.name, type, false, p.name.span);
      return { local, ...(defaultValue ? { default: defaultValue } : {}) };
    });
    const body = checkBlock(ctx, item.body);
    if (!isCon(sig.returns, "Nothing") && !blockEnds(ctx, item.body)) {
      ctx.error("E-TYPE-NO-RETURN", item.name.span, `\`${sig.name}\` returns ${article(typeToText(sig.returns))}, but not on every path`, {
        label: `returns ${typeToText(sig.returns)}`,
        notes: ["A path of a function ends with `return`, `fail` or `crash`; an `if` needs its `else`, and every arm of a `match` must end, for the paths through them to end."],
        hint: "Add a `return` at the end of the function, or to the branch that has none.",
      });
    }
    reportUninferred(ctx, body);
    bounds.settle(ctx, sig);
    return {
      module: scope.name,
      name: sig.name,
      public: sig.public,
      ...(sig.purpose ? { purpose: sig.purpose } : {}),
      typeParams: [...sig.typeParams],
      params,
      returns: sig.returns,
      ...(sig.fails ? { fails: sig.fails } : {}),
      needs: [...sig.grant],
      body,
      span: item.span,
    };
  });
}

function checkTest(scopes: Scopes, scope: ModuleScope, item: S.TestDef, diagnostics: Diagnostic[], bounds: Bounds, work: ProgramWork): CTest {
  const grant = checkNeeds(item.needs, "entry", diagnostics);
  const ctx = new Context(scopes, scope, new Map(), diagnostics, work);
  const body = ctx.withFrame(
    { kind: "test", returns: { kind: "Con", name: "Nothing", args: [] }, failsDeclared: true, grant: grant.map((g) => g.capability), owner: "this test" },
    () => checkBlock(ctx, item.body),
  );
  reportUninferred(ctx, body);
  bounds.settle(ctx, undefined);
  return { name: item.name.value, needs: grant, ...(item.replays ? { replays: item.replays.value } : {}), body, span: item.span };
}

/** Locals whose type nothing in the function pinned down (`let items be []` never used). */
function reportUninferred(ctx: Context, body: import("./checked.js").CBlock): void {
  const seen = new Set<number>();
  const visit = (statements: import("./checked.js").CStatement[]) => {
    for (const s of statements) {
      if ((s.kind === "Var" || (s.kind === "Let" && s.pattern.kind === "Bind")) && !seen.has(s.kind === "Var" ? s.local.id : (s.pattern as { local: { id: number } }).local.id)) {
        const local = s.kind === "Var" ? s.local : (s.pattern as Extract<typeof s.pattern, { kind: "Bind" }>).local;
        seen.add(local.id);
        if (hasMeta(local.type)) {
          ctx.error("E-TYPE-INFER", local.span, `I cannot tell the full type of \`${local.name}\`: nothing here says what it holds`, {
            label: `${typeToText(zonk(local.type))}, with \`_\` unknown`,
            hint: `Write the type: \`${s.kind === "Var" ? "var" : "let"} ${local.name}: ${typeToText(zonk(local.type)).replace(/_/g, "Text")} be ...\`.`,
          });
        }
      }
      if (s.kind === "If") {
        s.branches.forEach((b) => visit(b.body.statements));
        if (s.elseBody) visit(s.elseBody.statements);
      } else if (s.kind === "ForEach" || s.kind === "While") visit(s.body.statements);
      else if (s.kind === "RunConcurrently") visit(s.tasks);
    }
  };
  visit(body.statements);
}

/** `main`'s parameters are read from the command line (spec/types.md, section 2). */
function checkMain(sig: FunctionSig, diagnostics: Diagnostic[]): void {
  const item = sig.syntax!;
  item.params.forEach((p, i) => {
    const type = sig.params[i]!.type;
    const text = typeToText(type);
    const scalar = ["Text", "Int", "Float", "Boolean"];
    const ok = scalar.includes(text) || scalar.some((s) => text === `Optional<${s}>`) || (p.name.name === "arguments" && text === "List<Text>");
    if (!ok && resolve(type).kind !== "Error") {
      diagnostics.push({
        code: "E-TYPE-MAIN",
        severity: "error",
        message: `\`main\`'s parameter \`${p.name.name}\` is ${article(text)}, which the command line cannot give`,
        span: p.span,
        label: "not readable from the command line",
        notes: ["Each parameter of `main` is an option (`--city Paris`): Text, Int, Float, Boolean, or an Optional of one; `arguments: List<Text>` takes the words after the options."],
        hint: "Take a Text and read it in the program, for example with `json.decode`.",
      });
    }
  });
  if (!isCon(sig.returns, "Nothing")) {
    diagnostics.push({
      code: "E-TYPE-MAIN",
      severity: "error",
      message: "`main` returns nothing: a run ends finished, failed or crashed, and says so with its exit code",
      span: item.returns!.span,
      label: "main cannot return a value",
      notes: [],
      hint: "Print the result with `console.print`, or fail with `fail with ...`.",
    });
  }
}

export { PRELUDE_NAME };
