// The key a replay finds a recorded call by (spec/recording.md, "Matching"):
// the primitive and its arguments in a canonical form, so that the same call
// has the same key whatever the order of its keys; a JSON `body` is compared
// by meaning, not by bytes; header names by their lower case; and a value
// under a name the recording redacts is the placeholder, whatever it was.

import { REDACTED, type JsonValue } from "../../vocabulary/recording.js";

/** A JSON `body` in the key: its parsed value, marked so that it never equals a text. */
const JSON_BODY = "\u0000json";

/** The canonical text of JSON arguments, with the names in `redacted` (lower case) written as the placeholder. */
export function argumentsKey(args: { readonly [name: string]: JsonValue }, redacted: ReadonlySet<string>): string {
  const names = Object.keys(args).sort();
  let out = "{";
  for (const name of names) {
    let value: JsonValue = args[name]!;
    if (redacted.size > 0 && redacted.has(name.toLowerCase())) value = REDACTED;
    else if (name === "body" && typeof value === "string") value = bodyByMeaning(value);
    else if (name === "headers" && isObject(value)) value = lowerCaseKeys(value);
    out += `${JSON.stringify(name)}:${canonical(value, redacted)},`;
  }
  return `${out}}`;
}

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function lowerCaseKeys(object: { [key: string]: JsonValue }): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = {};
  for (const [k, v] of Object.entries(object)) out[k.toLowerCase()] = v;
  return out;
}

/** A body that is a JSON object or list is keyed by its meaning; any other text as it is. */
export function bodyByMeaning(body: string): JsonValue {
  const first = body.trimStart()[0];
  if (first !== "{" && first !== "[") return body;
  try {
    return { [JSON_BODY]: JSON.parse(body) as JsonValue };
  } catch {
    return body;
  }
}

/**
 * The placeholder as a URL or a JSON writer may have encoded it (`%3Credacted%3E`,
 * `\u003credacted\u003e`): a redacted value is written in the recording in the
 * form it had where it was found, and a replay that gives the program the
 * placeholder makes that form again, or the plain one where the two forms of
 * the secret were the same text. Both are keyed as the plain placeholder.
 */
const ENCODED_PLACEHOLDER = /(?:%3[Cc]|\\u003[Cc])redacted(?:%3[Ee]|\\u003[Ee])/g;

function placeholderNormal(text: string): string {
  return text.includes("redacted") ? text.replace(ENCODED_PLACEHOLDER, REDACTED) : text;
}

function canonical(value: JsonValue, redacted: ReadonlySet<string>): string {
  if (typeof value === "string") return JSON.stringify(placeholderNormal(value));
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, redacted)).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${redacted.size > 0 && redacted.has(k.toLowerCase()) ? JSON.stringify(REDACTED) : canonical(value[k]!, redacted)}`).join(",")}}`;
}

/**
 * The names (lower case) a recording's arguments hold the placeholder under, at any depth: a replay matches any value
 * there.
 */
export function redactedNames(args: JsonValue, into: Set<string>): void {
  if (isObject(args)) {
    for (const [k, v] of Object.entries(args)) {
      if (v === REDACTED) into.add(k.toLowerCase());
      else redactedNames(v, into);
    }
  } else if (Array.isArray(args)) {
    for (const v of args) redactedNames(v, into);
  }
}
