// The `run` tool of `renyi mcp` (spec/mcp.md, "run"): a program whose grant lies
// within the ceiling is run as `renyi record --json` runs it, by the real
// command in a process of its own, so that a program that loops or prints
// without end neither blocks nor floods the server. Its output is captured
// and cut, the recording written into the recordings folder under a fresh id.

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { cacheDirectory, makeFolders } from "../cache/cache.cjs";
import { sealKeyOf } from "../recordings/sealed-calls.js";
import { recordedQueries } from "./effect-queries.js";
import { ceilingKey, type McpOptions } from "./ceiling.js";
import { CONCEALED, PENDING } from "./work.js";
import { RENYI_COMMAND } from "../host/places.cjs";
import { runMessage } from "../../vocabulary/problems/run.js";

/** The most text of the output, and of the errors, a result carries: 64 KiB. */
const MAX_RESULT_TEXT = 64 * 1024;
/** The most effects a result lists, one line each. */
const MAX_EFFECT_LINES = 1_000;
/** The wall time a run may take, in seconds, unless RENYI_MCP_TIMEOUT says otherwise. */
export const DEFAULT_RUN_TIMEOUT_SECONDS = 60;
/** Runs at once; more wait their turn. */
export const MAX_CONCURRENT_RUNS = 2;
/** The most of standard output kept while a run goes on: the record is its last line. */
const MAX_KEPT_BYTES = 32 * 1024 * 1024;

export interface RunRequest {
  readonly texts: ReadonlyMap<string, string>;
  readonly entry: string;
  readonly args: readonly string[];
  readonly input?: string | undefined;
  /** `--allow-host` and `--at-most` flags that narrow main's grant to the ceiling. */
  readonly narrowing: readonly string[];
  readonly recordings: string;
  /** Aborted when the client cancels the request: the run is interrupted as Ctrl-C would. */
  readonly signal?: AbortSignal | undefined;
}

export interface RunResult {
  outcome: string;
  exit: number;
  output: string;
  outputTruncated: boolean;
  errors: string;
  error?: { code: string | null; message: string; file: string | null; line: number | null; column: number | null };
  /** Null when the run decided on guarded data its guards keep from the console. */
  steps: number | null;
  effects: string[];
  recording: string;
  timeoutSeconds: number;
}

/** The run timeout, in seconds: RENYI_MCP_TIMEOUT when it is a whole number above 0. */
export function runTimeoutSeconds(): number {
  const given = process.env["RENYI_MCP_TIMEOUT"];
  return given !== undefined && /^\d+$/.test(given) && Number(given) >= 1 ? Number(given) : DEFAULT_RUN_TIMEOUT_SECONDS;
}

/**
 * The folder recordings go to: the one --recordings names, or by default one
 * of the ceiling's own, `<cache>/recordings/ceiling-KEY` (mcp-ceiling.ts, ceilingKey).
 */
export function recordingsFolder(options: Pick<McpOptions, "recordings" | "ceiling">): string {
  return options.recordings !== undefined
    ? resolve(options.recordings)
    : join(cacheDirectory(), "recordings", `ceiling-${ceilingKey(options.ceiling)}`);
}

/** The commands running now, each with what interrupts it, ended when the server ends. */
const children = new Map<import("node:child_process").ChildProcess, () => void>();

/**
 * Interrupts every command still going, as Ctrl-C would (the server is
 * ending): each writes its recording and ends, or is killed 5 seconds later.
 */
export function stopRuns(): void {
  for (const interrupt of children.values()) interrupt();
}

/** The file of a recording the run tool wrote, when it was written. */
export function recordingWritten(folder: string, id: string): boolean {
  return RECORDING_ID.test(id) && existsSync(join(folder, `${id}.recording.json`));
}

let running = 0;
const waiting: (() => void)[] = [];

/** A place among the runs going on, once one is free: undefined when the request is cancelled while it waits. */
async function turn(signal: AbortSignal | undefined): Promise<(() => void) | undefined> {
  if (signal?.aborted) return undefined;
  if (running >= MAX_CONCURRENT_RUNS) {
    const waited = await new Promise<boolean>((resolve) => {
      const go = (): void => {
        signal?.removeEventListener("abort", stop);
        resolve(true);
      };
      const stop = (): void => {
        const at = waiting.indexOf(go);
        if (at >= 0) waiting.splice(at, 1);
        resolve(false);
      };
      waiting.push(go);
      signal?.addEventListener("abort", stop, { once: true });
    });
    if (!waited) return undefined;
  } else running++;
  return () => {
    const next = waiting.shift();
    if (next !== undefined) next();
    else running--;
  };
}

/** Runs the program as `renyi record --json` does, in a process of its own. */
export async function runProgram(request: RunRequest): Promise<RunResult> {
  makeFolders(request.recordings);
  const id = `rec-${randomBytes(6).toString("hex")}`;
  const timeout = runTimeoutSeconds();
  // Every call that carried guarded data is sealed under the folder's key, which no tool result gives out.
  // The run records under a name no listing or read finds (`rec-X.pending.json`): the recording is shown
  // only once the server has decided whether its calls are concealed (placeRecording).
  const argv = [
    "record",
    "--to",
    join(request.recordings, `${id}${PENDING}`),
    "--json",
    "--timeout",
    String(timeout),
    "--seal-key",
    sealKeyOf(request.recordings),
    ...request.narrowing,
    `${request.entry}.ry`,
    ...request.args,
  ];
  const ran = await renyiIn(request.texts, argv, request.input ?? "", {
    killAfter: timeout + 15,
    signal: request.signal,
  });
  // A run that decided on guarded data: which calls it made, and how many, are data of those decisions
  // (mcp-resources.ts).
  // Failing closed: a run whose execution record cannot be read (it crashed, was killed) is concealed too.
  const record = splitRecord(ran).record;
  const concealed = record === undefined || typeof record.steps !== "number";
  placeRecording(request.recordings, id, concealed);
  // The query of each HTTP call, from the recording, which tells apart requests to one path (effect-queries.ts).
  const file = join(request.recordings, `${id}.recording.json`);
  const queries = concealed || !existsSync(file) ? undefined : recordedQueries(request.recordings, file);
  const result = resultOf(ran, timeout, "renyi record", queries);
  return { ...result, recording: id, timeoutSeconds: timeout };
}

/**
 * Shows the recording a run wrote under its pending name: the marker that
 * conceals its calls is written first, when they are concealed, and only then
 * is the file renamed to the name the listing and reads find. Should either
 * step fail, or the server end between them, the recording stays under its
 * pending name, never shown, and is reported (pendingRecordings).
 */
function placeRecording(folder: string, id: string, concealed: boolean): void {
  const pending = join(folder, `${id}${PENDING}`);
  if (!existsSync(pending)) return;
  try {
    if (concealed) markConcealed(join(folder, `${id}${CONCEALED}`));
    renameSync(pending, join(folder, `${id}.recording.json`));
  } catch (e) {
    process.stderr.write(
      `renyi mcp: the recording ${pending} is kept under that name, not shown: ` +
        `${e instanceof Error ? e.message : String(e)}\n`,
    );
  }
}

/** Writes the empty marker, made new: a link planted at its name is neither followed nor written through. */
function markConcealed(file: string): void {
  try {
    closeSync(openSync(file, "wx", 0o600));
  } catch (e) {
    // One there already conceals all the same.
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
}

/**
 * The recordings in the folder still under their pending name: runs going on
 * in another server, or whose server ended before it decided whether their
 * calls are shown. They are never shown; the person reads them with renyi.
 */
export function pendingRecordings(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((f) => f.endsWith(PENDING) && RECORDING_ID.test(f.slice(0, -PENDING.length)))
      .sort()
      .map((f) => join(folder, f));
  } catch {
    return [];
  }
}

/** A recording's id: what the run tool names it, and all the replay tool accepts. */
export const RECORDING_ID = /^rec-[0-9a-f]{12}$/;

export interface ReplayRequest {
  readonly texts: ReadonlyMap<string, string>;
  readonly entry: string;
  /** The recording's file, as recordingFile gives it. */
  readonly file: string;
  /** The arguments the recorded run was given. */
  readonly args: readonly string[];
  readonly recordings: string;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The file of the recording an id names in the folder: refused (a text) when
 * the id is not one, or names no recording there. No id becomes a path but
 * one RECORDING_ID accepts: `rec-` and 12 hexadecimal digits.
 */
export function recordingFile(folder: string, id: string): { file: string } | { refused: string } {
  if (!RECORDING_ID.test(id))
    return {
      refused:
        `\`${shownId(id)}\` is not a recording's id: an id is rec- and 12 hexadecimal digits, as the run tool ` +
        `gives it`,
    };
  const file = join(folder, `${id}.recording.json`);
  if (!existsSync(file)) return { refused: `there is no recording ${id} in this server's recordings folder` };
  return { file };
}

/** An id a client sent, shown in a refusal: control characters escaped, cut at 100 characters. */
export function shownId(id: string): string {
  const escaped = JSON.stringify(id).slice(1, -1);
  return escaped.length > 100 ? `${escaped.slice(0, 100)}…` : escaped;
}

export type ReplayResult = Omit<RunResult, "recording" | "timeoutSeconds"> & { mismatch?: string };

/**
 * Replays the program, edited or not, as `renyi run --replay --json` does, in a
 * process of its own, under the arguments it was recorded with, as `renyi
 * reproduce` does: every call is answered from the recording, none is made.
 */
export async function replayProgram(request: ReplayRequest): Promise<ReplayResult> {
  const file = request.file;
  const args = request.args;
  const timeout = runTimeoutSeconds();
  // --console: the replay prints what the program prints, so that the result shows it.
  // The server's own replay opens the sealed calls with the folder's key.
  const argv = [
    "run",
    "--replay",
    file,
    "--seal-key",
    sealKeyOf(request.recordings),
    "--console",
    "--json",
    "--timeout",
    String(timeout),
    `${request.entry}.ry`,
    ...args,
  ];
  const ran = await renyiIn(request.texts, argv, "", { killAfter: timeout + 15, signal: request.signal });
  const result: ReplayResult = resultOf(ran, timeout, "renyi run --replay");
  const mismatch = mismatchText(result.errors);
  return mismatch === undefined ? result : { ...result, mismatch };
}

/** The first mismatch (or difference at the end) as renyi prints it: the error line and its lines below. */
function mismatchText(errors: string): string | undefined {
  const lines = errors.split("\n");
  const at = lines.findIndex((l) => /^error\[E-RT-REPLAY-(MISMATCH|DIFFERS|SHAPE|GRANT)\]/.test(l));
  if (at < 0) return undefined;
  let end = at + 1;
  while (end < lines.length && /^\s/.test(lines[end]!)) end++;
  return lines.slice(at, end).join("\n");
}

export interface TestReport {
  report?: { [key: string]: unknown };
  exit: number;
  errors: string;
  /** Why there is no report: the command ended without one. */
  problem?: string;
  cancelled: boolean;
}

/**
 * Runs the program's tests as `renyi test --json` does, in a process of its
 * own. The run timeout bounds each test and the call as a whole: when it
 * passes, the command is interrupted as Ctrl-C would, and reports the tests
 * that did not end as cancelled.
 */
export async function testProgram(
  texts: ReadonlyMap<string, string>,
  entry: string,
  signal?: AbortSignal,
): Promise<TestReport> {
  const timeout = runTimeoutSeconds();
  const ran = await renyiIn(texts, ["test", "--json", "--timeout", String(timeout), `${entry}.ry`], "", {
    interruptAfter: timeout,
    killAfter: timeout + 15,
    signal,
  });
  const errors = cut(ran.stderr, ran.stderrBytes).text;
  if (ran.bytes <= MAX_KEPT_BYTES) {
    try {
      const report = JSON.parse(ran.tail.toString("utf8")) as unknown;
      if (typeof report === "object" && report !== null && !Array.isArray(report))
        return { report: report as { [key: string]: unknown }, exit: ran.exit, errors, cancelled: ran.cancelled };
    } catch {
      // Not a report: said below.
    }
  }
  const problem = ran.cancelled
    ? "the request was cancelled"
    : ran.killed
      ? `the tests did not end within ${timeout + 15} seconds and were killed`
      : ran.bytes > MAX_KEPT_BYTES
        ? "the report of renyi test --json is too large to read"
        : `renyi test ended with exit code ${ran.exit} and no report`;
  return { exit: ran.exit, errors, problem, cancelled: ran.cancelled };
}

/**
 * Runs `renyi ARGV` in a fresh folder holding only the sources, written under
 * their names, with the input on its standard input; at most
 * MAX_CONCURRENT_RUNS at once. The folder is removed when the command ends.
 */
async function renyiIn(
  texts: ReadonlyMap<string, string>,
  argv: readonly string[],
  input: string,
  bounds: Bounds,
): Promise<Spawned> {
  const done = await turn(bounds.signal);
  if (done === undefined)
    return {
      head: Buffer.alloc(0),
      tail: Buffer.alloc(0),
      bytes: 0,
      stderr: Buffer.alloc(0),
      stderrBytes: 0,
      exit: 130,
      killed: false,
      cancelled: true,
    };
  const folder = mkdtempSync(join(tmpdir(), "renyi-mcp-"));
  try {
    for (const [name, text] of texts) {
      const file = join(folder, `${name}.ry`);
      makeFolders(dirname(file));
      writeFileSync(file, text);
    }
    return await spawned([RENYI_COMMAND, ...argv], input, folder, bounds);
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
  /** The client cancelled the request: the command was interrupted, or never began. */
  cancelled: boolean;
}

interface Bounds {
  /** Seconds after which the command is interrupted as Ctrl-C would (SIGINT), if it has no timeout of its own. */
  readonly interruptAfter?: number;
  /** Seconds after which a command that would not end is killed. */
  readonly killAfter: number;
  readonly signal?: AbortSignal | undefined;
}

/** Seconds between the interruption of a command and its killing, when it does not end. */
const INTERRUPT_GRACE_SECONDS = 5;

function spawned(argv: readonly string[], input: string, cwd: string, bounds: Bounds): Promise<Spawned> {
  return new Promise((resolve) => {
    // On descriptor 3 the command says when it listens for its interrupt (early-interrupt.cts).
    // It keeps its cache in the server's folder, named absolutely: a relative RENYI_CACHE_DIR would
    // name another folder from the command's own, and the runtime would refuse that one, not this.
    const child = spawn(process.execPath, argv, {
      cwd,
      stdio: ["pipe", "pipe", "pipe", "pipe"],
      env: { ...process.env, RENYI_READY_FD: "3", RENYI_CACHE_DIR: cacheDirectory() },
    });
    const heads: Buffer[] = [];
    let headBytes = 0;
    let tails: Buffer[] = [];
    let tailBytes = 0;
    let bytes = 0;
    const errs: Buffer[] = [];
    let stderrBytes = 0;
    let killed = false;
    let cancelled = false;
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
    // The command's own --timeout ends a run; these end a command that would not end.
    const timers: NodeJS.Timeout[] = [];
    const kill = (): void => {
      killed = true;
      child.kill("SIGKILL");
    };
    // A command interrupted writes what it has (a recording, a report) and ends; one that does not is killed.
    // It is sent no interrupt before it listens for one, which Node's default would end with nothing written:
    // an interrupt asked for sooner waits for the command's word that it listens, or as long as the grace.
    let interrupted = false;
    let listening = false;
    let grace: NodeJS.Timeout | undefined;
    const sendInterrupt = (): void => {
      clearTimeout(grace);
      child.kill("SIGINT");
      grace = setTimeout(kill, INTERRUPT_GRACE_SECONDS * 1000);
      timers.push(grace);
    };
    const interrupt = (): void => {
      if (interrupted) return;
      interrupted = true;
      if (listening) sendInterrupt();
      else timers.push((grace = setTimeout(kill, INTERRUPT_GRACE_SECONDS * 1000)));
    };
    const word = child.stdio[3] as import("node:stream").Readable;
    word.on("error", () => undefined);
    word.on("data", () => {
      if (listening) return;
      listening = true;
      if (interrupted) sendInterrupt();
    });
    children.set(child, interrupt);
    timers.push(setTimeout(kill, bounds.killAfter * 1000));
    if (bounds.interruptAfter !== undefined) timers.push(setTimeout(interrupt, bounds.interruptAfter * 1000));
    const onAbort = (): void => {
      cancelled = true;
      interrupt();
    };
    bounds.signal?.addEventListener("abort", onAbort, { once: true });
    if (bounds.signal?.aborted) onAbort();
    child.on("error", () => undefined);
    child.on("close", (code) => {
      children.delete(child);
      for (const timer of timers) clearTimeout(timer);
      bounds.signal?.removeEventListener("abort", onAbort);
      resolve({
        head: Buffer.concat(heads),
        tail: Buffer.concat(tails).subarray(-MAX_KEPT_BYTES),
        bytes,
        stderr: Buffer.concat(errs),
        stderrBytes,
        exit: code ?? 2,
        killed,
        cancelled,
      });
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
  steps: number | null;
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

/** Gives an HTTP call's query (`?page=2`) by its operation and target, in the order the calls completed. */
type Queries = (operation: string, target: string) => string | undefined;

/** A call the recording holds: one that gave back a value or failed with one, not a crash or a cancelled call. */
function recorded(call: HostCall): boolean {
  return call.outcome !== "cancelled" && !call.outcome.startsWith("E-");
}

function effectLine(call: HostCall, queries: Queries | undefined): string {
  const query =
    queries !== undefined && call.target !== undefined && call.operation.startsWith("std.http.") && recorded(call)
      ? (queries(call.operation, call.target) ?? "")
      : "";
  return (
    `${call.operation}${call.target !== undefined ? ` ${call.target}${query}` : ""}: ${call.outcome} (${call.ms} ` +
    `ms)${call.replayed ? " replayed" : ""}`
  );
}

function resultOf(
  ran: Spawned,
  timeoutSeconds: number,
  command: string,
  queries?: Queries,
): Omit<RunResult, "recording" | "timeoutSeconds"> {
  const { record, outputBytes } = splitRecord(ran);
  const output = cut(ran.head, outputBytes);
  // The command's own line about the recording is the tool's to say.
  const stderrText = ran.stderr.toString("utf8").replace(/^recorded [\d,]+ calls? to .*\n/m, "");
  const errors =
    stderrText.length > MAX_RESULT_TEXT || ran.stderrBytes > MAX_RESULT_TEXT * 2
      ? `${stderrText.slice(0, MAX_RESULT_TEXT)}\n[standard error truncated at 64 KiB]`
      : stderrText;
  // A run that decided on guarded data its guards keep from the console (its steps are null): which effects it made,
  // and how many, tell of those decisions, and are not shown (spec/mcp.md, "What the agent sees").
  const concealed = record !== undefined && record.steps === null;
  const calls = concealed ? [] : (record?.hostCalls ?? []);
  const effects = concealed
    ? ["[not shown: the run decided on guarded data that its guards keep from the console]"]
    : calls.slice(0, MAX_EFFECT_LINES).map((call) => effectLine(call, queries));
  if (calls.length > MAX_EFFECT_LINES)
    effects.push(`[and ${(calls.length - MAX_EFFECT_LINES).toLocaleString("en")} more]`);
  // A command killed past its time is a run at its time limit, stopped by force (E-RT-TIMEOUT); only the client's cancellation is `cancelled`.
  const outcome = ran.cancelled ? "cancelled" : (record?.outcome ?? "crashed");
  const killed = !ran.cancelled && record === undefined && ran.killed;
  const error =
    record?.error ??
    (record === undefined
      ? {
          code: killed ? "E-RT-TIMEOUT" : null,
          message: ran.cancelled
            ? "the request was cancelled"
            : killed
              ? runMessage("E-RT-TIMEOUT", { milliseconds: (timeoutSeconds + 15) * 1000, stopped: "by-force" })
              : `${command} ended with exit code ${ran.exit} and no execution record`,
          file: null,
          line: null,
          column: null,
        }
      : undefined);
  return {
    outcome,
    exit: record?.exit ?? ran.exit,
    output: output.text,
    outputTruncated: output.truncated,
    errors,
    ...(error !== undefined ? { error } : {}),
    steps: record === undefined ? 0 : record.steps,
    effects,
  };
}
