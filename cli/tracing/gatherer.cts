// The spans of a traced run as its worker thread gathers them (spec/tracing.md):
// one per call of a definition with a `purpose:` (the narration's hook,
// rtlib/narration.ts, which a traced program is compiled with), one per call
// through the gateway (an observer, as the recording is). Each is sent to the
// main thread as it ends, so that a run stopped by force keeps what it had;
// the main thread writes the file and talks to a collector.
//
// Nothing here names guarded data: a definition's span names the definition and
// its purpose (source text), never its arguments; a call whose arguments carried
// guarded data has no target, as in the execution record. CommonJS, bundled
// into the worker's one file, and run only when the run is traced.
//
// Spans are sent in batches (a message per span cost about as much as the
// span itself): when a batch is full, a moment after its first span, and when
// the run ends.

import type { AsyncLocalStorage } from "node:async_hooks";
import type { CallRecord, DefinitionWatcher, Observer } from "../../rtlib/index.js" with {
  "resolution-mode": "import",
};

/** A span as the worker sends it to the main thread, which writes it in OTLP's form (otlp-json.ts). */
export interface TraceSpan {
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  readonly kind: "internal" | "client";
  /** Unix time in nanoseconds, as a decimal text (OTLP's JSON writes 64-bit numbers so). */
  readonly startNs: string;
  readonly endNs: string;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  /** How it went wrong in a word (a failure's case, a crash's code); absent when it went well. */
  readonly error?: string;
}

/** What the main thread tells a traced run: the id of the run's own span, the parent of every span here. */
export interface TraceInput {
  readonly runSpanId: string;
}

/** What of the runtime the spans are made with (the worker's runtime, passed in: this file loads none). */
export interface TraceRuntime {
  readonly hostCallTarget: (call: CallRecord) => string | undefined;
  readonly hostCallOutcome: (outcome: CallRecord["outcome"]) => string;
}

/** Unix time now, in nanoseconds, as a decimal text. */
export function nowNs(): string {
  return nsOf(performance.timeOrigin + performance.now());
}

/** A time in milliseconds since the epoch (with its fraction) in nanoseconds, as a decimal text, without losing digits. */
function nsOf(ms: number): string {
  const whole = Math.floor(ms);
  return (BigInt(whole) * 1_000_000n + BigInt(Math.round((ms - whole) * 1_000_000))).toString();
}

/** This thread's half of every span id it makes: 4 random bytes, drawn once (a draw per span was most of a span's cost). */
let idPrefix: string | undefined;
let idCount = 0;

/** A new span id, 8 bytes in hex: the thread's random half, then a count, so that no two of a trace are alike. */
export function newSpanId(): string {
  idPrefix ??= (require("node:crypto") as typeof import("node:crypto")).randomBytes(4).toString("hex");
  idCount = (idCount + 1) >>> 0;
  return idPrefix + idCount.toString(16).padStart(8, "0");
}

interface OpenSpan {
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  readonly purpose: string;
  readonly startNs: string;
}

/** Spans in one message, at most. */
const BATCH = 512;
/** How long a span waits for others before its batch is sent anyway. */
const BATCH_WAIT_MS = 100;

/**
 * The definitions' hook and the gateway's observer of a traced run; the spans go to `sendBatch` a batch at a time, and
 * what is still held when `flush` is called.
 */
export function gatherSpans(
  input: TraceInput,
  runtime: TraceRuntime,
  sendBatch: (spans: TraceSpan[]) => void,
): { watcher: DefinitionWatcher; observer: Observer; flush: () => void } {
  let held: TraceSpan[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (held.length === 0) return;
    const batch = held;
    held = [];
    sendBatch(batch);
  };
  const send = (span: TraceSpan) => {
    held.push(span);
    if (held.length >= BATCH) flush();
    // The timer does not keep the thread alive: the run's end flushes what is left.
    else if (timer === undefined) timer = setTimeout(flush, BATCH_WAIT_MS).unref();
  };
  const { AsyncLocalStorage: Storage } = require("node:async_hooks") as typeof import("node:async_hooks");
  // The innermost definition span open in the running task, carried along its awaits.
  const open: AsyncLocalStorage<string> = new Storage<string>();
  const parent = () => open.getStore() ?? input.runSpanId;
  const watcher: DefinitionWatcher = {
    enter: (purpose, name): OpenSpan => ({
      spanId: newSpanId(),
      parentSpanId: parent(),
      name,
      purpose,
      startNs: nowNs(),
    }),
    within: (span, body) => open.run((span as OpenSpan).spanId, body),
    leave: (span, failure) => {
      const { spanId, parentSpanId, name, purpose, startNs } = span as OpenSpan;
      const outcome = failure === undefined ? "ok" : runtime.hostCallOutcome({ failure });
      send({
        spanId,
        parentSpanId,
        name,
        kind: "internal",
        startNs,
        endNs: nowNs(),
        attributes: { "renyi.definition": name, "renyi.purpose": purpose, "renyi.outcome": outcome },
        ...(outcome === "ok" ? {} : { error: outcome }),
      });
    },
  };
  const observer: Observer = (call) => {
    const endMs = performance.timeOrigin + performance.now();
    const outcome = runtime.hostCallOutcome(call.outcome);
    const http = call.primitive.startsWith("std.http.");
    send({
      spanId: newSpanId(),
      parentSpanId: parent(),
      name:
        http && call.primitive !== "std.http.request"
          ? call.primitive.slice("std.http.".length).toUpperCase()
          : http
            ? "HTTP"
            : call.primitive,
      kind: http || call.primitive.startsWith("std.database.") ? "client" : "internal",
      startNs: nsOf(endMs - call.durationMs),
      endNs: nsOf(endMs),
      attributes: callAttributes(call, runtime.hostCallTarget(call), outcome),
      ...(outcome === "ok" ? {} : { error: outcome }),
    });
  };
  return { watcher, observer, flush };
}

/**
 * A gateway call's attributes: OpenTelemetry's semantic conventions where they fit, renyi.* for the rest. The target
 * and what names it (url.full, server.address) only when the execution record shows the target.
 */
function callAttributes(
  call: CallRecord,
  target: string | undefined,
  outcome: string,
): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {
    "renyi.operation": call.primitive,
    "renyi.capability": call.need.path.join("."),
    "renyi.outcome": outcome,
    "renyi.duration_ms": Math.round(call.durationMs * 1000) / 1000,
  };
  if (target !== undefined) attributes["renyi.target"] = target;
  if (call.replayed === true) attributes["renyi.replayed"] = true;
  if (call.guarded === true) attributes["renyi.guarded"] = true;
  if (call.primitive.startsWith("std.http.")) {
    // A method outside the named ones is an argument of std.http.request: "_OTHER", as the conventions write it, and
    // the method itself only where the call's target is shown (its arguments carried no guarded data).
    const original = call.arguments["method"];
    if (call.primitive === "std.http.request") {
      attributes["http.request.method"] = "_OTHER";
      if (target !== undefined && typeof original === "string") attributes["http.request.method_original"] = original;
    } else attributes["http.request.method"] = call.primitive.slice("std.http.".length).toUpperCase();
    const url = call.arguments["url"];
    if (target !== undefined && typeof url === "string") Object.assign(attributes, urlAttributes(url));
    // A call a guard covers gives back guarded data: its status too is left out.
    const status =
      "success" in call.outcome && call.guardedResult !== true
        ? (call.outcome.success as { status?: unknown } | null)?.status
        : undefined;
    if (typeof status === "number") attributes["http.response.status_code"] = status;
  }
  // db.system.name is the stable convention's name, db.system the one older collectors know.
  if (call.primitive.startsWith("std.database.")) {
    attributes["db.system.name"] = "sqlite";
    attributes["db.system"] = "sqlite";
  }
  return attributes;
}

/** url.full without its query, fragment, user or password (they often carry keys), server.address and server.port. */
function urlAttributes(url: string): Record<string, string | number> {
  try {
    const parsed = new URL(url);
    return {
      "url.full": `${parsed.origin}${parsed.pathname}`,
      "server.address": parsed.hostname,
      ...(parsed.port !== "" ? { "server.port": Number(parsed.port) } : {}),
    };
  } catch {
    return {};
  }
}
