// `renyi test --trace FILE` (spec/tracing.md, "Tests"): one trace for the
// command, a span for it, one per test under it, and under each test the
// spans its thread gathered (its purpose calls and effects), written whole
// once every test has ended.

import { randomBytes } from "node:crypto";
import { VERSION } from "../host/version.cjs";
import { newSpanId, nowNs, type TraceSpan } from "./gatherer.cjs";
import { otlpLine, writeWhole } from "./otlp-json.js";

export { traceRefusal } from "./run-trace.js";

/** A test as its span tells it: where it is, how it ended, and a crash's code or a failed check's. */
interface TracedTest {
  readonly file: string;
  readonly name: string;
  readonly status: string;
  readonly code?: string | undefined;
}

/** Where a test's span began. */
interface Begun {
  readonly spanId: string;
  readonly startNs: string;
}

export class TestTrace {
  private readonly traceId = randomBytes(16).toString("hex");
  private readonly rootSpanId = newSpanId();
  private readonly startNs = nowNs();
  private readonly spans: TraceSpan[] = [];

  constructor(private readonly file: string) {}

  /** A test's span begins: its id is the parent of the spans its thread gathers. */
  begin(): Begun {
    return { spanId: newSpanId(), startNs: nowNs() };
  }

  /** A test has ended, with the spans its thread gathered. */
  add(begun: Begun, test: TracedTest, spans: readonly TraceSpan[]): void {
    const good = test.status === "passed" || test.status === "skipped" || test.status === "refreshed";
    this.spans.push(
      {
        spanId: begun.spanId,
        parentSpanId: this.rootSpanId,
        name: `test ${test.name}`,
        kind: "internal",
        startNs: begun.startNs,
        endNs: nowNs(),
        attributes: {
          "renyi.test.name": test.name,
          "renyi.test.file": test.file,
          "renyi.outcome": test.status,
          ...(test.code !== undefined ? { "renyi.error_code": test.code } : {}),
        },
        ...(good ? {} : { error: test.code ?? test.status }),
      },
      ...spans,
    );
  }

  finish(exitCode: number): void {
    const root: TraceSpan = {
      spanId: this.rootSpanId,
      parentSpanId: "",
      name: "renyi test",
      kind: "internal",
      startNs: this.startNs,
      endNs: nowNs(),
      attributes: { "renyi.exit_code": exitCode },
    };
    const source = {
      resource: { "service.name": "renyi test", "service.version": VERSION },
      scope: { name: "renyi", version: VERSION },
    };
    writeWhole(this.file, otlpLine(this.traceId, source, [root, ...this.spans]));
  }
}
