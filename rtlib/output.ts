// The program's standard output and error, with its output limits (spec/runtime.md, section 3):
// at most 10,000 lines and 4 MiB on stdout, and as much again on stderr (each
// stream counts its own); past them one `[output truncated: ...]` line on that
// stream, and the rest is counted, not written.

import { hostImport } from "./host-import.js";
import { DEFAULT_LIMITS } from "../vocabulary/limits.js";

/** Set by the host that starts a run (`--max-output-lines`, `--max-output-bytes`), never by a program. */
export const outputLimits: { maxLines: number; maxBytes: number } = {
  maxLines: DEFAULT_LIMITS.maxOutputLines,
  maxBytes: DEFAULT_LIMITS.maxOutputBytes,
};

export function configureOutput(limits: { maxOutputLines?: number; maxOutputBytes?: number }): void {
  outputLimits.maxLines = limits.maxOutputLines ?? DEFAULT_LIMITS.maxOutputLines;
  outputLimits.maxBytes = limits.maxOutputBytes ?? DEFAULT_LIMITS.maxOutputBytes;
}

/** `4 MiB` when it is a whole number of MiB, `1,000 bytes` otherwise. */
function bytesText(bytes: number): string {
  const mib = 1024 * 1024;
  return bytes % mib === 0 ? `${bytes / mib} MiB` : `${bytes.toLocaleString("en")} bytes`;
}
export const outputState = { lines: 0, bytes: 0, dropped: 0, truncated: false };
/** What `console.error` wrote: the same limits as stdout, counted apart. */
export const errorState = { lines: 0, bytes: 0, dropped: 0, truncated: false };

type OutputState = typeof outputState;

/** Whether `text` may be written on a stream that has written `state` so far; counts it either way. */
function admit(state: OutputState, text: string): "write" | "truncate" | "drop" {
  const bytes = Buffer.byteLength(text);
  if (state.truncated) {
    state.dropped += bytes;
    return "drop";
  }
  const lines = countLines(text);
  if (state.lines + lines > outputLimits.maxLines || state.bytes + bytes > outputLimits.maxBytes) {
    state.truncated = true;
    state.dropped += bytes;
    return "truncate";
  }
  state.lines += lines;
  state.bytes += bytes;
  return "write";
}

function truncatedLine(what: string): string {
  return (
    `[output truncated: the program ${what} more than ${outputLimits.maxLines.toLocaleString("en")} lines or ` +
    `${bytesText(outputLimits.maxBytes)} (--max-output-lines, --max-output-bytes)]\n`
  );
}

export function writeOut(text: string): void {
  const verdict = admit(outputState, text);
  if (verdict === "write") process.stdout.write(text);
  else if (verdict === "truncate") process.stdout.write(truncatedLine("printed"));
}

export function writeErr(text: string): void {
  const verdict = admit(errorState, text);
  if (verdict === "write") process.stderr.write(text);
  else if (verdict === "truncate") process.stderr.write(truncatedLine("wrote on stderr"));
}

function countLines(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

let lines: AsyncIterator<string> | undefined;
let requestInput: (() => void) | undefined;

/**
 * What the host does when the program first reads its input: `renyi run`'s
 * worker asks the main thread to start passing the terminal's input on, which
 * it does not do before (a program run in the background that never reads must
 * not touch the terminal: a background job that reads it is stopped).
 */
export function configureInput(request: () => void): void {
  requestInput = request;
}

export async function readLine(): Promise<string | undefined> {
  // node:readline is loaded by the first read, not when every program starts.
  const { createInterface } = await hostImport<typeof import("node:readline")>("node:readline");
  if (lines === undefined) {
    requestInput?.();
    requestInput = undefined;
    lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  }
  const next = await lines.next();
  return next.done === true ? undefined : next.value;
}
