// The checker's entry: syntax trees of a program's modules in, a checked tree
// and diagnostics out. First every declaration (declare.ts), then every body.

import { diagnose } from "../diagnose.js";
import type { Diagnostic } from "../diagnostics.js";
import type { Span } from "../source.js";
import type * as S from "../parse/tree.js";
import type { CFunction, CModule, CTest, Program } from "./checked.js";
import { Bounds } from "./bounds.js";
import { Context, newProgramWork, type NeedsEdit, type ProgramWork } from "./context.js";
import { declareProgram, libraryScopes, type SourceModule } from "./declare.js";
import { checkExpr } from "./expressions.js";
import { checkNeeds, checkUnusedCalls } from "./grants.js";
import { functionTarget, record, type NameUse } from "./names.js";
import { replaysPathLeaves } from "../../vocabulary/recording-path.js";
import type { FunctionSig, ModuleScope, Program as Scopes } from "./scope.js";
import { blockEnds } from "./ends.js";
import { checkBlock } from "./statements.js";
import { hasMeta, isCon, numberedFromStart, resolve, typeToText, zonk, type Type } from "./types.js";
import {
  pollStop,
  TooComplex,
  TYPE_STEPS_BASE,
  TYPE_STEPS_PER_CHARACTER,
  typeStepsFor,
  withTypeSteps,
} from "./work.js";

export type { SourceModule };

export interface CheckResult {
  program: Program;
  diagnostics: Diagnostic[];
}

export interface CheckOptions {
  /** Record every name of each module and what it names, in CModule.names (names.ts): for an editor. */
  readonly names?: boolean;
  /** The steps the walks over types may take (work.ts); by default, the budget for the sources' size. */
  readonly typeSteps?: number;
  /** Called every few thousand steps and before each definition: a caller with a deadline throws from it. */
  readonly stop?: () => void;
  /**
   * The modules (by name) whose bodies are checked; by default every one. The others are declared alone, for what
   * the checked ones use of them, and their checked trees hold their types but no function or test.
   */
  readonly bodies?: ReadonlySet<string>;
}

export function checkProgram(sources: readonly SourceModule[], entry: string, options: CheckOptions = {}): CheckResult {
  libraryScopes(); // the prelude, declared once for the process (its type ids are the library's own)
  const characters = sources.reduce((sum, s) => sum + (s.syntax.span.end - s.syntax.span.start), 0);
  const limit = options.typeSteps ?? typeStepsFor(characters);
  const modules: CModule[] = [];
  const where: Where = {
    span: { file: sources.find((s) => s.name === entry)?.file ?? sources[0]?.file ?? "", start: 0, end: 0 },
  };
  try {
    return withTypeSteps(limit, options.stop, () =>
      numberedFromStart(() => checkDeclared(sources, entry, modules, where, options.names === true, options.bodies)),
    );
  } catch (e) {
    // A program whose types take more steps than its size allows (or nest deeper than the stack) is refused, not
    // checked on.
    if (!(e instanceof TooComplex) && !(e instanceof RangeError)) throw e;
    const diagnostic = diagnose("E-CHECK-TOO-COMPLEX", where.span, {
      steps: limit,
      base: TYPE_STEPS_BASE,
      perCharacter: TYPE_STEPS_PER_CHARACTER,
      characters,
      deep: !(e instanceof TooComplex),
    });
    return { program: { modules }, diagnostics: [...(where.diagnostics ?? []), diagnostic] };
  }
}

/** The definition being checked, and the diagnostics so far: what a refusal as too complex reports with. */
interface Where {
  span: Span;
  diagnostics?: Diagnostic[];
}

function checkDeclared(
  sources: readonly SourceModule[],
  entry: string,
  modules: CModule[],
  where: Where,
  withNames: boolean,
  bodies?: ReadonlySet<string>,
): CheckResult {
  const names: NameUse[] | undefined = withNames ? [] : undefined;
  const scopes = declareProgram(sources, entry, names);
  const diagnostics = scopes.diagnostics;
  where.diagnostics = diagnostics;
  let main: CFunction | undefined;
  const bounds = new Bounds();
  const work = newProgramWork();
  for (const source of sources) {
    const scope = scopes.modules.get(source.name)!;
    if (bodies !== undefined && !bodies.has(source.name)) {
      modules.push({ name: scope.name, file: scope.file, types: [...scope.types.values()], functions: [], tests: [] });
      continue;
    }
    const module = checkModule(scopes, scope, source.syntax, diagnostics, bounds, work, where);
    modules.push(module);
    if (source.name === entry) {
      main = module.functions.find((f) => f.name === "main");
      if (main !== undefined) checkMain(scope.functions.get("main")!, diagnostics);
    }
  }
  bounds.finish(diagnostics);
  if (names !== undefined) namesByModule(modules, names);
  return { program: { modules, ...(main ? { main } : {}) }, diagnostics };
}

/** Each module's names, those whose span is in its file, in the order they were recorded. */
function namesByModule(modules: CModule[], names: readonly NameUse[]): void {
  const byFile = new Map<string, NameUse[]>(modules.map((m) => [m.file, []]));
  for (const use of names) byFile.get(use.span.file)?.push(use);
  modules.forEach((m, i) => {
    modules[i] = { ...m, names: byFile.get(m.file)! };
  });
}

function checkModule(
  scopes: Scopes,
  scope: ModuleScope,
  syntax: S.Module,
  diagnostics: Diagnostic[],
  bounds: Bounds,
  work: ProgramWork,
  where: Where,
): CModule {
  const functions: CFunction[] = [];
  const tests: CTest[] = [];
  for (const item of syntax.items) {
    where.span = item.kind === "Use" ? item.span : item.name.span;
    pollStop();
    if (item.kind === "FunctionDef") {
      const sig = scope.functions.get(item.name.name);
      if (sig === undefined || sig.syntax !== item) continue;
      requirePurpose(
        item.public,
        item.purpose,
        "function",
        item.name,
        diagnostics,
        item.needs?.span ?? item.body.statements[0]?.span,
      );
      functions.push(checkFunction(scopes, scope, sig, item, diagnostics, bounds, work));
    } else if (item.kind === "TestDef") {
      tests.push(checkTest(scopes, scope, item, diagnostics, bounds, work));
    } else if (item.kind === "TypeDef") {
      requirePurpose(
        item.public,
        item.purpose,
        "type",
        item.name,
        diagnostics,
        (item.body.kind === "RecordBody" ? item.body.fields[0] : item.body.cases[0])?.span,
      );
    }
  }
  return { name: scope.name, file: scope.file, types: [...scope.types.values()], functions, tests };
}

/** Every public definition says what it is for (spec/types.md, section 7); the narration prints it. */
function requirePurpose(
  isPublic: boolean,
  purpose: S.Purpose | undefined,
  what: "function" | "type",
  name: S.Ident,
  diagnostics: Diagnostic[],
  before: Span | undefined,
): void {
  if (!isPublic || purpose !== undefined) return;
  // The line goes before the first line of the body (or the `needs` line), indented as a body is.
  const edits =
    before === undefined
      ? []
      : [
          {
            title: "Add a `purpose:` line",
            span: { file: before.file, start: before.start, end: before.start },
            replacement: `purpose: What ${name.name} is for.\n  `,
          },
        ];
  diagnostics.push(
    diagnose(
      "E-PURPOSE-MISSING",
      name.span,
      { definition: what, name: name.name },
      edits.length === 0 ? {} : { edits },
    ),
  );
}

function checkFunction(
  scopes: Scopes,
  scope: ModuleScope,
  sig: FunctionSig,
  item: S.FunctionDef,
  diagnostics: Diagnostic[],
  bounds: Bounds,
  work: ProgramWork,
): CFunction {
  const typeParams = new Map<string, Type>(sig.typeParams.map((p) => [p.name, p]));
  const ctx = new Context(scopes, scope, typeParams, diagnostics, work);
  record(scopes.names, item.name.span, functionTarget(sig), true);
  const owner = { kind: "function", name: sig.name } as const;
  const needsEdit = needsEditOf(item.needs, item.body.statements[0]?.span);
  return ctx.withFrame(
    {
      kind: "function",
      returns: sig.returns,
      ...(sig.fails ? { fails: sig.fails } : {}),
      failsDeclared: true,
      grant: sig.needs,
      owner,
      ...(needsEdit ? { needsEdit } : {}),
    },
    () => {
      const params = item.params
        .map((p, i) => {
          const type = sig.params[i]?.type ?? resolve({ kind: "Error" });
          // A default is read where the function is defined, before its parameters exist.
          const defaultValue = p.default === undefined ? undefined : checkExpr(ctx, p.default, type);
          if (defaultValue !== undefined)
            ctx.expectType(defaultValue.type, type, defaultValue.span, { of: "default", parameter: p.name.name });
          return { p, type, defaultValue };
        })
        .map(({ p, type, defaultValue }, i) => {
          // A parameter declared twice is reported once, by the declaration pass.
          const repeated = item.params.slice(0, i).some((q) => q.name.name === p.name.name);
          const local = repeated
            ? { id: -1, name: p.name.name, type, mutable: false, span: p.name.span }
            : ctx.declare(p.name.name, type, false, p.name.span, "parameter");
          return { local, ...(defaultValue ? { default: defaultValue } : {}) };
        });
      const body = checkBlock(ctx, item.body);
      if (!isCon(sig.returns, "Nothing") && !blockEnds(ctx, item.body)) {
        ctx.problem("E-TYPE-NO-RETURN", item.name.span, {
          problem: "function",
          name: sig.name,
          returns: typeToText(sig.returns),
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
    },
  );
}

function checkTest(
  scopes: Scopes,
  scope: ModuleScope,
  item: S.TestDef,
  diagnostics: Diagnostic[],
  bounds: Bounds,
  work: ProgramWork,
): CTest {
  const grant = checkNeeds(item.needs, "entry", diagnostics, scopes.names);
  const ctx = new Context(scopes, scope, new Map(), diagnostics, work);
  const body = ctx.withFrame(
    {
      kind: "test",
      returns: { kind: "Con", name: "Nothing", args: [] },
      failsDeclared: true,
      grant: grant.map((g) => g.capability),
      owner: { kind: "test" },
      needsEdit:
        item.needs === undefined
          ? { at: emptyAt(item.name.span.end, item.name.span), prefix: " needs ", suffix: "" }
          : appendTo(item.needs),
    },
    () => checkBlock(ctx, item.body),
  );
  reportUninferred(ctx, body);
  bounds.settle(ctx, undefined);
  // The recording stays beneath the test's folder: a test names no other file of the machine.
  const leaves = item.replays === undefined ? undefined : replaysPathLeaves(item.replays.value);
  if (leaves !== undefined)
    diagnostics.push(
      diagnose("E-CAP-REPLAYS-PATH", item.replays!.span, { path: item.replays!.value, problem: leaves }),
    );
  if (item.calls !== undefined) checkCallRange(item.calls, diagnostics);
  if (item.unused !== undefined) checkUnusedCalls(item.unused, diagnostics, scopes.names);
  return {
    name: item.name.value,
    needs: grant,
    ...(item.replays ? { replays: item.replays.value } : {}),
    body,
    span: item.span,
  };
}

/** `calls N to M`: a part of a recording, numbered from 1, first to last (E-CAP-REPLAYS-CALLS). */
function checkCallRange(calls: S.CallRange, diagnostics: Diagnostic[]): void {
  const first = calls.first.value;
  const last = calls.last.value;
  // The lexer keeps an Int literal within 2^53 - 1 (E-SYN-NUMBER), so both are whole numbers a recording can hold.
  const problem = first < 1 || last < 1 ? "zero" : last < first ? "backwards" : undefined;
  if (problem !== undefined) diagnostics.push(diagnose("E-CAP-REPLAYS-CALLS", calls.span, { first, last, problem }));
}

/** Locals whose type nothing in the function pinned down (`let items be []` never used). */
function reportUninferred(ctx: Context, body: import("./checked.js").CBlock): void {
  const seen = new Set<number>();
  const visit = (statements: import("./checked.js").CStatement[]) => {
    for (const s of statements) {
      if (
        (s.kind === "Var" || (s.kind === "Let" && s.pattern.kind === "Bind")) &&
        !seen.has(s.kind === "Var" ? s.local.id : (s.pattern as { local: { id: number } }).local.id)
      ) {
        const local = s.kind === "Var" ? s.local : (s.pattern as Extract<typeof s.pattern, { kind: "Bind" }>).local;
        seen.add(local.id);
        if (hasMeta(local.type)) {
          ctx.problem("E-TYPE-INFER", local.span, {
            problem: "local",
            local: local.name,
            type: typeToText(zonk(local.type)),
            binding: s.kind === "Var" ? "var" : "let",
          });
        }
      }
      if (s.kind === "If") {
        for (const b of s.branches) visit(b.body.statements);
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
    const ok =
      scalar.includes(text) ||
      scalar.some((s) => text === `Optional<${s}>`) ||
      (p.name.name === "arguments" && text === "List<Text>");
    if (!ok && resolve(type).kind !== "Error") {
      diagnostics.push(diagnose("E-TYPE-MAIN", p.span, { problem: "parameter", parameter: p.name.name, type: text }));
    }
  });
  if (!isCon(sig.returns, "Nothing"))
    diagnostics.push(diagnose("E-TYPE-MAIN", item.returns!.span, { problem: "returns" }));
}

/** An empty span at `offset`: where an edit inserts. */
function emptyAt(offset: number, near: Span): Span {
  return { file: near.file, start: offset, end: offset };
}

/** `, capability` after the last item of a `needs` line. */
function appendTo(needs: S.Needs): NeedsEdit {
  const last = needs.items[needs.items.length - 1]?.span ?? needs.span;
  return { at: emptyAt(last.end, last), prefix: ", ", suffix: "" };
}

/**
 * Where a function's needs can grow: its `needs` line, or a new line before
 * the body's first statement (indented as a body conventionally is, by two).
 */
function needsEditOf(needs: S.Needs | undefined, firstStatement: Span | undefined): NeedsEdit | undefined {
  if (needs !== undefined) return appendTo(needs);
  if (firstStatement === undefined) return undefined;
  return { at: emptyAt(firstStatement.start, firstStatement), prefix: "needs ", suffix: "\n  " };
}
