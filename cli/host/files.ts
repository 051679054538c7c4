// Reading source files for the commands: bytes from disk, decoded and checked
// as UTF-8, with problems reported as diagnostics rather than exceptions.

import { MAX_SOURCE_BYTES, readBounded } from "../../report/read-bounded.js";
import { diagnose } from "../../compiler/diagnose.js";
import type { Diagnostic } from "../../compiler/diagnostics.js";
import { decodeSource, SourceFile } from "../../compiler/source.js";

export type Loaded = { ok: true; source: SourceFile } | { ok: false; diagnostic: Diagnostic; source?: SourceFile };

export function loadSource(path: string): Loaded {
  const read = readBounded(path, MAX_SOURCE_BYTES);
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
  return { ok: true, source };
}
