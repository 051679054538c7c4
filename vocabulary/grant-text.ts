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
  const read = needAt(text);
  if (typeof read === "string") return read;
  if (read.length !== text.length || needText(read.need) !== text)
    return `${JSON.stringify(text)} is not a capability as a \`needs\` line writes it`;
  return read.need;
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
