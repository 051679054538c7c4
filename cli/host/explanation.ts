// The catalogue's long explanation of a code, as `rustc --explain` prints one
// (its title, why it is a problem and how to fix it, the facts an instance
// carries, a wrong example and a right one), and the list of every code: what
// `renyi explain` prints and the `explain` tool of `renyi mcp` answers.

import { closest } from "../../compiler/check/scope.js";
import type { ProblemEntry } from "../../vocabulary/problems/entry.js";
import { CODES, entryOf, isCode } from "../../vocabulary/problems/index.js";
import { Refusal } from "./refusal.cjs";

/** Every code with its title, one a line, in the catalogue's order. */
export function codeList(): string {
  const width = Math.max(...CODES.map((c) => c.length));
  return CODES.map((c) => `${c.padEnd(width)}  ${entryOf(c).title}\n`).join("");
}

/** The long explanation of `text` (any case); a code the catalogue lacks is refused, with the closest one. */
export function explanation(text: string): string {
  const code = text.toUpperCase();
  if (!isCode(code)) {
    const near = closest(code, CODES);
    const guess = near === undefined ? "" : ` Did you mean \`${near}\`?`;
    throw new Refusal(`\`${text}\` is not a code of Renyi's.${guess} \`renyi explain\` lists every code.`);
  }
  return explained(code, entryOf(code));
}

function explained(code: string, row: ProblemEntry<unknown>): string {
  const out = [`${code}: ${row.title}`, `(${whenText(code, row)})`, "", row.explanation.trim(), ""];
  const facts = Object.entries(row.facts as Record<string, string>);
  if (facts.length > 0) {
    const width = Math.max(...facts.map(([k]) => k.length));
    out.push("The facts an instance carries:", ...facts.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`), "");
  }
  const what = row.described ? " (a situation no program shows)" : "";
  out.push(`Wrong${what}:`, "", indent(row.wrong), "", "Right:", "", indent(row.right), "");
  return out.join("\n");
}

/** When the problem is met: at compile time (an error or a warning), at run time, or Renyi's own. */
export function whenText(code: string, row: ProblemEntry<unknown>): string {
  if (row.kind !== undefined) return code.startsWith("E-RT-") ? `at run time: ${row.kind}` : `Renyi's own: ${row.kind}`;
  return code.startsWith("W-") ? "at compile time: a warning" : "at compile time: an error";
}

function indent(text: string): string {
  return text
    .trim()
    .split("\n")
    .map((line) => (line === "" ? "" : `    ${line}`))
    .join("\n");
}
