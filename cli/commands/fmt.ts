// `renyi fmt [--check] [PATHS]`: formats .ry files in place (compiler/format).
// Folders are walked as `renyi test` walks them; no path is the current folder.
// A file is rewritten only when formatting changes it, through a file written
// beside it and renamed over it, so that it is never seen half-written. With
// --check nothing is written: each file that would change is named, and the
// exit code says whether any would.

import { randomBytes } from "node:crypto";
import { accessSync, chmodSync, constants, lstatSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { renderText, showable, type Diagnostic } from "../../compiler/diagnostics.js";
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
      process.stdout.write(`${showable(file)}\n`);
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
  // A symbolic link is not followed: it could lead the rewrite to a file outside the paths given.
  const loaded = loadSource(file, true);
  if (!loaded.ok) {
    report([loaded.diagnostic], file, loaded.source);
    return "refused";
  }
  const result = formatSource(file, loaded.source.text);
  if (result.text === undefined) {
    report(result.diagnostics, file, loaded.source);
    return "refused";
  }
  // The text was decoded without its byte order mark, which formatting drops.
  if (result.text === loaded.source.text && !loaded.byteOrderMark) return "same";
  if (options.check) return "changed";
  try {
    replaceFile(file, result.text);
  } catch (e) {
    process.stderr.write(
      `error: ${showable(file)} could not be written (${(e as NodeJS.ErrnoException).code ?? String(e)})\n`,
    );
    return "refused";
  }
  return "changed";
}

function report(diagnostics: Diagnostic[], file: string, source: SourceFile | undefined): void {
  process.stderr.write(renderText(diagnostics, new Map(source === undefined ? [] : [[file, source]])));
}

/**
 * Writes `text` to a new file beside `file` and renames it over `file`, keeping its permission bits (rwx; not
 * set-user-ID, set-group-ID or sticky). A file that may not be written is not replaced either, nor one that has
 * become a symbolic link since it was read: the rename would replace the link, not what it leads to, but the link
 * was not what was formatted.
 */
function replaceFile(file: string, text: string): void {
  const stats = lstatSync(file);
  if (stats.isSymbolicLink()) throw Object.assign(new Error("a symbolic link"), { code: "ELOOP" });
  accessSync(file, constants.W_OK);
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString("hex")}.fmt`);
  try {
    // `wx` creates the file and fails if anything, a link included, is already there.
    writeFileSync(temporary, text, { flag: "wx", mode: stats.mode & 0o777 });
    chmodSync(temporary, stats.mode & 0o777); // the mode given on creation was narrowed by the umask
    renameSync(temporary, file);
  } catch (e) {
    rmSync(temporary, { force: true });
    throw e;
  }
}

const plural = (count: number, noun: string): string =>
  `${count.toLocaleString("en")} ${noun}${count === 1 ? "" : "s"}`;
