// How a run stops early. A failure is a value the program handles with
// `otherwise` (thrown as a Failure, which is not an Error: it carries no
// stack, so failing is cheap). A crash ends the run: `crash with`, a limit, a
// runtime check; it is an Error so that its stack can be mapped to a .ry line.

import { CONSOLE_SINK, Guarded, refusal } from "./origins.js";
import { runKind, runMessage, type RunCode, type RunFacts } from "../vocabulary/problems/run.js";

export class Failure {
  constructor(
    readonly value: unknown,
    /** Where the failure was raised, `file.ry:line:column`, once known. */
    public site?: string,
  ) {}
}

/**
 * A call a guard refused (spec/runtime.md, "The check"): its value, the failure type's
 * `Guarded` case, names capabilities and no argument, and whether it happens is decided
 * by what the arguments carry, not by their values.
 */
export class GuardRefusal extends Failure {}

/** The runtime errors and their codes: the catalogue's run-time rows (vocabulary/problems/run.ts). */
export type CrashCode = RunCode;

export type CrashKind = "crash" | "limit" | "internal";

/**
 * A crash: its code and the facts it carries; its message is the catalogue's
 * words for them, made here and nowhere else.
 */
export class Crash<C extends CrashCode = CrashCode> extends Error {
  readonly kind: CrashKind;
  constructor(
    readonly code: C,
    readonly facts: RunFacts<C>,
    /** `file.ry:line:column` when the compiled code knows it; otherwise the stack is mapped. */
    public site?: string,
  ) {
    super(runMessage(code, facts));
    const kind = runKind(code);
    this.kind = kind === "limit" || kind === "internal" ? kind : "crash";
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

/** `crash with MESSAGE`. */
export function crash(message: unknown, site?: string): never {
  throw new Crash(
    "E-RT-CRASH",
    { problem: "crash-with", message: String(toConsole(message, "the crash's message", site)) },
    site,
  );
}

/**
 * What leaves through the console at the end of a run (a crash's message, a
 * check's values): plain, when the guards of what it carries allow the
 * console; otherwise the run crashes with E-RT-GUARD, which names no data.
 */
function toConsole(value: unknown, what: string, site?: string): unknown {
  if (!(value instanceof Guarded)) return value;
  const refused = refusal(value.origins, CONSOLE_SINK);
  if (refused !== undefined) throw new Crash("E-RT-GUARD", { call: what, ...refused }, site);
  return value.value;
}

/** A match whose value fits none of its arms (a value outside its checked type). */
export function noArmFits(site?: string): never {
  throw new Crash("E-RT-CRASH", { problem: "no-arm" }, site);
}

export function isFailure(e: unknown): e is Failure {
  return e instanceof Failure;
}

/**
 * A `check` that did not hold: `expression` is the check as written (the
 * compiler passes it), carried with both values on the crash for `renyi test`.
 */
export function checkFailed(
  kind: string,
  guardedLeft: unknown,
  guardedRight: unknown,
  site: string,
  expression = "",
): never {
  const left = String(toConsole(guardedLeft, "the check's values", site));
  const right = String(toConsole(guardedRight, "the check's values", site));
  const facts: RunFacts<"E-RT-CHECK"> =
    kind === "is"
      ? { expression, check: "is", left, right }
      : kind === "is not"
        ? { expression, check: "is not", left }
        : kind === "fails"
          ? { expression, check: "fails" }
          : kind === "fails with"
            ? { expression, check: "fails with", failure: left }
            : { expression, check: "holds" };
  throw Object.assign(new Crash("E-RT-CHECK", facts, site), {
    check: { kind, expression, left: String(left), right: String(right) },
  });
}

/**
 * One of the engine's own limits, reached where no check of Renyi's came first
 * (a text read from outside, a value nested past the stack): the crash it
 * is, with the code a program's limits have. Anything else is not a program's
 * doing, and stays an internal error.
 */
export function engineLimit(e: unknown): Crash | undefined {
  if (!(e instanceof RangeError)) return undefined;
  const wrap = (crash: Crash) => Object.assign(crash, { stack: e.stack });
  if (/call stack/i.test(e.message)) return wrap(new Crash("E-RT-DEPTH", { problem: "engine" }));
  if (/invalid string length/i.test(e.message))
    return wrap(new Crash("E-RT-LIMIT-COLLECTION", { problem: "engine-text" }));
  if (/invalid array length|maximum size exceeded/i.test(e.message))
    return wrap(new Crash("E-RT-LIMIT-COLLECTION", { problem: "engine-collection" }));
  // Memory outside the heap (a byte buffer) the operating system refused: under `renyi run --isolate`, past the
  // process's limit.
  if (/array buffer allocation failed/i.test(e.message))
    return wrap(new Crash("E-RT-LIMIT-MEMORY", { problem: "process" }));
  return undefined;
}

/**
 * A crash whose occurrence was decided by guarded data (a division by a guarded
 * zero, an index out of range by a guarded number), refused at the console: it
 * ends a server's run rather than one request, so that a client cannot ask it one
 * question a request (spec/runtime.md, "Decisions on guarded data").
 */
export class DataCrash extends Crash<"E-RT-GUARD"> {}
