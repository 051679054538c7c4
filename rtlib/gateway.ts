// The capability gateway: the one function through which every effect of a
// compiled program passes (architecture.md, "The gateway"). In order: the
// cancellation flag and the host-call limit, then the call itself, then the
// observer (recording and narration hang here).

import { Crash } from "./errors.js";
import { checkCancelled, S } from "./limits.js";

export interface CallRecord {
  readonly primitive: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly outcome: { success: unknown } | { failure: unknown };
  readonly durationMs: number;
}

export type Observer = (call: CallRecord) => void;

let observer: Observer | undefined;

export function observe(next: Observer | undefined): void {
  observer = next;
}

export async function call<T>(primitive: string, args: Record<string, unknown>, perform: () => T | Promise<T>): Promise<T> {
  checkCancelled();
  if (++S.hostCalls > S.maxHostCalls) {
    throw new Crash("E-RT-LIMIT-HOST-CALLS", `the program made more than ${S.maxHostCalls.toLocaleString("en")} calls to the outside world`, "limit");
  }
  const started = performance.now();
  try {
    const result = await perform();
    observer?.({ primitive, arguments: args, outcome: { success: result }, durationMs: performance.now() - started });
    return result;
  } catch (e) {
    observer?.({ primitive, arguments: args, outcome: { failure: e }, durationMs: performance.now() - started });
    throw e;
  }
}
