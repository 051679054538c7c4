// `--log` (spec/tracing.md, "Log lines"): one line of JSON on standard error when
// the run starts, when it ends, and for each host call that failed. A line names
// the program, operations, capabilities, outcomes in a word and targets the
// execution record shows: never a value, and never a target made of guarded data.
// CommonJS: the worker writes the lines of failed calls, the main thread the others.

import type { CallRecord, Observer } from "../../rtlib/index.js" with { "resolution-mode": "import" };
import type { TraceRuntime } from "./gatherer.cjs";

/** One log line: `time`, `level` and `event` first, then the event's own fields. */
export function logLine(
  level: "info" | "warn",
  event: "run.start" | "run.end" | "call.failed",
  fields: Readonly<Record<string, string | number | undefined>>,
): string {
  return `${JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })}\n`;
}

/** The gateway's observer that writes a line for each call that failed (a cancelled call is no failure of the host). */
export function failedCallLog(runtime: TraceRuntime, write: (line: string) => void): Observer {
  return (call: CallRecord) => {
    if ("success" in call.outcome) return;
    const outcome = runtime.hostCallOutcome(call.outcome);
    if (outcome === "cancelled") return;
    write(
      logLine("warn", "call.failed", {
        operation: call.primitive,
        capability: call.need.path.join("."),
        target: runtime.hostCallTarget(call),
        outcome,
        ms: Math.round(call.durationMs * 1000) / 1000,
      }),
    );
  };
}
