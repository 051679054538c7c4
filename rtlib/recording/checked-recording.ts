// How a replay's recorded calls reach the program's worker (renyi run --replay): as the recording's bytes, which the
// main thread has read and checked whole (cli/recordings/reader.ts) before the run began, transferred to the worker
// rather than copied, and read here again with the engine's parser alone. Copying 90,000 checked calls from one thread
// to the other (the structured clone) cost more than reading their bytes again (bench/RESULTS.md, "Replay reads
// fast"). The calls that were sealed are sent as the reader opened them, by their place among the calls.

import { readCheckedJson } from "../../report/strict-json.js";
import { checkedCallOf } from "../../vocabulary/checked-call.js";
import type { JsonValue, RecordedCall } from "../../vocabulary/recording.js";

/** A checked recording's bytes, and the calls the reader opened (sealed ones) with their places in `calls`. */
export interface CheckedRecording {
  readonly checked: Uint8Array;
  readonly opened: readonly (readonly [number, RecordedCall])[];
}

/** The calls of a checked recording, each as the reader gave it. */
export function callsOfChecked(recording: CheckedRecording): RecordedCall[] {
  const value = readCheckedJson(recording.checked) as { calls: { [key: string]: JsonValue }[] };
  const entries = value.calls;
  const calls = new Array<RecordedCall>(entries.length);
  for (const [i, call] of recording.opened) calls[i] = call;
  // A sealed entry's place holds its placeholder in the bytes: it was opened, and is not made again.
  for (let i = 0; i < entries.length; i++) if (calls[i] === undefined) calls[i] = checkedCallOf(entries[i]!);
  return calls;
}
