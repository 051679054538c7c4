// What a worker's input hands over to the worker rather than copies: a replay's checked recording, whose bytes are
// the worker's to read its calls from (rtlib/recording/checked-recording.ts). The bytes sit in a buffer of their own.

import type { WorkerInput } from "./worker.cjs";

/** The buffers the input's message moves to the worker; after it is sent the main thread can no longer read them. */
export function transferredOf(input: WorkerInput): ArrayBuffer[] {
  const calls = input.replay?.calls;
  return calls === undefined || Array.isArray(calls) ? [] : [calls.checked.buffer as ArrayBuffer];
}
