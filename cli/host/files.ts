// Reading source files for the commands: bytes from disk, decoded and checked
// as UTF-8, with problems reported as diagnostics rather than exceptions.

import { MAX_SOURCE_BYTES, readBounded } from "../../report/read-bounded.js";
import { diagnose } from "../../compiler/diagnose.js";
import type { Diagnostic } from "../../compiler/diagnostics.js";
import { decodeSource, SourceFile } from "../../compiler/source.js";

/** `byteOrderMark`: the file began with one (the decoded text has dropped it). */
export type Loaded =
  | { ok: true; source: SourceFile; byteOrderMark: boolean }
  | { ok: false; diagnostic: Diagnostic; source?: SourceFile };

/** `noFollow`: refuse a path that is a symbolic link (see readBounded). */
export function loadSource(path: string, noFollow = false): Loaded {
  const read = readBounded(path, MAX_SOURCE_BYTES, noFollow);
  if (!read.ok)
    return {
      ok: false,
      diagnostic: diagnose("E-FILE", { file: path, start: 0, end: 0 }, { path, ...read.unreadable }),
    };
  const bytes = read.bytes;
  const decoded = decodeSource(bytes);
  const source = new SourceFile(path, decoded.text);
  if (!decoded.ok) {
    return {
      ok: false,
      source,
      diagnostic: diagnose("E-SYN-ENCODING", { file: path, start: decoded.badOffset, end: decoded.badOffset + 1 }, {}),
    };
  }
  const byteOrderMark = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return { ok: true, source, byteOrderMark };
}
