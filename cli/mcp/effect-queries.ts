// The queries of a run's HTTP calls, for the effects the `run` tool shows (spec/mcp.md, "run"): the execution record
// names a call by its operation and target, a host and path, and three requests for three pages of one path read
// alike there. The recording the run wrote holds each call's URL; the agent reads it as a resource all the same. A
// sealed entry (its arguments, or what it gave back, were guarded data) gives no query: nothing the agent is handed
// holds a value that carried origins, in any form, a hash of it included, since a hash tells two guesses apart.

import { readNeedText } from "../../vocabulary/grant-text.js";
import type { Need } from "../../vocabulary/needs.js";
import { readRecordingFile } from "../recordings/reader.js";
import { readSealKey, sealKeyOf } from "../recordings/sealed-calls.js";

/** The most characters of a query an effect shows. */
const MAX_QUERY_SHOWN = 300;

/**
 * Gives each HTTP call's query (`?page=2`), by its operation and target in the order the calls completed, from the
 * recording `file` in `folder`; undefined for a call without one, or that the recording does not show. A recording that
 * cannot be read gives none.
 */
export function recordedQueries(
  folder: string,
  file: string,
): (operation: string, target: string) => string | undefined {
  const key = readSealKey(sealKeyOf(folder));
  const read = readRecordingFile(file, Buffer.isBuffer(key) ? key : undefined);
  if (!read.ok) return () => undefined;
  const queues = new Map<string, string[]>();
  for (const call of read.recording.calls) {
    if (!call.primitive.startsWith("std.http.") || read.sealed.has(call.sequence)) continue;
    const url = call.arguments["url"];
    const need = readNeedText(call.capability) as Need; // the reader has checked it
    if (typeof url !== "string" || need.scope === undefined) continue;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      continue;
    }
    // The key the execution record names the call by (rtlib/host-call-log.ts): its scope, then the URL's path.
    const at = `${call.primitive} ${need.scope}${parsed.pathname}`;
    queues.set(at, [...(queues.get(at) ?? []), parsed.search]);
  }
  return (operation, target) => {
    const query = queues.get(`${operation} ${target}`)?.shift();
    if (query === undefined || query === "") return undefined;
    return query.length > MAX_QUERY_SHOWN ? `${query.slice(0, MAX_QUERY_SHOWN)}…` : query;
  };
}
