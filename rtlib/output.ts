// The program's standard output and error, with the output limits of seed 002:
// at most 10,000 lines and 4 MiB on stdout; past them one
// `[output truncated: ...]` line, and the rest is counted, not written.

import { hostImport } from "./host-import.js";

export const outputLimits = { maxLines: 10_000, maxBytes: 4 * 1024 * 1024 };
export const outputState = { lines: 0, bytes: 0, dropped: 0, truncated: false };

export function writeOut(text: string): void {
  if (outputState.truncated) {
    outputState.dropped += Buffer.byteLength(text);
    return;
  }
  const bytes = Buffer.byteLength(text);
  const lines = countLines(text);
  if (outputState.lines + lines > outputLimits.maxLines || outputState.bytes + bytes > outputLimits.maxBytes) {
    outputState.truncated = true;
    outputState.dropped += bytes;
    process.stdout.write(`[output truncated: the program printed more than ${outputLimits.maxLines.toLocaleString("en")} lines or ${outputLimits.maxBytes / 1024 / 1024} MiB]\n`);
    return;
  }
  outputState.lines += lines;
  outputState.bytes += bytes;
  process.stdout.write(text);
}

export function writeErr(text: string): void {
  process.stderr.write(text);
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
