// The text form of needs and grant items read back (needs.ts writes it): what a
// recording's `grant` lines and `capability` fields hold. A text is read only
// if grantText writes exactly it, so that one item has one text.

import { capabilityInfo } from "./capabilities.js";
import { grantText, isBudgetUnit, needText, type GrantItem, type Need } from "./needs.js";

const NEED = /^([a-z]+(?:\.[a-z]+)*)(?:\(("(?:[^"\\]|\\.)*"|\d+)\))?/;

/** `network.http("a.com")` at the start of `text`: the need and how many characters it took, or why not. */
function needAt(text: string): { need: Need; length: number } | string {
  const m = NEED.exec(text);
  if (m === null) return `${JSON.stringify(text)} is not a capability`;
  const path = m[1]!.split(".");
  const info = capabilityInfo(path);
  if (info === undefined) return `\`${m[1]}\` is not a capability`;
  if (m[2] === undefined) return { need: { path }, length: m[0].length };
  let scope: string | number;
  try {
    scope = m[2].startsWith('"') ? (JSON.parse(m[2]) as string) : Number(m[2]);
  } catch {
    return `${JSON.stringify(m[0])} has a scope that is not a text`;
  }
  const fits =
    info.scope === "none"
      ? false
      : info.scope === "port"
        ? typeof scope === "number" && Number.isSafeInteger(scope)
        : typeof scope === "string" && scope !== "";
  if (!fits) return `${JSON.stringify(m[0])} has a scope \`${m[1]}\` does not take`;
  return { need: { path, scope }, length: m[0].length };
}

/** A need as needText writes it, or why the text is not one. */
export function readNeedText(text: string): Need | string {
  const quick = quickNeed(text);
  if (quick !== undefined) return quick;
  const read = needAt(text);
  if (typeof read === "string") return read;
  if (read.length !== text.length || needText(read.need) !== text)
    return `${JSON.stringify(text)} is not a capability as a \`needs\` line writes it`;
  const open = text.indexOf('("');
  if (open !== -1 && typeof read.need.scope === "string") textScoped.set(text.slice(0, open), read.need.path);
  if (read.need.scope === undefined) unscoped.set(text, read.need.path);
  return read.need;
}

/**
 * The capabilities that take a text scope, by their name as a `needs` line writes it, each added when a text of it was
 * first read the long way: a recording's calls name a few capabilities with many scopes (a variable's name, a host),
 * each read once a call. At most one entry a capability of the closed catalogue.
 */
const textScoped = new Map<string, readonly string[]>();
/** The capabilities read the long way without a scope (`console`), likewise. */
const unscoped = new Map<string, readonly string[]>();

/** A scope needText writes as it is between quotes: not empty; no quote, backslash, control character or surrogate. */
function plainScope(scope: string): boolean {
  if (scope === "") return false;
  for (let i = 0; i < scope.length; i++) {
    const c = scope.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

/**
 * `console`, or `environment("HOME")`, read without the long way's pattern, when its capability is one readNeedText has read with a
 * text scope before and its scope is written as it is: the need the long way reads, or undefined to take that way.
 */
function quickNeed(text: string): Need | undefined {
  const whole = unscoped.get(text);
  if (whole !== undefined) return { path: [...whole] };
  const open = text.indexOf('("');
  if (open === -1 || !text.endsWith('")')) return undefined;
  const path = textScoped.get(text.slice(0, open));
  if (path === undefined) return undefined;
  const scope = text.slice(open + 2, -2);
  if (!plainScope(scope)) return undefined;
  return { path: [...path], scope };
}

/**
 * A grant item as grantText writes it (`network.http("a.com") at most 60 per minute only to console`), or why the text
 * is not one.
 */
export function readGrantText(text: string): GrantItem | string {
  const first = needAt(text);
  if (typeof first === "string") return first;
  let rest = text.slice(first.length);
  let item: GrantItem = first.need;
  const budget = /^ at most (\d+) per ([a-z]+)/.exec(rest);
  if (budget !== null) {
    const count = Number(budget[1]);
    if (!isBudgetUnit(budget[2]!) || !Number.isSafeInteger(count) || count < 1)
      return `${JSON.stringify(text)} has a budget that is not one`;
    item = { ...item, budget: { count, unit: budget[2] } };
    rest = rest.slice(budget[0].length);
  }
  if (rest.startsWith(" only to ")) {
    const sinks: Need[] = [];
    rest = rest.slice(" only to ".length);
    for (;;) {
      const sink = needAt(rest);
      if (typeof sink === "string") return sink;
      sinks.push(sink.need);
      rest = rest.slice(sink.length);
      if (!rest.startsWith(" or ")) break;
      rest = rest.slice(" or ".length);
    }
    item = { ...item, guard: { sinks } };
  }
  if (rest !== "" || grantText(item) !== text)
    return `${JSON.stringify(text)} is not a grant item as a \`needs\` line writes it`;
  return item;
}
