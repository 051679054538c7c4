// What `renyi run --trace FILE`, `--trace-endpoint URL` and `--log` add to a
// run (spec/tracing.md), on the main thread: the run's own span, the spans its
// worker sends as they end, and, when the run is over however it ended, the
// file written whole (a temporary file renamed) and the spans sent to the
// collector; the log lines of the run's start and end. Loaded only when one of
// the three is given.

import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { VERSION } from "../host/version.cjs";
import type { Outcome } from "../../rtlib/index.js";
import { newSpanId, nowNs, type TraceInput, type TraceSpan } from "./gatherer.cjs";
import { logLine } from "./log-lines.cjs";
import { otlpLine, writeWhole, type TraceSource } from "./otlp-json.js";

/** The spans a trace keeps, the run's own aside; past them a span is counted (renyi.dropped_spans), not kept. */
const MAX_SPANS = 100_000;

/** The run's options this room reads (cli/running/run-options.ts). */
export interface TraceOptions {
  readonly trace?: string;
  readonly traceEndpoint?: string;
  readonly log: boolean;
}

/** Why the command line's --trace or --trace-endpoint cannot be honoured, before the run starts; or undefined. */
export function traceRefusal(options: TraceOptions): string | undefined {
  if (options.trace !== undefined) {
    const folder = dirname(resolve(options.trace));
    if (!isFolder(folder))
      return `--trace ${options.trace}: the folder ${folder} does not exist; name a file in a folder that does`;
    if (isFolder(resolve(options.trace))) return `--trace ${options.trace} is a folder; name the file to write`;
  }
  if (options.traceEndpoint !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(options.traceEndpoint);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:"))
      return `--trace-endpoint takes the http:// or https:// URL of a collector's traces (such as http://localhost:4318/v1/traces), not ${options.traceEndpoint}`;
  }
  return undefined;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export class RunTrace {
  private readonly traceId = randomBytes(16).toString("hex");
  private readonly runSpanId = newSpanId();
  private readonly startNs = nowNs();
  private readonly startedAt = performance.now();
  private readonly spans: TraceSpan[] = [];
  private dropped = 0;
  private program: string | undefined;
  private code: string | undefined;
  private outcome: Outcome | undefined;

  constructor(
    private readonly options: TraceOptions,
    private readonly file: string,
  ) {
    if (options.log) process.stderr.write(logLine("info", "run.start", { file, pid: process.pid }));
  }

  /** What the worker is told: the run's span, the parent of its own; whether it logs its failed calls. */
  workerInput(): { trace?: TraceInput; logLines?: true } {
    const traced = this.options.trace !== undefined || this.options.traceEndpoint !== undefined;
    return {
      ...(traced ? { trace: { runSpanId: this.runSpanId } } : {}),
      ...(this.options.log ? { logLines: true } : {}),
    };
  }

  compiled(program: string, code: string): void {
    this.program = program;
    this.code = code;
  }

  add(spans: readonly TraceSpan[]): void {
    for (const span of spans) {
      if (this.spans.length < MAX_SPANS) this.spans.push(span);
      else this.dropped++;
    }
  }

  ended(outcome: Outcome): void {
    this.outcome = outcome;
  }

  /** Once the run is over, however it ended: the file, the collector, the last log line. */
  async finish(exitCode: number): Promise<void> {
    const outcome = this.outcome?.outcome ?? "refused";
    const errorCode = this.outcome !== undefined && "code" in this.outcome ? this.outcome.code : undefined;
    if (this.options.trace !== undefined || this.options.traceEndpoint !== undefined) {
      const spans = [this.runSpan(outcome, errorCode, exitCode), ...this.spans];
      const source: TraceSource = {
        resource: { "service.name": this.program ?? basename(this.file), "service.version": VERSION },
        scope: { name: "renyi", version: VERSION },
      };
      if (this.options.trace !== undefined) writeWhole(this.options.trace, otlpLine(this.traceId, source, spans));
      if (this.options.traceEndpoint !== undefined) {
        const { sendSpans } = await import("./endpoint.js");
        const problem = await sendSpans(this.options.traceEndpoint, this.traceId, source, spans);
        if (problem !== undefined)
          process.stderr.write(`warning: the trace was not sent to ${this.options.traceEndpoint}: ${problem}\n`);
      }
    }
    if (this.options.log)
      process.stderr.write(
        logLine(outcome === "finished" ? "info" : "warn", "run.end", {
          program: this.program,
          file: this.file,
          outcome,
          code: errorCode,
          exit_code: exitCode,
          ms: Math.round(performance.now() - this.startedAt),
        }),
      );
  }

  private runSpan(outcome: string, errorCode: string | undefined, exitCode: number): TraceSpan {
    const attributes: Record<string, string | number> = {
      "renyi.program": this.program ?? basename(this.file),
      "renyi.file": this.file,
      "renyi.outcome": outcome,
      "renyi.exit_code": exitCode,
    };
    if (this.code !== undefined) attributes["renyi.code_hash"] = this.code;
    if (errorCode !== undefined) attributes["renyi.error_code"] = errorCode;
    if (this.dropped > 0) attributes["renyi.dropped_spans"] = this.dropped;
    return {
      spanId: this.runSpanId,
      parentSpanId: "",
      name: `run ${this.program ?? basename(this.file)}`,
      kind: "internal",
      startNs: this.startNs,
      endNs: nowNs(),
      attributes,
      ...(outcome === "finished" ? {} : { error: errorCode ?? outcome }),
    };
  }
}
