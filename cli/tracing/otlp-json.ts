// The OTLP JSON file format (OpenTelemetry's file exporter): one
// ExportTraceServiceRequest a line, in the JSON mapping of OTLP's protobuf
// messages: trace and span ids as hex, times as decimal texts of unix
// nanoseconds, enums as numbers, attributes as key and typed value.

import { randomBytes } from "node:crypto";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { TraceSpan } from "./gatherer.cjs";

type AttributeValue = string | number | boolean;

/** What the spans are of: the resource's attributes (service.name...) and the instrumentation scope. */
export interface TraceSource {
  readonly resource: Readonly<Record<string, AttributeValue>>;
  readonly scope: { readonly name: string; readonly version: string };
}

/** OTLP's SpanKind: INTERNAL 1, CLIENT 3. */
const KIND = { internal: 1, client: 3 } as const;
/** OTLP's StatusCode: ERROR 2 (a span that went well leaves it unset). */
const STATUS_ERROR = 2;

function anyValue(value: AttributeValue): Record<string, unknown> {
  if (typeof value === "boolean") return { boolValue: value };
  if (typeof value === "number") return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  return { stringValue: value };
}

function keyValues(attributes: Readonly<Record<string, AttributeValue>>): { key: string; value: unknown }[] {
  return Object.entries(attributes).map(([key, value]) => ({ key, value: anyValue(value) }));
}

/** One ExportTraceServiceRequest holding every span of a trace, as a line of the file. */
export function otlpLine(traceId: string, source: TraceSource, spans: readonly TraceSpan[]): string {
  const request = {
    resourceSpans: [
      {
        resource: { attributes: keyValues(source.resource) },
        scopeSpans: [
          {
            scope: { name: source.scope.name, version: source.scope.version },
            spans: spans.map((span) => ({
              traceId,
              spanId: span.spanId,
              ...(span.parentSpanId !== "" ? { parentSpanId: span.parentSpanId } : {}),
              name: span.name,
              kind: KIND[span.kind],
              startTimeUnixNano: span.startNs,
              endTimeUnixNano: span.endNs,
              attributes: keyValues(span.attributes),
              status: span.error === undefined ? {} : { code: STATUS_ERROR, message: span.error },
            })),
          },
        ],
      },
    ],
  };
  return `${JSON.stringify(request)}\n`;
}

/** A trace file, whole or not at all: written beside `file`, then renamed over it; a warning on stderr when it cannot be. */
export function writeWhole(file: string, text: string): void {
  const temporary = `${resolve(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, text, { flag: "wx" });
    renameSync(temporary, file);
  } catch (e) {
    rmSync(temporary, { force: true });
    process.stderr.write(`warning: the trace could not be written to ${file}: ${(e as Error).message}\n`);
  }
}
