// A recording read from a file or bytes on the host's side: the reading itself is
// report/recording-reader.ts (strict JSON, every field checked, refused with
// E-RT-RECORDING and where); here its size is bounded as the file is read, and
// its sealed calls are opened with the key given (sealed-calls.ts).

import { getHeapStatistics } from "node:v8";
import { jsonHeapBound, MOST_PER_CHARACTER } from "../../report/json-heap-bound.js";
import { readBounded } from "../../report/read-bounded.js";
import { readRecordingBytes, refused, type ReadRecording } from "../../report/recording-reader.js";
import { MAX_RECORDING_BYTES } from "../../vocabulary/recording.js";
import { unsealBytes } from "./sealed-calls.js";

export { refusalText, type ReadRecording } from "../../report/recording-reader.js";

/** Reads the recording at `path`; its sealed calls are opened with `key`, and refused without one. */
export function readRecordingFile(path: string, key?: Buffer): ReadRecording {
  const read = readBounded(path, MAX_RECORDING_BYTES);
  if (!read.ok) return refused({ file: path, problem: "unreadable", detail: read.why });
  return readRecording(read.bytes, path, key);
}

/** What this process keeps beyond a recording it reads (the compiler, the program, room to end cleanly): a quarter of its heap, at most 256 MiB. */
const PROCESS_KEPT = 256 * 1024 * 1024;

/** Reads a recording's bytes; `name` is what messages call it. */
export function readRecording(bytes: Uint8Array, name = "the recording", key?: Buffer): ReadRecording {
  // A recording of tiny values is twenty or more times its size once read: past this process's heap limit Node would
  // end it with a fatal error, so one whose bound (report/json-heap-bound.ts) does not fit is refused unread.
  const heap = getHeapStatistics();
  const room = heap.heap_size_limit - heap.used_heap_size - Math.min(PROCESS_KEPT, heap.heap_size_limit / 4);
  if (bytes.length * MOST_PER_CHARACTER > room) {
    const bound = jsonHeapBound(bytes);
    if (bound > room) {
      const mib = (n: number) => Math.ceil(n / (1024 * 1024)).toLocaleString("en");
      const detail = `its calls could take about ${mib(bound)} MiB once read, more than this process may hold (${mib(heap.heap_size_limit)} MiB)`;
      return refused({ file: name, problem: "unreadable", detail });
    }
  }
  return readRecordingBytes(
    bytes,
    name,
    key === undefined ? undefined : (sealed, primitive) => unsealBytes(sealed, primitive, key),
  );
}
