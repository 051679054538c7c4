// `renyi check FILE... [--json]`: diagnostics for each file; exit 0 without
// errors, 3 with.

import { checkSource, hasErrors, type Diagnostic } from "../compiler/index.js";
import { renderText, toJson } from "../compiler/diagnostics.js";
import type { SourceFile } from "../compiler/source.js";
import { loadSource } from "./files.js";
import { EXIT } from "./exit.js";

export function runCheck(files: string[], options: { json: boolean }): number {
  const diagnostics: Diagnostic[] = [];
  const sources = new Map<string, SourceFile>();
  for (const file of files) {
    const loaded = loadSource(file);
    if (loaded.source !== undefined) sources.set(file, loaded.source);
    if (!loaded.ok) {
      diagnostics.push(loaded.diagnostic);
      continue;
    }
    diagnostics.push(...checkSource(file, loaded.source.text).diagnostics);
  }
  if (options.json) {
    process.stdout.write(JSON.stringify(toJson(diagnostics, sources)) + "\n");
  } else if (diagnostics.length > 0) {
    process.stderr.write(renderText(diagnostics, sources));
    const errors = diagnostics.filter((d) => d.severity === "error").length;
    const warnings = diagnostics.length - errors;
    process.stderr.write(`\n${summary(errors, warnings)}\n`);
  }
  return hasErrors(diagnostics) ? EXIT.refused : EXIT.finished;
}

function summary(errors: number, warnings: number): string {
  const parts: string[] = [];
  if (errors > 0) parts.push(`${errors} error${errors === 1 ? "" : "s"}`);
  if (warnings > 0) parts.push(`${warnings} warning${warnings === 1 ? "" : "s"}`);
  return parts.join(", ") + " found.";
}
