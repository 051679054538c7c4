// A gateway call as a recording writes it (spec/recording.md): arguments and
// outcomes by the ToJson rules, a failure as its error value, and an HTTP
// response with its body as text when it is UTF-8 and as base64 `bytes` when
// it is not, so that a person can read and edit the one and binary bodies
// round-trip exactly.

import { Failure } from "../errors.js";
import type { CallRecord } from "../gateway.js";
import { plain } from "../json.js";
import { DYNAMIC } from "../values.js";
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
    return {
      success: isHttpPrimitive(call.primitive)
        ? httpSuccess(value as { status: number; headers: unknown; bytes: Uint8Array })
        : (plain(value, DYNAMIC) as JsonValue),
    };
  }
  const thrown = call.outcome.failure;
  if (thrown instanceof Failure) return { failure: plain(thrown.value, DYNAMIC) as JsonValue };
  return undefined;
}

/** The call as an entry of the recording, numbered `sequence`; `atMs` is when it was made, since the run began. */
function encodeCall(call: CallRecord, sequence: number, atMs: number): RecordedCall | undefined {
  const outcome = encodeOutcome(call);
  if (outcome === undefined) return undefined;
  return {
    sequence,
    capability: needText(call.need),
    primitive: call.primitive,
    arguments: encodeArguments(call.arguments),
    outcome,
    duration_ms: Math.round(call.durationMs),
    at_ms: Math.max(0, Math.round(atMs)),
  };
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
  sink: (call: RecordedCall, guarded: GuardedPart | undefined) => void,
): (call: CallRecord) => void {
  const began = performance.now();
  let sequence = 0;
  return (call) => {
    const entry = encodeCall(call, sequence + 1, performance.now() - call.durationMs - began);
    if (entry === undefined) return;
    sequence++;
    sink(entry, guardedPart(call));
  };
}
