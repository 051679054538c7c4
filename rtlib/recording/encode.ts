// A gateway call as a recording writes it (spec/recording.md): arguments and
// outcomes by the ToJson rules, a failure as its error value, and an HTTP
// response with its body as text when it is UTF-8 and as base64 `bytes` when
// it is not, so that a person can read and edit the one and binary bodies
// round-trip exactly.

import { Failure } from "../errors.js";
import type { CallRecord } from "../gateway.js";
import { plain } from "../json.js";
import { Some } from "../prelude.js";
import { descOf, Pair, RMap, RSet, DYNAMIC } from "../values.js";
import { needText } from "../../vocabulary/needs.js";
import type { JsonValue, RecordedCall, RecordedOutcome } from "../../vocabulary/recording.js";

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function isHttpPrimitive(name: string): boolean {
  return name.startsWith("std.http.");
}

export function encodeArguments(args: Readonly<Record<string, unknown>>): { [name: string]: JsonValue } {
  const out: { [name: string]: JsonValue } = {};
  for (const [name, value] of Object.entries(args)) out[name] = plain(value, DYNAMIC) as JsonValue;
  return out;
}

/** One hop of an HTTP call: status, headers, and the body as `body` (UTF-8 text) or `bytes` (base64). */
function httpSuccess(hop: { status: number; headers: unknown; bytes: Uint8Array }): JsonValue {
  const out: { [key: string]: JsonValue } = { status: hop.status, headers: plain(hop.headers, DYNAMIC) as JsonValue };
  let text: string | undefined;
  try {
    text = UTF8.decode(hop.bytes);
  } catch {
    text = undefined;
  }
  // A body that starts with a byte order mark would lose it as text.
  if (text !== undefined && !(hop.bytes[0] === 0xef && hop.bytes[1] === 0xbb && hop.bytes[2] === 0xbf))
    out["body"] = text;
  else out["bytes"] = Buffer.from(hop.bytes).toString("base64");
  return out;
}

/**
 * The outcome as recorded; undefined for a call that ended with neither a value nor a failure (a crash, a
 * cancellation): it did not complete.
 */
function encodeOutcome(call: CallRecord): RecordedOutcome | undefined {
  if ("success" in call.outcome) {
    const value = call.outcome.success;
    const success = isHttpPrimitive(call.primitive)
      ? httpSuccess(value as { status: number; headers: unknown; bytes: Uint8Array })
      : (plain(value, DYNAMIC) as JsonValue);
    const items = FROM_ITEMS.has(call.primitive) ? placesOfItems(call, value) : undefined;
    return items === undefined ? { success } : { success, items };
  }
  const thrown = call.outcome.failure;
  if (thrown instanceof Failure) return { failure: plain(thrown.value, DYNAMIC) as JsonValue };
  return undefined;
}

/** The primitives whose answer is made of the items they were given (random.choice, random.shuffle). */
const FROM_ITEMS = new Set(["std.random.choice", "std.random.shuffle"]);

/**
 * The places in `items` of what random.choice or random.shuffle answered, when its form alone
 * does not tell the items apart: a `Some` whose value is written `null` (`Some(None)`,
 * `Some(nothing)`) is written as `None` is, so items of one type can share a form and differ.
 * Undefined otherwise: the recording is then written as it always was.
 */
function placesOfItems(call: CallRecord, answer: unknown): number[] | undefined {
  const items = call.arguments["items"];
  if (!Array.isArray(items) || items.length === 0) return undefined;
  const chosen = answer instanceof Some ? [answer.value] : Array.isArray(answer) ? answer : undefined;
  if (chosen === undefined) return undefined;
  // random.choice's `null` says no item at all: one chosen whose form is null needs its place.
  const nullChosen = answer instanceof Some && writtenNull(answer.value);
  if (!nullChosen && !items.some(collapses)) return undefined;
  // Each item once, found by identity (the answer holds the very values the program gave).
  const free = new Map<unknown, { places: number[]; next: number }>();
  for (let i = 0; i < items.length; i++) {
    const same = free.get(items[i]);
    if (same === undefined) free.set(items[i], { places: [i], next: 0 });
    else same.places.push(i);
  }
  const places: number[] = [];
  for (const value of chosen) {
    const same = free.get(value);
    if (same === undefined || same.next >= same.places.length) return undefined;
    places.push(same.places[same.next++]!);
  }
  return places;
}

/**
 * Whether a value holds a part that its form writes as another value of its type is written:
 * a `Some` whose value is written `null`, or a Float that is no number (NaN, an infinity). Walked
 * with a stack of its own: a value may be nested deeper than the engine's stack goes.
 */
function collapses(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return true;
      continue;
    }
    if (typeof v !== "object" || v === null || v instanceof Uint8Array) continue;
    if (v instanceof Some) {
      if (writtenNull(v.value)) return true;
      stack.push(v.value);
    } else if (Array.isArray(v)) for (const item of v) stack.push(item);
    else if (v instanceof RSet) for (const item of v.values()) stack.push(item);
    else if (v instanceof RMap) for (const [key, item] of v.entries()) stack.push(key, item);
    else if (v instanceof Pair) stack.push(v.first, v.second);
    else {
      const desc = descOf(v);
      if (desc !== undefined) for (const f of desc.fields) stack.push((v as Record<string, unknown>)[f.prop]);
    }
  }
  return false;
}

/** Whether a value's form is `null`: nothing, `None`, a Float that is no number, or a `Some` of one of them. */
function writtenNull(value: unknown): boolean {
  let v = value;
  while (v instanceof Some) v = v.value;
  if (typeof v === "number") return !Number.isFinite(v);
  return v === null || v === undefined || descOf(v)?.name === "None";
}

/** The call as an entry of the recording, numbered `sequence`; `atMs` is when it was made, since the run began. */
export function encodeCall(call: CallRecord, sequence: number, atMs: number): RecordedCall | undefined {
  const outcome = call.ended !== undefined ? transactionOutcome(call) : encodeOutcome(call);
  if (outcome === undefined) return undefined;
  return {
    sequence,
    capability: needText(call.need),
    primitive: call.primitive,
    arguments: encodeArguments(call.arguments),
    outcome,
    duration_ms: Math.round(call.durationMs),
    at_ms: Math.max(0, Math.round(atMs)),
    ...(call.transaction !== undefined ? { transaction: call.transaction } : {}),
  };
}

/**
 * A transaction (spec/recording.md, "Transactions"): `committed`, `rolled back` (its work failed, or crashed, and a
 * replay makes that failure again), or the DbError its BEGIN or its COMMIT failed with, saying which. Written whatever
 * ended it, a crash included: its statements, already recorded, name it.
 */
function transactionOutcome(call: CallRecord): RecordedOutcome {
  if (call.ended === "committed") return { success: "committed" };
  if (call.ended !== "rolled back" && "failure" in call.outcome && call.outcome.failure instanceof Failure)
    return {
      failure: plain(call.outcome.failure.value, DYNAMIC) as JsonValue,
      at: call.ended === "BEGIN failed" ? "BEGIN" : "COMMIT",
    };
  return { failure: "rolled back" };
}

/**
 * What of a call was guarded data, for a recording that seals it (`renyi mcp`,
 * spec/recording.md, "Sealed calls"): its arguments carried origins (its scope
 * too may be made of them), or only what it gave back is guarded.
 */
type GuardedPart = "arguments" | "result";

function guardedPart(call: CallRecord): GuardedPart | undefined {
  return call.guarded === true ? "arguments" : call.guardedResult === true ? "result" : undefined;
}

/**
 * An observer that encodes every completed call and hands it to `sink`, numbered in completion order, with what of it
 * was guarded.
 */
export function recorder(
  sink: (
    call: RecordedCall,
    guarded: GuardedPart | undefined,
    redacted?: { readonly parts?: readonly string[]; readonly texts?: readonly string[] },
  ) => void,
): (call: CallRecord) => void {
  const began = performance.now();
  let sequence = 0;
  return (call) => {
    const entry = encodeCall(call, sequence + 1, performance.now() - call.durationMs - began);
    if (entry === undefined) return;
    sequence++;
    sink(
      entry,
      guardedPart(call),
      call.redactedParts === undefined && call.redactedTexts === undefined
        ? undefined
        : {
            ...(call.redactedParts !== undefined ? { parts: [...call.redactedParts] } : {}),
            ...(call.redactedTexts !== undefined ? { texts: call.redactedTexts } : {}),
          },
    );
  };
}
