// The execution record (spec/runtime.md, "The execution record"): what
// `renyi run --json` prints as the last line of standard output when the run
// ends, one JSON object saying what ran, with what, what it reached and how it
// ended. Built here and nowhere else; its fields in the order RECORD_FIELDS lists.

import { randomUUID } from "node:crypto";
import { toJson, type Diagnostic } from "../../report/diagnostics.js";
import { crashSite, type Located } from "../../report/outcome-text.js";
import type { SourceFile } from "../../report/source.js";
import type { OutcomeKind } from "../../vocabulary/outcomes.js";
import { runMessage } from "../../vocabulary/problems/run.js";
import { BUILD_ID, VERSION } from "../host/version.cjs";
import type { ExecutionLog, WorkerOutcome } from "./worker.cjs";

export interface RecordError {
  /** The catalogue's code; null for a refusal or cancellation that has none. */
  readonly code: string | null;
  readonly message: string;
  /** Where in the program, when the run knows it. */
  readonly file: string | null;
  readonly line: number | null;
  readonly column: number | null;
}

export interface ExecutionRecord {
  readonly execution: string;
  readonly program: string | null;
  readonly source: string;
  readonly code: string | null;
  readonly bundle: string | null;
  readonly toolchain: { readonly version: string; readonly build: string };
  readonly started: string;
  readonly ms: number;
  readonly grant: string[] | null;
  /** Null when the run decided on guarded data its guards keep from the console (spec/runtime.md, "Decisions on guarded data"). */
  readonly steps: number | null;
  readonly hostCalls: ExecutionLog["log"]["calls"];
  readonly served: { readonly answered: number; readonly crashed: number; readonly hostCalls: number } | null;
  readonly outcome: OutcomeKind;
  readonly exit: number;
  readonly error: RecordError | null;
}

export const RECORD_FIELDS = [
  "execution",
  "program",
  "source",
  "code",
  "bundle",
  "toolchain",
  "started",
  "ms",
  "grant",
  "steps",
  "hostCalls",
  "served",
  "outcome",
  "exit",
  "error",
] as const;

/** What the record says of the run before it runs: known from the command line, and once the program is compiled. */
export class RecordSubject {
  readonly execution = randomUUID();
  readonly started = new Date();
  private readonly began = performance.now();
  program: string | null = null;
  code: (() => string) | null = null;
  bundle: (() => string) | null = null;

  constructor(readonly source: string) {}

  /** The program as compiled: main's module, the hash of the sources it reaches, and the hash of the code that runs. */
  compiled(program: string, code: () => string, bundle: () => string): void {
    this.program = program;
    this.code = code;
    this.bundle = bundle;
  }

  /** The record of a run that ended with `outcome`; `exit` is the command's exit code. */
  ran(
    outcome: WorkerOutcome,
    log: ExecutionLog["log"] | undefined,
    served: { answered: number; crashed: number } | undefined,
    exit: number,
    at: Located,
  ): ExecutionRecord {
    return this.record({
      grant: log?.grant ?? null,
      steps:
        outcome.outcome === "refused" ? 0 : "concealed" in outcome && outcome.concealed === true ? null : outcome.steps,
      hostCalls: log?.calls ?? [],
      served: served === undefined ? null : { ...served, hostCalls: log?.handlerCalls ?? 0 },
      outcome: outcome.outcome,
      exit,
      error: errorOf(outcome, at),
    });
  }

  /** The record of a run refused before it started: the first error among `diagnostics` is its error. */
  refused(diagnostics: readonly Diagnostic[], sources: ReadonlyMap<string, SourceFile>, exit: number): ExecutionRecord {
    const first = diagnostics.find((d) => d.severity === "error") ?? diagnostics[0];
    const shown = first === undefined ? undefined : toJson([first], sources).diagnostics[0]!;
    const known = first !== undefined && sources.has(first.span.file);
    const error: RecordError | null =
      shown === undefined
        ? null
        : {
            code: shown.code,
            message: shown.message,
            file: shown.file,
            line: known ? shown.line : null,
            column: known ? shown.column : null,
          };
    return this.record({ grant: null, steps: 0, hostCalls: [], served: null, outcome: "refused", exit, error });
  }

  /** The record of a run refused with a message, `error[CODE]: …` or `error: …`, before it started. */
  refusedWith(text: string, exit: number): ExecutionRecord {
    const m = /^error(?:\[([A-Z0-9-]+)\])?: ([\s\S]*?)\n?$/.exec(text);
    const error: RecordError = {
      code: m?.[1] ?? null,
      message: m?.[2] ?? text.trim(),
      file: null,
      line: null,
      column: null,
    };
    return this.record({ grant: null, steps: 0, hostCalls: [], served: null, outcome: "refused", exit, error });
  }

  /** Prints `record` as the last line of standard output (writeRecord). */
  write(record: ExecutionRecord, outputEndsLine: boolean): void {
    writeRecord(record, outputEndsLine);
  }

  private record(
    run: Pick<ExecutionRecord, "grant" | "steps" | "hostCalls" | "served" | "outcome" | "exit" | "error">,
  ): ExecutionRecord {
    return {
      execution: this.execution,
      program: this.program,
      source: this.source,
      code: this.code?.() ?? null,
      bundle: this.bundle?.() ?? null,
      toolchain: { version: VERSION, build: BUILD_ID },
      started: this.started.toISOString(),
      ms: Math.round(performance.now() - this.began),
      ...run,
    };
  }
}

function errorOf(outcome: WorkerOutcome, at: Located): RecordError | null {
  switch (outcome.outcome) {
    case "finished":
      return null;
    case "failed":
      return {
        code: "E-RT-FAILED",
        message: runMessage("E-RT-FAILED", { value: outcome.value, in: "main" }),
        ...placeOf(outcome.site),
      };
    case "crashed":
      return { code: outcome.code, message: outcome.message, ...placeOf(crashSite(outcome, at)) };
    case "cancelled":
      return { code: null, message: "the run was interrupted", ...placeOf(crashSite(outcome, at)) };
    case "refused":
      return { code: outcome.code ?? null, message: outcome.message, file: null, line: null, column: null };
  }
}

function placeOf(site: string | undefined): Pick<RecordError, "file" | "line" | "column"> {
  const m = site === undefined ? null : /^(.*):(\d+):(\d+)$/.exec(site);
  return m === null
    ? { file: null, line: null, column: null }
    : { file: m[1]!, line: Number(m[2]), column: Number(m[3]) };
}

/**
 * Writes the record as the last line of standard output: on a line of its own
 * even when the program's output did not end with one.
 */
export function writeRecord(record: ExecutionRecord, outputEndsLine: boolean): void {
  process.stdout.write(`${outputEndsLine ? "" : "\n"}${JSON.stringify(record)}\n`);
}
