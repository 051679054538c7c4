// `api/program` (spec/view.md, section 3): a program as the review shows it. Its modules are read
// as `renyi check` reads them (cli/host/program.ts, under the reader's size limits) and checked
// by the compiler as `renyi check` checks them, for the diagnostics; the editor's analysis of the
// same texts gives the highlighting and the checked trees even of a module that does not parse,
// from which come the grants in words, the definitions and which function reaches which
// capability. Pure of the network; reads the entry's folder alone.

import { basename, dirname, relative, sep } from "node:path";
import { checkModules } from "../../compiler/program.js";
import type { CFunction, CheckedGrantItem, CModule } from "../../compiler/check/checked.js";
import type { Diagnostic } from "../../compiler/diagnostics.js";
import type { SourceFile, Span as SourceSpan } from "../../compiler/source.js";
import { analyse, type Snapshot } from "../../editor/analysis.js";
import { semanticTokenList } from "../../editor/semantic-tokens.js";
import { grantInWords } from "../../vocabulary/grant-words.js";
import { grantText, type Need } from "../../vocabulary/needs.js";
import type {
  DefinitionView,
  DiagnosticView,
  GrantView,
  ModuleView,
  ProgramView,
  ReachView,
  Span,
  TokenView,
} from "../../view/api.js";
import { loadProgram } from "../host/program.js";
import { checkedGrantItem } from "../../editor/code-lenses.js";

/** The most diagnostics sent: a file of stray characters has one for each. */
const MAX_DIAGNOSTICS = 1_000;
/** The most highlighting tokens sent for one module: past them the text shows plain. */
const MAX_TOKENS = 200_000;

const TOKEN_KINDS: Record<string, string> = { macro: "capability", enumMember: "case" };

/** The program whose entry is `path` (a real path under a root), its id `id`; its modules only from under the root. */
export function programView(id: string, path: string, inside: (real: string) => boolean): ProgramView {
  const program = loadProgram(path, inside);
  const folder = dirname(path);
  const nameOf = new Map(program.modules.map((m) => [m.file, m.name]));
  const fileName = (file: string) => relative(folder, file).split(sep).join("/") || basename(file);
  const checked =
    program.problems.length > 0 ? { diagnostics: program.problems } : checkModules(program.modules, program.entry);
  const snapshot: Snapshot = analyse(program.modules.map((m) => ({ file: m.file, text: m.text })));
  const modules: ModuleView[] = [];
  for (const [file, source] of program.sources)
    modules.push({
      name: nameOf.get(file) ?? basename(file).replace(/\.ry$/, ""),
      file: fileName(file),
      text: source.text,
      tokens: tokensOf(snapshot, file),
    });
  const place = (span: SourceSpan): Span & { module: string } => spanOf(program.sources.get(span.file), span, nameOf);
  const diagnostics = checked.diagnostics.slice(0, MAX_DIAGNOSTICS).map((d) => diagnosticOf(d, place));
  const trees: CModule[] = [];
  for (const module of program.modules) {
    const tree = snapshot.modules.get(module.file)?.checked;
    if (tree !== undefined) trees.push(tree);
  }
  const lineOf = (span: SourceSpan) => program.sources.get(span.file)?.position(span.start).line ?? 1;
  return {
    id,
    modules,
    diagnostics,
    grants: grantsOf(trees, program.entry, lineOf),
    definitions: definitionsOf(trees, lineOf),
    reach: reachOf(trees, lineOf),
  };
}

function spanOf(
  source: SourceFile | undefined,
  span: SourceSpan,
  names: ReadonlyMap<string, string>,
): Span & { module: string } {
  const module = names.get(span.file) ?? basename(span.file).replace(/\.ry$/, "");
  if (source === undefined) return { module, line: 1, column: 1, endLine: 1, endColumn: 1 };
  const start = source.position(span.start);
  const end = source.position(span.end);
  return { module, line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
}

function diagnosticOf(d: Diagnostic, place: (span: SourceSpan) => Span & { module: string }): DiagnosticView {
  // The label says what the caret under the span says; the page marks the span itself.
  const notes = [...d.notes, ...(d.hint === undefined ? [] : [d.hint])];
  return {
    ...place(d.span),
    code: d.code,
    severity: d.severity,
    message: d.message,
    notes,
    edits: (d.edits ?? []).map((edit) => ({
      title: edit.title,
      changes: [{ ...place(edit.span), text: edit.replacement }],
    })),
  };
}

function tokensOf(snapshot: Snapshot, file: string): TokenView[] {
  if (!snapshot.modules.has(file)) return [];
  return semanticTokenList(snapshot, file)
    .slice(0, MAX_TOKENS)
    .map((t) => ({ line: t.line + 1, column: t.character + 1, length: t.length, kind: TOKEN_KINDS[t.type] ?? t.type }));
}

function grantView(
  name: string,
  kind: "main" | "test",
  module: string,
  line: number,
  needs: readonly CheckedGrantItem[],
): GrantView {
  const items = needs.map(checkedGrantItem);
  return {
    name,
    kind,
    module,
    line,
    text: items.length === 0 ? "(no needs)" : `needs ${items.map(grantText).join(", ")}`,
    words: items.length === 0 ? [grantInWords([])] : items.map((item) => grantInWords([item])),
  };
}

function grantsOf(trees: readonly CModule[], entry: string, lineOf: (span: SourceSpan) => number): GrantView[] {
  const grants: GrantView[] = [];
  for (const tree of trees) {
    const main = tree.name === entry ? tree.functions.find((f) => f.name === "main") : undefined;
    if (main !== undefined) grants.push(grantView("main", "main", tree.name, lineOf(main.span), main.needs));
    for (const test of tree.tests) grants.push(grantView(test.name, "test", tree.name, lineOf(test.span), test.needs));
  }
  return grants;
}

function definitionsOf(trees: readonly CModule[], lineOf: (span: SourceSpan) => number): DefinitionView[] {
  const out: DefinitionView[] = [];
  for (const tree of trees) {
    for (const f of tree.functions)
      out.push({
        module: tree.name,
        name: f.name,
        kind: "function",
        public: f.public,
        line: lineOf(f.span),
        ...(f.purpose === undefined ? {} : { purpose: f.purpose }),
        needs: f.needs.map((n) => grantText(checkedGrantItem(n))),
      });
    for (const t of tree.types)
      if (t.module === tree.name)
        out.push({
          module: tree.name,
          name: t.name,
          kind: t.shape === "record" ? "record" : "variant",
          public: t.public,
          line: t.span === undefined ? 1 : lineOf(t.span),
          ...(t.purpose === undefined ? {} : { purpose: t.purpose }),
          needs: [],
        });
  }
  return out;
}

/** Keys of the checked tree that hold types and places, never code: the walk passes them over. */
const NOT_CODE = new Set([
  "span",
  "type",
  "decl",
  "typeArgs",
  "fails",
  "returns",
  "of",
  "operand",
  "failure",
  "local",
  "error",
  "wrap",
  "params",
]);

/** What a function's body calls of the program, and the capabilities it uses itself. */
function directReach(f: CFunction): { calls: Set<string>; uses: Set<string> } {
  const calls = new Set<string>();
  const uses = new Set<string>();
  const seen = new Set<object>();
  const stack: unknown[] = [f.body, ...f.params.map((p) => p.default)];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    const tree = node as Record<string, unknown>;
    if (tree["kind"] === "Call") {
      const callee = tree["callee"] as { kind: string; module?: string; name?: string };
      if (callee.kind === "Function") calls.add(`${callee.module}.${callee.name}`);
      else if (callee.kind === "Library" || callee.kind === "Value")
        for (const need of tree["needs"] as Need[]) uses.add(need.path.join("."));
    } else if (tree["kind"] === "FunctionRef" && tree["library"] === false)
      calls.add(`${tree["module"] as string}.${tree["name"] as string}`);
    for (const key in tree) if (!NOT_CODE.has(key)) stack.push(tree[key]);
  }
  return { calls, uses };
}

/** Each function, what it calls and uses, and what it reaches through the functions it calls (a fixed point). */
function reachOf(trees: readonly CModule[], lineOf: (span: SourceSpan) => number): ReachView[] {
  const functions = trees.flatMap((t) => t.functions.map((f) => ({ key: `${t.name}.${f.name}`, f })));
  const direct = new Map(functions.map(({ key, f }) => [key, directReach(f)]));
  const reaches = new Map([...direct].map(([key, d]) => [key, new Set(d.uses)]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const [key, d] of direct) {
      const mine = reaches.get(key)!;
      for (const callee of d.calls)
        for (const capability of reaches.get(callee) ?? [])
          if (!mine.has(capability)) {
            mine.add(capability);
            changed = true;
          }
    }
  }
  return functions.map(({ key, f }) => ({
    module: f.module,
    function: f.name,
    line: lineOf(f.span),
    calls: [...direct.get(key)!.calls].sort(),
    uses: [...direct.get(key)!.uses].sort(),
    reaches: [...reaches.get(key)!].sort(),
  }));
}
