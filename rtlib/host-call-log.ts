// The host calls of a run as its execution record lists them (spec/runtime.md,
// "The execution record"): an observer of the gateway that keeps, for each
// call the run's own code made, what was asked of whom, how long it took and
// how it ended. Never an argument's value, a header or a body: the target is
// the scope the grant checked (and an HTTP call's path, without its query).

import type { CallRecord, Observer } from "./gateway.js";
import { Cancelled, Crash, Failure } from "./errors.js";
import { loadedAccount, theRunAccount } from "./limits.js";
import { descOf } from "./values.js";

export interface HostCallEntry {
  /** The primitive, as a recording names it: `std.http.get`. */
  readonly operation: string;
  /**
   * Whom the call reached: a host and path, a file, a variable's name, a program, a port; absent for the console, time
   * and randomness.
   */
  readonly target?: string;
  /** Milliseconds the call took, to the microsecond. */
  readonly ms: number;
  /** `ok`, the failure's case (`HttpError.Timeout`), a crash's code, or `cancelled`. */
  readonly outcome: string;
  /** Answered from a recording rather than performed. */
  readonly replayed?: true;
}

export interface HostCallLog {
  readonly observe: Observer;
  /** The run's own calls, in the order they completed: at most the run's host-call limit. */
  readonly calls: HostCallEntry[];
  /**
   * Calls made by request handlers of a program that serves: counted, not listed (each request has its own host-call
   * limit, so they are unbounded).
   */
  readonly handlerCalls: () => number;
}

export function hostCallLog(): HostCallLog {
  const calls: HostCallEntry[] = [];
  let handlerCalls = 0;
  const observe: Observer = (call) => {
    if (loadedAccount() !== theRunAccount()) {
      handlerCalls++;
      return;
    }
    const target = targetOf(call);
    calls.push({
      operation: call.primitive,
      ...(target !== undefined ? { target } : {}),
      ms: Math.round(call.durationMs * 1000) / 1000,
      outcome: outcomeOf(call.outcome),
      ...(call.replayed === true ? { replayed: true } : {}),
    });
  };
  return { observe, calls, handlerCalls: () => handlerCalls };
}

/** Whom a call reached as the execution record names it; undefined when its scope may be made of guarded data. */
export function targetOf(call: CallRecord): string | undefined {
  const scope = call.need.scope;
  // A call that carried guarded data may have a scope made of it: the record goes to standard output.
  if (scope === undefined || call.guarded === true) return undefined;
  const url = call.arguments["url"];
  if (call.primitive.startsWith("std.http.") && typeof url === "string") {
    // The query and the fragment often carry keys; user and password are never shown.
    try {
      return `${scope}${new URL(url).pathname}`;
    } catch {
      return String(scope);
    }
  }
  return String(scope);
}

/** How a call ended in a word: `ok`, a failure's case, a crash's code, or `cancelled`; never a value. */
export function outcomeOf(outcome: CallRecord["outcome"]): string {
  if ("success" in outcome) return "ok";
  const thrown = outcome.failure;
  if (thrown instanceof Failure) return descOf(thrown.value)?.written ?? "failure";
  if (thrown instanceof Crash) return thrown.code;
  if (thrown instanceof Cancelled) return "cancelled";
  return "E-RT-INTERNAL";
}
