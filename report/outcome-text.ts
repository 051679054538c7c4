// How a run's outcome is shown and which exit code it ends with: one place for
// `renyi run` and for a bundle run as `node DIR/NAME.mjs` (whose runtime loads
// this module only when the run did not finish, through report/bundle-outcome.ts).
// Failures and crashes are shown at their .ry place, through the bundle's source map.

import { pathToFileURL } from "node:url";
import { renderText, type Diagnostic } from "./diagnostics.js";
import { decodeMappings, type SourceMapV3 } from "./source-map.js";
import type { SourceFile } from "./source.js";
import { moduleOfPrefix } from "../vocabulary/module-prefix.js";
import { EXIT } from "../vocabulary/outcomes.js";
import { runMessage, type RunCode } from "../vocabulary/problems/run.js";

/**
 * What of a run's outcome is shown: rtlib's Outcome (rtlib/run-main.ts) is one
 * of these, and this folder imports nothing of the runtime to say so.
 */
export type ShownOutcome =
  | { readonly outcome: "finished" }
  | { readonly outcome: "failed"; readonly value: string; readonly site?: string }
  | {
      readonly outcome: "crashed";
      readonly code: RunCode;
      readonly message: string;
      readonly site?: string;
      readonly stack?: string;
    }
  | { readonly outcome: "cancelled"; readonly reason: string; readonly site?: string; readonly stack?: string }
  | { readonly outcome: "refused"; readonly message: string; readonly code?: RunCode };

/** Where the program ran from: the bundle's path, its source map and its sources, read only when needed. */
export interface Located {
  readonly path: string;
  readonly map: () => SourceMapV3 | undefined;
  readonly sources: () => ReadonlyMap<string, SourceFile>;
}

export function exitCodeOf(outcome: ShownOutcome): number {
  return EXIT[outcome.outcome];
}

/** What the run's end shows on standard error (nothing when it finished). */
export function outcomeText(outcome: ShownOutcome, at: Located): string {
  switch (outcome.outcome) {
    case "finished":
      return "";
    case "refused":
      return `error${outcome.code === undefined ? "" : `[${outcome.code}]`}: ${outcome.message}\n`;
    case "cancelled":
      return cancelledText(outcome, at);
    case "failed":
      return render(
        "E-RT-FAILED",
        runMessage("E-RT-FAILED", { value: outcome.value, in: "main" }),
        outcome.site,
        at.sources(),
      );
    case "crashed":
      return crashText(outcome, at);
  }
}

/** A crash, at its .ry place: from the compiled code, or the first frame of its stack in the bundle. */
function crashText(outcome: Extract<ShownOutcome, { outcome: "crashed" }>, at: Located, extra: string[] = []): string {
  const frame = frameInBundle(outcome.stack, at);
  const where = outcome.site ?? frame?.site;
  const notes = [...(frame?.definition === undefined ? [] : [`in ${frame.definition}`]), ...extra];
  const debug = process.env["RENYI_DEBUG"] && outcome.stack ? `${outcome.stack}\n` : "";
  return render(outcome.code, outcome.message, where, at.sources(), notes) + debug;
}

/**
 * A cancelled run: interrupted (Ctrl-C), with the place the program had reached when it
 * stopped, when it was in its own code. (A run at its time limit crashed: E-RT-TIMEOUT.)
 */
function cancelledText(outcome: Extract<ShownOutcome, { outcome: "cancelled" }>, at: Located): string {
  const frame = frameInBundle(outcome.stack, at);
  const where = outcome.site ?? frame?.site;
  const place =
    where === undefined ? "" : `  --> ${where}${frame?.definition === undefined ? "" : `, in ${frame.definition}`}\n`;
  return `cancelled: interrupted\n${place}`;
}

/** Where a crash (or a cancellation) happened, `file.ry:line:column`: as the compiled code knows it, or from its stack through the source map. */
export function crashSite(
  outcome: { readonly site?: string; readonly stack?: string },
  at: Located,
): string | undefined {
  return outcome.site ?? frameInBundle(outcome.stack, at)?.site;
}

/** A request whose handler crashed or failed: reported as a run's crash is, and the server goes on. */
export function requestCrashText(outcome: ShownOutcome, at: Located): string {
  const note = "the request was answered 500 and the server went on";
  if (outcome.outcome === "failed")
    return render(
      "E-RT-FAILED",
      runMessage("E-RT-FAILED", { value: outcome.value, in: "handler" }),
      outcome.site,
      at.sources(),
      [note],
    );
  if (outcome.outcome === "crashed") return crashText(outcome, at, [note]);
  return "";
}

export function servedText(served: { answered: number; crashed: number }): string {
  const requests = `${served.answered.toLocaleString("en")} request${served.answered === 1 ? "" : "s"}`;
  return `served ${requests}, ${served.crashed.toLocaleString("en")} of them crashed\n`;
}

/** A diagnostic for the outcome, at `file.ry:line:column` when there is one. */
function render(
  code: RunCode,
  message: string,
  site: string | undefined,
  sources: ReadonlyMap<string, SourceFile>,
  notes: string[] = [],
): string {
  const m = site === undefined ? null : /^(.*):(\d+):(\d+)$/.exec(site);
  const source = m === null ? undefined : [...sources.values()].find((s) => s.path === m[1]);
  if (m === null || source === undefined)
    return `error[${code}]: ${message}${site === undefined ? "" : `\n  --> ${site}`}\n${notes.map((n) => `  = note: ${n}\n`).join("")}`;
  const offset = (source.lineStarts[Number(m[2]) - 1] ?? 0) + Number(m[3]) - 1;
  const diagnostic: Diagnostic = {
    code,
    severity: "error",
    message,
    span: { file: source.path, start: offset, end: offset + 1 },
    notes,
  };
  return renderText([diagnostic], new Map([[source.path, source]]));
}

/**
 * The first stack frame inside the bundle: its .ry position through the source
 * map, and the definition it is in (`weather$fetch` is `fetch` of `weather`).
 */
function frameInBundle(stack: string | undefined, at: Located): { site?: string; definition?: string } | undefined {
  if (stack === undefined) return undefined;
  // An ES module's frames name its URL; a CommonJS module's, its path.
  const names = [pathToFileURL(at.path).href, at.path];
  for (const line of stack.split("\n")) {
    const file = names.find((n) => line.includes(n));
    if (file === undefined) continue;
    const m = /:(\d+):(\d+)\)?$/.exec(line.slice(line.lastIndexOf(file) + file.length));
    if (m === null) continue;
    const map = at.map();
    const site = map === undefined ? undefined : lookup(map, Number(m[1]) - 1, Number(m[2]) - 1);
    // `at weather$fetch (`, or `at Object.weather$main [as main] (` when called through the exports.
    const name = /at (?:async )?(?:\w+\.)?([\w$]+)\$(\w+)(?: \[as \w+\])? \(/.exec(line);
    // A name the compiler made (`m$$test0`, a test) is no definition of the program's.
    const definition =
      name === null || name[1]!.endsWith("$") ? undefined : `\`${name[2]}\` of module \`${moduleOfPrefix(name[1]!)}\``;
    return { ...(site ? { site } : {}), ...(definition ? { definition } : {}) };
  }
  return undefined;
}

function lookup(map: SourceMapV3, line: number, column: number): string | undefined {
  const segments = decodeMappings(map)[line];
  if (segments === undefined || segments.length === 0) return undefined;
  let best = segments[0]!;
  for (const s of segments) if (s[0] <= column) best = s;
  return `${map.sources[best[1]]}:${best[2] + 1}:${best[3] + 1}`;
}
