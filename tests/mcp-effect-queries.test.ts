// The `run` tool of `renyi mcp` shows each HTTP call's query among its effects (spec/mcp.md, "run"), so that three
// requests for three pages of one path read apart; a call whose arguments carried guarded data shows neither its
// target nor its query, nor any hash of them. The real server, spoken to by the protocol SDK's own client, and a
// local service on 127.0.0.1.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
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
import { RENYI } from "./support.js";

const SECRET = "k3y-Zq7-s3cr3t";
const recordings = mkdtempSync(join(tmpdir(), "renyi-mcp-queries-"));
let client: Client;
let service: Server;
let port = 0;

before(async () => {
  service = createServer((req, res) => res.end(`page ${req.url}`));
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  port = (service.address() as AddressInfo).port;
  const env = { ...(process.env as Record<string, string>), RENYI_MCP_TIMEOUT: "30", RENYI_QUERY_SECRET: SECRET };
  const args = [
    RENYI,
    "mcp",
    "--allow",
    "console",
    "--allow",
    'environment("RENYI_QUERY_SECRET")',
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
  service.close();
  rmSync(recordings, { recursive: true, force: true });
});

interface RunShown {
  outcome: string;
  output: string;
  effects: string[];
}

async function run(source: string, name: string): Promise<{ result: RunShown; text: string }> {
  const ran = (await client.callTool({ name: "run", arguments: { source, name } })) as CallToolResult;
  const text = ran.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  return { result: ran.structuredContent as unknown as RunShown, text };
}

test("mcp run: each request's query is shown among the effects, so that three pages of one path read apart", async () => {
  const { result, text } = await run(
    `public function main() or fails with Text
  purpose: Read three pages of one list.
  needs console, network.http("127.0.0.1:${port}")
  for each i in 1 to 3
    let r be http.get("http://127.0.0.1:${port}/items?page={i}&size=10") otherwise fail with "page {i}"
    console.print(r.body)
  end
  let plain be http.get("http://127.0.0.1:${port}/items") otherwise fail with "no query"
end
`,
    "pages",
  );
  assert.equal(result.outcome, "finished", JSON.stringify(result));
  const http = result.effects.filter((e) => e.startsWith("std.http.get"));
  assert.deepEqual(
    http.map((e) => e.replace(/ \([\d.]+ ms\)$/, "")),
    [
      `std.http.get 127.0.0.1:${port}/items?page=1&size=10: ok`,
      `std.http.get 127.0.0.1:${port}/items?page=2&size=10: ok`,
      `std.http.get 127.0.0.1:${port}/items?page=3&size=10: ok`,
      `std.http.get 127.0.0.1:${port}/items: ok`,
    ],
  );
  // The text for a person says the same.
  assert.match(text, /items\?page=2&size=10/);
});

// The guard lets the key go to the console as well, so that the run is not concealed (a run that read guarded data its
// guards keep from the console shows no effects at all) and its effects are listed, the guarded call among them.
test("mcp run: a request whose query carried guarded data shows no query, no target and no hash of them", async () => {
  const { result, text } = await run(
    `public function main() or fails with Text
  purpose: Send the key where it may go, and read a public page.
  needs console, network.http("127.0.0.1:${port}"), environment("RENYI_QUERY_SECRET") only to network.http("127.0.0.1:${port}") or console
  let key be environment.get("RENYI_QUERY_SECRET")
  let sent be http.get("http://127.0.0.1:${port}/auth?key={key}") otherwise fail with "auth"
  let r be http.get("http://127.0.0.1:${port}/public?page=7") otherwise fail with "public"
  console.print("done")
end
`,
    "keyed",
  );
  assert.equal(result.outcome, "finished", JSON.stringify(result));
  const shown = JSON.stringify(result) + text;
  assert.deepEqual(formsIn(shown, SECRET), [], "the result holds the secret");
  for (const hashed of [`?key=${SECRET}`, `key=${SECRET}`, SECRET]) {
    const digest = createHash("sha256").update(hashed).digest("hex");
    assert.ok(!shown.includes(digest.slice(0, 12)), `the result holds a hash of ${hashed}`);
  }
  assert.ok(!shown.includes("/auth"), `the guarded call's target is shown: ${shown}`);
  if (result.effects.some((e) => e.startsWith("[not shown")))
    assert.fail(`the run was concealed, so the guarded call was not tested: ${JSON.stringify(result.effects)}`);
  // The call that carried the key is named by its operation alone; the public page shows its query.
  assert.ok(
    result.effects.some((e) => /^std\.http\.get: ok \(/.test(e)),
    JSON.stringify(result.effects),
  );
  assert.ok(result.effects.some((e) => e.startsWith(`std.http.get 127.0.0.1:${port}/public?page=7: ok`)));
});
