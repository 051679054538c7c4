// `--trace-endpoint URL` (spec/tracing.md, "Sending to a collector"): the run's
// spans, as its file holds them, sent over OTLP/HTTP by OpenTelemetry's own
// exporter, from the main thread once the run is over. The spans are made
// again with OpenTelemetry's SDK under the ids they already have, so that the
// file and the collector show the same trace. Loaded, with the packages it
// imports, only when the flag is given.

import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { TraceSpan } from "./gatherer.cjs";
import type { TraceSource } from "./otlp-json.js";

/** How long the collector has to take the spans before the run gives up on it. */
const SEND_TIMEOUT_MS = 10_000;

/** An HrTime, OpenTelemetry's [seconds, nanoseconds], of a unix time in nanoseconds as a decimal text. */
function hrTime(ns: string): [number, number] {
  const value = BigInt(ns);
  return [Number(value / 1_000_000_000n), Number(value % 1_000_000_000n)];
}

/** Sends `spans` of the trace `traceId` to the collector at `url`; gives back why not, or undefined once it took them. */
export async function sendSpans(
  url: string,
  traceId: string,
  source: TraceSource,
  spans: readonly TraceSpan[],
): Promise<string | undefined> {
  const [api, sdk, otlp, resources, conventions] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/semantic-conventions"),
  ]);
  let problem: string | undefined;
  const exporter = new otlp.OTLPTraceExporter({ url, timeoutMillis: SEND_TIMEOUT_MS });
  // The exporter's result, kept: the SDK's processors let a failed export go by unsaid.
  const told: SpanExporter = {
    export: (batch, done) =>
      exporter.export(batch, (result) => {
        if (result.code !== 0) problem ??= result.error?.message ?? "the collector did not take the spans";
        done(result);
      }),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  };
  // Each span is made under the id it already has: the SDK asks for a span id as it starts one.
  let nextSpanId = "";
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({
      [conventions.ATTR_SERVICE_NAME]: source.resource["service.name"]!,
      [conventions.ATTR_SERVICE_VERSION]: source.resource["service.version"]!,
    }),
    idGenerator: { generateTraceId: () => traceId, generateSpanId: () => nextSpanId },
    spanProcessors: [new sdk.BatchSpanProcessor(told, { maxQueueSize: spans.length + 1, maxExportBatchSize: 512 })],
  });
  const tracer = provider.getTracer(source.scope.name, source.scope.version);
  for (const span of spans) {
    const parent =
      span.parentSpanId === ""
        ? api.ROOT_CONTEXT
        : api.trace.setSpanContext(api.ROOT_CONTEXT, {
            traceId,
            spanId: span.parentSpanId,
            traceFlags: api.TraceFlags.SAMPLED,
          });
    nextSpanId = span.spanId;
    const made = tracer.startSpan(
      span.name,
      {
        kind: span.kind === "client" ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL,
        startTime: hrTime(span.startNs),
        attributes: span.attributes,
      },
      parent,
    );
    if (span.error !== undefined) made.setStatus({ code: api.SpanStatusCode.ERROR, message: span.error });
    made.end(hrTime(span.endNs));
  }
  try {
    await provider.forceFlush();
    await provider.shutdown();
  } catch (e) {
    problem ??= (e as Error).message;
  }
  return problem;
}
