// The library reference (spec/library.md), made from the library's own
// declarations (library.ts): each function's signature as Renyi writes it and
// the one line in the `--` comment above it. Pure: the command that writes the
// file is scripts/library-reference.mjs; tests/library-reference.test.ts fails
// when the file is stale.

import { MODULES, PRELUDE } from "./library.js";

/** One library function as its declaration writes it. */
export interface LibraryFunction {
  module: string;
  name: string;
  /** `name<T>(parameters) returns X or fails with E`, without `public function`. */
  signature: string;
  /** The `needs` line's capabilities, or "" for a function that needs nothing. */
  needs: string;
  /** The one-line description from the comment above the declaration. */
  line: string;
}

const HEADER = /^public function (\w+)(.*)$/;

/** Every function of every module, in declaration order; a function without its `--` line is refused. */
export function libraryFunctions(): LibraryFunction[] {
  const out: LibraryFunction[] = [];
  for (const [module, source] of Object.entries(MODULES)) {
    const lines = source.split("\n");
    lines.forEach((text, i) => {
      const header = HEADER.exec(text);
      if (header === null) return;
      const comment = /^-- (.+)$/.exec(lines[i - 1] ?? "");
      if (comment === null) throw new Error(`${module}.${header[1]} has no one-line description (a "-- " line above it)`);
      const needs = /^\s+needs (.+)$/.exec(lines[i + 1] ?? "");
      out.push({ module, name: header[1]!, signature: header[1]! + header[2]!, needs: needs?.[1] ?? "", line: comment[1]! });
    });
  }
  return out;
}

/** One failure type of the prelude as its declaration writes it: its name and its cases. */
export interface FailureType {
  name: string;
  /** `Timeout(url: Text)`, in declaration order. */
  cases: string[];
}

const FAILURE_TYPE = /^public type (\w+Error) is variant\n((?: {2}.+\n)+)end$/gm;

/** The prelude's failure types (the variants named `...Error`), in declaration order. */
export function failureTypes(): FailureType[] {
  return [...PRELUDE.matchAll(FAILURE_TYPE)].map((m) => ({ name: m[1]!, cases: m[2]!.trimEnd().split("\n").map((line) => line.trim()) }));
}

/** The section on the failure types: each one's cases, and what the case of a guard's refusal is. */
function failuresSection(): string[] {
  const types = failureTypes();
  const guarded = types.filter((f) => f.cases.some((c) => c.startsWith("Guarded(")));
  return [
    "## Failures",
    "",
    "The prelude's failure types, each with its cases; a failure is matched by case",
    "(`otherwise when HttpError.Timeout(url) then ...`).",
    "",
    ...types.map((f) => `- \`${f.name}\`: ${f.cases.map((c) => `\`${c}\``).join(", ")}`),
    "",
    "`Guarded(origin, sink)` is a guard's refusal: the call would have sent data read through a",
    "guarded capability (`origin`) somewhere its guard does not allow (`sink`), and did not happen",
    "(spec/runtime.md, \"The check\"). It is a case of every failure type a call through the gateway",
    "can fail with, so that a match over one of them handles it like any other case and the checker",
    `asks for it (\`E-MATCH-MISSING\`): ${guarded.map((f) => `\`${f.name}\``).join(", ")}.`,
  ];
}

/** The text of spec/library.md. */
export function libraryReference(): string {
  const parts = [
    "# The Renyi library",
    "",
    "<!-- Generated from compiler/check/library.ts by `npm run library-reference`; do not edit by hand. -->",
    "",
    "Every function of the standard library, by module: its signature as Renyi writes it and what",
    "it does. A function is called through its module (`text.split(line, \",\")`) or, for the",
    "modules of Text, List, Map, Set, Int, Float, Json, Instant and Optional, as a method of its",
    "first argument (`line.split(\",\")`). A function with a `needs` line reaches the outside world",
    "through the gateway and needs that capability granted (spec/effects.md); the others are pure.",
    "The types they use (Response, FileError, ...) are the prelude's (spec/types.md).",
    "",
    "Texts count characters as Unicode code points: `text.length`, `slice`, `index_of`, `reverse`",
    "and `characters` agree, so `text.characters` does not join grapheme clusters (an e and a",
    "combining accent are two characters; a surrogate pair is one). A list or text a function",
    "would make past its size limit ends the run with `E-RT-LIMIT-COLLECTION` (spec/runtime.md).",
    "`math.format(x, decimals)` rounds from x's exact binary value, half away from zero, and",
    "never writes an exponent (at most 411 characters); decimals outside 0 to 100 crash",
    "(`E-RT-CRASH`); NaN and the infinities are written as string interpolation writes them.",
    "",
  ];
  let module = "";
  for (const f of libraryFunctions()) {
    if (f.module !== module) {
      if (module !== "") parts.push("");
      module = f.module;
      parts.push(`## ${module}`, "");
    }
    const needs = f.needs === "" ? "" : ` (needs \`${f.needs}\`)`;
    parts.push(`- \`${module}.${f.signature}\`${needs}: ${f.line}`);
  }
  parts.push("", ...failuresSection());
  return parts.join("\n") + "\n";
}
