// spec/diagnostics.md and the table of run-time codes in spec/runtime.md,
// generated from the catalogue (vocabulary/problems/): written by `npm run
// diagnostics-reference`, and checked by a test that fails when either file is
// stale. The introduction of spec/diagnostics.md (rendering, the JSON form, exit
// codes, code classes) is written by hand, above the marker; everything below it
// is made here, a section per family and a part per code.

import type { ProblemEntry } from "../vocabulary/problems/entry.js";
import { FAILURE_PROBLEMS } from "../vocabulary/problems/failures.js";
import { GRANT_PROBLEMS } from "../vocabulary/problems/grants.js";
import { NAME_PROBLEMS } from "../vocabulary/problems/names.js";
import { RUN_PROBLEMS } from "../vocabulary/problems/run.js";
import { SYNTAX_PROBLEMS } from "../vocabulary/problems/syntax.js";
import { TYPE_PROBLEMS } from "../vocabulary/problems/types.js";

/** Everything below this line of spec/diagnostics.md is generated. */
const GENERATED_MARKER =
  "<!-- Generated from the catalogue (vocabulary/problems/) by `npm run diagnostics-reference`: edit the " +
  "catalogue, not what follows. -->";

/** The run-time table of spec/runtime.md lies between these two lines. */
const RUNTIME_TABLE_START =
  "<!-- The table of run-time codes, generated from vocabulary/problems/run.ts by `npm run diagnostics-reference`. -->";
const RUNTIME_TABLE_END = "<!-- End of the generated table. -->";

interface Family {
  readonly title: string;
  /** The section's anchor in spec/diagnostics.md. */
  readonly anchor: string;
  readonly about: string;
  readonly rows: object;
}

const FAMILIES: readonly Family[] = [
  {
    title: "Syntax",
    anchor: "syntax",
    about:
      "`E-SYN-*`; `E-FILE` for a file that cannot be read; and `E-CHECK-LIMIT` for a check `renyi mcp` stopped " +
      "at its limits. Each `E-SYN-*` has a golden file in `fixtures/syntax/` with the rendered message.",
    rows: SYNTAX_PROBLEMS,
  },
  {
    title: "Names",
    anchor: "names",
    about:
      "`E-NAME-*`: a name that is unknown, declared twice, shadowed, or not public. Each has a golden file in " +
      "`fixtures/check/` named after it (`e_name_unknown.golden` for `E-NAME-UNKNOWN`).",
    rows: NAME_PROBLEMS,
  },
  {
    title: "Types",
    anchor: "types",
    about:
      "`E-TYPE-*`, each with a golden file in `fixtures/check/` named after it; and `E-CHECK-TOO-COMPLEX`, a " +
      "program whose types take more steps to check than its size allows, with its golden in `fixtures/bounds/` " +
      "(checked there with a budget of a few steps: no program a test could hold reaches the real one).",
    rows: TYPE_PROBLEMS,
  },
  {
    title: "Failures and exhaustiveness",
    anchor: "failures-and-exhaustiveness",
    about: "`E-FAIL-*`, `E-MATCH-*` and `W-MATCH-*`. Each has a golden file in `fixtures/check/` named after it.",
    rows: FAILURE_PROBLEMS,
  },
  {
    title: "Capabilities, needs and purposes",
    anchor: "capabilities-needs-and-purposes",
    about: "`E-CAP-*`, `E-PURPOSE-*` and `W-GUARD-*`. Each has a golden file in `fixtures/check/` named after it.",
    rows: GRANT_PROBLEMS,
  },
  {
    title: "Run time",
    anchor: "run-time",
    about:
      "`E-RT-*`: how a run ends when it does not finish (spec/runtime.md, section 5, gives the outcome and exit " +
      "code of each kind), and `E-INTERNAL`, a fault of a `renyi` command itself. The wrong example of each, run " +
      "with `renyi run`, ends with its code, and the right one finishes (`tests/problems.test.ts`), except where " +
      "the example only describes the situation.",
    rows: RUN_PROBLEMS,
  },
];

function rowsOf(table: object): [string, ProblemEntry<unknown>][] {
  return Object.entries(table) as [string, ProblemEntry<unknown>][];
}

/** The generated part of spec/diagnostics.md, after the hand-written `introduction`. */
function diagnosticsReference(introduction: string): string {
  const out = [introduction.trimEnd(), "", GENERATED_MARKER, ""];
  out.push(
    "## Every code",
    "",
    ...FAMILIES.filter((f) => rowsOf(f.rows).length > 0).map(
      (f) =>
        `- [${f.title}](#${f.anchor}): ${rowsOf(f.rows)
          .map(([c]) => `\`${c}\``)
          .join(", ")}`,
    ),
    "",
  );
  for (const family of FAMILIES) {
    const rows = rowsOf(family.rows);
    if (rows.length === 0) continue;
    out.push(`## ${family.title}`, "", family.about, "");
    for (const [code, row] of rows) out.push(...codeSection(code, row));
  }
  return `${out.join("\n").trimEnd()}\n`;
}

function codeSection(code: string, row: ProblemEntry<unknown>): string[] {
  const out = [`### ${code}`, "", `**${row.title}** (${when(code, row)})`, "", paragraphs(row.explanation), ""];
  const facts = Object.entries(row.facts as Record<string, string>);
  if (facts.length === 0) out.push("An instance carries no facts.", "");
  else
    out.push(
      "| fact | what it is |",
      "|---|---|",
      ...facts.map(([k, v]) => `| \`${k}\` | ${v.replace(/\|/g, "\\|")} |`),
      "",
    );
  const fence = row.described ? "text" : "renyi";
  out.push(
    row.described ? "Wrong (described: no program the tests run shows it):" : "Wrong:",
    "",
    `\`\`\`${fence}`,
    row.wrong.trim(),
    "```",
    "",
    "Right:",
    "",
    `\`\`\`${fence}`,
    row.right.trim(),
    "```",
    "",
  );
  return out;
}

/** The explanation's paragraphs, each on one line (the catalogue wraps them for the terminal). */
function paragraphs(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, " "))
    .join("\n\n");
}

function when(code: string, row: ProblemEntry<unknown>): string {
  if (row.kind !== undefined) return code.startsWith("E-RT-") ? `run time, ${row.kind}` : `Renyi's own, ${row.kind}`;
  return code.startsWith("W-") ? "compile time, warning" : "compile time, error";
}

/** spec/diagnostics.md made again from its present text: its introduction kept, the rest generated. */
export function regeneratedDiagnostics(present: string): string {
  const at = present.indexOf(GENERATED_MARKER);
  return diagnosticsReference(at === -1 ? present : present.slice(0, at));
}

/** The table of run-time codes in spec/runtime.md: code, kind, title, each linked to its explanation. */
function runtimeTable(): string {
  const lines = ["| code | kind | what happened |", "|---|---|---|"];
  for (const [code, row] of rowsOf(RUN_PROBLEMS)) {
    if (!code.startsWith("E-RT-")) continue;
    lines.push(`| [\`${code}\`](diagnostics.md#${code.toLowerCase()}) | ${row.kind ?? "crash"} | ${row.title} |`);
  }
  return lines.join("\n");
}

/** spec/runtime.md with its table of run-time codes made again; undefined when it has no markers. */
export function regeneratedRuntime(present: string): string | undefined {
  const start = present.indexOf(RUNTIME_TABLE_START);
  const end = present.indexOf(RUNTIME_TABLE_END);
  if (start === -1 || end < start) return undefined;
  return `${present.slice(0, start + RUNTIME_TABLE_START.length)}\n${runtimeTable()}\n${present.slice(end)}`;
}
