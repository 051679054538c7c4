// `renyi mcp` against hostile requests (spec/mcp.md, "Limits and hostile
// input"): a program whose check would take minutes and gigabytes is checked
// in a worker thread and stopped at the server's limits while a ping sent
// meanwhile is answered at once; a host that passes for another is refused
// before anyone is asked to approve it; every call refused before its tool is
// reached is in the audit log; and no replay id or recording address leaves
// the recordings folder. The real command, spoken to by the SDK's own client.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ROOT } from "./golden.js";
import { spawnSync } from "node:child_process";
import { RENYI } from "./support.js";
import { wideMatch } from "./adversarial-programs.js";

let client: Client;
let stderr = "";
const recordings = mkdtempSync(join(tmpdir(), "renyi-mcp-limits-"));
/** Every question the server put to the person. */
const asked: string[] = [];

before(async () => {
  const args = [
    RENYI,
    "mcp",
    "--allow-host",
    "api.example.com",
    "--allow",
    "console",
    "--recordings",
    recordings,
    "--check-timeout",
    "2",
    "--check-memory",
    "64",
  ];
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd: ROOT, stderr: "pipe" });
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  client = new Client({ name: "renyi-tests", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: "decline" };
  });
  await client.connect(transport);
});

after(async () => {
  await client.close();
  rmSync(recordings, { recursive: true, force: true });
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const text = (result: CallToolResult): string =>
  result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

interface AuditLine {
  tool: string;
  outcome: string;
  code?: string;
  reason?: string;
  program?: string;
}

function audit(): AuditLine[] {
  return readFileSync(join(recordings, "audit.jsonl"), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as AuditLine);
}

/**
 * A match over a variant of 15,000 cases, just under the 1 MiB a request may
 * carry: checking is bounded by the source's size (spec/security.md), but a
 * source this large needs more than 64 MiB of heap to check, on any machine,
 * so the server's limits end it rather than its own speed.
 */
const WIDE =
  `${wideMatch(15_000, 15_000)}\nfunction main()\n  needs console\n  console.print("{pick(Many.C1(value: 2))}")\n` +
  `end\n`;

const GREETING = `public function main()\n  purpose: Greet.\n  needs console\n  console.print("hello")\nend\n`;

test("mcp limits: a check past the server's limits ends at them, a ping sent meanwhile is answered within 100 ms, and the next check works", async () => {
  const started = performance.now();
  const hostile = call("check", { source: WIDE });
  let ended: number | undefined;
  void hostile.then(() => (ended = performance.now()));
  await new Promise((resolve) => setTimeout(resolve, 20));
  const sent = performance.now();
  await client.ping();
  const pinged = performance.now() - sent;
  assert.ok(pinged < 100, `the ping took ${pinged.toFixed(1)} ms`);
  // The ping was answered while the check was still going.
  assert.equal(
    ended,
    undefined,
    `the hostile check ended ${((ended ?? 0) - started).toFixed(0)} ms after it was sent, before the ping`,
  );
  // Another tool, answered in its own thread while the first is busy.
  const other = await call("check", { source: GREETING });
  assert.equal(other.isError, undefined, text(other));
  assert.equal((other.structuredContent as { ok: boolean }).ok, true);
  const result = await hostile;
  const took = performance.now() - started;
  assert.equal(result.isError, true);
  assert.match(
    text(result),
    /^error\[E-CHECK-LIMIT\]: renyi mcp stopped checking the program (after 2 seconds, its time limit|when it used 64 MiB of memory)/,
  );
  assert.ok(took < 10_000, `the hostile check took ${took.toFixed(0)} ms`);
  // Its thread was ended and replaced: the next check is answered, as are grant and explain.
  const next = await call("grant", { source: GREETING });
  assert.equal(next.isError, undefined, text(next));
  assert.equal((await call("explain", { code: "E-CHECK-LIMIT" })).isError, undefined);
  const line = audit().find((l) => l.tool === "check" && l.outcome === "limit");
  assert.ok(line !== undefined, JSON.stringify(audit()));
  assert.equal(line.code, "E-CHECK-LIMIT");
  // run, replay and test check their program in the same bounded way.
  const run = await call("run", { source: WIDE });
  assert.match(text(run), /E-CHECK-LIMIT/);
});

test("mcp limits: with a small heap and a long time limit, the same check ends at the memory limit, and the server goes on", async () => {
  const folder = mkdtempSync(join(tmpdir(), "renyi-mcp-memory-"));
  const small = new Client({ name: "renyi-tests", version: "1.0.0" });
  await small.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [RENYI, "mcp", "--recordings", folder, "--check-timeout", "120", "--check-memory", "64"],
      cwd: ROOT,
      stderr: "pipe",
    }),
  );
  try {
    const result = (await small.callTool({ name: "check", arguments: { source: WIDE } })) as CallToolResult;
    assert.equal(result.isError, true);
    assert.match(
      text(result),
      /^error\[E-CHECK-LIMIT\]: renyi mcp stopped checking the program when it used 64 MiB of memory, its limit/,
    );
    const next = (await small.callTool({ name: "check", arguments: { source: GREETING } })) as CallToolResult;
    assert.equal((next.structuredContent as { ok: boolean }).ok, true, text(next));
  } finally {
    await small.close();
    rmSync(folder, { recursive: true, force: true });
  }
});

test("mcp hosts: a host with a letter of another script is refused by the checker with its punycode form, and the person is never asked about it", async () => {
  // The Cyrillic а (U+0430) in place of the Latin a: it reads as the ceiling's api.example.com.
  const source =
    `public function main()\n  purpose: Fetch.\n  needs console, network.http("api.ex\u0430mple.com")\n` +
    `  console.print("hello")\nend\n`;
  const checked = await call("check", { source });
  const diagnostics = (
    checked.structuredContent as {
      diagnostics: { code: string; message: string; hint?: string; edits?: { replacement: string }[] }[];
    }
  ).diagnostics;
  const host = diagnostics.find((d) => d.code === "E-CAP-HOST");
  assert.ok(host !== undefined, JSON.stringify(diagnostics));
  assert.match(host.message, /api\.ex\\u0430mple\.com/);
  assert.equal(host.edits?.[0]?.replacement, '"api.xn--exmple-4nf.com"');
  const ran = await call("run", { source });
  assert.equal(ran.isError, true);
  assert.match(text(ran), /does not compile[\s\S]*E-CAP-HOST/);
  assert.deepEqual(asked, []);
  // Written as the network spells it, the host is another than the ceiling's: the person is asked, and is shown ASCII.
  const spelled = await call("run", { source: source.replace("api.ex\u0430mple.com", "api.xn--exmple-4nf.com") });
  assert.equal(spelled.isError, true);
  assert.equal(asked.length, 1);
  assert.match(asked[0]!, /network\.http\("api\.xn--exmple-4nf\.com"\)/);
  assert.doesNotMatch(asked[0]!, /\P{ASCII}/u);
});

test("mcp audit: a call refused before its tool (an unknown tool, a name that is a path, arguments of the wrong shape) is a line saying refused and why", async () => {
  const before = audit().length;
  const unknown = await call("../evil", { source: GREETING });
  assert.equal(unknown.isError, true);
  const path = await call("check", { source: GREETING, name: "../evil" });
  assert.equal(path.isError, true);
  const shape = await call("grant", { source: 42 });
  assert.equal(shape.isError, true);
  const extra = await call("explain", {});
  assert.equal(extra.isError, true);
  const lines = audit().slice(before);
  assert.deepEqual(
    lines.map((l) => [l.tool, l.outcome]),
    [
      ["../evil", "refused"],
      ["check", "refused"],
      ["grant", "refused"],
      ["explain", "refused"],
    ],
  );
  assert.match(lines[0]!.reason!, /Tool \.\.\/evil not found/);
  for (const line of lines.slice(1)) assert.match(line.reason!, /Input validation error/);
  // An answered call is one line, as before: none is written twice.
  await call("explain", { code: "E-CAP-HOST" });
  assert.equal(audit().length, before + 5);
});

test("mcp replay: hostile ids (a path up, an absolute path, a NUL, a very long one) never reach outside the recordings folder", async () => {
  for (const recording of [
    "../audit",
    "../../etc/passwd",
    "/etc/passwd",
    `${recordings}/audit.jsonl`,
    "rec-0123456789ab\u0000",
    "rec-0123456789ab/..",
    "rec-0123456789ab\\..\\x",
  ]) {
    const result = await call("replay", { recording, source: GREETING });
    assert.equal(result.isError, true, recording);
    assert.match(text(result), /is not a recording's id/, recording);
    assert.doesNotMatch(text(result), /\0/);
  }
  const long = await call("replay", { recording: `rec-${"0".repeat(100_000)}`, source: GREETING });
  assert.equal(long.isError, true);
  assert.match(text(long), /Input validation error/);
  for (const uri of [
    "renyi://recordings/..%2F..%2Fetc%2Fpasswd",
    "renyi://recordings/%2Fetc%2Fpasswd",
    "renyi://recordings/rec-0123456789ab%00",
    `renyi://recordings/rec-${"0".repeat(10_000)}`,
  ]) {
    await assert.rejects(client.readResource({ uri }), /not a recording's id|not found/, uri);
  }
  assert.equal((await call("explain", { code: "E-CAP-MISSING" })).isError, undefined);
  assert.equal(stderr, "");
});

test("mcp limits: --check-timeout and --check-memory take whole numbers, and help names them", () => {
  for (const args of [
    ["--check-timeout", "0"],
    ["--check-timeout", "2.5"],
    ["--check-memory", "8"],
    ["--check-memory", "lots"],
  ]) {
    const result = spawnSync(process.execPath, [RENYI, "mcp", ...args], { encoding: "utf8", input: "" });
    assert.equal(result.status, 3, args.join(" "));
    assert.match(result.stderr, new RegExp(`${args[0]} takes a whole number`));
  }
  const help = spawnSync(process.execPath, [RENYI, "mcp", "--help"], { encoding: "utf8" });
  assert.match(help.stdout, /--check-timeout SECONDS[\s\S]*--check-memory MIB/);
});
