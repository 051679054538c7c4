// `renyi fmt [--check] [PATHS]`: formats .ry files in place (compiler/format).
// Folders are walked as `renyi test` walks them; no path is the current folder.
// A file is rewritten only when formatting changes it, through a file written
// beside it and renamed over it, so that it is never seen half-written. With
// --check nothing is written: each file that would change is named, and the
// exit code says whether any would.

import { randomBytes } from "node:crypto";
import { accessSync, constants, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { renderText, type Diagnostic } from "../../compiler/diagnostics.js";
import { formatSource } from "../../compiler/format/format.js";
import type { SourceFile } from "../../compiler/source.js";
import { EXIT } from "../../vocabulary/outcomes.js";
import { loadSource } from "../host/files.js";
import { findTestFiles } from "../testing/files.js";
import { Refusal } from "./failure.js";

export interface FmtOptions {
  /** Write nothing; name the files that are not formatted. */
  readonly check: boolean;
}

export function runFmt(paths: readonly string[], options: FmtOptions): number {
  const found = findTestFiles(paths.length === 0 ? ["."] : paths);
  if (!found.ok) throw new Refusal(found.problem);
  let changed = 0;
  let refused = 0;
  for (const file of found.files) {
    const outcome = formatFile(file, options);
    if (outcome === "changed") {
      changed++;
      process.stdout.write(`${file}\n`);
    } else if (outcome === "refused") {
      refused++;
    }
  }
  const files = plural(found.files.length, "file");
  const summary = options.check
    ? changed === 0
      ? `${files} checked: all formatted.`
      : `${plural(changed, "file")} of ${found.files.length} would be reformatted.`
    : `${files} read, ${changed} reformatted.`;
  process.stderr.write(`${summary}${refused > 0 ? ` ${plural(refused, "file")} could not be formatted.` : ""}\n`);
  if (refused > 0) return EXIT.refused;
  return options.check && changed > 0 ? EXIT.failed : EXIT.finished;
}

function formatFile(file: string, options: FmtOptions): "same" | "changed" | "refused" {
  const loaded = loadSource(file);
  if (!loaded.ok) {
    report([loaded.diagnostic], file, loaded.source);
    return "refused";
  }
  const result = formatSource(file, loaded.source.text);
  if (result.text === undefined) {
    report(result.diagnostics, file, loaded.source);
    return "refused";
  }
  if (result.text === loaded.source.text) return "same";
  if (options.check) return "changed";
  try {
    replaceFile(file, result.text);
  } catch (e) {
    process.stderr.write(`error: ${file} could not be written (${(e as NodeJS.ErrnoException).code ?? String(e)})\n`);
    return "refused";
  }
  return "changed";
}

function report(diagnostics: Diagnostic[], file: string, source: SourceFile | undefined): void {
  process.stderr.write(renderText(diagnostics, new Map(source === undefined ? [] : [[file, source]])));
}

/**
 * Writes `text` to a new file beside `file` and renames it over `file`, keeping its permissions. A file that may not
 * be written is not replaced either.
 */
function replaceFile(file: string, text: string): void {
  const target = realpathSync(file);
  accessSync(target, constants.W_OK);
  const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.fmt`);
  try {
    writeFileSync(temporary, text, { flag: "wx", mode: statSync(target).mode & 0o777 });
    renameSync(temporary, target);
  } catch (e) {
    rmSync(temporary, { force: true });
    throw e;
  }
}

const plural = (count: number, noun: string): string =>
  `${count.toLocaleString("en")} ${noun}${count === 1 ? "" : "s"}`;
