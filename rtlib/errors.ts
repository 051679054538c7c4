// How a run stops early. A failure is a value the program handles with
// `otherwise` (thrown as a Failure, which is not an Error: it carries no
// stack, so failing is cheap). A crash ends the run: `crash with`, a limit, a
// runtime check; it is an Error so that its stack can be mapped to a .ry line.

export class Failure {
  constructor(
    readonly value: unknown,
    /** Where the failure was raised, `file.ry:line:column`, once known. */
    public site?: string,
  ) {}
}

import type { RecordingCode } from "../vocabulary/recording.js";

/** The runtime errors and their codes (spec/runtime.md has the table); those of recorded runs are listed in vocabulary/recording.ts. */
export type CrashCode =
  | RecordingCode
  | "E-RT-CRASH"
  | "E-RT-OVERFLOW"
  | "E-RT-DIVISION"
  | "E-RT-INDEX"
  | "E-RT-FUEL"
  | "E-RT-DEPTH"
  | "E-RT-LIMIT-COLLECTION"
  | "E-RT-LIMIT-HOST-CALLS"
  | "E-RT-LIMIT-TIME"
  | "E-RT-RESPONSE"
  | "E-RT-UNHANDLED"
  | "E-RT-CHECK"
  | "E-RT-PERMISSION"
  | "E-RT-BUDGET"
  | "E-RT-INTERNAL";

export type CrashKind = "crash" | "limit" | "internal";

export class Crash extends Error {
  constructor(
    readonly code: CrashCode,
    message: string,
    readonly kind: CrashKind = "crash",
    /** `file.ry:line:column` when the compiled code knows it; otherwise the stack is mapped. */
    public site?: string,
  ) {
    super(message);
    this.name = "Crash";
  }
}

/** Thrown when the run is cancelled (Ctrl-C, the deadline); it ends the run `cancelled`. */
export class Cancelled extends Error {
  constructor(readonly reason: "interrupt" | "timeout") {
    super(reason === "timeout" ? "the run reached its time limit" : "the run was interrupted");
    this.name = "Cancelled";
  }
}

export function crash(message: unknown, site?: string): never {
  throw new Crash("E-RT-CRASH", String(message), "crash", site);
}

export function isFailure(e: unknown): e is Failure {
  return e instanceof Failure;
}

/** A `check` that does not hold: the test fails, naming both sides. */
export function checkFailed(kind: string, left: string, right: string, site: string): never {
  const message =
    kind === "is" ? `check failed: ${left} is not ${right}`
    : kind === "is not" ? `check failed: both sides are ${left}`
    : kind === "fails" ? "check failed: the call did not fail"
    : kind === "fails with" ? `check failed: the call failed with ${left}, which the pattern does not match`
    : "check failed: the condition is false";
  throw new Crash("E-RT-CHECK", message, "crash", site);
}

/**
 * One of the engine's own limits, reached where no check of Renyi's came first
 * (a text read from outside, a value nested past the stack): the crash it
 * is, with the code a program's limits have. Anything else is not a program's
 * doing, and stays an internal error.
 */
export function engineLimit(e: unknown): Crash | undefined {
  if (!(e instanceof RangeError)) return undefined;
  const wrap = (code: CrashCode, message: string) => Object.assign(new Crash(code, message, "limit"), { stack: e.stack });
  if (/call stack/i.test(e.message)) return wrap("E-RT-DEPTH", "calls nested too deeply for the stack");
  if (/invalid string length/i.test(e.message)) return wrap("E-RT-LIMIT-COLLECTION", "a text would be longer than the engine can hold");
  if (/invalid array length|maximum size exceeded/i.test(e.message)) return wrap("E-RT-LIMIT-COLLECTION", "a list, map or set would be larger than the engine can hold");
  return undefined;
}
