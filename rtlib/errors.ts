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

/** The runtime errors and their codes (spec/runtime.md has the table). */
export type CrashCode =
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

/**
 * A `check` that did not hold: `expression` is the check as written (the
 * compiler passes it), carried with both values on the crash for `renyi test`.
 */
export function checkFailed(kind: string, left: string, right: string, site: string, expression = ""): never {
  const found =
    kind === "is" ? `${left} is not ${right}`
    : kind === "is not" ? `both sides are ${left}`
    : kind === "fails" ? "the call did not fail"
    : kind === "fails with" ? `the call failed with ${left}, which the pattern does not match`
    : "the condition is false";
  const message = expression === "" ? `check failed: ${found}` : `check failed: \`${expression}\`: ${found}`;
  throw Object.assign(new Crash("E-RT-CHECK", message, "crash", site), { check: { kind, expression, left: String(left), right: String(right) } });
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
