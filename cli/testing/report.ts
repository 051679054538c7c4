// What `renyi test` prints (spec/testing.md, "Output"): a line per test as it
// ends, what went wrong under a test that did not pass, and a summary line
// that closes the output; or, with --json, one JSON object.

import type { TestResult, TestStatus } from "./run-test.js";

const ORDER: readonly TestStatus[] = ["passed", "refreshed", "failed", "crashed", "skipped", "cancelled"];

export type Counts = Record<TestStatus, number>;

export function countResults(results: readonly TestResult[]): Counts {
  const counts: Counts = { passed: 0, refreshed: 0, failed: 0, crashed: 0, skipped: 0, cancelled: 0 };
  for (const r of results) counts[r.status]++;
  return counts;
}

/**
 * `2 passed, 1 failed`, with refreshed, crashed, skipped and cancelled when there are any, and how long the run took.
 */
export function summaryLine(counts: Counts, ms: number, refusedFiles: number): string {
  const parts = ORDER.filter((s) => s === "passed" || s === "failed" || counts[s] > 0).map((s) => `${counts[s]} ${s}`);
  if (refusedFiles > 0) parts.push(`${refusedFiles} file${refusedFiles === 1 ? "" : "s"} refused`);
  return `${parts.join(", ")} (${formatMs(ms)})\n`;
}

/** A file's heading, before its tests. */
export function fileLine(file: string): string {
  return `${file}\n`;
}

/** A test's line, and below it what went wrong, indented. */
export function resultText(r: TestResult): string {
  const head = `  ${r.status.length < 8 ? r.status.padEnd(8) : `${r.status} `}${r.name}${r.status === "skipped" ? ` (${r.reason ?? "skipped"})` : ` (${formatMs(r.ms)})`}\n`;
  const narrated =
    r.narration === undefined
      ? ""
      : r.narration
          .replace(/\n$/, "")
          .split("\n")
          .map((l) => `      ${l}\n`)
          .join("");
  if (r.status === "passed" || r.status === "skipped") return head + narrated;
  const lines: string[] = [];
  if (r.check !== undefined && r.check.expression !== "") {
    lines.push(`check \`${r.check.expression}\` did not hold${r.site ? ` at ${r.site}` : ""}`);
    if (r.check.kind === "is") lines.push(`  left:  ${r.check.left}`, `  right: ${r.check.right}`);
    else if (r.check.kind === "is not") lines.push(`  both sides: ${r.check.left}`);
    else if (r.check.kind === "fails") lines.push("  the call did not fail");
    else if (r.check.kind === "fails with") lines.push(`  it failed with: ${r.check.left}`);
    else lines.push("  the condition is false");
  } else if (r.code !== undefined) {
    lines.push(`error[${r.code}]: ${r.message ?? ""}`);
    if (r.site !== undefined) lines.push(`  --> ${r.site}`);
  } else if (r.message !== undefined) {
    lines.push(r.message);
  }
  if (r.note !== undefined) lines.push(r.note);
  if (r.output !== undefined)
    lines.push(
      "output:",
      ...r.output
        .replace(/\n$/, "")
        .split("\n")
        .map((l) => `  ${l}`),
    );
  return (
    head +
    narrated +
    lines
      .flatMap((l) => l.split("\n"))
      .map((l) => `      ${l}\n`)
      .join("")
  );
}

/** The whole run as one JSON object (--json). */
export function jsonReport(
  results: readonly TestResult[],
  refused: readonly { file: string; diagnostics: unknown[] }[],
  ms: number,
  exitCode: number,
): string {
  const counts = countResults(results);
  return `${JSON.stringify({ tests: results, refused, summary: { ...counts, refusedFiles: refused.length, ms: Math.round(ms) }, exitCode }, null, 2)}\n`;
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
