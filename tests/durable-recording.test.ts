// `renyi fetch-recording` (spec/durable.md, "Recordings from production"): a
// real restate-server, and a small Restate service of this test's own that
// journals entries in exactly the form `renyi serve --restate` writes (the
// header, batches of calls, sleep and attempt markers, the end), with the calls
// a live `renyi record` of the program made. The recording fetched from the
// journal is reproduced by `renyi reproduce`. Beside it: an invocation that
// never ended, and a node:http stand-in for the admin API that answers
// garbage, rows of another form, a header of another form, too much, or
// nothing in time.

import "../cli/durable/polyfill.js";
import * as restate from "@restatedev/restate-sdk";
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttp2Server, type Http2Server } from "node:http2";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { DURABLE_FORM, JOURNAL_RUN_NAME, type JournalEntry } from "../vocabulary/durable.js";
import type { RecordedCall, Recording } from "../vocabulary/recording.js";
import { readJournal, JOURNAL_BOUNDS } from "../cli/durable/journal-rows.js";
import { RestateServer } from "./restate-support.js";
import { freePort, renyiIn } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-fetch-"));
const cache = join(work, "cache");
const PROGRAM = `public function main()
  purpose: Greet the person an environment variable names, after a pause.
  needs console, environment("GREETING_NAME"), time
  let name be environment.get("GREETING_NAME").or_else("world")
  time.sleep(time.milliseconds(20))
  console.print("hello, {name}")
end
`;
writeFileSync(join(work, "greet.ry"), PROGRAM);

const renyi = (args: readonly string[]) => renyiIn(work, args, { GREETING_NAME: "Ada" }, cache);

/** What the journal of one invocation is made of: the recorded run, and whether to end it. */
interface Script {
  readonly recording: Recording;
  /** Stop after the first batch and wait (a run the endpoint never finished). */
  readonly halfway?: boolean;
}

let server: RestateServer;
let endpoint: Http2Server;
let recorded: Recording;
const scripts = new Map<string, Script>();

/** One durable run's journal, entry for entry as the endpoint writes it (spec/durable.md, "The journal"). */
async function journal(ctx: restate.Context, script: Script): Promise<{ ok: boolean }> {
  const step = (entry: JournalEntry) => ctx.run(JOURNAL_RUN_NAME, () => entry as never);
  const r = script.recording;
  await step({
    renyi: DURABLE_FORM,
    program: r.program,
    code: r.code,
    grant: r.grant,
    arguments: r.arguments ?? [],
    redacted: r.redacted ?? [],
    started_ms: Date.now(),
  });
  ctx.awakeable();
  await step({ attempt: 1 });
  // Numbered on from an earlier attempt's last, as the endpoint numbers them: fetching renumbers them.
  const renumbered = r.calls.map((c, i): RecordedCall => ({ ...c, sequence: 40 + i }));
  const sleep = renumbered.findIndex((c) => c.primitive === "std.time.sleep");
  await step({ calls: renumbered.slice(0, sleep) });
  if (script.halfway === true) {
    await ctx.sleep(10 * 60_000);
    return { ok: false };
  }
  const until = Date.now() + 20;
  await step({ sleep: { ms: 20, until } });
  await ctx.sleep(Math.max(0, until - Date.now()));
  await step({ attempt: 2 });
  await step({ calls: renumbered.slice(sleep) });
  await step({ ended: { outcome: r.outcome, stdout: r.output!.stdout, bytes: r.output!.bytes } });
  return { ok: true };
}

before(async () => {
  const made = await renyi(["record", "--to", "live.json", "greet.ry"]);
  assert.equal(made.status, 0, made.stderr);
  recorded = JSON.parse(readFileSync(join(work, "live.json"), "utf8")) as Recording;
  server = await RestateServer.start();
  const service = restate.service({
    name: "greet",
    handlers: {
      run: async (ctx: restate.Context, input: { script: string }) => journal(ctx, scripts.get(input.script)!),
    },
  });
  endpoint = createHttp2Server(restate.createEndpointHandler({ services: [service] }));
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  const registered = await server.register(`http://127.0.0.1:${(endpoint.address() as { port: number }).port}`);
  assert.ok(registered.status < 300, registered.body);
});

after(async () => {
  await server?.stop();
  endpoint?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Starts an invocation journaling `script`; its id. */
async function invoke(name: string, script: Script): Promise<string> {
  scripts.set(name, script);
  return server.send("greet", { script: name });
}

test("a finished durable run's journal is fetched as a recording that renyi reproduce runs to the same output", async () => {
  const id = await invoke("whole", { recording: recorded });
  const done = await server.waitFor(id);
  assert.equal(done.status, 200, done.body);
  const fetched = await renyi(["fetch-recording", "--restate", server.adminUrl, id]);
  assert.equal(fetched.status, 0, fetched.stderr);
  assert.match(fetched.stderr, new RegExp(`fetched 3 calls to ${id}\\.json \\(the run finished\\)`));
  const recording = JSON.parse(readFileSync(join(work, `${id}.json`), "utf8")) as Recording;
  // The calls of both batches, the markers skipped, numbered 1, 2, 3 in journal order.
  assert.deepEqual(
    recording.calls.map((c) => [c.sequence, c.primitive]),
    [
      [1, "std.environment.get"],
      [2, "std.time.sleep"],
      [3, "std.console.print"],
    ],
  );
  assert.deepEqual(
    recording.calls.map(({ sequence: _, ...c }) => c),
    recorded.calls.map(({ sequence: _, ...c }) => c),
  );
  assert.equal(recording.program, "greet");
  assert.equal(recording.source, "greet.ry");
  assert.equal(recording.code, recorded.code);
  assert.deepEqual(recording.grant, recorded.grant);
  assert.deepEqual(recording.output, recorded.output);
  assert.equal(recording.outcome, "finished");
  assert.deepEqual(recording.environment, recorded.environment);
  assert.match(recording.recorded_at ?? "", /^\d{4}-\d\d-\d\dT/);
  const reproduced = await renyiIn(work, ["reproduce", `${id}.json`], {}, cache);
  assert.equal(reproduced.status, 0, reproduced.stderr);
  assert.equal(reproduced.stdout, "hello, Ada\n");
  assert.match(reproduced.stderr, /reproduced: the run finished as recorded/);
  // A second fetch to the default name does not write over the first; --to names a file to write over.
  const again = await renyi(["fetch-recording", "--restate", server.adminUrl, id]);
  assert.equal(again.status, 3);
  assert.match(again.stderr, /error\[E-RT-JOURNAL\]: I cannot write the recording of .*exists; give --to/);
  writeFileSync(join(work, "over.json"), "old");
  const over = await renyi(["fetch-recording", "--restate", server.adminUrl, "--to", "over.json", id]);
  assert.equal(over.status, 0, over.stderr);
  assert.deepEqual(JSON.parse(readFileSync(join(work, "over.json"), "utf8")), recording);
});

test("an invocation that never ended gives the run so far, written as cancelled and without output, which --resume finishes", async () => {
  const id = await invoke("halfway", { recording: recorded, halfway: true });
  // The first batch is in the journal once the invocation waits on its timer.
  await server.untilSlept(id);
  const fetched = await renyi(["fetch-recording", "--restate", server.adminUrl, "--to", "half.json", id]);
  assert.equal(fetched.status, 0, fetched.stderr);
  assert.match(
    fetched.stderr,
    /fetched 1 call to half\.json; the journal holds no end \(the invocation is (running|suspended)\)/,
  );
  const recording = JSON.parse(readFileSync(join(work, "half.json"), "utf8")) as Recording;
  assert.equal(recording.outcome, "cancelled");
  assert.equal(recording.output, undefined);
  assert.equal(recording.recorded_at, undefined);
  assert.deepEqual(
    recording.calls.map((c) => [c.sequence, c.primitive]),
    [[1, "std.environment.get"]],
  );
  // Killed for good, its journal still holds no end: the same recording.
  const killed = await fetch(`${server.adminUrl}/invocations/${id}/kill`, { method: "PATCH" });
  assert.ok(killed.status < 300, await killed.text());
  const after = await renyi(["fetch-recording", "--restate", server.adminUrl, "--to", "killed.json", id]);
  assert.equal(after.status, 0, after.stderr);
  assert.match(after.stderr, /the journal holds no end/);
  assert.deepEqual(JSON.parse(readFileSync(join(work, "killed.json"), "utf8")).calls, recording.calls);
  // Resumed: the variable answered from the recording, the rest live.
  const resumed = await renyiIn(
    work,
    ["run", "--resume", "half.json", "--to", "resumed.json", "greet.ry"],
    { GREETING_NAME: "Bob" },
    cache,
  );
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.equal(resumed.stdout, "hello, Ada\n");
});

test("an id not of Restate's form is refused before anything is sent", async () => {
  const standIn = await adminStandIn(() => ({ status: 200, body: '{"rows":[]}' }));
  try {
    for (const id of ["inv_1'; DROP TABLE sys_journal; --", "inv_1short", "dp_138H2lHdXrw3JmMveROOE1P", ""]) {
      const answer = await renyi(["fetch-recording", "--restate", standIn.url, id === "" ? "--to=x.json" : id]);
      assert.equal(answer.status, 3, answer.stderr);
      assert.match(
        answer.stderr,
        id === "" ? /needs the id of an invocation/ : /error\[E-RT-JOURNAL\]: .* is not an invocation id/,
      );
    }
    assert.equal(standIn.queries.length, 0);
  } finally {
    standIn.server.close();
  }
  assert.deepEqual(leftBehind(), []);
});

const ID = "inv_1b7Rsdu676wR7HtX5oUb8ptrhAQ3vQetVp";

/** A journal's rows as the admin API gives them, each step's value in bytes. */
function rowsOf(values: readonly unknown[]): object[] {
  return values.flatMap((value, i) => [
    {
      index: 2 * i + 1,
      entry_type: "Command: Run",
      name: "renyi",
      entry_json: JSON.stringify({ Command: { Run: { completion_id: i + 1, name: "renyi" } } }),
    },
    {
      index: 2 * i + 2,
      entry_type: "Notification: Run",
      entry_json: JSON.stringify({
        Notification: {
          Completion: { Run: { completion_id: i + 1, result: { Success: [...Buffer.from(JSON.stringify(value))] } } },
        },
      }),
      appended_at: "2026-12-06T01:37:50.802Z",
    },
  ]);
}

/** The stand-in's answer to a query: the sizes, the status, then the rows given. */
function journalAnswer(rows: readonly object[], status = "completed") {
  return (query: string) => {
    if (query.includes("raw_length"))
      return { status: 200, body: JSON.stringify({ rows: rows.map((r) => ({ ...r, raw_length: 10 })) }) };
    if (query.includes("sys_invocation")) return { status: 200, body: JSON.stringify({ rows: [{ status }] }) };
    return { status: 200, body: JSON.stringify({ rows }) };
  };
}

const HEADER = {
  renyi: DURABLE_FORM,
  program: "greet",
  code: `sha256:${"0".repeat(64)}`,
  grant: ["console"],
  arguments: [],
  redacted: [],
  started_ms: 1,
};

const HOSTILE: readonly { name: string; answer: (query: string) => { status: number; body: string }; says: RegExp }[] =
  [
    {
      name: "garbage",
      answer: () => ({ status: 200, body: "<html>hello</html>" }),
      says: /did not answer with the rows of a journal: its answer is not JSON/,
    },
    {
      name: "an error",
      answer: () => ({ status: 500, body: '{"message":"boom"}' }),
      says: /did not answer with the rows of a journal: status 500/,
    },
    {
      name: "rows of another form",
      answer: () => ({ status: 200, body: '{"rows":[{"index":"one"}]}' }),
      says: /index and raw_length are not whole numbers/,
    },
    {
      name: "not rows",
      answer: () => ({ status: 200, body: '{"rows":{"a":1}}' }),
      says: /is not \{"rows": \[objects…\]\}/,
    },
    {
      name: "entries without their JSON",
      answer: journalAnswer([{ index: 1, entry_type: "Command: Run", entry_json: 7 }]),
      says: /entry 1 has no entry_json/,
    },
    {
      name: "no journal",
      answer: journalAnswer([], "gone"),
      says: /holds no journal of inv_.*\n {2}= hint: Restate keeps a journal for default-journal-retention/,
    },
    {
      name: "a header of another form",
      answer: journalAnswer(rowsOf([{ ...HEADER, renyi: "durable-9" }])),
      says: /its header \(entry 1\) is of the form "durable-9"; this toolchain reads durable-1/,
    },
    {
      name: "a journal of another service",
      answer: journalAnswer(rowsOf([{ hello: 1 }])),
      says: /its first step \(entry 1\) is not the header/,
    },
    {
      name: "an entry of no known kind",
      answer: journalAnswer(rowsOf([HEADER, { attempt: 1 }, { launch: true }])),
      says: /entry 5 is "launch", not an entry of the journal/,
    },
    {
      name: "a call no live call could give",
      answer: journalAnswer(
        rowsOf([
          HEADER,
          {
            calls: [
              {
                sequence: 9,
                capability: "console",
                primitive: "std.console.print",
                arguments: { text: "a" },
                outcome: { success: null },
              },
              {
                sequence: 10,
                capability: "console",
                primitive: "std.console.print",
                arguments: { text: "b" },
                outcome: { nothing: 1 },
              },
            ],
          },
        ]),
      ),
      says: /does not make a recording that reads back: call 2 \(in entry 3\)\.outcome has a field "nothing"/,
    },
    {
      name: "a step begun twice",
      answer: journalAnswer([...rowsOf([HEADER]), { ...rowsOf([HEADER])[0]!, index: 3 }]),
      says: /entry 3 begins the step 1 a second time/,
    },
    {
      name: "a step's value that is not bytes",
      answer: journalAnswer([
        ...rowsOf([HEADER]),
        {
          index: 3,
          entry_type: "Command: Run",
          name: "renyi",
          entry_json: '{"Command":{"Run":{"completion_id":2,"name":"renyi"}}}',
        },
        {
          index: 4,
          entry_type: "Notification: Run",
          entry_json: '{"Notification":{"Completion":{"Run":{"completion_id":2,"result":{"Success":[300,-1]}}}}}',
        },
      ]),
      says: /entry 4's value is not a list of bytes/,
    },
    {
      name: "an answer larger than its entries",
      answer: (query) =>
        query.includes("entry_json")
          ? { status: 200, body: JSON.stringify({ rows: [{ pad: "x".repeat(2 * 1024 * 1024) }] }) }
          : journalAnswer(rowsOf([HEADER]))(query),
      says: /its answer is more than the [\d,]+ bytes expected/,
    },
  ];

for (const hostile of HOSTILE)
  test(`an admin API that answers ${hostile.name} is refused with E-RT-JOURNAL, and no file is written`, async () => {
    const standIn = await adminStandIn(hostile.answer);
    try {
      const answer = await renyi(["fetch-recording", "--restate", standIn.url, "--to", "hostile.json", ID]);
      assert.equal(answer.status, 3, answer.stderr);
      assert.match(answer.stderr, /^error\[E-RT-JOURNAL\]: /);
      assert.match(answer.stderr, hostile.says);
      assert.doesNotMatch(answer.stderr, /at .*\.js:\d+/);
      assert.equal(existsSync(join(work, "hostile.json")), false);
      assert.deepEqual(leftBehind(), []);
    } finally {
      standIn.server.close();
    }
  });

test("an admin URL that is no http URL, or where nothing listens, is refused", async () => {
  const nothing = await freePort();
  for (const [url, says] of [
    ["file:///etc/passwd", /is not the URL of a Restate admin API: its scheme is file:/],
    ["not a url", /does not parse as a URL/],
    ["http://admin:secret@127.0.0.1:9070", /holds a user name or a password/],
    [`http://127.0.0.1:${nothing}`, /the admin API at http:\/\/127\.0\.0\.1:\d+ did not answer: ECONNREFUSED/],
  ] as const) {
    const answer = await renyi(["fetch-recording", "--restate", url, ID]);
    assert.equal(answer.status, 3, answer.stderr);
    assert.match(answer.stderr, says);
  }
  const usage = await renyi(["fetch-recording", ID]);
  assert.equal(usage.status, 3);
  assert.match(usage.stderr, /needs the admin API of the cluster: --restate/);
  const unknown = await renyi(["fetch-recording", "--restate", "http://127.0.0.1:1", "--replay", "x", ID]);
  assert.equal(unknown.status, 3);
  assert.match(unknown.stderr, /--replay/);
});

test("an admin API that does not answer in time is given up on", async () => {
  const standIn = await adminStandIn(() => undefined);
  try {
    const started = Date.now();
    const read = await readJournal(standIn.url, ID, { ...JOURNAL_BOUNDS, timeoutMs: 300 });
    assert.deepEqual(read, { ok: false, problem: "unreachable", detail: "no answer within 0.3 s" });
    assert.ok(Date.now() - started < 5000);
  } finally {
    standIn.server.closeAllConnections();
    standIn.server.close();
  }
});

/** Files left in the work folder beyond the ones the tests write on purpose (a temporary file, a half-written one). */
function leftBehind(): string[] {
  return readdirSync(work).filter((f) => f.endsWith(".tmp") || f === "hostile.json" || f === "x.json");
}

/** A node:http server on 127.0.0.1 posing as the admin API: each query answered as `answer` says (undefined: never). */
async function adminStandIn(
  answer: (query: string) => { status: number; body: string } | undefined,
): Promise<{ server: Server; url: string; queries: string[] }> {
  const queries: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = "";
    request.on("data", (d: Buffer) => (body += d.toString()));
    request.on("end", () => {
      let query = "";
      try {
        query = String((JSON.parse(body) as { query?: unknown }).query);
      } catch {
        // Not a query: answered all the same.
      }
      queries.push(query);
      const given = answer(query);
      if (given === undefined) return;
      response.writeHead(given.status, { "content-type": "application/json" });
      response.end(given.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, queries };
}
