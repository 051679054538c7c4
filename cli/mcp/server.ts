// `renyi mcp`: a Model Context Protocol server over standard input and output
// (spec/mcp.md). Its tools answer with what the commands already compute:
// `check` with the diagnostics `renyi check --json` gives, `grant` with main's
// needs as the needs line and the manifest write them, `explain` with the
// catalogue's entry. Loaded only by this command (renyi.cts), so that no other
// command's start-up loads the protocol's SDK.
//
// Everything a client sends is hostile input: a source too large, one that is
// not text, or arguments of the wrong shape is answered with an error result,
// and the server goes on serving. Whatever checks a program, explains a code or
// reads a recording is done in a worker thread under a time and a heap limit
// (mcp-pool.ts), so that this thread answers every other request meanwhile. Every call is written to the audit log in
// the recordings folder (mcp-audit.ts); a grant beyond the ceiling runs only
// when the person approves it, asked through the client (elicitation).

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ElicitResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { domainToASCII } from "node:url";
import { z } from "zod";
import type { JsonDiagnostic } from "../../compiler/diagnostics.js";
import { canonical } from "../../report/manifest.js";
import { capabilityInfo } from "../../vocabulary/capabilities.js";
import { sha256 } from "../../report/sha256.js";
import type { ManifestNeed } from "../../vocabulary/manifest.js";
import { grantText, needText, type GrantItem, type Need } from "../../vocabulary/needs.js";
import { EXIT } from "../../vocabulary/outcomes.js";
import { VERSION } from "../host/version.cjs";
import { MAX_WAITING, MAX_WORKING, WorkPool, type Stopped } from "./pool.js";
import { MAX_ANSWER_CHARS, type CompiledProgram, type ExplainAnswer, type Job, type ProgramAnswer } from "./work.js";
import { COMPILE_PROBLEMS } from "../../vocabulary/problems/compile.js";
import { judge, type Ceiling, type McpOptions } from "./ceiling.js";
import { AnsweredCalls, AuditedCalls, AuditLog, type AuditEntry } from "./audit.js";
import { registerResources } from "./resources.js";
import { sealKeyOf } from "../recordings/sealed-calls.js";
import { LineTransport } from "./transport.js";
import {
  MAX_CONCURRENT_RUNS,
  recordingFile,
  recordingsFolder,
  replayProgram,
  runProgram,
  runTimeoutSeconds,
  recordingWritten,
  pendingRecordings,
  stopRuns,
  testProgram,
  type ReplayResult,
  type RunResult,
} from "./run-tool.js";

/** The most text a tool reads: every source of one request together, in UTF-8 bytes. */
export const MAX_SOURCE_BYTES = 1 << 20;
/** The most modules one request may give beside its entry. */
export const MAX_MODULES = 64;

/**
 * Serves until standard input closes or a signal says to end. The audit log
 * and the worker threads are released in one place, however the server ends.
 */
export async function serve(options: McpOptions): Promise<number> {
  const folder = recordingsFolder(options);
  let audit: AuditLog;
  try {
    audit = AuditLog.open(folder);
  } catch (e) {
    process.stderr.write(
      `error: renyi mcp cannot write its audit log in ${folder}: ${e instanceof Error ? e.message : String(e)}\n`,
    );
    return EXIT.refused;
  }
  let pool: WorkPool | undefined;
  try {
    // The key recordings are sealed under is made now, so that a folder where it cannot be kept is said at once.
    try {
      sealKeyOf(folder);
    } catch (e) {
      process.stderr.write(
        `error: renyi mcp cannot keep its seal key in ${folder}: ${e instanceof Error ? e.message : String(e)}\n`,
      );
      return EXIT.refused;
    }
    reportPending(folder);
    pool = new WorkPool(options.limits);
    const server = mcpServer(options, audit, pool);
    const transport = new AuditedCalls(new LineTransport(), audit, answered);
    // A line that is not a message is reported here and dropped; the next one is served.
    transport.onerror = (e) => process.stderr.write(`renyi mcp: ${e.message}\n`);
    // The server ends when its input closes, or on a signal to end: the runs still going are
    // interrupted, and each call ends (and is written to the audit log) before the log closes.
    const closed = new Promise<void>((resolve) => {
      server.server.onclose = () => resolve();
      process.stdin.once("end", () => resolve());
      for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.once(signal, () => resolve());
    });
    await server.connect(transport);
    await closed;
    // Nothing starts from now on: waits end, runs are interrupted, and each call is logged before the log closes.
    ending.abort();
    stopRuns();
    pool.close();
    await Promise.race([
      Promise.allSettled([...calls]),
      new Promise((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref()),
    ]);
    await server.close().catch(() => undefined);
    // Told to end by a signal, the server stops reading: an open standard input would keep the process alive.
    process.stdin.destroy();
    return EXIT.finished;
  } finally {
    pool?.close();
    audit.close();
  }
}

/**
 * Says which recordings of the folder are under their pending name, never
 * shown: kept, not lost, for the person to read with renyi.
 */
function reportPending(folder: string): void {
  const pending = pendingRecordings(folder);
  if (pending.length === 0) return;
  const named = pending
    .slice(0, 10)
    .map((file) => `  ${file}\n`)
    .join("");
  const more = pending.length > 10 ? `  and ${(pending.length - 10).toLocaleString("en")} more\n` : "";
  process.stderr.write(
    `renyi mcp: ${pending.length.toLocaleString("en")} recording${pending.length === 1 ? " is" : "s are"} kept ` +
      `under a pending name and not shown: a run going on in another server, or one whose server ended before it ` +
      `decided whether its calls are concealed (renyi run --replay FILE reads one):\n${named}${more}`,
  );
}

// ---- the tools ----

// A module's name is its path from the entry's folder without `.ry` (`lib/shapes` for `use lib.shapes`).
const MODULE_NAME = z
  .string()
  .max(200)
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*(?:\/[A-Za-z_][A-Za-z0-9_]*)*$/,
    "a module's name is its path without `.ry`: words of letters, digits and _ joined by /, as `use lib.shapes` " +
      "names lib/shapes",
  );

const CHECK_INPUT = {
  source: z.string().describe("The program's entry module: Renyi source text (at most 1 MiB with its modules)"),
  name: MODULE_NAME.optional().describe("The entry module's name (default `program`); its file is NAME.ry"),
  modules: z
    .array(z.object({ name: MODULE_NAME, source: z.string() }).strict())
    .max(MAX_MODULES)
    .optional()
    .describe("Further modules the entry's `use` lines bring in, by name"),
};

const SPAN = { file: z.string(), line: z.number(), column: z.number(), endLine: z.number(), endColumn: z.number() };
const DIAGNOSTIC = z.object({
  code: z.string(),
  severity: z.enum(["error", "warning"]),
  message: z.string(),
  ...SPAN,
  notes: z.array(z.string()),
  hint: z.string().optional(),
  facts: z.record(z.string(), z.unknown()).optional(),
  edits: z
    .array(
      z.object({
        title: z.string(),
        replacement: z.string(),
        line: z.number(),
        column: z.number(),
        endLine: z.number(),
        endColumn: z.number(),
      }),
    )
    .optional(),
});

const CHECK_OUTPUT = { ok: z.boolean(), files: z.array(z.string()), diagnostics: z.array(DIAGNOSTIC) };

const GRANT_ITEM = z.object({
  text: z.string(),
  capability: z.string(),
  scope: z.union([z.string(), z.number()]).optional(),
  budget: z.object({ count: z.number(), unit: z.string() }).optional(),
  guard: z.object({ sinks: z.array(z.string()) }).optional(),
});
const GRANT_OUTPUT = { program: z.string(), needs: z.array(GRANT_ITEM), hash: z.string() };

const EXPLAIN_OUTPUT = {
  code: z.string(),
  title: z.string(),
  when: z.string(),
  explanation: z.string(),
  facts: z.record(z.string(), z.string()),
  wrong: z.string(),
  right: z.string(),
  described: z.boolean(),
};

const RUN_INPUT = {
  ...CHECK_INPUT,
  name: z
    .string()
    .max(200)
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "the entry module's name is one word of letters, digits and _")
    .optional()
    .describe("The entry module's name (default `program`); its file is NAME.ry"),
  arguments: z
    .array(z.string().max(1 << 16))
    .max(1_000)
    .optional()
    .describe('main\'s options, as on the command line after the program\'s file: ["--name", "Ada"]'),
  input: z.string().optional().describe("The program's standard input (at most 1 MiB with the sources)"),
};

const RUN_OUTPUT = {
  outcome: z.enum(["finished", "failed", "crashed", "cancelled", "refused"]),
  exit: z.number(),
  output: z.string(),
  outputTruncated: z.boolean(),
  errors: z.string(),
  error: z
    .object({
      code: z.string().nullable(),
      message: z.string(),
      file: z.string().nullable(),
      line: z.number().nullable(),
      column: z.number().nullable(),
    })
    .optional(),
  steps: z.number().nullable(),
  effects: z.array(z.string()),
  recording: z.string(),
  timeoutSeconds: z.number(),
};

const REPLAY_INPUT = {
  ...CHECK_INPUT,
  recording: z
    .string()
    .max(200)
    .describe("The id of a recording the run tool made: rec- and 12 hexadecimal digits (rec-0123456789ab)"),
  name: RUN_INPUT.name,
};

const REPLAY_OUTPUT = {
  outcome: RUN_OUTPUT.outcome,
  exit: z.number(),
  output: z.string(),
  outputTruncated: z.boolean(),
  errors: z.string(),
  error: RUN_OUTPUT.error,
  steps: z.number().nullable(),
  effects: z.array(z.string()),
  mismatch: z.string().optional(),
};

const TEST_INPUT = { ...CHECK_INPUT, name: RUN_INPUT.name };

/** What a tool call says of itself to the audit log beside its outcome; filled in as the call goes. */
type Facts = { -readonly [K in keyof AuditEntry]?: AuditEntry[K] };

/** What the tools share: the options, the audit log, and the grants the person approved for the server's life. */
interface Context {
  readonly server: McpServer;
  readonly options: McpOptions;
  readonly audit: AuditLog | undefined;
  readonly approved: Set<string>;
  /** The worker threads every check, explanation and read of a recording is done in. */
  readonly pool: WorkPool;
}

type Extra = { signal: AbortSignal; requestId: string | number };

/** The requests whose tool call wrote its own audit line (mcp-audit.ts, AuditedCalls). */
const answered = new AnsweredCalls();

/**
 * The server with its tools and resources, not yet connected; without an audit log, calls are not logged (tests of the
 * tools alone).
 */
export function mcpServer(options: McpOptions, audit: AuditLog | undefined, pool: WorkPool): McpServer {
  const server = new McpServer({ name: "renyi", version: VERSION });
  const context: Context = { server, options, audit, approved: new Set(), pool };
  server.registerTool(
    "check",
    {
      title: "Check a Renyi program",
      description:
        "Checks a Renyi program without running it: every syntax, name, type, failure, capability and purpose " +
        "problem, as data with its code, span and, where the fix is mechanical, the edits that make it. `ok` is " +
        "true when there is no error. A check that takes longer or more memory than the server allows ends with " +
        "the error E-CHECK-LIMIT.",
      inputSchema: CHECK_INPUT,
      outputSchema: CHECK_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input, extra) => audited(context, "check", extra, (facts) => checkTool(input, context, facts, extra)),
  );
  server.registerTool(
    "grant",
    {
      title: "Main's grant",
      description:
        "What running a Renyi program would grant it: main's needs, one line each, with their budgets " +
        "(`at most N per UNIT`) and guards (`only to ...`), as the needs line and the grant manifest write them, " +
        "and as data, with the sha256 hash of the grant's canonical JSON. An error when the program does not " +
        "compile or has no main.",
      inputSchema: CHECK_INPUT,
      outputSchema: GRANT_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input, extra) => audited(context, "grant", extra, (facts) => grantTool(input, context, facts, extra)),
  );
  server.registerTool(
    "explain",
    {
      title: "Explain a diagnostic code",
      description:
        "The catalogue's entry for a code of Renyi's (E-CAP-MISSING, E-RT-DIVISION): its title, why it is a " +
        "problem and how to fix it, the facts an instance carries, a wrong example and a right one.",
      inputSchema: { code: z.string().max(100).describe("A code, as a diagnostic names it: E-CAP-MISSING") },
      outputSchema: EXPLAIN_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input, extra) => audited(context, "explain", extra, (facts) => explainTool(input.code, context, facts, extra)),
  );
  server.registerTool(
    "run",
    {
      title: "Run a Renyi program",
      description:
        `Runs a Renyi program live and records the run. A program whose main's grant lies within the ceiling the ` +
        `person who started the server set (${ceilingText(options.ceiling)}) runs at once; one whose grant goes ` +
        `beyond it runs only if the person approves that grant, asked through the client, which shows them the ` +
        `grant in words (a client that cannot ask is told which flags the person would have to add, and nothing ` +
        `runs). A program that does not compile gets its diagnostics. The result: how the run ended, its exit ` +
        `code, its standard output (cut at 64 KiB) and standard error, the error if it failed, the steps it took, ` +
        `one line per effect, and the recording's id. A run may take ${runTimeoutSeconds()} seconds; cancelling ` +
        `the request interrupts it.`,
      inputSchema: RUN_INPUT,
      outputSchema: RUN_OUTPUT,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    (input, extra) => audited(context, "run", extra, (facts) => runTool(input, context, facts, extra)),
  );
  server.registerTool(
    "replay",
    {
      title: "Replay a Renyi program against a recording",
      description:
        "Replays a Renyi program, as given or edited since, against a recording the run tool made (its id, " +
        "rec-0123456789ab), offline: every call is answered from the recording and none is made, so no ceiling " +
        "applies. The program runs under the arguments it was recorded with. The result is the run tool's " +
        "without the recording, and, when the edited program made a call the recording does not hold or ended " +
        "otherwise, `mismatch`: the first difference as renyi prints it, field by field.",
      inputSchema: REPLAY_INPUT,
      outputSchema: REPLAY_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input, extra) => audited(context, "replay", extra, (facts) => replayTool(input, context, facts, extra)),
  );
  server.registerTool(
    "test",
    {
      title: "Run a Renyi program's tests",
      description:
        `Runs the \`test\` blocks of a Renyi program as \`renyi test --json\` does, in a folder holding only the ` +
        `sources given, if every test that runs live has needs within the ceiling ` +
        `(${ceilingText(options.ceiling)}); a test that \`replays\` a recording by its path finds none there and ` +
        `says so. Each test, and the call as a whole, may take ${runTimeoutSeconds()} seconds. The result is ` +
        `renyi test's JSON report: each test's status, and the counts.`,
      inputSchema: TEST_INPUT,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (input, extra) => audited(context, "test", extra, (facts) => testTool(input, context, facts, extra)),
  );
  registerResources(
    server,
    recordingsFolder(options),
    (job) => context.pool.run(job, ending.signal),
    (done) => stoppedText(done, context.pool.limits),
  );
  return server;
}

/**
 * A tool's answer, written to the audit log when it is given; a fault of
 * Renyi's own becomes an error result, never the end of the server.
 */
function audited(
  context: Context,
  tool: string,
  extra: Extra,
  answer: (facts: Facts) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const call = auditedCall(context, tool, answer);
  // The call's line is this one's: the line of a call refused before its tool (AuditedCalls) is not written for it.
  answered.add(extra.requestId);
  calls.add(call);
  void call.finally(() => calls.delete(call));
  return call;
}

/** The tool calls going on, which the server waits for before it ends. */
const calls = new Set<Promise<CallToolResult>>();

/**
 * Calls of run, replay and test that may be waiting (for a turn among the runs, or for the person) or running at once.
 */
export const MAX_CALLS_RUNNING = MAX_CONCURRENT_RUNS + 8;
/** How long an ending server waits for its calls to end (an interrupted run is killed after 5 seconds). */
const SHUTDOWN_WAIT_MS = 8_000;
let running = 0;

/**
 * Aborted when the server is told to end: no call starts after it, and every
 * wait (a turn among the runs, the person's answer) ends at once.
 */
const ending = new AbortController();

/**
 * Runs `wait` (what waits for a turn, the person or a run) holding one of the
 * MAX_CALLS_RUNNING places; refused at once when none is free. Taken only
 * where the call is about to wait, so that calls refused before (a program
 * that does not compile) take no place.
 */
async function holdingPlace(facts: Facts, wait: () => Promise<CallToolResult>): Promise<CallToolResult> {
  if (running >= MAX_CALLS_RUNNING) {
    facts.outcome = "busy";
    return refused(
      `renyi mcp is busy: ${MAX_CALLS_RUNNING} calls of run, replay and test are going on or waiting ` +
        `(${MAX_CONCURRENT_RUNS} run at once); try again when one has ended`,
    );
  }
  running++;
  try {
    return await wait();
  } finally {
    running--;
  }
}

/** The request's own signal, aborted also when the server ends. */
const untilEnd = (signal: AbortSignal): AbortSignal => AbortSignal.any([signal, ending.signal]);

async function auditedCall(
  context: Context,
  tool: string,
  answer: (facts: Facts) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const started = performance.now();
  const facts: Facts = {};
  let result: CallToolResult;
  if (ending.signal.aborted) {
    result = refused("renyi mcp is ending: it starts no call");
  } else {
    try {
      result = await answer(facts);
    } catch (e) {
      result = refused(`internal error of renyi (please report it): ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const outcome = facts.outcome ?? (result.isError === true ? "refused" : "answered");
  const reason = facts.reason ?? (result.isError === true ? text(result).split("\n")[0] : undefined);
  context.audit?.write({
    ...facts,
    tool,
    outcome,
    ...(reason !== undefined ? { reason } : {}),
    ms: Math.round(performance.now() - started),
  });
  return result;
}

const text = (result: CallToolResult): string =>
  result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

function refused(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

interface ProgramInput {
  source: string;
  name?: string | undefined;
  modules?: { name: string; source: string }[] | undefined;
}

type CheckedProgram = { entry: string; texts: Map<string, string>; compiled: CompiledProgram };
type Checked = { refused: string } | CheckedProgram;

/**
 * The program of a request, checked in a worker thread (mcp-pool.ts); refused
 * when its text is too large or not text, or when its check was stopped at a
 * limit (E-CHECK-LIMIT), cancelled, or could not start.
 */
async function checkedProgram(
  input: ProgramInput,
  context: Context,
  facts: Facts,
  signal: AbortSignal,
  standardInput = "",
): Promise<Checked> {
  const entry = input.name ?? "program";
  facts.program = entry;
  const texts = new Map<string, string>([[entry, input.source]]);
  for (const m of input.modules ?? []) {
    if (texts.has(m.name)) return { refused: `the module \`${m.name}\` is given twice` };
    texts.set(m.name, m.source);
  }
  // The cheap bound first: no UTF-16 unit is less than one byte of UTF-8.
  let units = standardInput.length;
  for (const text of texts.values()) units += text.length;
  let bytes = units > MAX_SOURCE_BYTES ? units : 0;
  if (bytes === 0) for (const text of [...texts.values(), standardInput]) bytes += Buffer.byteLength(text, "utf8");
  if (bytes > MAX_SOURCE_BYTES)
    return {
      refused:
        `the source${standardInput === "" ? "" : " with its input"} is too large: ${bytes.toLocaleString("en")} ` +
        `bytes or more, and renyi mcp reads at most ${MAX_SOURCE_BYTES.toLocaleString("en")} (1 MiB) a request`,
    };
  const done = await inWorker<ProgramAnswer>(context, { kind: "program", entry, texts }, facts, signal);
  if ("refused" in done) return done;
  if ("refused" in done.answer) return done.answer;
  facts.sources = done.answer.sources;
  return { entry, texts, compiled: done.answer };
}

/**
 * A job done in a worker thread, or the refusal that says why it gave no
 * answer: a limit reached (E-CHECK-LIMIT), a fault of Renyi's own, the request
 * cancelled, too many waiting, or the server ending.
 */
async function inWorker<T>(
  context: Context,
  job: Job,
  facts: Facts,
  signal: AbortSignal,
): Promise<{ answer: T } | { refused: string }> {
  const done = await context.pool.run<T>(job, untilEnd(signal));
  if ("answer" in done) return done;
  const why = stoppedText(done, context.pool.limits);
  facts.outcome =
    done.stopped === "time" || done.stopped === "memory" || done.stopped === "too-large"
      ? "limit"
      : done.stopped === "fault"
        ? "refused"
        : done.stopped;
  if (done.stopped === "time" || done.stopped === "memory" || done.stopped === "too-large")
    facts.code = "E-CHECK-LIMIT";
  return { refused: why };
}

/** Why a job gave no answer, in words: a limit's as the catalogue writes it, with its code. */
export function stoppedText(done: Stopped, limits: { seconds: number; memoryMib: number }): string {
  const render = COMPILE_PROBLEMS["E-CHECK-LIMIT"].render;
  switch (done.stopped) {
    case "time":
      return `error[E-CHECK-LIMIT]: ${render({ limit: "time", seconds: limits.seconds }).message}`;
    case "memory":
      return `error[E-CHECK-LIMIT]: ${render({ limit: "memory", mib: limits.memoryMib }).message}`;
    case "too-large":
      return `error[E-CHECK-LIMIT]: ${render({ limit: "answer", characters: MAX_ANSWER_CHARS }).message}`;
    case "fault":
      return `internal error of renyi (please report it): ${done.detail ?? "the worker thread failed"}`;
    case "cancelled":
      return "the request was cancelled";
    case "busy":
      return (
        `renyi mcp is busy: ${MAX_WORKING} checks are going on and ${MAX_WAITING} wait their turn; try again when ` +
        `one has ended`
      );
    case "ending":
      return "renyi mcp is ending: it starts no call";
  }
}

async function checkTool(input: ProgramInput, context: Context, facts: Facts, extra: Extra): Promise<CallToolResult> {
  const checked = await checkedProgram(input, context, facts, extra.signal);
  if ("refused" in checked) return refused(checked.refused);
  const { diagnostics, files } = checked.compiled;
  const ok = !diagnostics.some((d) => d.severity === "error");
  const structured = { ok, files, diagnostics };
  return {
    content: [{ type: "text", text: checkSummary(ok, files.length, diagnostics) }],
    structuredContent: structured,
  };
}

function checkSummary(ok: boolean, files: number, diagnostics: readonly JsonDiagnostic[]): string {
  if (diagnostics.length === 0) return `Checked ${plural(files, "file")}: no problems found.`;
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const lines = diagnostics.map(
    (d) =>
      `${d.severity}[${d.code}] ${d.file}:${d.line}:${d.column}: ` +
      `${d.message}${d.edits === undefined ? "" : ` (${plural(d.edits.length, "suggested edit")})`}`,
  );
  const head = ok
    ? `No errors, ${plural(diagnostics.length, "warning")}:`
    : `${plural(errors, "error")}, ${plural(diagnostics.length - errors, "warning")}:`;
  return [head, ...lines].join("\n");
}

/** main's grant, or why the program has none: it does not compile, or it has no main. */
function mainGrant(checked: CheckedProgram, doing: string): GrantItem[] | { refused: string } {
  const compiled = checked.compiled;
  if (!compiled.compiled) {
    const first = compiled.diagnostics
      .filter((d) => d.severity === "error")
      .slice(0, 5)
      .map((d) => `  ${d.code} ${d.file}:${d.line}:${d.column}: ${d.message}`);
    return {
      refused: [
        `the program does not compile, so ${doing} (the \`check\` tool gives every diagnostic):`,
        ...first,
      ].join("\n"),
    };
  }
  if (compiled.main === undefined)
    return {
      refused: `the program has no \`main\` in its entry module \`${checked.entry}\`, so ${doing === "it has no grant" ? "running it grants nothing" : "there is nothing to run"}`,
    };
  return compiled.main.needs;
}

async function grantTool(input: ProgramInput, context: Context, facts: Facts, extra: Extra): Promise<CallToolResult> {
  const checked = await checkedProgram(input, context, facts, extra.signal);
  if ("refused" in checked) return refused(checked.refused);
  const items = mainGrant(checked, "it has no grant");
  if ("refused" in items) return refused(items.refused);
  const needs = items.map(manifestNeed);
  const hash = grantHash(items);
  facts.grant = hash;
  const lines =
    items.length === 0
      ? ["main needs nothing: it may use no capability."]
      : ["main needs:", ...items.map((item) => `  ${grantText(item)}`)];
  lines.push(`grant hash: ${hash}`);
  return {
    content: [{ type: "text", text: lines.join("\n") }],
    structuredContent: {
      program: checked.entry,
      needs: items.map((item, i) => ({ text: grantText(item), ...needs[i]! })),
      hash,
    },
  };
}

/** The hash of a grant: sha256 of the manifest's `needs` as canonical JSON (keys sorted, no spaces). */
function grantHash(items: readonly GrantItem[]): string {
  return sha256(canonical(items.map(manifestNeed)));
}

/** A grant item as the grant manifest's `needs` writes it (vocabulary/manifest.ts). */
function manifestNeed(item: GrantItem): ManifestNeed {
  return {
    capability: item.path.join("."),
    ...(item.scope !== undefined ? { scope: item.scope } : {}),
    ...(item.budget ? { budget: { count: item.budget.count, unit: item.budget.unit } } : {}),
    ...(item.guard ? { guard: { sinks: item.guard.sinks.map(needText) } } : {}),
  };
}

async function explainTool(text: string, context: Context, facts: Facts, extra: Extra): Promise<CallToolResult> {
  facts.code = text.toUpperCase().slice(0, 100);
  const done = await inWorker<ExplainAnswer>(context, { kind: "explain", code: text }, facts, extra.signal);
  if ("refused" in done) return refused(done.refused);
  return done.answer.result;
}

/** The ceiling as its flags write it, for the run tool's description. */
function ceilingText(ceiling: Ceiling): string {
  const flags = [
    ...ceiling.allow.map((n) => `--allow ${needText(n)}`),
    ...ceiling.hosts.map((h) => `--allow-host ${h}`),
    ...ceiling.atMost.map((a) => `--at-most ${a.text}`),
  ];
  return flags.length === 0 ? "none: only a program that needs nothing runs" : flags.join(" ");
}

interface RunInput extends ProgramInput {
  arguments?: string[] | undefined;
  input?: string | undefined;
}

async function runTool(input: RunInput, context: Context, facts: Facts, extra: Extra): Promise<CallToolResult> {
  const checked = await checkedProgram(input, context, facts, extra.signal, input.input ?? "");
  if ("refused" in checked) return refused(checked.refused);
  const items = mainGrant(checked, "nothing runs");
  if ("refused" in items) return refused(items.refused);
  const hash = grantHash(items);
  facts.grant = hash;
  if (context.audit !== undefined && !context.audit.writable)
    return refused(`nothing runs: the audit log ${context.audit.file} cannot be written`);
  const verdict = judge(items, context.options.ceiling);
  return holdingPlace(facts, async () => {
    const signal = untilEnd(extra.signal);
    let narrowing: readonly string[];
    if (verdict.within) {
      narrowing = verdict.runFlags;
      facts.approvedBy = "ceiling";
    } else {
      const asked = context.approved.has(hash)
        ? "approved-earlier"
        : await askPerson(context, checked, items, verdict.outside, verdict.narrowed, hash, signal);
      if (asked === "approved" || asked === "approved-earlier" || asked === "approved-remembered") {
        if (ending.signal.aborted) return refused("renyi mcp is ending: the approved program did not start");
        // The person approved main's grant as it is written: it runs as declared, not narrowed to the ceiling.
        narrowing = [];
        facts.approvedBy = asked === "approved-earlier" ? "person-earlier" : "person";
        if (asked === "approved-remembered") context.approved.add(hash);
        context.audit?.write({
          event: "approved",
          tool: "run",
          outcome: "approved",
          program: facts.program!,
          sources: facts.sources!,
          grant: hash,
          approvedBy: facts.approvedBy,
        });
        // Nothing runs that the log could not record as approved.
        if (context.audit !== undefined && !context.audit.writable)
          return refused(`nothing runs: the audit log ${context.audit.file} cannot be written`);
      } else {
        if (asked === "cancelled") facts.outcome = ending.signal.aborted ? "refused" : "cancelled";
        else if (asked !== "unsupported") facts.outcome = "declined";
        return refused(beyondCeiling(verdict, context.options.ceiling, ending.signal.aborted ? "ending" : asked));
      }
    }
    const folder = recordingsFolder(context.options);
    const result = await runProgram({
      texts: checked.texts,
      entry: checked.entry,
      args: input.arguments ?? [],
      input: input.input,
      narrowing,
      recordings: folder,
      signal,
    });
    Object.assign(
      facts,
      runFacts(result),
      recordingWritten(folder, result.recording) ? { recording: result.recording } : {},
    );
    return { content: [{ type: "text", text: runSummary(result) }], structuredContent: { ...result } };
  });
}

/**
 * A run's outcome, exit code, and its error's code and place, for the audit
 * log: never the error's message, which may quote what the program read.
 */
function runFacts(result: Omit<RunResult, "recording" | "timeoutSeconds">): Facts {
  const error = result.error;
  return {
    outcome: result.outcome,
    exit: result.exit,
    ...(error?.code != null ? { code: error.code } : {}),
    ...(error?.file != null ? { at: `${error.file}:${error.line ?? 0}:${error.column ?? 0}` } : {}),
  };
}

/** What the person answered, or why they could not be asked. */
type Asked =
  | "approved"
  | "approved-remembered"
  | "approved-earlier"
  | "declined"
  | "dismissed"
  | "unsupported"
  | "cancelled"
  | "ending"
  | { failed: string };

/** How long the person may take to answer. */
const APPROVAL_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * Puts main's grant to the person through the client (MCP elicitation): the
 * client shows them the message and a form; the agent that called the tool
 * never sees the question and cannot answer it.
 */
async function askPerson(
  context: Context,
  checked: CheckedProgram,
  items: readonly GrantItem[],
  outside: readonly string[],
  narrowed: readonly string[],
  hash: string,
  signal: AbortSignal,
): Promise<Asked> {
  const elicitation = context.server.server.getClientCapabilities()?.elicitation as
    | { form?: object; url?: object }
    | undefined;
  // A client that declares elicitation with neither mode can show forms (as before modes existed); one with only URLs
  // cannot.
  if (elicitation === undefined || (elicitation.form === undefined && elicitation.url !== undefined))
    return "unsupported";
  const purpose = checked.compiled.main?.purpose;
  const message = [
    `A program an agent wrote asks to run with a grant beyond what renyi mcp was started with.`,
    ...(purpose !== undefined ? ["", `Its purpose: ${oneLine(purpose, 300)}`] : []),
    "",
    items.length === 0 ? "main needs nothing." : "main needs:",
    ...items.map((item) => `  ${oneLine(grantText(asTheNetworkSpells(item)), 500)}`),
    "",
    "Beyond the ceiling:",
    ...[...outside, ...narrowed.map((line) => `${line}; approved, it runs as declared`)].map(
      (line) => `  ${oneLine(line, 500)}`,
    ),
    "",
    `Grant hash: ${hash}`,
    "",
    "Approve to run this program once with exactly this grant, recorded. The agent cannot answer this for you.",
  ].join("\n");
  try {
    const answer = await context.server.server.request(
      {
        method: "elicitation/create",
        params: {
          ...(elicitation.form !== undefined ? { mode: "form" } : {}),
          message,
          requestedSchema: {
            type: "object",
            properties: {
              approve: {
                type: "boolean",
                title: "Run it with this grant",
                description: "Yes runs the program once, live, with main's grant as shown.",
                default: false,
              },
              remember: {
                type: "boolean",
                title: "Also allow this grant again until the server stops",
                description: "Later runs of programs with exactly this grant (the same hash) run without asking.",
                default: false,
              },
            },
            required: ["approve"],
          },
        },
      },
      ElicitResultSchema,
      { signal, timeout: APPROVAL_TIMEOUT_MS },
    );
    if (answer.action === "decline") return "declined";
    if (answer.action === "cancel") return "dismissed";
    const content = answer.content ?? {};
    if (content["approve"] !== true) return "declined";
    return content["remember"] === true ? "approved-remembered" : "approved";
  } catch (e) {
    if (signal.aborted) return "cancelled";
    return { failed: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * A grant item with its hosts as the network spells them (punycode): the
 * checker refuses a host beyond ASCII (E-CAP-HOST), and the person's question
 * shows none all the same, so that a letter of another script that looks
 * like a Latin one cannot pass for it.
 */
function asTheNetworkSpells(item: GrantItem): GrantItem {
  const ascii = <N extends Need>(need: N): N =>
    typeof need.scope === "string" && capabilityInfo(need.path)?.scope === "host" && /\P{ASCII}/u.test(need.scope)
      ? { ...need, scope: hostInAscii(need.scope) }
      : need;
  return { ...ascii(item), ...(item.guard !== undefined ? { guard: { sinks: item.guard.sinks.map(ascii) } } : {}) };
}

/**
 * A host (perhaps `*.` before it, a port after it) in punycode; what cannot be a host keeps its characters beyond ASCII
 * escaped.
 */
function hostInAscii(host: string): string {
  const m = /^(\*\.)?(.*?)(:\d{1,5})?$/u.exec(host)!;
  const name = domainToASCII(m[2]!);
  return name !== ""
    ? `${m[1] ?? ""}${name}${m[3] ?? ""}`
    : host.replace(/\P{ASCII}/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/**
 * Text the agent wrote (a purpose, a scope), made one line for the person's
 * question: every control character and line or paragraph separator is
 * written as its escape, so that it cannot begin a line of its own that looks
 * like the question's; and it is cut at `most` characters.
 */
function oneLine(text: string, most: number): string {
  // Controls, format characters (direction marks and isolates, joiners, the byte order mark, tags) and line and
  // paragraph separators.
  const escaped = text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (c) => {
    const code = c.codePointAt(0)!;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
  return escaped.length > most
    ? `${escaped.slice(0, most)}… (${escaped.length.toLocaleString("en")} characters)`
    : escaped;
}

/** Why a grant beyond the ceiling did not run, with what the person would have to allow. */
function beyondCeiling(
  verdict: Extract<ReturnType<typeof judge>, { within: false }>,
  ceiling: Ceiling,
  asked: Asked,
): string {
  const why =
    asked === "declined"
      ? "the person declined to run it with that grant, so nothing ran:"
      : asked === "dismissed"
        ? "the person dismissed the question without approving the grant, so nothing ran:"
        : asked === "cancelled"
          ? "the request was cancelled while the person was being asked, so nothing ran:"
          : asked === "ending"
            ? "renyi mcp is ending, so the person's answer was not waited for, and nothing ran:"
            : typeof asked === "object"
              ? `the person could not be asked (${asked.failed}), so nothing ran:`
              : "main's grant does not lie within the ceiling this server was started with, and this client cannot " +
                "ask the person to approve it (it offers no elicitation), so nothing ran:";
  return [
    why,
    ...verdict.outside.map((line) => `  ${line}`),
    "To run it without asking, the person who starts `renyi mcp` would have to add:",
    `  ${[...new Set(verdict.flags)].join(" ")}`,
    `The ceiling: ${ceilingText(ceiling)}.`,
  ].join("\n");
}

async function replayTool(
  input: ProgramInput & { recording: string },
  context: Context,
  facts: Facts,
  extra: Extra,
): Promise<CallToolResult> {
  const options = context.options;
  const checked = await checkedProgram(input, context, facts, extra.signal);
  if ("refused" in checked) return refused(checked.refused);
  const items = mainGrant(checked, "nothing runs");
  if ("refused" in items) return refused(items.refused);
  facts.grant = grantHash(items);
  const folder = recordingsFolder(options);
  // The id is checked before anything waits: no id becomes a path but one of rec- and 12 hexadecimal digits.
  const file = recordingFile(folder, input.recording);
  if ("refused" in file) return refused(file.refused);
  // The log names a recording only when the id names one in the folder.
  facts.recording = input.recording;
  return holdingPlace(facts, async () => {
    // The run is replayed under the arguments it was recorded with, read from the recording in a worker thread.
    const args = await inWorker<string[]>(
      context,
      { kind: "recorded-arguments", file: file.file },
      facts,
      extra.signal,
    );
    if ("refused" in args) return refused(args.refused);
    const replayed = await replayProgram({
      texts: checked.texts,
      entry: checked.entry,
      file: file.file,
      args: args.answer,
      recordings: folder,
      signal: untilEnd(extra.signal),
    });
    Object.assign(facts, runFacts(replayed));
    return {
      content: [{ type: "text", text: replaySummary(replayed, input.recording) }],
      structuredContent: { ...replayed },
    };
  });
}

function replaySummary(r: ReplayResult, recording: string): string {
  const lines = [
    `The replay against ${recording} ${r.outcome} (exit code ${r.exit}) ${stepsText(r.steps)}, with ` +
      `${plural(r.effects.length, "effect")} answered from the ` +
      `recording${r.mismatch === undefined ? "" : "; it did not go as recorded"}.`,
  ];
  if (r.mismatch !== undefined) lines.push(r.mismatch);
  else if (r.error !== undefined)
    lines.push(
      `error${r.error.code !== null ? `[${r.error.code}]` : ""}${r.error.file !== null ? ` ${r.error.file}:${r.error.line}:${r.error.column}` : ""}: ${r.error.message}`,
    );
  if (r.output !== "") lines.push("Output:", r.output.replace(/\n$/, ""));
  if (r.outputTruncated) lines.push(`[output truncated at 64 KiB]`);
  return lines.join("\n");
}

async function testTool(input: ProgramInput, context: Context, facts: Facts, extra: Extra): Promise<CallToolResult> {
  const checked = await checkedProgram(input, context, facts, extra.signal);
  if ("refused" in checked) return refused(checked.refused);
  const outside = testsOutside(checked, context.options.ceiling);
  if (outside !== undefined) return refused(outside);
  if (context.audit !== undefined && !context.audit.writable)
    return refused(`no test runs: the audit log ${context.audit.file} cannot be written`);
  facts.approvedBy = "ceiling";
  return holdingPlace(facts, async () => {
    const ran = await testProgram(checked.texts, checked.entry, untilEnd(extra.signal));
    if (ran.cancelled) facts.outcome = "cancelled";
    else if (ran.report !== undefined) facts.exit = ran.exit;
    if (ran.report === undefined)
      return refused(
        [
          `${ran.problem ?? "renyi test gave no report"}.`,
          ...(ran.errors !== "" ? ["Standard error:", ran.errors.replace(/\n$/, "")] : []),
        ].join("\n"),
      );
    return { content: [{ type: "text", text: testSummary(ran.report) }], structuredContent: ran.report };
  });
}

/**
 * Why the tests may not run, or nothing: a test that runs live (one that
 * replays no recording) is granted its own needs, which must lie within the
 * ceiling as main's must for the run tool. `renyi test` takes no narrowing
 * flags, so a test the ceiling would have to narrow does not run either.
 */
function testsOutside(checked: CheckedProgram, ceiling: Ceiling): string | undefined {
  // A program that does not compile runs no test: renyi test reports it.
  const tests = checked.compiled.modules.find((m) => m.entry)?.tests ?? [];
  const outside: string[] = [];
  const flags: string[] = [];
  for (const t of tests) {
    if (t.replays !== undefined) continue;
    const items = t.needs;
    const verdict = judge(items, ceiling);
    if (!verdict.within) {
      outside.push(...verdict.outside.map((line) => `test "${t.name}": ${line.replace(/^main needs/, "needs")}`));
      flags.push(...verdict.flags);
    } else if (verdict.runFlags.length > 0) {
      outside.push(
        `test "${t.name}": needs ${items.map(needText).join(", ")}, which the ceiling admits only narrowed ` +
          `(${verdict.runFlags.join(" ")}), and renyi test runs a test under its own needs`,
      );
    }
  }
  if (outside.length === 0) return undefined;
  return [
    "a test's needs do not lie within the ceiling this server was started with, so no test ran:",
    ...outside.map((line) => `  ${line}`),
    ...(flags.length > 0
      ? ["To run them, the person who starts `renyi mcp` would have to add:", `  ${[...new Set(flags)].join(" ")}`]
      : []),
    `The ceiling: ${ceilingText(ceiling)}.`,
  ].join("\n");
}

function testSummary(report: Record<string, unknown>): string {
  const summary = (report["summary"] ?? {}) as Record<string, number>;
  const counts = ["passed", "refreshed", "failed", "crashed", "skipped", "cancelled"]
    .filter((s) => s === "passed" || s === "failed" || (summary[s] ?? 0) > 0)
    .map((s) => `${summary[s] ?? 0} ${s}`);
  if ((summary["refusedFiles"] ?? 0) > 0)
    counts.push(`${summary["refusedFiles"]} file${summary["refusedFiles"] === 1 ? "" : "s"} refused`);
  const lines = [`${counts.join(", ")} (exit code ${String(report["exitCode"])}).`];
  const tests = Array.isArray(report["tests"])
    ? (report["tests"] as { name?: string; status?: string; message?: string; code?: string }[])
    : [];
  for (const t of tests)
    if (t.status !== "passed" && t.status !== "skipped")
      lines.push(
        `  ${t.status} ${t.name}${t.code !== undefined ? ` [${t.code}]` : ""}${t.message !== undefined ? `: ${t.message}` : ""}`,
      );
  return lines.join("\n");
}

function runSummary(r: RunResult): string {
  const lines = [
    `The run ${r.outcome} (exit code ${r.exit}) ${stepsText(r.steps)}, with ` +
      `${plural(r.effects.length, "effect")}; recording ${r.recording}.`,
  ];
  if (r.error !== undefined)
    lines.push(
      `error${r.error.code !== null ? `[${r.error.code}]` : ""}${r.error.file !== null ? ` ${r.error.file}:${r.error.line}:${r.error.column}` : ""}: ${r.error.message}`,
    );
  if (r.output !== "") lines.push("Output:", r.output.replace(/\n$/, ""));
  if (r.outputTruncated) lines.push(`[output truncated at 64 KiB]`);
  if (r.errors !== "") lines.push("Standard error:", r.errors.replace(/\n$/, ""));
  return lines.join("\n");
}

const plural = (count: number, noun: string): string =>
  `${count.toLocaleString("en")} ${noun}${count === 1 ? "" : "s"}`;

/**
 * A run's steps in a sentence; none are shown for a run that read or decided on guarded data its guards keep from the
 * console.
 */
function stepsText(steps: number | null): string {
  return steps === null
    ? "in steps not shown (it read or decided on guarded data its guards keep from the console)"
    : `in ${plural(steps, "step")}`;
}
