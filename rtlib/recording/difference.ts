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
  if (out.length > MAX_LINES) return;
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
      differences(
        (made as Record<string, JsonValue>)[k],
        (recorded as Record<string, JsonValue>)[k],
        Array.isArray(made) ? `${at}[${k}]` : `${at}.${k.startsWith("\u0000") ? "(JSON)" : k}`,
        out,
      );
    }
    return;
  }
  if (JSON.stringify(made) === JSON.stringify(recorded)) return;
  out.push(out.length === MAX_LINES ? "…" : `${at}: ${shortJson(made)} here, ${shortJson(recorded)} in the recording`);
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
