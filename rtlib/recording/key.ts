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

// ---- places that came from a redacted name ----
//
// A recording made with origins followed (spec/recording.md, "Redaction") marks
// the places of a call's arguments whose value came from a redacted name
// (`redacted_at`). In its replay, the value at such a place is keyed as coming
// from the redacted origin, and so is each value of the replay's call that
// carries the origin: the two match whatever the secret was, and a value that
// does not carry the origin (a constant written where the key was) matches no
// marked place, nor a marked place any such value.

/** What a value from a redacted name is keyed by: an object under a key no JSON text of a call can make equal. */
export const FROM_REDACTED = "\u0000redacted";

/**
 * A value from a redacted name, in the key: whatever it is (`Bearer <redacted>`, the placeholder, a part of the secret
 * written whole as the placeholder), it matches any value from the name, and no other.
 */
const FROM_REDACTED_KEY: JsonValue = { [FROM_REDACTED]: null };

/** A recorded call's arguments with each place its `redacted_at` names keyed as a value from a redacted name. */
export function markedArguments(
  args: { readonly [name: string]: JsonValue },
  places: readonly (readonly (string | number)[])[],
): { [name: string]: JsonValue } {
  let out: JsonValue = args;
  for (const place of places) out = replacedAt(out, place, 0);
  return out as { [name: string]: JsonValue };
}

function replacedAt(value: JsonValue, place: readonly (string | number)[], at: number): JsonValue {
  if (at === place.length) return FROM_REDACTED_KEY;
  const step = place[at]!;
  if (Array.isArray(value)) {
    if (typeof step !== "number" || step >= value.length) return value;
    return value.map((v, i) => (i === step ? replacedAt(v, place, at + 1) : v));
  }
  if (!isObject(value) || typeof step !== "string" || !(step in value)) return value;
  return { ...value, [step]: replacedAt(value[step]!, place, at + 1) };
}

/**
 * The texts a call's arguments hold where the program gave one of `parts` (the texts that came from a redacted name):
 * each as it is, and as the URL parser writes it when it is a URL (a request's `url` is recorded so); with the
 * placeholder's encodings made one, as in the key.
 */
export function redactedForms(parts: Iterable<string>): Set<string> {
  const forms = new Set<string>();
  for (const part of parts) {
    forms.add(placeholderNormal(part));
    if (/^[a-z][a-z0-9+.-]*:/i.test(part) && URL.canParse(part)) forms.add(placeholderNormal(new URL(part).href));
  }
  return forms;
}

/** Whether a text or number of a call's arguments is one of the forms of the texts that came from a redacted name. */
export function isRedactedForm(value: string | number, forms: ReadonlySet<string>): boolean {
  return forms.has(typeof value === "string" ? placeholderNormal(value) : String(value));
}

/**
 * A replay's call's arguments (encoded) with each text or number among `parts` (it carried the origin) so keyed;
 * undefined when none of them is among the arguments (a text the library wrote otherwise), which are keyed as they are.
 */
export function argumentsFromRedacted(
  args: { readonly [name: string]: JsonValue },
  parts: ReadonlySet<string>,
): { [name: string]: JsonValue } | undefined {
  const forms = redactedForms(parts);
  let found = false;
  const walk = (value: JsonValue, top: boolean): JsonValue => {
    if (typeof value === "string" || typeof value === "number") {
      if (top || !isRedactedForm(value, forms)) return value;
      found = true;
      return FROM_REDACTED_KEY;
    }
    if (Array.isArray(value)) return value.map((v) => walk(v, false));
    if (!isObject(value)) return value;
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, false);
    return out;
  };
  const keyed = walk(args, true) as { [name: string]: JsonValue };
  return found ? keyed : undefined;
}
