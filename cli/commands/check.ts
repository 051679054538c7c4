// `renyi check FILE... [--json]`: diagnostics for each file; exit 0 without
// errors, 3 with. A clean check says how many files it read.

import { checkProgramSources, hasErrors, type Diagnostic } from "../../compiler/index.js";
import { renderText, toJson } from "../../compiler/diagnostics.js";
import type { SourceFile } from "../../compiler/source.js";
import { EXIT } from "../../vocabulary/outcomes.js";
import { loadProgram } from "../host/program.js";

export function runCheck(files: string[], options: { json: boolean }): number {
  const diagnostics: Diagnostic[] = [];
  const sources = new Map<string, SourceFile>();
  const seen = new Set<string>();
  for (const file of files) {
    const program = loadProgram(file);
    for (const [path, source] of program.sources) sources.set(path, source);
    const found =
      program.problems.length > 0 ? program.problems : checkProgramSources(program.modules, program.entry).diagnostics;
    // Two entries that share a module would report its problems twice.
    for (const d of found) {
      const key = `${d.code}|${d.span.file}|${d.span.start}|${d.message}`;
      if (!seen.has(key)) {
        seen.add(key);
        diagnostics.push(d);
      }
    }
  }
  if (options.json) {
    process.stdout.write(`${JSON.stringify(toJson(diagnostics, sources))}\n`);
  } else if (diagnostics.length > 0) {
    process.stderr.write(renderText(diagnostics, sources));
    const errors = diagnostics.filter((d) => d.severity === "error").length;
    const warnings = diagnostics.length - errors;
    process.stderr.write(`\n${summary(errors, warnings)}\n`);
  } else {
    // Every file read counts, the modules a program imports as well as the files named.
    process.stdout.write(`Checked ${plural(sources.size, "file")}: no problems found.\n`);
  }
  return hasErrors(diagnostics) ? EXIT.refused : EXIT.finished;
}

function summary(errors: number, warnings: number): string {
  const parts: string[] = [];
  if (errors > 0) parts.push(plural(errors, "error"));
  if (warnings > 0) parts.push(plural(warnings, "warning"));
  return `${parts.join(", ")} found.`;
}

const plural = (count: number, noun: string): string =>
  `${count.toLocaleString("en")} ${noun}${count === 1 ? "" : "s"}`;
