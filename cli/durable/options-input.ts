// An invocation's input: main's options as one JSON object, `{"city":
// "Paris", "days": 3}`, made into the program's command line as `renyi run`
// reads it (`--city=Paris --days=3`, spec/runtime.md, "main's parameters are
// options"). The input is hostile: anything but an object of main's options,
// each of its type, is refused with a sentence that says what was expected.

import type { MainParameter } from "../../rtlib/arguments.js";

/** The most bytes of one option's text: a command line holds no more in one word. */
const MAX_OPTION_BYTES = 64 * 1024;
/** The most bytes of all the options together. */
const MAX_INPUT_BYTES = 1024 * 1024;

const optionName = (name: string): string => name.replace(/_/g, "-");

export type Input = { ok: true; options: Record<string, unknown>; argv: string[] } | { ok: false; message: string };

/** The program's options from the request's body (bytes), or why they are refused. */
export function readInput(body: Uint8Array, parameters: readonly MainParameter[]): Input {
  if (body.length > MAX_INPUT_BYTES)
    return { ok: false, message: `the input is ${body.length.toLocaleString("en")} bytes; at most 1 MiB is read` };
  const text = new TextDecoder("utf-8", { fatal: false }).decode(body);
  let value: unknown;
  if (text.trim() === "") value = {};
  else
    try {
      value = JSON.parse(text);
    } catch {
      return {
        ok: false,
        message: `the input is not JSON: main's options are given as one JSON object${usage(parameters)}`,
      };
    }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return {
      ok: false,
      message: `the input is ${kindOf(value)}, not an object: main's options are given as one JSON object${usage(parameters)}`,
    };
  const options = value as Record<string, unknown>;
  const argv: string[] = [];
  let words: string[] = [];
  for (const [key, given] of Object.entries(options)) {
    const parameter = parameters.find((p) => p.name === key || optionName(p.name) === key);
    if (parameter === undefined)
      return { ok: false, message: `the program has no option ${JSON.stringify(key)}${usage(parameters)}` };
    if (parameter.words) {
      if (!Array.isArray(given) || !given.every((w) => typeof w === "string"))
        return { ok: false, message: `${key} takes a list of texts, not ${kindOf(given)}` };
      const bad = given.find((w) => badText(w) !== undefined);
      if (bad !== undefined) return { ok: false, message: `${key}: ${badText(bad)}` };
      words = given;
      continue;
    }
    // null is an Optional left out: None.
    if (given === null && parameter.optional) continue;
    const converted = optionText(parameter, given);
    if (typeof converted !== "string") return { ok: false, message: `${key} ${converted.problem}` };
    argv.push(`--${optionName(parameter.name)}=${converted}`);
  }
  for (const p of parameters)
    if (
      !p.words &&
      !p.optional &&
      !p.hasDefault &&
      !Object.hasOwn(options, p.name) &&
      !Object.hasOwn(options, optionName(p.name))
    )
      return {
        ok: false,
        message: `the program needs the option ${JSON.stringify(p.name)} (${p.type})${usage(parameters)}`,
      };
  if (words.length > 0) argv.push("--", ...words);
  return { ok: true, options, argv };
}

function optionText(parameter: MainParameter, given: unknown): string | { problem: string } {
  const expected = (what: string) => ({ problem: `takes ${what}, not ${kindOf(given)}` });
  switch (parameter.type) {
    case "Text": {
      if (typeof given !== "string") return expected("a text");
      const bad = badText(given);
      return bad === undefined ? given : { problem: bad };
    }
    case "Int":
      return typeof given === "number" && Number.isSafeInteger(given) ? String(given) : expected("a whole number");
    case "Float":
      return typeof given === "number" && Number.isFinite(given) ? String(given) : expected("a number");
    case "Boolean":
      return typeof given === "boolean" ? String(given) : expected("true or false");
    default:
      return { problem: `is of type ${parameter.type}, which no command line gives` };
  }
}

/** Why a text cannot be a word of a command line, or undefined. */
function badText(text: string): string | undefined {
  if (text.includes("\0")) return "holds a NUL character, which no command line carries";
  if (Buffer.byteLength(text, "utf8") > MAX_OPTION_BYTES) return "is longer than 64 KiB";
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  switch (typeof value) {
    case "string":
      return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case "number":
      return `the number ${value}`;
    case "boolean":
      return `${value}`;
    default:
      return "an object";
  }
}

/** main's options, as a sentence's end. */
function usage(parameters: readonly MainParameter[]): string {
  const options = parameters.filter((p) => !p.words);
  const words = parameters.find((p) => p.words);
  if (options.length === 0 && words === undefined) return " (this program takes no options: {})";
  const listed = options.map(
    (p) => `"${p.name}": ${p.type}${p.optional ? " or null" : ""}${p.hasDefault || p.optional ? " (optional)" : ""}`,
  );
  if (words !== undefined) listed.push(`"${words.name}": a list of texts (optional)`);
  return `; its options: {${listed.join(", ")}}`;
}
