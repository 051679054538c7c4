// A recorded call as the recording reader gives it (cli/recordings/reader.ts), built from an entry whose every
// field the reader has checked: the one place its fields are put together, so that the reader and the program's
// worker (which reads the checked bytes again, rtlib/recording/checked-recording.ts) make the same entry.

import type { JsonValue, RecordedCall } from "./recording.js";

type Entry = { readonly [key: string]: JsonValue };

/** The entry of a call whose fields, and its outcome's, have been checked. */
export function checkedCallOf(at: Entry): RecordedCall {
  const outcome = at["outcome"] as Entry;
  const items = outcome["items"];
  const failedAt = outcome["at"];
  const call: RecordedCall = {
    sequence: at["sequence"] as number,
    capability: at["capability"] as string,
    primitive: at["primitive"] as string,
    arguments: at["arguments"] as { [name: string]: JsonValue },
    outcome:
      "success" in outcome
        ? { success: outcome["success"]!, ...(items !== undefined ? { items: [...(items as number[])] } : {}) }
        : { failure: outcome["failure"]!, ...(failedAt !== undefined ? { at: failedAt as "BEGIN" | "COMMIT" } : {}) },
  };
  if ("duration_ms" in at) call.duration_ms = at["duration_ms"] as number;
  if ("at_ms" in at) call.at_ms = at["at_ms"] as number;
  if ("request" in at) call.request = at["request"] as number;
  if ("transaction" in at) call.transaction = at["transaction"] as number;
  if ("redacted_at" in at) call.redacted_at = (at["redacted_at"] as (string | number)[][]).map((place) => [...place]);
  return call;
}
