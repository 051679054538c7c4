// Code lenses: above `main` and above each `test`, its grant in words (the
// vocabulary's wording: what the run may reach, its budgets and guards) and the
// commands that run it, as data: a title, a command name the client knows, its
// arguments, and the command line it stands for. A lens runs nothing: the
// client decides whether and where to run the line. Pure: from the snapshot's
// trees, the checked one when the module checks, the syntax tree otherwise.

import type { CheckedGrantItem } from "../compiler/check/checked.js";
import type { GrantItem as SyntaxGrantItem, Item, Needs } from "../compiler/parse/tree.js";
import type { Span } from "../compiler/source.js";
import { grantInWords } from "../vocabulary/grant-words.js";
import { isBudgetUnit, type GrantItem, type Need } from "../vocabulary/needs.js";
import type { ModuleView, Snapshot } from "./analysis.js";

type LensCommandName = "renyi.run" | "renyi.record" | "renyi.replay" | "renyi.test" | "renyi.refresh";

export interface LensCommand {
  readonly name: LensCommandName;
  /** What the client passes to its command: the file, then the recording or the test's name. */
  readonly arguments: readonly string[];
  /** The command line the command stands for, word by word (`renyi`, `run`, FILE). */
  readonly commandLine: readonly string[];
}

export interface CodeLens {
  /** The definition's first line: `main`'s name, or the test's `test` keyword and name. */
  readonly span: Span;
  readonly title: string;
  /** Absent for a lens that only tells (the grant in words). */
  readonly command?: LensCommand;
}

/** Every lens of `file`: `main`'s grant, Run, Record and Replay; each test's grant, Test (and Refresh for a replays test). */
export function codeLenses(snapshot: Snapshot, file: string): CodeLens[] {
  const view = snapshot.modules.get(file);
  if (view === undefined) return [];
  const lenses: CodeLens[] = [];
  for (const item of view.syntax.items) {
    if (item.kind === "FunctionDef" && item.name.name === "main") lenses.push(...mainLenses(view, item));
    if (item.kind === "TestDef") lenses.push(...testLenses(view, item));
  }
  return lenses;
}

/** Where `renyi record` is told to write the program's recording: beside the program, NAME.recording.json. */
function recordingFileOf(file: string): string {
  return `${file.endsWith(".ry") ? file.slice(0, -3) : file}.recording.json`;
}

function mainLenses(view: ModuleView, main: Extract<Item, { kind: "FunctionDef" }>): CodeLens[] {
  const span = main.name.span;
  const checked = view.checked?.functions.find((f) => f.name === "main");
  const grant = checked === undefined ? syntaxGrant(main.needs) : checked.needs.map(checkedGrantItem);
  const file = view.file;
  const recording = recordingFileOf(file);
  return [
    { span, title: grantTitle(grant) },
    { span, title: "Run", command: command("renyi.run", [file], ["run", file]) },
    { span, title: "Record", command: command("renyi.record", [file, recording], ["record", "--to", recording, file]) },
    {
      span,
      title: "Replay",
      command: command("renyi.replay", [file, recording], ["run", "--replay", recording, file]),
    },
  ];
}

function testLenses(view: ModuleView, test: Extract<Item, { kind: "TestDef" }>): CodeLens[] {
  const name = test.name.value;
  const span = { file: view.file, start: test.span.start, end: test.name.span.end };
  // Tests of one module may share a name only in a module that does not check; the first is the one meant.
  const checked = view.checked?.tests.find((t) => t.name === name);
  const grant = checked === undefined ? syntaxGrant(test.needs) : checked.needs.map(checkedGrantItem);
  const lenses: CodeLens[] = [
    { span, title: grantTitle(grant) },
    { span, title: "Test", command: command("renyi.test", [view.file, name], ["test", view.file, "--filter", name]) },
  ];
  if (test.replays !== undefined)
    lenses.push({
      span,
      title: "Refresh recording",
      command: command("renyi.refresh", [view.file, name], ["test", view.file, "--refresh", name]),
    });
  return lenses;
}

function command(name: LensCommandName, args: readonly string[], words: readonly string[]): LensCommand {
  return { name, arguments: args, commandLine: ["renyi", ...words] };
}

function grantTitle(grant: readonly GrantItem[]): string {
  const words = grantInWords(grant);
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

/** A checked `needs` item as the vocabulary's GrantItem (the wording's input). */
export function checkedGrantItem(item: CheckedGrantItem): GrantItem {
  return {
    ...plainNeed(item.capability),
    ...(item.budget ? { budget: item.budget } : {}),
    ...(item.guard ? { guard: { sinks: item.guard.sinks.map(plainNeed) } } : {}),
  };
}

function plainNeed(need: Need): Need {
  return need.scope === undefined ? { path: need.path } : { path: need.path, scope: need.scope };
}

/** The grant as the `needs` line writes it, for a module that does not check: what can be read of it. */
function syntaxGrant(needs: Needs | undefined): GrantItem[] {
  return (needs?.items ?? []).map(syntaxGrantItem);
}

function syntaxGrantItem(item: SyntaxGrantItem): GrantItem {
  const need = syntaxNeed(item.capability);
  const budget = item.budget;
  return {
    ...need,
    ...(budget && isBudgetUnit(budget.unit.name)
      ? { budget: { count: budget.count.value, unit: budget.unit.name } }
      : {}),
    ...(item.guard ? { guard: { sinks: item.guard.sinks.map(syntaxNeed) } } : {}),
  };
}

function syntaxNeed(ref: SyntaxGrantItem["capability"]): Need {
  const path = ref.path.map((p) => p.name);
  return ref.scope === undefined ? { path } : { path, scope: ref.scope.value };
}
