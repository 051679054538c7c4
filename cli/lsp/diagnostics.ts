// A diagnostic of the compiler as the protocol's: its code with a link to the
// code's entry in spec/diagnostics.md (what `renyi explain CODE` prints), its
// places in other files as related information, and its notes and hint after
// the message, as `renyi check` prints them.

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from "vscode-languageserver/node";
import type { Diagnostic } from "../../compiler/diagnostics.js";
import type { SourceFile } from "../../compiler/source.js";
import { PACKAGE_ROOT } from "../host/places.cjs";
import { rangeOf } from "./positions.js";
import { uriOfFile } from "./files.js";

const REFERENCE = pathToFileURL(join(PACKAGE_ROOT, "spec", "diagnostics.md")).href;

/** The entry of a code in the installed spec/diagnostics.md: the same text as `renyi explain CODE`. */
function explanationLink(code: string): string {
  return `${REFERENCE}#${code.toLowerCase()}`;
}

export function toLspDiagnostic(
  d: Diagnostic,
  source: SourceFile,
  sourceOf: (file: string) => SourceFile | undefined,
): LspDiagnostic {
  const lines = [d.message, ...d.notes.map((n) => `note: ${n}`), ...(d.hint ? [`hint: ${d.hint}`] : [])];
  const related = (d.related ?? []).flatMap((r) => {
    const there = r.span.file === source.path ? source : sourceOf(r.span.file);
    return there === undefined
      ? []
      : [{ location: { uri: uriOfFile(r.span.file), range: rangeOf(there, r.span) }, message: r.message }];
  });
  return {
    range: rangeOf(source, d.span),
    severity: d.severity === "error" ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: d.code,
    codeDescription: { href: explanationLink(d.code) },
    source: "renyi",
    message: lines.join("\n"),
    ...(related.length > 0 ? { relatedInformation: related } : {}),
  };
}

/** The most diagnostics published for one document (spec/editor.md section 11). */
const DIAGNOSTICS_SHOWN = 1000;

/**
 * A document's diagnostics as published: all of them, or, past DIAGNOSTICS_SHOWN, the first
 * DIAGNOSTICS_SHOWN by position and one information-level diagnostic at the document's start
 * saying how many were left out. A file of stray characters has one diagnostic per character:
 * a million of them would be hundreds of megabytes of JSON, more than the client or the
 * protocol's encoding can hold.
 */
export function publishedDiagnostics(
  diagnostics: readonly Diagnostic[],
  source: SourceFile,
  sourceOf: (file: string) => SourceFile | undefined,
): LspDiagnostic[] {
  if (diagnostics.length <= DIAGNOSTICS_SHOWN) return diagnostics.map((d) => toLspDiagnostic(d, source, sourceOf));
  // Stable: diagnostics at one place keep their order.
  const shown = [...diagnostics].sort((a, b) => a.span.start - b.span.start).slice(0, DIAGNOSTICS_SHOWN);
  const left = diagnostics.length - DIAGNOSTICS_SHOWN;
  return [
    {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      severity: DiagnosticSeverity.Information,
      source: "renyi",
      message:
        `${diagnostics.length} problems in this document: the first ${DIAGNOSTICS_SHOWN} by position are shown, ` +
        `${left} more are not`,
    },
    ...shown.map((d) => toLspDiagnostic(d, source, sourceOf)),
  ];
}
