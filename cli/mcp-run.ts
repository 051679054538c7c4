// The `run` tool of `renyi mcp` (spec/mcp.md, "run"): a program whose grant lies
// within the ceiling is run as `renyi record --json` runs it, by the real
// command in a process of its own, so that a program that loops or prints
// without end neither blocks nor floods the server. Its output is captured
// and cut, the recording written into the recordings folder under a fresh id.

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheDirectory, makeFolders } from "./cache.cjs";

/** The most text of the output, and of the errors, a result carries: 64 KiB. */
export const MAX_RESULT_TEXT = 64 * 1024;
/** The most effects a result lists, one line each. */
export const MAX_EFFECT_LINES = 1_000;
/** The wall time a run may take, in seconds, unless RENYI_MCP_TIMEOUT says otherwise. */
export const DEFAULT_RUN_TIMEOUT_SECONDS = 60;
/** Runs at once; more wait their turn. */
export const MAX_CONCURRENT_RUNS = 2;
/** The most of standard output kept while a run goes on: the record is its last line. */
const MAX_KEPT_BYTES = 32 * 1024 * 1024;

const RENYI = fileURLToPath(new URL("./renyi.cjs", import.meta.url));

export interface RunRequest {
  readonly texts: ReadonlyMap<string, string>;
  readonly entry: string;
  readonly args: readonly string[];
  readonly input?: string | undefined;
  /** `--allow-host` and `--at-most` flags that narrow main's grant to the ceiling. */
  readonly narrowing: readonly string[];
  readonly recordings: string;
}

export interface RunResult {
  outcome: string;
  exit: number;
  output: string;
  outputTruncated: boolean;
  errors: string;
  error?: { code: string | null; message: string; file: string | null; line: number | null; column: number | null };
  steps: number;
  effects: string[];
  recording: string;
  timeoutSeconds: number;
}

/** The run timeout, in seconds: RENYI_MCP_TIMEOUT when it is a whole number above 0. */
export function runTimeoutSeconds(): number {
  const given = process.env["RENYI_MCP_TIMEOUT"];
  return given !== undefined && /^\d+$/.test(given) && Number(given) >= 1 ? Number(given) : DEFAULT_RUN_TIMEOUT_SECONDS;
}

/** The folder recordings go to: the one --recordings names, or `<cache>/recordings`. */
export function recordingsFolder(given: string | undefined): string {
  return given !== undefined ? resolve(given) : join(cacheDirectory(), "recordings");
}

/** The commands running now, ended when the server ends. */
const children = new Set<import("node:child_process").ChildProcess>();

/** Ends every run still going: the server is ending. */
export function stopRuns(): void {
  for (const child of children) child.kill("SIGKILL");
}

let running = 0;
const waiting: (() => void)[] = [];

async function turn(): Promise<() => void> {
  if (running >= MAX_CONCURRENT_RUNS) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  return () => {
    const next = waiting.shift();
    if (next !== undefined) next();
    else running--;
  };
}

/** Runs the program as `renyi record --json` does, in a process of its own. */
export async function runProgram(request: RunRequest): Promise<RunResult> {
  const done = await turn();
  const folder = mkdtempSync(join(tmpdir(), "renyi-mcp-"));
  try {
    for (const [name, text] of request.texts) {
      const file = join(folder, `${name}.ry`);
      makeFolders(dirname(file));
      writeFileSync(file, text);
    }
    makeFolders(request.recordings);
    const id = `rec-${randomBytes(6).toString("hex")}`;
    const timeout = runTimeoutSeconds();
    const argv = [RENYI, "record", "--to", join(request.recordings, `${id}.recording.json`), "--json", "--timeout", String(timeout), ...request.narrowing, `${request.entry}.ry`, ...request.args];
    const ran = await spawned(argv, request.input ?? "", folder, timeout);
    return resultOf(ran, id, timeout);
  } finally {
    rmSync(folder, { recursive: true, force: true });
    done();
  }
}

interface Spawned {
  head: Buffer;
  tail: Buffer;
  bytes: number;
  stderr: Buffer;
  stderrBytes: number;
  exit: number;
  killed: boolean;
}

function spawned(argv: readonly string[], input: string, cwd: string, timeout: number): Promise<Spawned> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { cwd, stdio: ["pipe", "pipe", "pipe"] });
    children.add(child);
    const heads: Buffer[] = [];
    let headBytes = 0;
    let tails: Buffer[] = [];
    let tailBytes = 0;
    let bytes = 0;
    const errs: Buffer[] = [];
    let stderrBytes = 0;
    let killed = false;
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (headBytes < MAX_RESULT_TEXT + 4) {
        heads.push(chunk);
        headBytes += chunk.length;
      }
      tails.push(chunk);
      tailBytes += chunk.length;
      if (tailBytes > MAX_KEPT_BYTES * 2) {
        const all = Buffer.concat(tails).subarray(-MAX_KEPT_BYTES);
        tails = [all];
        tailBytes = all.length;
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderrBytes += chunk.length;
      if (stderrBytes <= MAX_RESULT_TEXT * 2) errs.push(chunk);
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
    // The command's own --timeout ends the run; this ends a command that would not end.
    const guard = setTimeout(() => {
      killed = true;
      child.kill("SIGKILL");
    }, (timeout + 15) * 1000);
    child.on("error", () => undefined);
    child.on("close", (code, signal) => {
      children.delete(child);
      clearTimeout(guard);
      resolve({ head: Buffer.concat(heads), tail: Buffer.concat(tails).subarray(-MAX_KEPT_BYTES), bytes, stderr: Buffer.concat(errs), stderrBytes, exit: code ?? (signal !== null ? 2 : 2), killed });
    });
  });
}

interface HostCall {
  operation: string;
  target?: string;
  ms: number;
  outcome: string;
  replayed?: true;
}

interface Record {
  outcome: string;
  exit: number;
  steps: number;
  hostCalls: HostCall[];
  error: RunResult["error"] | null;
}

/** The execution record on the last line of standard output, and the output before it. */
function splitRecord(ran: Spawned): { record?: Record; outputBytes: number } {
  const tail = ran.tail.toString("utf8").replace(/\n$/, "");
  const at = tail.lastIndexOf("\n");
  const line = tail.slice(at + 1);
  try {
    const record = JSON.parse(line) as Record;
    if (typeof record === "object" && record !== null && typeof record.outcome === "string") {
      return { record, outputBytes: ran.bytes - Buffer.byteLength(line, "utf8") - 1 };
    }
  } catch {
    // Not a record: the command ended before it wrote one.
  }
  return { outputBytes: ran.bytes };
}

function cut(buffer: Buffer, bytes: number): { text: string; truncated: boolean } {
  const kept = buffer.subarray(0, Math.min(bytes, MAX_RESULT_TEXT));
  // A character cut in two is dropped whole.
  const text = kept.toString("utf8").replace(/\uFFFD$/, "");
  return { text, truncated: bytes > MAX_RESULT_TEXT };
}

export function effectLine(call: HostCall): string {
  return `${call.operation}${call.target !== undefined ? ` ${call.target}` : ""}: ${call.outcome} (${call.ms} ms)${call.replayed ? " replayed" : ""}`;
}

function resultOf(ran: Spawned, id: string, timeoutSeconds: number): RunResult {
  const { record, outputBytes } = splitRecord(ran);
  const output = cut(ran.head, outputBytes);
  // The command's own line about the recording is the tool's to say.
  const stderrText = ran.stderr.toString("utf8").replace(/^recorded [\d,]+ calls? to .*\n/m, "");
  const errors = stderrText.length > MAX_RESULT_TEXT || ran.stderrBytes > MAX_RESULT_TEXT * 2 ? `${stderrText.slice(0, MAX_RESULT_TEXT)}\n[standard error truncated at 64 KiB]` : stderrText;
  const calls = record?.hostCalls ?? [];
  const effects = calls.slice(0, MAX_EFFECT_LINES).map(effectLine);
  if (calls.length > MAX_EFFECT_LINES) effects.push(`[and ${(calls.length - MAX_EFFECT_LINES).toLocaleString("en")} more]`);
  const outcome = record?.outcome ?? (ran.killed ? "cancelled" : "crashed");
  const error = record?.error ?? (record === undefined ? { code: null, message: ran.killed ? `the run did not end within ${timeoutSeconds + 15} seconds and was killed` : `renyi record ended with exit code ${ran.exit} and no execution record`, file: null, line: null, column: null } : undefined);
  return {
    outcome,
    exit: record?.exit ?? ran.exit,
    output: output.text,
    outputTruncated: output.truncated,
    errors,
    ...(error !== undefined ? { error } : {}),
    steps: record?.steps ?? 0,
    effects,
    recording: id,
    timeoutSeconds,
  };
}
