// A recording read from a file or bytes on the host's side: the reading itself is
// report/recording-reader.ts (strict JSON, every field checked, refused with
// E-RT-RECORDING and where); here its size is bounded as the file is read, and
// its sealed calls are opened with the key given (sealed-calls.ts).

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

/** Reads a recording's bytes; `name` is what messages call it. */
export function readRecording(bytes: Uint8Array, name = "the recording", key?: Buffer): ReadRecording {
  return readRecordingBytes(
    bytes,
    name,
    key === undefined ? undefined : (sealed, primitive) => unsealBytes(sealed, primitive, key),
  );
}
