// Nothing guarded reaches the agent through `renyi mcp` (spec/mcp.md, "What
// the agent sees"): the person admits a secret only to one host; the agent
// writes a program that reads it and sends it there, then reads everything the
// server offers: the run's result, the recording, replays of edited programs,
// the tests, the other tools. The secret, in no encoding, is in any of them;
// and the server's own replay still answers from the sealed recording.

import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ROOT } from "./golden.js";
import { formsIn } from "./secret-forms.js";
import { RENYI, renyiIn } from "./support.js";

const SECRET = `Zq7 s3cr3t/+%"x\\ké`;
const recordings = mkdtempSync(join(tmpdir(), "renyi-mcp-guards-"));
let client: Client;
let echo: Server;
let port = 0;
/** Every text the server handed the agent, to be searched at the end as well. */
const seen: string[] = [];

before(async () => {
  // The service echoes what it was sent: the path and query, the authorization header, the body.
  echo = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      res.setHeader("content-type", "application/json");
      res.setHeader("x-echo", Buffer.from(req.headers.authorization ?? "").toString("base64"));
      res.end(JSON.stringify({ url: req.url, authorization: req.headers.authorization ?? "", body }));
    });
  });
  await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
  port = (echo.address() as AddressInfo).port;
  const env = { ...(process.env as Record<string, string>), RENYI_MCP_TIMEOUT: "30", RENYI_GUARD_SECRET: SECRET };
  const args = [
    RENYI,
    "mcp",
    "--allow",
    "console",
    "--allow",
    'environment("RENYI_GUARD_SECRET")',
    "--allow-host",
    `127.0.0.1:${port}`,
    "--recordings",
    recordings,
  ];
  client = new Client({ name: "renyi-tests", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd: ROOT, stderr: "pipe", env }));
});

after(async () => {
  await client.close();
  echo.close();
  rmSync(recordings, { recursive: true, force: true });
});

function head(guard = ` only to network.http("127.0.0.1:${port}")`): string {
  return `public function main()
  purpose: Send the key to the service it is for.
  needs console, network.http("127.0.0.1:${port}"), environment("RENYI_GUARD_SECRET")${guard}
  let key be environment.get("RENYI_GUARD_SECRET").or_else("")
`;
}

const SEND =
  (): string => `  let r be http.post("http://127.0.0.1:${port}/echo?k={key}", json.encode([key]), {"authorization": "Bearer {key}"}) otherwise crash with "refused"
  console.print("sent: {r.status}")
`;
const PROGRAM = (): string => `${head()}${SEND()}end\n`;

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  seen.push(JSON.stringify(result));
  return result;
}

function assertNoSecret(text: string, what: string): void {
  const found = formsIn(text, SECRET);
  assert.deepEqual(found, [], `${what} holds the secret: ${found.join("; ")}`);
}

let recording = "";

test("mcp guards: a run that sends a guarded secret where it may go shows it nowhere, and its recording seals it", async () => {
  const ran = await call("run", { source: PROGRAM(), name: "send" });
  const result = ran.structuredContent as { outcome: string; output: string; recording: string; effects: string[] };
  assert.equal(result.outcome, "finished", JSON.stringify(ran));
  assert.equal(result.output, "sent: 200\n");
  recording = result.recording;
  assertNoSecret(JSON.stringify(ran), "the run's result");
  // The resource shows the sealed calls as "sealed"; the file holds nothing of the secret either.
  const read = await client.readResource({ uri: `renyi://recordings/${recording}` });
  const text = JSON.stringify(read);
  seen.push(text);
  assertNoSecret(text, "the recording resource");
  const file = JSON.parse(readFileSync(join(recordings, `${recording}.recording.json`), "utf8")) as {
    environment: Record<string, string>;
    calls: { primitive: string; capability: string; arguments: unknown; outcome: unknown; sealed?: string }[];
  };
  assert.equal(file.environment["RENYI_GUARD_SECRET"], "sealed", "the variable's hash is not given either");
  const byPrimitive = new Map(file.calls.map((c) => [c.primitive, c]));
  for (const primitive of ["std.environment.get", "std.http.post"]) {
    const sealed = byPrimitive.get(primitive)!;
    assert.equal(sealed.arguments, "sealed", primitive);
    assert.equal(sealed.outcome, "sealed", primitive);
    assert.match(sealed.sealed ?? "", /^[A-Za-z0-9+/]+=*$/, primitive);
  }
  // A call whose arguments carried the secret shows its capability without the scope; what it printed is not guarded
  // data.
  assert.equal(byPrimitive.get("std.http.post")!.capability, "network.http");
  assert.deepEqual(byPrimitive.get("std.console.print")!.arguments, { text: "sent: 200" });
  // The key stays the person's: mode 0600, and not among the resources.
  assert.equal(statSync(join(recordings, "seal.key")).mode & 0o777, 0o600);
  const listed = (await client.listResources()).resources.map((r) => r.uri);
  assert.ok(!listed.some((uri) => uri.includes("seal")), listed.join(", "));
  assert.ok(readdirSync(recordings).includes("seal.key"));
});

test("mcp guards: the server's replay opens the sealed recording and runs as recorded, saying nothing of the secret", async () => {
  const replayed = await call("replay", { recording, source: PROGRAM(), name: "send" });
  const result = replayed.structuredContent as {
    outcome: string;
    output: string;
    mismatch?: string;
    effects: string[];
  };
  assert.equal(result.outcome, "finished", JSON.stringify(replayed));
  assert.equal(result.output, "sent: 200\n");
  assert.equal(result.mismatch, undefined);
  // It read the key, which its guard keeps from the console: its steps and effects are not shown to the agent.
  assert.deepEqual(result.effects, [
    "[not shown: the run decided on guarded data that its guards keep from the console]",
  ]);
  assert.equal((replayed.structuredContent as { steps: number | null }).steps, null);
  assertNoSecret(JSON.stringify(replayed), "the replay's result");
});

test("mcp guards: edited programs replayed against the sealed recording cannot show the secret", async () => {
  const edits: Record<string, { source: string; code: RegExp }> = {
    // The guard dropped: the replay is refused before anything runs.
    "the guard dropped": { source: `${head("")}  console.print(key)\nend\n`, code: /E-RT-REPLAY-GRANT/ },
    // The guard widened to the console.
    "the guard widened": {
      source: `${head(` only to network.http("127.0.0.1:${port}") or console`)}  console.print(key)\nend\n`,
      code: /E-RT-REPLAY-GRANT/,
    },
    // The guard kept, and the key printed: refused as it would be live.
    "the key printed": { source: `${head()}  console.print(key)\nend\n`, code: /E-RT-GUARD/ },
    // The key in a crash's message.
    "the key in a crash": { source: `${head()}  crash with "the key is {key}"\nend\n`, code: /E-RT-GUARD/ },
    // Another request, with the key: the mismatch's message carries it, and is refused as a crash made from guarded
    // data is.
    "another request with the key": {
      source:
        `${head()}  let r be http.post("http://127.0.0.1:${port}/echo?k={key}x", json.encode([key]), ` +
        `{"authorization": "Bearer {key}"}) otherwise crash with "refused"\n  console.print("sent: {r.status}")\n` +
        `end\n`,
      code: /E-RT-GUARD\]: how the run ended was refused/,
    },
    // Another request, without it: the mismatch shows the call made, and of the sealed entry nearest to it nothing but
    // its sequence.
    "another request without the key": {
      source:
        `${head()}  let r be http.post("http://127.0.0.1:${port}/echo?k=guess", "guess", {"authorization": "Bearer ` +
        `guess"}) otherwise crash with "refused"\n  console.print("sent: {r.status}")\nend\n`,
      code: /nearest recorded call \(sequence 2\): std\.http\.post \(sealed\)\\n +differences:\\n +arguments: not shown, the recorded call's are sealed/,
    },
    // The key's characters sent one by one: refused in the same way.
    "the key spelled out": {
      source:
        `${head()}  let r be http.get("http://127.0.0.1:${port}/echo?k={text.join(text.characters(key), " ")}") ` +
        `otherwise crash with "refused"\n  console.print("sent: {r.status}")\nend\n`,
      code: /E-RT-GUARD/,
    },
  };
  for (const [name, edit] of Object.entries(edits)) {
    const replayed = await call("replay", { recording, source: edit.source, name: "send" });
    const text = JSON.stringify(replayed);
    assert.match(text, edit.code, `${name}: ${text}`);
    assert.notEqual((replayed.structuredContent as { outcome?: string } | undefined)?.outcome, "finished", name);
    assertNoSecret(text, `the replay of "${name}"`);
  }
});

test("mcp guards: a test that shows the secret in a failed check is stopped, and its report holds nothing of it", async () => {
  const source = `test "the key is not shown" needs environment("RENYI_GUARD_SECRET") only to network.http("127.0.0.1:${port}")
  let key be environment.get("RENYI_GUARD_SECRET").or_else("")
  check key is "something else"
end

test "the key is set" needs environment("RENYI_GUARD_SECRET") only to network.http("127.0.0.1:${port}")
  check environment.get("RENYI_GUARD_SECRET").is_some()
end
`;
  const tested = await call("test", { source, name: "keys" });
  const report = tested.structuredContent as { tests: { name: string; status: string; code?: string }[] };
  // A check's verdict on the key is a decision on it: both tests end the same way, whatever their checks found.
  assert.deepEqual(
    report.tests.map((t) => [t.name, t.status]).sort(),
    [
      ["the key is not shown", "crashed"],
      ["the key is set", "crashed"],
    ],
    JSON.stringify(tested),
  );
  for (const t of report.tests) assert.equal(t.code, "E-RT-GUARD");
  assertNoSecret(JSON.stringify(tested), "the test report");
});

test("mcp guards: the other tools, and everything handed to the agent, hold nothing of the secret", async () => {
  await call("check", { source: PROGRAM(), name: "send" });
  await call("grant", { source: PROGRAM(), name: "send" });
  await call("explain", { code: "E-RT-GUARD" });
  for (const uri of (await client.listResources()).resources
    .map((r) => r.uri)
    .filter((u) => u.startsWith("renyi://recordings/"))) {
    seen.push(JSON.stringify(await client.readResource({ uri })));
  }
  assertNoSecret(seen.join("\n"), "what the server handed the agent");
  // The person, holding the key, replays the sealed recording on the command line; without it, it is refused.
  const file = join(recordings, `${recording}.recording.json`);
  const work = mkdtempSync(join(tmpdir(), "renyi-mcp-guards-cli-"));
  try {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(work, "send.ry"), PROGRAM());
    const withKey = await renyiIn(
      work,
      ["run", "--replay", file, "--seal-key", join(recordings, "seal.key"), "send.ry"],
      {},
      join(work, "cache"),
    );
    assert.equal(withKey.status, 0, withKey.stderr);
    const without = await renyiIn(work, ["run", "--replay", file, "send.ry"], {}, join(work, "cache"));
    assert.equal(without.status, 3);
    assert.match(without.stderr, /error\[E-RT-RECORDING\]: .* is refused: calls\[\d+\] is sealed/);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
