// `renyi mcp` (spec/mcp.md), as a client meets it: the real command started as
// a child process and spoken to over standard input and output by the
// protocol SDK's own client. One server serves every test, so that each
// refusal is also seen not to stop the next request.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ROOT } from "./golden.js";
import { RENYI } from "./support.js";

let client: Client;
let stderr = "";

before(async () => {
  const transport = new StdioClientTransport({ command: process.execPath, args: [RENYI, "mcp"], cwd: ROOT, stderr: "pipe" });
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  client = new Client({ name: "renyi-tests", version: "1.0.0" });
  await client.connect(transport);
});

after(async () => {
  await client.close();
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

interface Edit {
  title: string;
  replacement: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}
interface Diagnostic {
  code: string;
  severity: string;
  message: string;
  file: string;
  line: number;
  column: number;
  edits?: Edit[];
}

/** The source with one edit applied (lines and columns 1-based, columns in UTF-16 units). */
function applyEdit(source: string, edit: Edit): string {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === "\n") starts.push(i + 1);
  const from = starts[edit.line - 1]! + edit.column - 1;
  const to = starts[edit.endLine - 1]! + edit.endColumn - 1;
  return source.slice(0, from) + edit.replacement + source.slice(to);
}

const GREETING = `public function main(name: Text = "Ada")
  purpose: Greet someone.
  console.print("Hello, {name}")
end
`;

const GUARDED = `public function main()
  purpose: Print a greeting.
  needs console, environment("API_KEY") only to network.http("api.example.com"), network.http("api.example.com") at most 60 per minute
  console.print("hi")
end
`;

test("mcp: the server is named renyi and lists check, grant and explain with their schemas", async () => {
  assert.equal(client.getServerVersion()?.name, "renyi");
  const { tools } = await client.listTools();
  const byName = new Map(tools.map((t) => [t.name, t]));
  assert.deepEqual([...byName.keys()].sort(), ["check", "explain", "grant"]);
  for (const name of ["check", "grant"]) {
    const schema = byName.get(name)!.inputSchema as { properties: Record<string, { type?: string }>; required?: string[] };
    assert.equal(schema.properties["source"]?.type, "string", `${name}: source is a string`);
    assert.deepEqual(schema.required, ["source"], `${name}: only source is required`);
    assert.ok("modules" in schema.properties, `${name}: takes modules`);
    assert.ok(byName.get(name)!.outputSchema !== undefined, `${name}: declares its result`);
  }
  const explain = byName.get("explain")!.inputSchema as { properties: Record<string, { type?: string }>; required?: string[] };
  assert.equal(explain.properties["code"]?.type, "string");
  assert.deepEqual(explain.required, ["code"]);
});

test("mcp: check gives a diagnostic with a suggested edit, and the edited program is accepted", async () => {
  const wrong = await call("check", { source: GREETING, name: "greet" });
  assert.equal(wrong.isError, undefined, text(wrong));
  const result = wrong.structuredContent as { ok: boolean; files: string[]; diagnostics: Diagnostic[] };
  assert.equal(result.ok, false);
  assert.deepEqual(result.files, ["greet.ry"]);
  const missing = result.diagnostics.find((d) => d.code === "E-CAP-MISSING");
  assert.ok(missing !== undefined, JSON.stringify(result.diagnostics));
  assert.equal(missing.severity, "error");
  assert.equal(missing.file, "greet.ry");
  assert.deepEqual([missing.line, missing.column], [3, 3]);
  assert.match(text(wrong), /E-CAP-MISSING\] greet\.ry:3:3/);
  const edit = missing.edits?.[0];
  assert.ok(edit !== undefined, "a suggested edit");
  assert.match(edit.title, /console/);

  const fixed = await call("check", { source: applyEdit(GREETING, edit), name: "greet" });
  assert.deepEqual(fixed.structuredContent, { ok: true, files: ["greet.ry"], diagnostics: [] });
  assert.match(text(fixed), /no problems found/);
});

test("mcp: check reads the modules the entry uses", async () => {
  const helper = "public function twice(n: Int) returns Int\n  purpose: Double a number.\n  return n * 2\nend\n";
  const entry = 'use lib.helper as helper\n\npublic function main()\n  purpose: Print four.\n  needs console\n  console.print("{helper.twice(2)}")\nend\n';
  const result = await call("check", { source: entry, modules: [{ name: "lib/helper", source: helper }] });
  const content = result.structuredContent as { ok: boolean; files: string[]; diagnostics: Diagnostic[] };
  assert.equal(content.ok, true, JSON.stringify(content.diagnostics));
  assert.deepEqual(content.files.sort(), ["lib/helper.ry", "program.ry"]);

  const without = await call("check", { source: entry });
  const missing = without.structuredContent as { ok: boolean; diagnostics: Diagnostic[] };
  assert.equal(missing.ok, false);
  const first = missing.diagnostics[0]!;
  assert.deepEqual([first.code, first.line], ["E-NAME-MODULE", 1], "reported at its `use`");
});

test("mcp: grant spells out main's needs with their budget and guard, and hashes the grant", async () => {
  const result = await call("grant", { source: GUARDED });
  assert.equal(result.isError, undefined, text(result));
  const grant = result.structuredContent as { program: string; needs: { text: string; capability: string; scope?: string; budget?: object; guard?: { sinks: string[] } }[]; hash: string };
  assert.equal(grant.program, "program");
  assert.deepEqual(
    grant.needs.map((n) => n.text),
    ["console", 'environment("API_KEY") only to network.http("api.example.com")', 'network.http("api.example.com") at most 60 per minute'],
  );
  assert.deepEqual(grant.needs[1], { text: 'environment("API_KEY") only to network.http("api.example.com")', capability: "environment", scope: "API_KEY", guard: { sinks: ['network.http("api.example.com")'] } });
  assert.deepEqual(grant.needs[2]!.budget, { count: 60, unit: "minute" });
  assert.match(grant.hash, /^sha256:[0-9a-f]{64}$/);
  assert.match(text(result), /at most 60 per minute/);
  assert.match(text(result), /only to network\.http\("api\.example\.com"\)/);
  assert.ok(text(result).includes(grant.hash));

  // The same needs written in another program hash the same; other needs do not.
  const again = await call("grant", { source: GUARDED.replace('console.print("hi")', 'console.print("hello")') });
  assert.equal((again.structuredContent as { hash: string }).hash, grant.hash);
  const other = await call("grant", { source: GUARDED.replace("60 per minute", "61 per minute") });
  assert.notEqual((other.structuredContent as { hash: string }).hash, grant.hash);
});

test("mcp: grant refuses a program that does not compile, or has no main", async () => {
  const broken = await call("grant", { source: GREETING });
  assert.equal(broken.isError, true);
  assert.match(text(broken), /does not compile[\s\S]*E-CAP-MISSING/);
  const noMain = await call("grant", { source: "function helper() returns Int\n  return 1\nend\n" });
  assert.equal(noMain.isError, true, text(noMain));
  assert.match(text(noMain), /no `main`/);
});

test("mcp: explain gives a known code's entry, and names the closest code for an unknown one", async () => {
  const known = await call("explain", { code: "e-cap-missing" });
  assert.equal(known.isError, undefined, text(known));
  const entry = known.structuredContent as { code: string; title: string; explanation: string; wrong: string; right: string; when: string };
  assert.equal(entry.code, "E-CAP-MISSING");
  assert.ok(entry.title.length > 0 && entry.explanation.length > 0 && entry.wrong.length > 0 && entry.right.length > 0);
  assert.equal(entry.when, "at compile time: an error");
  assert.match(text(known), /^E-CAP-MISSING: /);

  const unknown = await call("explain", { code: "E-CAP-MISSNG" });
  assert.equal(unknown.isError, true);
  assert.match(text(unknown), /not a code of Renyi's\. Did you mean `E-CAP-MISSING`\?/);
});

test("mcp: a source over 1 MiB, one that is not text, and arguments of the wrong shape are refused, and the server goes on", async () => {
  const huge = await call("check", { source: "-- " + "x".repeat(2 * 1024 * 1024) + "\n" });
  assert.equal(huge.isError, true);
  assert.match(text(huge), /too large.*1 MiB/);

  const surrogate = await call("check", { source: 'public function main()\n  purpose: A.\n  let t be "\uD800"\nend\n' });
  assert.equal(surrogate.isError, true);
  assert.match(text(surrogate), /not text: a lone surrogate \(U\+D800\)/);

  const binary = await call("grant", { source: "\u0000\u0001\u0002ELF" });
  assert.equal(binary.isError, true);
  assert.match(text(binary), /not text: a NUL character/);

  const shape = await call("check", { source: 42 });
  assert.equal(shape.isError, true);
  assert.match(text(shape), /Input validation error/);

  const module = await call("check", { source: "", modules: [{ name: "../etc/passwd", source: "" }] });
  assert.equal(module.isError, true);

  const twice = await call("check", { source: "", name: "a", modules: [{ name: "a", source: "" }] });
  assert.equal(twice.isError, true);
  assert.match(text(twice), /given twice/);

  const tool = await call("no-such-tool", {});
  assert.equal(tool.isError, true);

  const after = await call("explain", { code: "E-RT-DIVISION" });
  assert.equal(after.isError, undefined, text(after));
  assert.equal((after.structuredContent as { code: string }).code, "E-RT-DIVISION");
  assert.equal(stderr, "");
});
