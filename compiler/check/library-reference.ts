// The library reference (spec/library.md), made from the library's own
// declarations (library.ts): each function's signature as Renyi writes it and
// the one line in the `--` comment above it; each prelude type's cases or
// fields, each with its own line, and the functions whose signatures use it. Pure: the command that writes the
// file is scripts/library-reference.mjs; tests/library-reference.test.ts fails
// when the file is stale.

import type { Span } from "../source.js";
import { libraryScopes } from "./declare.js";
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
      if (comment === null)
        throw new Error(`${module}.${header[1]} has no one-line description (a "-- " line above it)`);
      const needs = /^\s+needs (.+)$/.exec(lines[i + 1] ?? "");
      out.push({
        module,
        name: header[1]!,
        signature: header[1]! + header[2]!,
        needs: needs?.[1] ?? "",
        line: comment[1]!,
      });
    });
  }
  return out;
}

/** One case of a prelude variant, or one field of a prelude record, as its declaration writes it. */
interface PreludeMember {
  /** `Timeout(url: Text)`, `status: Int`. */
  text: string;
  /** The one-line description from the comment above it. */
  line: string;
}

/** One type of the prelude as its declaration writes it. */
export interface PreludeType {
  name: string;
  /** `Group<K, T>`. */
  written: string;
  kind: "record" | "variant";
  /** The one-line description from the comment above the declaration. */
  line: string;
  /** The cases of a variant, or the fields of a record, in declaration order. */
  members: PreludeMember[];
}

/** The one-line description in the `-- ` comment on the line just above `offset`, or a refusal naming `what`. */
function lineAbove(offset: number, what: string): string {
  const lineStart = PRELUDE.lastIndexOf("\n", offset - 1) + 1;
  const previousStart = PRELUDE.lastIndexOf("\n", lineStart - 2) + 1;
  const comment = /^\s*-- (.+)$/.exec(PRELUDE.slice(previousStart, Math.max(previousStart, lineStart - 1)));
  if (comment === null) throw new Error(`${what} has no one-line description (a "-- " line above it)`);
  return comment[1]!;
}

const written = (span: Span): string => PRELUDE.slice(span.start, span.end).trim();

/**
 * Every type of the prelude, in declaration order, read from the tree the
 * checker declares them from: a case or field added to a declaration is in the
 * reference (and must carry its one line) without anything else to change.
 */
export function preludeTypes(): PreludeType[] {
  const items = libraryScopes().prelude.syntax?.items ?? [];
  return items.flatMap((item): PreludeType[] => {
    if (item.kind !== "TypeDef") return [];
    const name = item.name.name;
    const params = item.typeParams.map((p) => p.name);
    const members =
      item.body.kind === "VariantBody"
        ? item.body.cases.map((c) => ({
            text: written(c.span),
            line: lineAbove(c.span.start, `${name}.${c.name.name}`),
          }))
        : item.body.fields.map((f) => ({
            text: written(f.span),
            line: lineAbove(f.span.start, `${name}.${f.name.name}`),
          }));
    return [
      {
        name,
        written: params.length === 0 ? name : `${name}<${params.join(", ")}>`,
        kind: item.body.kind === "VariantBody" ? "variant" : "record",
        line: lineAbove(item.span.start, name),
        members,
      },
    ];
  });
}

/** One failure type of the prelude as its declaration writes it: its name and its cases. */
export interface FailureType {
  name: string;
  /** `Timeout(url: Text)`, in declaration order. */
  cases: string[];
}

/** The prelude's failure types (the variants named `...Error`), in declaration order. */
export function failureTypes(): FailureType[] {
  return preludeTypes()
    .filter((t) => t.kind === "variant" && t.name.endsWith("Error"))
    .map((t) => ({ name: t.name, cases: t.members.map((m) => m.text) }));
}

/** The functions whose signature fails with `type`, and those whose signature names it elsewhere. */
export function functionsUsing(
  type: string,
  functions: readonly LibraryFunction[] = libraryFunctions(),
): { failWith: string[]; mention: string[] } {
  const word = new RegExp(`\\b${type}\\b`);
  const failWith: string[] = [];
  const mention: string[] = [];
  for (const f of functions) {
    const [before, failure] = f.signature.split(" or fails with ");
    const name = `${f.module}.${f.name}`;
    if (failure?.trim() === type) failWith.push(name);
    if (word.test(before!)) mention.push(name);
  }
  return { failWith, mention };
}

const names = (functions: readonly string[]): string => functions.map((f) => `\`${f}\``).join(", ");

/** The section on the prelude's types: each one's cases or fields, and the functions that use it. */
function typesSection(): string[] {
  const functions = libraryFunctions();
  const out = [
    "## The prelude's types",
    "",
    "In scope everywhere, unqualified. A record's fields are read as `response.status`; a",
    "variant's cases are matched by case (`when HttpError.Timeout(url) then ...`), a failure in an",
    "`otherwise` (spec/language.md). Each type lists its cases or fields with their types, and the",
    "library functions whose signatures use it.",
  ];
  for (const type of preludeTypes()) {
    out.push("", `### ${type.name}`, "", `\`${type.written}\`, a ${type.kind}: ${type.line}`, "");
    for (const m of type.members) out.push(`- \`${m.text}\`: ${m.line}`);
    const { failWith, mention } = functionsUsing(type.name, functions);
    if (failWith.length > 0 || mention.length > 0) out.push("");
    if (failWith.length > 0) out.push(`Returned as the error of: ${names(failWith)}.`);
    if (mention.length > 0) out.push(`In the signatures of: ${names(mention)}.`);
  }
  return out;
}

/** What the case of a guard's refusal is. */
function guardedSection(): string[] {
  const guarded = failureTypes().filter((f) => f.cases.some((c) => c.startsWith("Guarded(")));
  return [
    "## Guarded",
    "",
    "`Guarded(origin, sink)` is a guard's refusal: the call would have sent data read through a",
    "guarded capability (`origin`) somewhere its guard does not allow (`sink`), and did not happen",
    '(spec/runtime.md, "The check"). It is a case of every failure type a call through the gateway',
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
    'it does. A function is called through its module (`text.split(line, ",")`) or, for the',
    "modules of Text, List, Map, Set, Int, Float, Json, Instant, Optional and Bytes, as a method of its",
    'first argument (`line.split(",")`). A function with a `needs` line reaches the outside world',
    "through the gateway and needs that capability granted (spec/effects.md); the others are pure.",
    "The types they use (Response, FileError, ...) are the prelude's, declared in full below.",
    "",
    "Texts count characters as Unicode code points: `text.length`, `slice`, `index_of`, `reverse`",
    "and `characters` agree, so `text.characters` does not join grapheme clusters (an e and a",
    "combining accent are two characters; a surrogate pair is one). `is_letter`, `is_digit` and",
    "`is_whitespace` ask Unicode's properties of every character of a text, in every script, so",
    "that they answer for one character of `characters` and for a word alike; `split_where` gives",
    "its function each character in turn. A list or text a function would make past its size",
    "limit ends the run with `E-RT-LIMIT-COLLECTION` (spec/runtime.md).",
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
  parts.push("", ...typesSection(), "", ...guardedSection());
  return `${parts.join("\n")}\n`;
}
