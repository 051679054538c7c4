// Traced and logged runs (spec/tracing.md): `renyi run --trace FILE` writes the
// run as OpenTelemetry spans in the OTLP JSON file format, `--trace-endpoint URL`
// sends them to a collector over OTLP/HTTP, `--log` writes JSON lines on stderr.
// Real parts: `renyi run` as a child process, an upstream and a collector made
// here with node:http on 127.0.0.1.

import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { renyiIn } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-trace-"));
const cache = join(work, "cache");
const SECRET = "TRACE-SECRET-7431";
const env = { TRACE_SECRET: SECRET };

/** The upstream: answers every GET after a short wait (so that concurrent calls overlap), and keeps the paths asked. */
const asked: string[] = [];
let upstream: Server;
let port = 0;

before(async () => {
  upstream = createServer((req, res) => {
    asked.push(req.url ?? "");
    // A path under /drop/ is never answered: the connection is closed, and the call fails.
    if (req.url?.startsWith("/drop/")) {
      req.socket.destroy();
      return;
    }
    setTimeout(() => {
      res.writeHead(req.url?.startsWith("/missing") ? 404 : 200, { "content-type": "text/plain" });
      res.end("ok");
    }, 150);
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  port = (upstream.address() as { port: number }).port;
});

after(() => {
  upstream.close();
  rmSync(work, { recursive: true, force: true });
});

interface OtlpValue {
  stringValue?: string;
  intValue?: string;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: OtlpValue }[];
  status: { code?: number; message?: string };
}
interface OtlpRequest {
  resourceSpans: {
    resource: { attributes: { key: string; value: OtlpValue }[] };
    scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[];
  }[];
}

/** The spans of an ExportTraceServiceRequest, each with its attributes as a plain object. */
function spansOf(request: OtlpRequest): (OtlpSpan & { attrs: Record<string, unknown> })[] {
  return request.resourceSpans.flatMap((r) =>
    r.scopeSpans.flatMap((s) =>
      s.spans.map((span) => ({
        ...span,
        attrs: Object.fromEntries(
          span.attributes.map((a) => [
            a.key,
            a.value.stringValue ?? a.value.intValue ?? a.value.boolValue ?? a.value.doubleValue,
          ]),
        ),
      })),
    ),
  );
}

/** A trace file: one JSON request a line, every line whole. */
function readTrace(file: string): ReturnType<typeof spansOf> {
  const text = readFileSync(file, "utf8");
  assert.ok(text.endsWith("\n"), "the file ends with its line's end");
  return text
    .trimEnd()
    .split("\n")
    .flatMap((line) => spansOf(JSON.parse(line) as OtlpRequest));
}

const PROGRAM = (p: number) => `function status_of(path: Text) returns Int
  purpose: Ask the upstream for one path.
  needs network.http("127.0.0.1:${p}")
  let response be http.get("http://127.0.0.1:${p}{path}?key=QUERY-KEY") otherwise return 0
  return response.status
end

function all_statuses(paths: List<Text>) returns List<Int>
  purpose: Ask for every path, two at a time.
  needs network.http("127.0.0.1:${p}")
  return from path in paths
    concurrently at most 2 at a time
    select status_of(path)
end

function twice(n: Int) returns Int
  purpose: Double a number.
  return n * 2
end

function leak(key: Text)
  needs network.http("127.0.0.1:${p}")
  let response be http.get("http://127.0.0.1:${p}/guarded/{key}") otherwise crash with "refused"
end

public function main()
  purpose: Ask the upstream for two paths, then send the secret where it may go.
  needs console, environment("TRACE_SECRET") only to network.http("127.0.0.1:${p}"), network.http("127.0.0.1:${p}")
  let statuses be all_statuses(["/a", "/b"])
  console.print("{statuses} {twice(21)}")
  let key be environment.get("TRACE_SECRET").or_else("")
  leak(key)
  console.print("sent")
end
`;

function write(name: string, text: string): string {
  writeFileSync(join(work, name), text);
  return name;
}

test("--trace writes OTLP JSON: the run, each purpose call and each effect, nested by task, a guarded target left out", async () => {
  const file = write("traced.ry", PROGRAM(port));
  const dir = join(work, "out");
  mkdirSync(dir);
  const traced = await renyiIn(work, ["run", "--trace", "out/trace.json", file], env, cache);
  assert.equal(traced.status, 0, traced.stderr);
  assert.equal(traced.stdout, "[200, 200] 42\nsent\n");
  assert.deepEqual(readdirSync(dir), ["trace.json"], "no temporary file is left beside it");
  const text = readFileSync(join(dir, "trace.json"), "utf8");
  const spans = readTrace(join(dir, "trace.json"));
  const traceIds = new Set(spans.map((s) => s.traceId));
  assert.equal(traceIds.size, 1);
  assert.match([...traceIds][0]!, /^[0-9a-f]{32}$/);
  for (const span of spans) {
    assert.match(span.spanId, /^[0-9a-f]{16}$/);
    assert.match(span.startTimeUnixNano, /^\d{19}$/);
    assert.ok(BigInt(span.endTimeUnixNano) >= BigInt(span.startTimeUnixNano), `${span.name} ends after it starts`);
  }
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const named = (name: string) => spans.filter((s) => s.name === name);

  const [run] = spans.filter((s) => s.parentSpanId === undefined);
  assert.equal(spans.filter((s) => s.parentSpanId === undefined).length, 1, "one root: the run");
  assert.equal(run!.name, "run traced");
  assert.equal(run!.attrs["renyi.outcome"], "finished");
  assert.equal(run!.attrs["renyi.program"], "traced");
  assert.match(String(run!.attrs["renyi.code_hash"]), /^sha256:[0-9a-f]{64}$/);

  const [main] = named("main");
  assert.equal(main!.parentSpanId, run!.spanId);
  assert.equal(main!.attrs["renyi.purpose"], "Ask the upstream for two paths, then send the secret where it may go.");
  const [all] = named("traced.all_statuses");
  assert.equal(all!.parentSpanId, main!.spanId);
  assert.equal(named("traced.twice")[0]!.parentSpanId, main!.spanId);
  // leak has no purpose: no span of its own, and its call's parent is main.
  assert.equal(named("traced.leak").length, 0);

  // Two concurrent tasks, each its own purpose span: each GET is the child of the one of its own task.
  const statusSpans = named("traced.status_of");
  assert.equal(statusSpans.length, 2);
  for (const s of statusSpans) assert.equal(s.parentSpanId, all!.spanId);
  const gets = named("GET").filter((g) => g.attrs["url.full"] !== undefined);
  assert.equal(gets.length, 2);
  assert.deepEqual(new Set(gets.map((g) => g.parentSpanId)), new Set(statusSpans.map((s) => s.spanId)));
  for (const get of gets) {
    const parent = byId.get(get.parentSpanId!)!;
    assert.ok(BigInt(get.startTimeUnixNano) >= BigInt(parent.startTimeUnixNano), "a call starts inside its parent");
    assert.ok(BigInt(get.endTimeUnixNano) <= BigInt(parent.endTimeUnixNano), "and ends inside it");
    assert.equal(get.kind, 3, "a client span");
    assert.equal(get.attrs["http.request.method"], "GET");
    assert.equal(get.attrs["server.address"], "127.0.0.1");
    assert.equal(get.attrs["server.port"], String(port));
    assert.equal(get.attrs["http.response.status_code"], "200");
    assert.equal(get.attrs["renyi.capability"], "network.http");
    assert.equal(get.attrs["renyi.operation"], "std.http.get");
    assert.equal(get.attrs["renyi.outcome"], "ok");
    assert.equal(typeof get.attrs["renyi.duration_ms"], "number");
  }
  assert.deepEqual(gets.map((g) => g.attrs["url.full"]).sort(), [
    `http://127.0.0.1:${port}/a`,
    `http://127.0.0.1:${port}/b`,
  ]);

  // The call whose URL carried the guarded secret: made, and traced without its target.
  assert.ok(asked.includes(`/guarded/${SECRET}`));
  const guarded = named("GET").filter((g) => g.attrs["url.full"] === undefined);
  assert.equal(guarded.length, 1);
  assert.equal(guarded[0]!.parentSpanId, main!.spanId);
  assert.equal(guarded[0]!.attrs["renyi.guarded"], true);
  for (const key of ["renyi.target", "server.address", "server.port"]) assert.equal(guarded[0]!.attrs[key], undefined);
  assert.ok(!text.includes(SECRET), "the secret is nowhere in the file");
  assert.ok(!text.includes("QUERY-KEY"), "nor is a URL's query");

  const variable = named("std.environment.get")[0]!;
  assert.equal(variable.attrs["renyi.target"], "TRACE_SECRET");
  assert.equal(variable.parentSpanId, main!.spanId);
});

test("a run that crashes still writes its trace, the crash on the run's span", async () => {
  const file = write(
    "crashing.ry",
    `function divide(n: Int, d: Int) returns Int\n  purpose: Divide.\n  return n / d\nend\n\n` +
      `public function main()\n  purpose: Crash.\n  needs console\n  console.print("before")\n  console.print("{divide(1, 0)}")\nend\n`,
  );
  const ran = await renyiIn(work, ["run", "--trace", "crash.json", file], env, cache);
  assert.equal(ran.status, 2, ran.stderr);
  const spans = readTrace(join(work, "crash.json"));
  const run = spans.find((s) => s.parentSpanId === undefined)!;
  assert.equal(run.attrs["renyi.outcome"], "crashed");
  assert.equal(run.attrs["renyi.error_code"], "E-RT-DIVISION");
  assert.equal(run.status.code, 2);
  const divide = spans.find((s) => s.name === "crashing.divide")!;
  assert.equal(divide.attrs["renyi.outcome"], "E-RT-DIVISION");
  assert.equal(divide.status.code, 2);
  assert.ok(spans.some((s) => s.name === "std.console.print"));
});

test("--trace into a folder that does not exist is refused before the run, and nothing runs", async () => {
  const file = write("refused.ry", PROGRAM(port));
  const before = asked.length;
  const ran = await renyiIn(work, ["run", "--trace", "no/such/folder/t.json", file], env, cache);
  assert.equal(ran.status, 3);
  assert.match(ran.stderr, /^error: --trace no\/such\/folder\/t\.json: the folder .*no\/such\/folder does not exist/);
  assert.equal(ran.stdout, "");
  assert.equal(asked.length, before, "the program never ran");
  assert.equal(existsSync(join(work, "no")), false);

  const endpoint = await renyiIn(work, ["run", "--trace-endpoint", "file:///tmp/spans", file], env, cache);
  assert.equal(endpoint.status, 3);
  assert.match(endpoint.stderr, /^error: --trace-endpoint takes the http:\/\/ or https:\/\/ URL/);
  assert.equal(asked.length, before);
});

test("--trace-endpoint sends the same spans to a collector over OTLP/HTTP", async () => {
  const received: OtlpRequest[] = [];
  const heard: { method: string; url: string; type: string }[] = [];
  const collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      heard.push({ method: req.method ?? "", url: req.url ?? "", type: req.headers["content-type"] ?? "" });
      received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpRequest);
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  const at = (collector.address() as { port: number }).port;
  try {
    const file = write("sent.ry", PROGRAM(port));
    const ran = await renyiIn(
      work,
      ["run", "--trace", "sent.json", "--trace-endpoint", `http://127.0.0.1:${at}/v1/traces`, file],
      env,
      cache,
    );
    assert.equal(ran.status, 0, ran.stderr);
    assert.ok(heard.length >= 1);
    for (const h of heard) assert.deepEqual([h.method, h.url, h.type], ["POST", "/v1/traces", "application/json"]);
    const sent = received.flatMap(spansOf);
    const written = readTrace(join(work, "sent.json"));
    const key = (s: OtlpSpan) => `${s.traceId} ${s.spanId} ${s.parentSpanId ?? ""} ${s.name}`;
    assert.deepEqual(sent.map(key).sort(), written.map(key).sort(), "the collector has the file's spans, ids and all");
    const service = received[0]!.resourceSpans[0]!.resource.attributes.find((a) => a.key === "service.name");
    assert.equal(service?.value.stringValue, "sent");
    const get = sent.find((s) => s.attrs["url.full"] === `http://127.0.0.1:${port}/a`)!;
    assert.equal(get.attrs["http.request.method"], "GET");
    assert.ok(!JSON.stringify(received).includes(SECRET));
  } finally {
    collector.close();
  }
});

test("--log writes a JSON line on stderr at the start, at the end and for each effect that failed, naming no guarded data", async () => {
  const file = write(
    "logged.ry",
    `function status_of(url: Text) returns Int
  purpose: Ask for a page.
  needs network.http("127.0.0.1")
  let response be http.get(url) otherwise return 0
  return response.status
end

public function main()
  purpose: Ask for a missing page, then send the secret where the call fails.
  needs console, environment("TRACE_SECRET") only to network.http("127.0.0.1:${port}"), network.http("127.0.0.1")
  console.print("{status_of("http://127.0.0.1:1/nothing")}")
  let key be environment.get("TRACE_SECRET").or_else("")
  let dropped be http.get("http://127.0.0.1:${port}/drop/{key}") otherwise crash with "dropped"
end
`,
  );
  const ran = await renyiIn(work, ["run", "--log", file], env, cache);
  assert.equal(ran.status, 2, ran.stderr);
  assert.equal(ran.stdout, "0\n");
  const lines = ran.stderr
    .trimEnd()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.deepEqual(
    lines.map((l) => l["event"]),
    ["run.start", "call.failed", "call.failed", "run.end"],
  );
  for (const line of lines) assert.match(String(line["time"]), /^\d{4}-\d\d-\d\dT/);
  assert.equal(lines[0]!["file"], file);
  assert.deepEqual(
    [lines[1]!["operation"], lines[1]!["target"], lines[1]!["outcome"], lines[1]!["level"]],
    ["std.http.get", "127.0.0.1:1/nothing", "HttpError.Unreachable", "warn"],
  );
  assert.equal(lines[2]!["target"], undefined, "a call that carried guarded data names no target");
  assert.equal(lines[2]!["capability"], "network.http");
  assert.deepEqual([lines[3]!["outcome"], lines[3]!["exit_code"], lines[3]!["program"]], ["crashed", 2, "logged"]);
  assert.ok(!ran.stderr.includes(SECRET));
});

test("renyi test --trace: a span per test under the command's, each test's purpose calls under its own", async () => {
  const file = write(
    "tested.ry",
    `function double(n: Int) returns Int\n  purpose: Double a number.\n  return n * 2\nend\n\n` +
      `test "doubles"\n  check double(2) is 4\nend\n\ntest "fails"\n  check double(2) is 5\nend\n`,
  );
  const ran = await renyiIn(work, ["test", "--trace", "tests.json", file], env, cache);
  assert.equal(ran.status, 1, ran.stdout + ran.stderr);
  const spans = readTrace(join(work, "tests.json"));
  const root = spans.find((s) => s.parentSpanId === undefined)!;
  assert.equal(root.name, "renyi test");
  assert.equal(root.attrs["renyi.exit_code"], "1");
  const tests = spans.filter((s) => s.parentSpanId === root.spanId);
  assert.deepEqual(tests.map((t) => [t.name, t.attrs["renyi.outcome"]]).sort(), [
    ["test doubles", "passed"],
    ["test fails", "failed"],
  ]);
  assert.equal(tests.find((t) => t.name === "test fails")!.status.code, 2);
  const doubles = spans.filter((s) => s.name === "tested.double");
  assert.deepEqual(doubles.map((d) => d.parentSpanId).sort(), tests.map((t) => t.spanId).sort());

  const refused = await renyiIn(work, ["test", "--trace", "missing/tests.json", file], env, cache);
  assert.equal(refused.status, 3);
  assert.match(refused.stderr, /--trace missing\/tests\.json: the folder .* does not exist/);
  assert.equal(refused.stdout, "", "no test ran");
});

test("renyi record --trace writes the recording and the trace", async () => {
  const file = write(
    "recorded.ry",
    `public function main()\n  purpose: Print.\n  needs console\n  console.print("hi")\nend\n`,
  );
  const ran = await renyiIn(
    work,
    ["record", "--to", "recorded.rec.json", "--trace", "recorded.json", file],
    env,
    cache,
  );
  assert.equal(ran.status, 0, ran.stderr);
  assert.ok(existsSync(join(work, "recorded.rec.json")));
  const spans = readTrace(join(work, "recorded.json"));
  assert.deepEqual(spans.map((s) => s.name).sort(), ["main", "run recorded", "std.console.print"]);
});

test("once the run has read guarded data, purpose calls have no spans: their number would tell of it", async () => {
  const file = write(
    "counted.ry",
    `function step(n: Int) returns Int\n  purpose: One step.\n  return n + 1\nend\n\n` +
      `public function main()\n  purpose: Count the secret's characters where nobody sees.\n` +
      `  needs console, environment("TRACE_SECRET") only to network.http("127.0.0.1:${port}")\n` +
      `  console.print("{step(0)}")\n` +
      `  let key be environment.get("TRACE_SECRET").or_else("")\n` +
      `  var n be 0\n  for each i in 1 to text.length(key)\n    set n to step(n)\n  end\nend\n`,
  );
  const ran = await renyiIn(work, ["run", "--trace", "counted.json", file], env, cache);
  assert.equal(ran.status, 0, ran.stderr);
  const spans = readTrace(join(work, "counted.json"));
  assert.equal(spans.filter((s) => s.name === "counted.step").length, 1, "the step before the secret was read");
  assert.ok(spans.some((s) => s.name === "main"));
});
