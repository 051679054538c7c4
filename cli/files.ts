// Reading source files for the commands: bytes from disk, decoded and checked
// as UTF-8, with problems reported as diagnostics rather than exceptions.

import { MAX_SOURCE_BYTES, readBounded } from "./read-bounded.js";
import { error, type Diagnostic } from "../compiler/diagnostics.js";
import { decodeSource, SourceFile } from "../compiler/source.js";

export type Loaded = { ok: true; source: SourceFile } | { ok: false; diagnostic: Diagnostic; source?: SourceFile };

export function loadSource(path: string): Loaded {
  const read = readBounded(path, MAX_SOURCE_BYTES);
  if (!read.ok) return failed(path, `I cannot read \`${path}\`: ${read.why}`);
  const bytes = read.bytes;
  const decoded = decodeSource(bytes);
  const source = new SourceFile(path, decoded.text);
  if (!decoded.ok) {
    return {
      ok: false,
      source,
      diagnostic: error("E-SYN-ENCODING", { file: path, start: decoded.badOffset, end: decoded.badOffset + 1 }, "This file is not valid UTF-8", {
        label: "the first byte that is not UTF-8",
        notes: ["Renyi source files are UTF-8 text."],
        hint: "Save the file as UTF-8, or check that it is a .ry source file and not a binary.",
      }),
    };
  }
  return { ok: true, source };
}

function failed(path: string, message: string): Loaded {
  return { ok: false, diagnostic: error("E-FILE", { file: path, start: 0, end: 0 }, message) };
}
