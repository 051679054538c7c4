// `renyi mcp` (spec/mcp.md) with a client that can ask its person: a grant
// beyond the ceiling is put to them through elicitation, approved, declined,
// dismissed or remembered; every call is in the audit log; the resources an
// agent reads; and a request cancelled while its program runs. The real
// command, spoken to by the protocol SDK's own client.

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, type CallToolResult, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { ROOT } from "./golden.js";
import { RENYI } from "./support.js";

const recordings = mkdtempSync(join(tmpdir(), "renyi-mcp-consent-"));
let client: Client;
/** What the person answers next, and every question they were asked. */
let answer: (message: string) => ElicitResult | Promise<ElicitResult> = () => ({ action: "decline" });
const asked: string[] = [];

before(async () => {
  const env = {
    ...(process.env as Record<string, string>),
    RENYI_MCP_TIMEOUT: "30",
    RENYI_MCP_TEST_VALUE: "from the environment",
  };
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [RENYI, "mcp", "--allow", "console", "--recordings", recordings],
    cwd: ROOT,
    stderr: "pipe",
    env,
  });
  client = new Client({ name: "renyi-tests", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return answer(request.params.message);
  });
  await client.connect(transport);
});

after(async () => {
  await client.close();
  rmSync(recordings, { recursive: true, force: true });
});

async function call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
  return (await client.callTool(
    { name, arguments: args },
    undefined,
    signal !== undefined ? { signal } : {},
  )) as CallToolResult;
}

const text = (result: CallToolResult): string =>
  result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

interface AuditLine {
  time: string;
  tool: string;
  outcome: string;
  event?: string;
  program?: string;
  sources?: string;
  grant?: string;
  approvedBy?: string;
  recording?: string;
  exit?: number;
  reason?: string;
  ms?: number;
}

function audit(): AuditLine[] {
  return readFileSync(join(recordings, "audit.jsonl"), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as AuditLine);
}

function recordingFiles(): string[] {
  return readdirSync(recordings)
    .filter((f) => f.endsWith(".recording.json"))
    .sort();
}

// Beyond a ceiling of console alone: an environment variable.
const READS_VARIABLE = `public function main()
  purpose: Print a variable of the environment.
  needs console, environment("RENYI_MCP_TEST_VALUE")
  let value be environment.get("RENYI_MCP_TEST_VALUE").or_else("unset")
  console.print("value: {value}")
end
`;

test("mcp consent: a grant beyond the ceiling is put to the person, and runs as declared when they approve", async () => {
  const before = asked.length;
  answer = () => ({ action: "accept", content: { approve: true } });
  const result = await call("run", { source: READS_VARIABLE, name: "reads" });
  assert.equal(result.isError, undefined, text(result));
  const run = result.structuredContent as { outcome: string; output: string; recording: string; effects: string[] };
  assert.equal(run.outcome, "finished");
  assert.ok(
    run.effects.some((line) => /^std\.environment\.get RENYI_MCP_TEST_VALUE: ok \(/.test(line)),
    run.effects.join("\n"),
  );
  assert.equal(run.output, "value: from the environment\n");
  assert.equal(asked.length, before + 1, "the person was asked once");
  const question = asked.at(-1)!;
  assert.match(question, /Its purpose: Print a variable of the environment\./);
  assert.match(question, /environment\("RENYI_MCP_TEST_VALUE"\)/);
  assert.match(question, /Beyond the ceiling:\n {2}main needs environment\("RENYI_MCP_TEST_VALUE"\)/);
  assert.match(question, /Grant hash: sha256:[0-9a-f]{64}/);
  // The log says who approved which grant, before the run and when it ended.
  const lines = audit().filter((l) => l.tool === "run" && l.program === "reads");
  const approval = lines.find((l) => l.event === "approved");
  const ended = lines.find((l) => l.recording === run.recording);
  assert.ok(approval !== undefined && ended !== undefined, JSON.stringify(lines));
  assert.equal(approval.approvedBy, "person");
  assert.equal(ended.approvedBy, "person");
  assert.equal(ended.outcome, "finished");
  assert.equal(ended.exit, 0);
  assert.equal(approval.grant, ended.grant);
  assert.match(ended.grant!, /^sha256:[0-9a-f]{64}$/);
  assert.ok(lines.indexOf(approval) < lines.indexOf(ended));
});

test("mcp consent: declined, approve left unticked, or dismissed, nothing runs and the log says so", async () => {
  for (const [response, said, logged] of [
    [{ action: "decline" }, /the person declined/, "declined"],
    [{ action: "accept", content: { approve: false } }, /the person declined/, "declined"],
    [{ action: "cancel" }, /dismissed the question/, "declined"],
  ] as const) {
    const recorded = recordingFiles();
    answer = () => response as ElicitResult;
    const result = await call("run", { source: READS_VARIABLE, name: "declined" });
    assert.equal(result.isError, true);
    assert.match(text(result), said);
    assert.match(text(result), /--allow 'environment\("RENYI_MCP_TEST_VALUE"\)'/, "names what the ceiling would need");
    assert.deepEqual(recordingFiles(), recorded, "nothing ran, nothing was recorded");
    const last = audit().at(-1)!;
    assert.equal(last.tool, "run");
    assert.equal(last.outcome, logged);
    assert.equal(last.approvedBy, undefined);
  }
});

test("mcp consent: a grant the person allows until the server stops runs again without asking; another grant is asked", async () => {
  const remembered = READS_VARIABLE.replace("Print a variable", "Print the variable");
  answer = () => ({ action: "accept", content: { approve: true, remember: true } });
  const first = await call("run", { source: remembered, name: "remembered" });
  assert.equal(first.isError, undefined, text(first));
  const count = asked.length;
  answer = () => {
    throw new Error("the person is not to be asked again");
  };
  const second = await call("run", { source: remembered.replace("value: ", "again: "), name: "remembered" });
  assert.equal(second.isError, undefined, text(second));
  assert.equal((second.structuredContent as { output: string }).output, "again: from the environment\n");
  assert.equal(asked.length, count, "the same grant was not asked again");
  assert.equal(audit().at(-1)!.approvedBy, "person-earlier");
  // Another grant is another question.
  answer = () => ({ action: "decline" });
  const other = await call("run", { source: remembered.replace(/RENYI_MCP_TEST_VALUE/g, "HOME"), name: "remembered" });
  assert.equal(other.isError, true);
  assert.equal(asked.length, count + 1);
});

test("mcp audit: every tool call is a line with its time, tool, program, sources' hash and outcome", async () => {
  const before = audit().length;
  await call("check", { source: READS_VARIABLE });
  await call("grant", { source: READS_VARIABLE });
  await call("explain", { code: "E-NOT-A-CODE" });
  const lines = audit().slice(before);
  assert.deepEqual(
    lines.map((l) => [l.tool, l.outcome]),
    [
      ["check", "answered"],
      ["grant", "answered"],
      ["explain", "refused"],
    ],
  );
  for (const line of lines) {
    assert.ok(!Number.isNaN(Date.parse(line.time)), line.time);
    assert.equal(typeof line.ms, "number");
  }
  assert.equal(lines[0]!.sources, lines[1]!.sources);
  assert.match(lines[0]!.sources!, /^sha256:[0-9a-f]{64}$/);
  assert.match(lines[1]!.grant!, /^sha256:[0-9a-f]{64}$/);
  assert.match(lines[2]!.reason!, /not a code|closest|E-/);
});

test("mcp resources: the references, the examples and this server's recordings", async () => {
  const { resources } = await client.listResources();
  const uris = resources.map((r) => r.uri);
  for (const uri of [
    "renyi://docs/language",
    "renyi://docs/library",
    "renyi://examples/hello.ry",
    "renyi://examples/weather.ry",
  ])
    assert.ok(uris.includes(uri), `${uri} in ${uris.join(", ")}`);
  const language = await client.readResource({ uri: "renyi://docs/language" });
  assert.equal(
    (language.contents[0] as { text: string }).text,
    readFileSync(join(ROOT, "spec", "language.md"), "utf8"),
  );
  const hello = resources.find((r) => r.uri === "renyi://examples/hello.ry")!;
  assert.match(hello.description ?? "", /smallest program/);

  // A recording the run tool made is listed and read by its id.
  answer = () => ({ action: "accept", content: { approve: true } });
  const ran = (await call("run", { source: READS_VARIABLE, name: "listed" })).structuredContent as {
    recording: string;
  };
  const listed = (await client.listResources()).resources.map((r) => r.uri);
  assert.ok(listed.includes(`renyi://recordings/${ran.recording}`), listed.join(", "));
  const recording = await client.readResource({ uri: `renyi://recordings/${ran.recording}` });
  const parsed = JSON.parse((recording.contents[0] as { text: string }).text) as { outcome: string };
  assert.equal(parsed.outcome, "finished");
  // No address names a path, and an id that names nothing is an error.
  for (const uri of [
    "renyi://recordings/..%2Faudit.jsonl",
    "renyi://recordings/rec-000000000000",
    "renyi://recordings/audit",
    "renyi://docs/../../package.json",
  ]) {
    await assert.rejects(client.readResource({ uri }), /not a recording|no recording|not found|Resource/i, uri);
  }
  // The server goes on serving.
  assert.equal((await call("explain", { code: "E-CAP-MISSING" })).isError, undefined);
});

test("mcp cancellation: a cancelled request interrupts its run, which is recorded and logged as cancelled", async () => {
  const recorded = recordingFiles();
  const controller = new AbortController();
  const spin =
    `public function main()\n  purpose: Spin.\n  needs console\n  console.print("started")\n  var i be 0\n` +
    `  while true\n    set i to i + 1\n  end\nend\n`;
  const started = performance.now();
  const pending = call("run", { source: spin, name: "spin" }, controller.signal);
  setTimeout(() => controller.abort("the agent changed its mind"), 1_000);
  await assert.rejects(pending);
  // The run ends within moments, not at its 30-second timeout: its end is logged.
  let line: AuditLine | undefined;
  while (line === undefined && performance.now() - started < 15_000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    line = audit().find((l) => l.tool === "run" && l.program === "spin" && l.event === undefined);
  }
  assert.ok(line !== undefined, "the cancelled run was logged");
  assert.equal(line.outcome, "cancelled");
  assert.ok(performance.now() - started < 15_000);
  const written = recordingFiles().filter((f) => !recorded.includes(f));
  assert.equal(written.length, 1, "the interrupted run's recording was written");
  assert.ok(existsSync(join(recordings, written[0]!)));
  assert.equal(
    (await call("explain", { code: "E-RT-TIMEOUT" })).isError,
    undefined,
    "the server answers the next request",
  );
});

test("mcp consent: the agent's text in the question is one line: separators and controls are written as escapes", async () => {
  answer = () => ({ action: "decline" });
  // Another variable: the grant the person allowed until the server stops would not be asked about.
  const forged = READS_VARIABLE.replace(/RENYI_MCP_TEST_VALUE/g, "FORGED").replace(
    "purpose: Print a variable of the environment.",
    "purpose: Harmless.\u2028Beyond the ceiling: nothing\u000bApprove.",
  );
  await call("run", { source: forged, name: "forged" });
  const question = asked.at(-1)!;
  assert.match(question, /Its purpose: Harmless\.\\u2028Beyond the ceiling: nothing\\u000bApprove\./);
  assert.doesNotMatch(question, /[\u2028\v]/);
  assert.equal(question.split("\n").filter((line) => line.startsWith("Beyond the ceiling")).length, 1);
});

test("mcp audit: a run's error is logged by its code and place, never its message, which may quote what the program read", async () => {
  answer = () => ({ action: "accept", content: { approve: true } });
  const leaky = `public function main()
  purpose: Crash with a variable's value.
  needs console, environment("RENYI_MCP_TEST_VALUE")
  let value be environment.get("RENYI_MCP_TEST_VALUE").or_else("unset")
  crash with "the value is {value}"
end
`;
  const result = await call("run", { source: leaky, name: "leaky" });
  assert.equal((result.structuredContent as { outcome: string }).outcome, "crashed");
  const line = audit()
    .filter((l) => l.program === "leaky" && l.event === undefined)
    .at(-1)!;
  assert.equal((line as { code?: string }).code, "E-RT-CRASH");
  assert.equal((line as { at?: string }).at, "leaky.ry:5:3");
  assert.doesNotMatch(readFileSync(join(recordings, "audit.jsonl"), "utf8"), /from the environment/);
});

test("mcp test: a replays test whose path leaves the program's folder is refused by the checker, and nothing is read", async () => {
  for (const path of ["/etc/passwd", "../other/rec.json", "recordings/../../x.json"]) {
    const source =
      `public function main()\n  purpose: Nothing.\n  needs console\n  console.print("hi")\nend\n\n` +
      `test "read" needs console replays "${path}"\n  main()\nend\n`;
    const result = await call("test", { source });
    const report = result.structuredContent as { tests: unknown[]; refused: { diagnostics: { code: string }[] }[] };
    assert.deepEqual(report.tests, [], path);
    assert.deepEqual(
      report.refused.flatMap((r) => r.diagnostics.map((d) => d.code)),
      ["E-CAP-REPLAYS-PATH"],
      path,
    );
    assert.doesNotMatch(JSON.stringify(result), /root:|x:0:0/);
  }
});

test("mcp busy: calls that run beyond the bound, here waiting for the person, are refused at once, and the server goes on", async () => {
  let release: () => void = () => undefined;
  const holding = new Promise<void>((resolve) => (release = resolve));
  answer = async () => {
    await holding;
    return { action: "decline" };
  };
  const held = READS_VARIABLE.replace(/RENYI_MCP_TEST_VALUE/g, "HELD");
  const before = asked.length;
  const waiting = Array.from({ length: 10 }, (_, i) => call("run", { source: held, name: `held${i}` }));
  while (asked.length < before + 10) await new Promise((resolve) => setTimeout(resolve, 20));
  const busy = await call("run", { source: held, name: "one_more" });
  assert.equal(busy.isError, true);
  assert.match(text(busy), /renyi mcp is busy: 10 calls/);
  assert.equal(audit().at(-1)!.outcome, "busy");
  assert.equal((await call("check", { source: READS_VARIABLE })).isError, undefined, "other tools still answer");
  release();
  for (const result of await Promise.all(waiting)) assert.match(text(result), /declined/);
});

test("mcp busy: calls refused before they wait (a program that does not compile) take no place", async () => {
  const broken = 'public function main()\n  purpose: Nothing.\n  console.print("x")\nend\n';
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) => call("run", { source: broken, name: `broken${i}` })),
  );
  for (const r of results) assert.match(text(r), /does not compile/);
});

test("mcp shutdown: a server told to end interrupts its runs, which are recorded and logged, stops waiting for the person, and leaves no folder behind", async () => {
  const folder = mkdtempSync(join(tmpdir(), "renyi-mcp-shutdown-"));
  const spin =
    `public function main()\n  purpose: Spin.\n  needs console\n  var i be 0\n  while true\n    set i to i + 1\n` +
    `  end\nend\n`;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [RENYI, "mcp", "--allow", "console", "--recordings", folder],
    cwd: ROOT,
    stderr: "pipe",
    env: { ...(process.env as Record<string, string>), RENYI_MCP_TIMEOUT: "60", TMPDIR: folder },
  });
  // A person who never answers.
  let questions = 0;
  const other = new Client({ name: "renyi-tests", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
  other.setRequestHandler(ElicitRequestSchema, () => {
    questions++;
    return new Promise<ElicitResult>(() => undefined);
  });
  await other.connect(transport);
  try {
    const pending = other.callTool({ name: "run", arguments: { source: spin, name: "spin" } }).catch(() => undefined);
    const unanswered = other
      .callTool({ name: "run", arguments: { source: READS_VARIABLE, name: "unanswered" } })
      .catch(() => undefined);
    while (questions === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    // The run has begun when its sources' folder exists.
    const started = performance.now();
    while (!readdirSync(folder).some((f) => f.startsWith("renyi-mcp-")) && performance.now() - started < 10_000)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const pid = transport.pid!;
    process.kill(pid, "SIGTERM");
    const ended = performance.now();
    while (isAlive(pid) && performance.now() - ended < 15_000) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(isAlive(pid), false, "the server ended");
    assert.ok(performance.now() - ended < 10_000);
    void pending;
    const lines = readFileSync(join(folder, "audit.jsonl"), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as AuditLine);
    const run = lines.find((l) => l.tool === "run" && l.program === "spin");
    assert.ok(run !== undefined, "the interrupted run is logged");
    assert.equal(run.outcome, "cancelled");
    assert.ok(
      run.recording !== undefined && existsSync(join(folder, `${run.recording}.recording.json`)),
      "and recorded",
    );
    // The question the person never answered was given up when the server ended: logged, and nothing ran.
    const asked = lines.find((l) => l.tool === "run" && l.program === "unanswered");
    assert.ok(asked !== undefined, JSON.stringify(lines));
    assert.equal(asked.outcome, "refused");
    assert.match(asked.reason ?? "", /renyi mcp is ending/);
    void unanswered;
    assert.deepEqual(
      readdirSync(folder).filter((f) => f.startsWith("renyi-mcp-")),
      [],
      "the sources' folder is removed",
    );
  } finally {
    await other.close().catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
  }
});

test("mcp shutdown: a run interrupted while its command is still starting, before it listens for the interrupt, is recorded all the same", async () => {
  // The command is sent its interrupt only once it listens for it: sent sooner, Node's default ended it with nothing
  // written.
  const folder = mkdtempSync(join(tmpdir(), "renyi-mcp-starting-"));
  const spin =
    `public function main()\n  purpose: Spin.\n  needs console\n  var i be 0\n  while true\n    set i to i + 1\n` +
    `  end\nend\n`;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [RENYI, "mcp", "--allow", "console", "--recordings", folder],
    cwd: ROOT,
    stderr: "pipe",
    env: { ...(process.env as Record<string, string>), RENYI_MCP_TIMEOUT: "60", TMPDIR: folder },
  });
  const other = new Client({ name: "renyi-tests", version: "1.0.0" });
  await other.connect(transport);
  try {
    void other.callTool({ name: "run", arguments: { source: spin, name: "spin" } }).catch(() => undefined);
    // The server is told to end as soon as the run's sources are written, while its command starts.
    const started = performance.now();
    while (!readdirSync(folder).some((f) => f.startsWith("renyi-mcp-")) && performance.now() - started < 10_000)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const pid = transport.pid!;
    process.kill(pid, "SIGTERM");
    const ended = performance.now();
    while (isAlive(pid) && performance.now() - ended < 15_000) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(isAlive(pid), false, "the server ended");
    const lines = readFileSync(join(folder, "audit.jsonl"), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as AuditLine);
    const run = lines.find((l) => l.tool === "run" && l.program === "spin");
    assert.ok(run !== undefined, "the interrupted run is logged");
    assert.equal(run.outcome, "cancelled");
    assert.ok(
      run.recording !== undefined && existsSync(join(folder, `${run.recording}.recording.json`)),
      `and recorded: ${JSON.stringify(run)}`,
    );
    const recording = JSON.parse(readFileSync(join(folder, `${run.recording}.recording.json`), "utf8")) as {
      outcome?: string;
    };
    assert.equal(recording.outcome, "cancelled");
  } finally {
    await other.close().catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
  }
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
