// The channel of a durable run (spec/durable.md, "The run side"): `renyi run
// --durable` is started by `renyi serve --restate` with an IPC channel and
// RENYI_DURABLE=1, and nothing of the program runs before the endpoint's
// `start` message has come. What comes over the channel is read as any input
// is: checked for its shape before it is used.

import { DURABLE_ENV, type DurableStart, type FromDurableRun, type ToDurableRun } from "../../vocabulary/durable.js";
import { isBudgetUnit } from "../../vocabulary/needs.js";
import type { RecordedCall } from "../../vocabulary/recording.js";

/** Why the run cannot be a durable one (no channel, or not started by an endpoint), or undefined. */
export function channelProblem(): string | undefined {
  if (typeof process.send === "function" && process.env[DURABLE_ENV] === "1") return undefined;
  return (
    "--durable runs one attempt of a durable invocation: renyi serve --restate starts it, with an IPC channel and " +
    `${DURABLE_ENV}=1, and answers it over that channel; this run has ${typeof process.send === "function" ? `no ${DURABLE_ENV}=1` : "no IPC channel"}. ` +
    "Run the program with renyi run, or serve it with renyi serve --restate"
  );
}

/** The endpoint's `start` message, once it has come, or why the run cannot begin. */
export function startMessage(): Promise<DurableStart["start"] | { problem: string }> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      stop();
      resolve(startOf(message) ?? { problem: "the endpoint's first message is not a well-formed `start`" });
    };
    const onDisconnect = () => {
      stop();
      resolve({ problem: "the endpoint closed the channel before it sent `start`" });
    };
    const stop = () => {
      process.off("message", onMessage);
      process.off("disconnect", onDisconnect);
    };
    process.on("message", onMessage);
    process.on("disconnect", onDisconnect);
    // A channel closed before the run listened gives no event at all.
    if (!process.connected) onDisconnect();
  });
}

/** A message for the endpoint; one the channel can no longer take is dropped (the endpoint is gone: see onGone). */
export function toEndpoint(message: FromDurableRun): void {
  if (process.connected) process.send!(message, undefined, {}, () => {});
}

/** An answer of the endpoint's after the start, if the message is one. */
export function replyOf(message: unknown): Exclude<ToDurableRun, DurableStart> | undefined {
  if (!isObject(message)) return undefined;
  if (isId(message["kept"])) return { kept: message["kept"] };
  if (isId(message["woke"])) return { woke: message["woke"] };
  if (isId(message["taken"]) && typeof message["ok"] === "boolean")
    return { taken: message["taken"], ok: message["ok"] };
  return undefined;
}

function startOf(message: unknown): DurableStart["start"] | undefined {
  if (!isObject(message) || !isObject(message["start"])) return undefined;
  const start = message["start"];
  const { journaled, code, shared, redacted } = start;
  if (typeof code !== "string" || !Array.isArray(journaled) || !Array.isArray(shared) || !Array.isArray(redacted))
    return undefined;
  if (!journaled.every(isRecordedCall)) return undefined;
  if (!redacted.every((n) => typeof n === "string")) return undefined;
  if (!shared.every(isSharedBudget)) return undefined;
  return start as unknown as DurableStart["start"];
}

function isRecordedCall(call: unknown): call is RecordedCall {
  if (!isObject(call) || !isObject(call["arguments"]) || !isObject(call["outcome"])) return false;
  const outcome = call["outcome"];
  return (
    Number.isSafeInteger(call["sequence"]) &&
    typeof call["primitive"] === "string" &&
    typeof call["capability"] === "string" &&
    ("success" in outcome || "failure" in outcome) &&
    (call["at_ms"] === undefined || Number.isFinite(call["at_ms"])) &&
    (call["duration_ms"] === undefined || Number.isFinite(call["duration_ms"]))
  );
}

function isSharedBudget(budget: unknown): boolean {
  if (!isObject(budget) || !isObject(budget["need"])) return false;
  const { path, scope } = budget["need"];
  return (
    typeof budget["key"] === "string" &&
    Array.isArray(path) &&
    path.every((p) => typeof p === "string") &&
    Number.isSafeInteger(budget["count"]) &&
    (scope === undefined || typeof scope === "string" || typeof scope === "number") &&
    typeof budget["unit"] === "string" &&
    isBudgetUnit(budget["unit"])
  );
}

function isId(value: unknown): value is number {
  return Number.isSafeInteger(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
