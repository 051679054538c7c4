// The command that records a run again (`renyi record --to REC FILE.ry [its options]`), as a note or a hint shows it
// where an old recording can no longer serve: a replay refused for a grant narrowed since it was recorded, a run
// resumed to fail where the recording did.

import type { Recording } from "../../vocabulary/recording.js";

/**
 * `renyi record --to REC FILE.ry ARGS…`, with the recording's own arguments (a redacted one as its placeholder) and
 * the names it was redacted under, each word quoted as a POSIX shell reads it back.
 */
export function recordAgainCommand(recording: Recording, to: string, file: string): string {
  const redact = (recording.redacted ?? []).flatMap((name) => ["--redact", name]);
  return commandLine(["renyi", "record", "--to", to, ...redact, file, ...(recording.arguments ?? [])]);
}

/** Words as one command line a POSIX shell reads back into the same words. */
export function commandLine(words: readonly string[]): string {
  return words.map(shellWord).join(" ");
}

/** A word quoted when it holds anything but plain characters (a leading `-` is plain: it is an option). */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
