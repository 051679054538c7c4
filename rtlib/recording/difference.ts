// What a replay shows when a call is not in the recording (spec/recording.md,
// "When a call differs"): the recorded call nearest to it, and the fields in
// which the two differ, one line each.

import { REDACTED, type JsonValue, type RecordedCall } from "../../vocabulary/recording.js";
import { bodyByMeaning } from "./key.js";

const MAX_LINES = 12;
const WIDTH = 100;

/** A value as one short line. */
function shortJson(value: JsonValue | undefined): string {
  const text = value === undefined ? "nothing" : JSON.stringify(value);
  return text.length > WIDTH ? `${text.slice(0, WIDTH - 1)}…` : text;
}

/** The paths where two argument values differ, `arguments.headers.accept: "x" here, "y" in the recording`. */
export function differences(
  made: JsonValue | undefined,
  recorded: JsonValue | undefined,
  at: string,
  out: string[],
): void {
  const found: FieldDifference[] = [];
  differingFields(made, recorded, at, found, MAX_LINES + 1 - out.length);
  for (const d of found)
    out.push(
      out.length === MAX_LINES
        ? "…"
        : `${d.field}: ${shortJson(d.made)} here, ${shortJson(d.recorded)} in the recording`,
    );
}

/** One field in which two values differ: where, and the value on each side (undefined: the field is absent). */
export interface FieldDifference {
  readonly field: string;
  readonly made: JsonValue | undefined;
  readonly recorded: JsonValue | undefined;
}

/**
 * The fields where two values differ, at most `most` of them, as a replay compares them: a recorded `<redacted>`
 * matches anything, a body is compared by its meaning (JSON by its value), objects and lists field by field.
 */
export function differingFields(
  made: JsonValue | undefined,
  recorded: JsonValue | undefined,
  at: string,
  out: FieldDifference[],
  most: number,
): void {
  if (out.length >= most) return;
  if (recorded === REDACTED) return;
  if (typeof made === "string" && typeof recorded === "string" && at.endsWith(".body")) {
    made = bodyByMeaning(made);
    recorded = bodyByMeaning(recorded);
  }
  if (
    typeof made === "object" &&
    made !== null &&
    typeof recorded === "object" &&
    recorded !== null &&
    Array.isArray(made) === Array.isArray(recorded)
  ) {
    const keys = new Set([...Object.keys(made), ...Object.keys(recorded)]);
    for (const k of [...keys].sort()) {
      differingFields(
        Object.hasOwn(made, k) ? (made as Record<string, JsonValue>)[k] : undefined,
        Object.hasOwn(recorded, k) ? (recorded as Record<string, JsonValue>)[k] : undefined,
        Array.isArray(made) ? `${at}[${k}]` : `${at}.${k.startsWith("\u0000") ? "(JSON)" : k}`,
        out,
        most,
      );
    }
    return;
  }
  if (JSON.stringify(made) === JSON.stringify(recorded)) return;
  out.push({ field: at, made, recorded });
}

/** How many fields of the arguments differ: the nearest call differs in the fewest, of the same primitive first. */
function distance(primitive: string, args: JsonValue, call: RecordedCall): number {
  const out: string[] = [];
  differences(args, call.arguments, "arguments", out);
  return (call.primitive === primitive ? 0 : 1000) + out.length;
}

export function nearest(
  primitive: string,
  args: JsonValue,
  candidates: Iterable<RecordedCall>,
): RecordedCall | undefined {
  let best: RecordedCall | undefined;
  let bestDistance = Infinity;
  for (const call of candidates) {
    const d = distance(primitive, args, call);
    if (d < bestDistance) {
      best = call;
      bestDistance = d;
    }
  }
  return best;
}

/** The text of a call: `std.http.get {"url":"…"}`. */
export function callText(primitive: string, args: JsonValue): string {
  return `${primitive} ${shortJson(args)}`;
}
