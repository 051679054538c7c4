// The language server's files: a document's URI to the path the workspace
// names it by, and the reader of the modules it uses that are not open. A file
// is read as a command reads a source file (cli/host/files.ts): read-only,
// only a regular file, at most 16 MiB, and UTF-8.

import { fileURLToPath, pathToFileURL } from "node:url";
import { loadSource } from "../host/files.js";

/** A `file:` URI's path; any other URI (an unsaved document's) is its own name, and reaches no file. */
export function fileOfUri(uri: string): string {
  if (!uri.startsWith("file:")) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

export function uriOfFile(file: string): string {
  return file.startsWith("/") ? pathToFileURL(file).href : file;
}

/** The text of a module that is not open, or undefined when it cannot be read as a source file. */
export function readModule(file: string): string | undefined {
  // Only an absolute path: an unsaved document's `use` lines reach no file.
  if (!file.startsWith("/") || !file.endsWith(".ry")) return undefined;
  const loaded = loadSource(file);
  // A file that is not UTF-8 is read with its bad bytes replaced: its users are checked against what it declares.
  return loaded.ok ? loaded.source.text : loaded.source?.text;
}
