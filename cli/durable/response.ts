// What an invocation answers (spec/durable.md, "The response"): how the run
// ended, with its code, place and message when it did not finish, what the
// program printed (cut at a bound, which the text says), its errors, and the
// execution record `renyi run --json` printed as its last line.

import { createHash } from "node:crypto";

/** The most of the program's output an answer carries. */
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** The most of its errors an answer carries. */
const MAX_ERRORS_BYTES = 64 * 1024;

export interface DurableResponse {
  readonly outcome: "finished" | "failed" | "crashed" | "refused" | "cancelled";
  readonly failure?: unknown;
  readonly code?: string;
  readonly at?: string;
  readonly message?: string;
  readonly output: string;
  readonly errors: string;
  readonly record: unknown;
}

interface RecordLine {
  outcome: string;
  error: {
    code: string | null;
    message: string;
    file: string | null;
    line: number | null;
    column: number | null;
  } | null;
}

/** What a run's process left: its standard output and errors, and how it ended. */
export interface Ended {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly exit: number | null;
  readonly signal: string | null;
  /** Why the endpoint stopped it, when it did. */
  readonly stopped?: "cancelled" | "output";
}

/** A refusal: nothing ran. */
export function refused(message: string, code?: string): DurableResponse {
  return { outcome: "refused", ...(code !== undefined ? { code } : {}), message, output: "", errors: "", record: null };
}

/** The program's output (stdout without the record line) and the record, when the last line is one. */
export function splitOutput(stdout: Buffer): { output: Buffer; record?: RecordLine } {
  const end = stdout.length > 0 && stdout[stdout.length - 1] === 0x0a ? stdout.length - 1 : stdout.length;
  const at = stdout.lastIndexOf(0x0a, end - 1);
  const line = stdout.subarray(at + 1, end).toString("utf8");
  try {
    const record = JSON.parse(line) as RecordLine;
    if (typeof record === "object" && record !== null && typeof record.outcome === "string")
      return { output: stdout.subarray(0, at + 1), record };
  } catch {
    // The run ended before it wrote its record.
  }
  return { output: stdout };
}

/** The `ended` entry's fields: the hash and length of what the program printed. */
export function outputDigest(output: Buffer): { stdout: string; bytes: number } {
  return { stdout: `sha256:${createHash("sha256").update(output).digest("hex")}`, bytes: output.length };
}

/** The answer made of a run's process as it ended. */
export function responseOf(ended: Ended): DurableResponse {
  const { output, record } = splitOutput(ended.stdout);
  const errors = cut(ended.stderr, MAX_ERRORS_BYTES, "standard error");
  const printed = cut(output, MAX_OUTPUT_BYTES, "output");
  if (ended.stopped === "cancelled")
    return {
      outcome: "cancelled",
      message: "the invocation was cancelled",
      output: printed,
      errors,
      record: record ?? null,
    };
  if (record === undefined) {
    const message =
      ended.stopped === "output"
        ? "the run printed more than the endpoint keeps, and was stopped"
        : `renyi run ended ${ended.signal !== null ? `by ${ended.signal}` : `with exit code ${ended.exit}`} and no execution record`;
    return { outcome: "crashed", message, output: printed, errors, record: null };
  }
  const error = record.error;
  const outcome = (["finished", "failed", "crashed", "refused", "cancelled"] as const).find(
    (o) => o === record.outcome,
  );
  return {
    outcome: outcome ?? "crashed",
    ...(outcome === "failed" && error !== null ? { failure: failureOf(error.message) } : {}),
    ...(error?.code ? { code: error.code } : {}),
    ...(error?.file ? { at: `${error.file}:${error.line ?? 1}:${error.column ?? 1}` } : {}),
    ...(error !== null ? { message: error.message } : {}),
    output: printed,
    errors,
    record,
  };
}

/** The answer of an invocation whose run had ended in an earlier attempt: the journal keeps no output. */
export function endedBefore(outcome: string): DurableResponse {
  const known = (["finished", "failed", "crashed", "refused", "cancelled"] as const).find((o) => o === outcome);
  return {
    outcome: known ?? "crashed",
    message: "the run ended in an earlier attempt; its output is not kept in the journal",
    output: "",
    errors: "",
    record: null,
  };
}

/** The value main failed with (`main failed with VALUE`): as JSON where it reads as JSON, else as written. */
function failureOf(message: string): unknown {
  const m = /^main failed with ([\s\S]*)$/.exec(message);
  if (m === null) return message;
  try {
    return JSON.parse(m[1]!);
  } catch {
    return m[1];
  }
}

function cut(buffer: Buffer, most: number, what: string): string {
  if (buffer.length <= most) return buffer.toString("utf8");
  // A character cut in two is dropped whole.
  const text = buffer
    .subarray(0, most)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  return `${text}\n[${what} cut at ${most / 1024} KiB of ${buffer.length.toLocaleString("en")} bytes]`;
}
