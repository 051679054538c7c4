// `renyi mcp` (spec/mcp.md), as a client meets it: the real command started as
// a child process and spoken to over standard input and output by the
// protocol SDK's own client. One server serves every test, so that each
// refusal is also seen not to stop the next request.

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { judge, parseMcpArguments, type Ceiling } from "../cli/mcp/ceiling.js";
import type { GrantItem } from "../vocabulary/needs.js";
import { ROOT } from "./golden.js";
import { RENYI } from "./support.js";

let client: Client;
let stderr = "";
// The run tool's recordings go here; its runs may take 2 seconds.
const recordings = mkdtempSync(join(tmpdir(), "renyi-mcp-recordings-"));
const CEILING = [
  "--allow",
  "console",
  "--allow-host",
  "api.example.com",
  "--at-most",
  "network.http=60/minute",
  "--recordings",
  recordings,
];

before(async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [RENYI, "mcp", ...CEILING],
    cwd: ROOT,
    stderr: "pipe",
    env: { ...(process.env as Record<string, string>), RENYI_MCP_TIMEOUT: "2" },
  });
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  client = new Client({ name: "renyi-tests", version: "1.0.0" });
  await client.connect(transport);
});

after(async () => {
  await client.close();
  rmSync(recordings, { recursive: true, force: true });
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

test("mcp: the server is named renyi and lists check, grant, explain, replay, run and test with their schemas", async () => {
  assert.equal(client.getServerVersion()?.name, "renyi");
  const { tools } = await client.listTools();
  const byName = new Map(tools.map((t) => [t.name, t]));
  assert.deepEqual([...byName.keys()].sort(), ["check", "explain", "grant", "replay", "run", "test"]);
  for (const name of ["check", "grant"]) {
    const schema = byName.get(name)!.inputSchema as {
      properties: Record<string, { type?: string }>;
      required?: string[];
    };
    assert.equal(schema.properties["source"]?.type, "string", `${name}: source is a string`);
    assert.deepEqual(schema.required, ["source"], `${name}: only source is required`);
    assert.ok("modules" in schema.properties, `${name}: takes modules`);
    assert.ok(byName.get(name)!.outputSchema !== undefined, `${name}: declares its result`);
  }
  const explain = byName.get("explain")!.inputSchema as {
    properties: Record<string, { type?: string }>;
    required?: string[];
  };
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
  const entry =
    "use lib.helper as helper\n\npublic function main()\n  purpose: Print four.\n  needs console\n" +
    '  console.print("{helper.twice(2)}")\nend\n';
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
  const grant = result.structuredContent as {
    program: string;
    needs: { text: string; capability: string; scope?: string; budget?: object; guard?: { sinks: string[] } }[];
    hash: string;
  };
  assert.equal(grant.program, "program");
  assert.deepEqual(
    grant.needs.map((n) => n.text),
    [
      "console",
      'environment("API_KEY") only to network.http("api.example.com")',
      'network.http("api.example.com") at most 60 per minute',
    ],
  );
  assert.deepEqual(grant.needs[1], {
    text: 'environment("API_KEY") only to network.http("api.example.com")',
    capability: "environment",
    scope: "API_KEY",
    guard: { sinks: ['network.http("api.example.com")'] },
  });
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
  const entry = known.structuredContent as {
    code: string;
    title: string;
    explanation: string;
    wrong: string;
    right: string;
    when: string;
  };
  assert.equal(entry.code, "E-CAP-MISSING");
  assert.ok(entry.title.length > 0 && entry.explanation.length > 0 && entry.wrong.length > 0 && entry.right.length > 0);
  assert.equal(entry.when, "at compile time: an error");
  assert.match(text(known), /^E-CAP-MISSING: /);

  const unknown = await call("explain", { code: "E-CAP-MISSNG" });
  assert.equal(unknown.isError, true);
  assert.match(text(unknown), /not a code of Renyi's\. Did you mean `E-CAP-MISSING`\?/);
});

test("mcp: a source over 1 MiB, one that is not text, and arguments of the wrong shape are refused, and the server goes on", async () => {
  const huge = await call("check", { source: `-- ${"x".repeat(2 * 1024 * 1024)}\n` });
  assert.equal(huge.isError, true);
  assert.match(text(huge), /too large.*1 MiB/);

  const surrogate = await call("check", {
    source: 'public function main()\n  purpose: A.\n  let t be "\uD800"\nend\n',
  });
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

// ---- the run tool and the ceiling ----

interface RunResult {
  outcome: string;
  exit: number;
  output: string;
  outputTruncated: boolean;
  errors: string;
  error?: { code: string | null; message: string };
  steps: number;
  effects: string[];
  recording: string;
}

const ECHO = `public function main(times: Int = 1)
  purpose: Echo the first line of the input, some times over.
  needs console
  let line be console.read_line()
  for each i in 1 to times
    match line
      when Some(text) then console.print("{i}: {text}")
      when None then console.print("{i}: nothing")
    end
  end
end
`;

test("mcp run: a program within the ceiling runs, with its arguments and input, and its run is recorded", async () => {
  const result = await call("run", { source: ECHO, name: "echo", arguments: ["--times", "2"], input: "hello\n" });
  assert.equal(result.isError, undefined, text(result));
  const run = result.structuredContent as unknown as RunResult;
  assert.equal(run.outcome, "finished", run.errors);
  assert.equal(run.exit, 0);
  assert.equal(run.output, "1: hello\n2: hello\n");
  assert.equal(run.outputTruncated, false);
  assert.ok(run.steps > 0);
  assert.ok(
    run.effects.some((line) => line.startsWith("std.console.read_line")),
    run.effects.join("\n"),
  );
  assert.match(run.recording, /^rec-[0-9a-f]{12}$/);
  const file = join(recordings, `${run.recording}.recording.json`);
  assert.ok(existsSync(file), "the recording is written into the --recordings folder");
  const recording = JSON.parse(readFileSync(file, "utf8")) as { outcome: string; calls: unknown[] };
  assert.equal(recording.outcome, "finished");
  assert.ok(recording.calls.length >= 1);
  assert.match(text(result), /The run finished \(exit code 0\)/);
});

test("mcp run: a program outside the ceiling is refused, naming the flags to add, and nothing runs", async () => {
  const before = new Set(readdir());
  const source = `public function main()
  purpose: Fetch a page and print a variable.
  needs console, network.http("other.example.org"), environment("HOME")
  console.print("ran")
end
`;
  const result = await call("run", { source });
  assert.equal(result.isError, true);
  const said = text(result);
  assert.match(said, /does not lie within the ceiling/);
  assert.match(said, /--allow-host other\.example\.org/);
  assert.match(said, /--allow 'environment\("HOME"\)'/);
  assert.doesNotMatch(said, /--allow 'console'/, "console is within the ceiling");
  assert.deepEqual(readdir(), [...before], "no recording was written");
  // A budget looser than the ceiling's is outside it too.
  const looser = await call("run", {
    source: GUARDED.replace("60 per minute", "600 per minute").replace(
      `environment("API_KEY") only to network.http("api.example.com"), `,
      "",
    ),
  });
  assert.equal(looser.isError, undefined, `a looser budget is narrowed by --at-most: ${text(looser)}`);
  // A program that does not compile gets its diagnostics.
  const broken = await call("run", {
    source: 'public function main()\n  purpose: Nothing.\n  console.print("x")\nend\n',
  });
  assert.equal(broken.isError, true);
  assert.match(text(broken), /does not compile[\s\S]*E-CAP-MISSING/);
});

test("mcp run: a program that never ends crashes at the timeout with E-RT-TIMEOUT, and the server answers the next request", async () => {
  const started = performance.now();
  const result = await call("run", {
    source:
      `public function main()\n  purpose: Spin.\n  needs console\n  var i be 0\n  while true\n    set i to i + 1\n` +
      `  end\nend\n`,
  });
  const run = result.structuredContent as unknown as RunResult;
  assert.equal(run.outcome, "crashed", text(result));
  assert.equal(run.exit, 2);
  assert.equal(run.error?.code, "E-RT-TIMEOUT");
  assert.equal((run.error as { line?: number } | undefined)?.line, 6, "the place the loop had reached");
  assert.ok(performance.now() - started < 10_000);
  const next = await call("explain", { code: "E-RT-TIMEOUT" });
  assert.equal(next.isError, undefined);
});

test("mcp run: output beyond 64 KiB is truncated, and says so", async () => {
  const result = await call("run", {
    source:
      `public function main()\n  purpose: Print a lot.\n  needs console\n  for each i in 1 to 100000\n` +
      `    console.print("line {i}")\n  end\nend\n`,
  });
  const run = result.structuredContent as unknown as RunResult;
  assert.equal(run.outputTruncated, true, text(result));
  assert.ok(Buffer.byteLength(run.output) <= 64 * 1024);
  assert.ok(run.output.startsWith("line 1\nline 2\n"));
  assert.match(text(result), /output truncated at 64 KiB/);
});

// ---- the replay and test tools ----

interface ReplayResult extends Omit<RunResult, "recording" | "timeoutSeconds"> {
  mismatch?: string;
}

const TWO_LINES = `public function main(name: Text = "Ada")
  purpose: Greet twice.
  needs console
  console.print("Hello, {name}")
  console.print("Bye, {name}")
end
`;

test("mcp replay: a recorded run replays as it ran; an edited program that prints another text is a mismatch, field by field", async () => {
  const ran = await call("run", { source: TWO_LINES, name: "greet", arguments: ["--name", "Grace"] });
  const run = ran.structuredContent as unknown as RunResult;
  assert.equal(run.outcome, "finished", text(ran));

  const same = await call("replay", { recording: run.recording, source: TWO_LINES, name: "greet" });
  assert.equal(same.isError, undefined, text(same));
  const replayed = same.structuredContent as unknown as ReplayResult;
  assert.equal(replayed.outcome, "finished", text(same));
  assert.equal(replayed.exit, 0);
  assert.equal(replayed.output, run.output);
  assert.equal(replayed.mismatch, undefined);
  assert.equal(replayed.effects.length, run.effects.length);
  assert.match(text(same), /The replay against rec-[0-9a-f]{12} finished/);

  const edited = await call("replay", {
    recording: run.recording,
    source: TWO_LINES.replace("Bye, {name}", "Farewell, {name}"),
    name: "greet",
  });
  assert.equal(edited.isError, undefined, text(edited));
  // A line printed otherwise does not stop the replay: the new output is shown, and the line listed against the old.
  const differs = edited.structuredContent as unknown as ReplayResult;
  assert.equal(differs.outcome, "finished", text(edited));
  assert.equal(differs.exit, 2, text(edited));
  assert.match(differs.mismatch ?? "", /^error\[E-RT-REPLAY-DIFFERS\]/);
  assert.match(
    differs.mismatch ?? "",
    /1 console line differs from the recording:\n {6}console\.print \(call 2\): "Bye, Grace" in the recording, "Farewell, Grace" now/,
  );
  assert.equal(differs.output, "Hello, Grace\nFarewell, Grace\n");
  assert.match(text(edited), /did not go as recorded[\s\S]*Farewell, Grace/);
});

test("mcp replay: an id that is a path, or names no recording, is refused, and the server goes on", async () => {
  for (const recording of [
    "../x",
    "rec-../../x",
    "rec-0123456789ab/../../x",
    `${recordings}/rec-0123456789ab`,
    "REC-0123456789AB",
  ]) {
    const result = await call("replay", { recording, source: TWO_LINES });
    assert.equal(result.isError, true, recording);
    assert.match(text(result), /is not a recording's id/, recording);
  }
  const missing = await call("replay", { recording: "rec-000000000000", source: TWO_LINES });
  assert.equal(missing.isError, true);
  assert.match(text(missing), /no recording rec-000000000000/);
  const still = await call("explain", { code: "E-CAP-MISSING" });
  assert.equal(still.isError, undefined);
});

test("mcp test: a program's tests run, and the report counts one passed and one failed", async () => {
  const source = `${TWO_LINES}
test "arithmetic holds"
  check 1 + 1 is 2
end

test "arithmetic is wrong"
  check 1 + 1 is 3
end
`;
  const result = await call("test", { source });
  assert.equal(result.isError, undefined, text(result));
  const report = result.structuredContent as {
    tests: { name: string; status: string }[];
    summary: { passed: number; failed: number };
    exitCode: number;
  };
  assert.equal(report.summary.passed, 1, text(result));
  assert.equal(report.summary.failed, 1);
  assert.deepEqual(
    report.tests.map((t) => [t.name, t.status]),
    [
      ["arithmetic holds", "passed"],
      ["arithmetic is wrong", "failed"],
    ],
  );
  assert.equal(report.exitCode, 1);
  assert.match(text(result), /^1 passed, 1 failed/);
  assert.match(text(result), /failed arithmetic is wrong/);

  // A test runs live under its own needs: they must lie within the ceiling too.
  const wide = await call("test", {
    source: `${TWO_LINES}\ntest "reads a file" needs filesystem.read("data")\n  check 1 is 1\nend\n`,
  });
  assert.equal(wide.isError, true, text(wide));
  assert.match(
    text(wide),
    /test "reads a file": needs filesystem\.read\("data"\)[\s\S]*--allow 'filesystem\.read\("data"\)'/,
  );
});

test("mcp: unknown or malformed options are refused with exit code 3", async () => {
  const { spawnSync } = await import("node:child_process");
  for (const [args, said] of [
    [["--bogus"], /has no option --bogus/],
    [["--allow", "telepathy"], /--allow takes a capability/],
    [["--at-most", "network.http=fast"], /--at-most takes CAPABILITY=COUNT\/UNIT/],
    [["--allow-host"], /--allow-host needs a value/],
  ] as const) {
    const ran = spawnSync(process.execPath, [RENYI, "mcp", ...args], { encoding: "utf8", input: "" });
    assert.equal(ran.status, 3, ran.stderr);
    assert.match(ran.stderr, said);
  }
});

function readdir(): string[] {
  return readdirSync(recordings).sort();
}

test("mcp ceiling: covering by --allow and --allow-host, narrowing a host-less network.http, and budgets", () => {
  const ceiling = (...argv: string[]): Ceiling => {
    const parsed = parseMcpArguments(argv);
    assert.ok(!("problem" in parsed), JSON.stringify(parsed));
    return parsed.ceiling;
  };
  const http = (scope?: string, count?: number): GrantItem => ({
    path: ["network", "http"],
    ...(scope !== undefined ? { scope } : {}),
    ...(count !== undefined ? { budget: { count, unit: "minute" } } : {}),
  });
  assert.deepEqual(judge([], ceiling()), { within: true, runFlags: [], narrowed: [] });
  assert.equal(judge([{ path: ["console"] }], ceiling()).within, false);
  // A parent capability covers its children; a path scope covers what lies under it.
  assert.equal(
    judge(
      [http("a.com"), { path: ["filesystem", "read"], scope: "data/in.csv" }],
      ceiling("--allow", "network", "--allow", 'filesystem.read("data")'),
    ).within,
    true,
  );
  assert.equal(judge([http("api.a.com")], ceiling("--allow-host=*.a.com")).within, true);
  assert.deepEqual(judge([http("b.com")], ceiling("--allow-host", "a.com")), {
    within: false,
    outside: ['main needs network.http("b.com")'],
    flags: ["--allow-host b.com"],
    narrowed: [],
  });
  // network.http for any host runs narrowed to the ceiling's hosts.
  assert.deepEqual(judge([http()], ceiling("--allow-host", "a.com", "--allow-host", "b.com")), {
    within: true,
    runFlags: ["--allow-host", "a.com", "--allow-host", "b.com"],
    narrowed: ["main needs network.http for any host, which the ceiling narrows to a.com, b.com"],
  });
  assert.equal(judge([http()], ceiling()).within, false);
  // A budget as tight as the ceiling's is within; none, or a looser one, is narrowed.
  assert.deepEqual(
    judge([http("a.com", 60)], ceiling("--allow-host", "a.com", "--at-most", "network.http=60/minute")),
    { within: true, runFlags: [], narrowed: [] },
  );
  const looser = judge([http("a.com", 600)], ceiling("--allow-host", "a.com", "--at-most", "network.http=60/minute"));
  assert.deepEqual(looser.within && looser.runFlags, ["--at-most", "network.http=60/minute"]);
  const unbudgeted = judge([http("a.com")], ceiling("--allow-host", "a.com", "--at-most", "network.http=60/minute"));
  assert.deepEqual(unbudgeted.within && unbudgeted.runFlags, ["--at-most", "network.http=60/minute"]);
  assert.deepEqual(unbudgeted.narrowed, [
    'main\'s use of network.http (network.http("a.com")), which the ceiling bounds to 60 per minute in all',
  ]);
  // Budgets add up: two hosts at 60 a minute each make 120, which a ceiling of 60 bounds by narrowing the run...
  const two = judge(
    [http("a.com", 60), http("b.com", 60)],
    ceiling("--allow-host", "a.com", "--allow-host", "b.com", "--at-most", "network.http=60/minute"),
  );
  assert.deepEqual(
    [two.within, "runFlags" in two ? two.runFlags : []],
    [true, ["--at-most", "network.http=60/minute"]],
  );
  // ...and a ceiling of 100, which renyi run would refuse as wider than either budget, cannot: they lie outside.
  const wider = judge(
    [http("a.com", 60), http("b.com", 60)],
    ceiling("--allow-host", "a.com", "--allow-host", "b.com", "--at-most", "network.http=100/minute"),
  );
  assert.equal(wider.within, false);
  assert.match(
    "outside" in wider ? wider.outside.join("\n") : "",
    /at most 60 per minute and network\.http\("b\.com"\) at most 60 per minute, more than --at-most network\.http=100\/minute admits together/,
  );
  // ...unless another item's tighter budget keeps the run from being narrowed.
  const mixed = judge(
    [http("a.com", 10), http("b.com")],
    ceiling("--allow-host", "a.com", "--allow-host", "b.com", "--at-most", "network.http=60/minute"),
  );
  assert.equal(mixed.within, false);
  // An --at-most that matches nothing main needs changes nothing.
  assert.deepEqual(judge([{ path: ["console"] }], ceiling("--allow", "console", "--at-most", "filesystem=5/run")), {
    within: true,
    runFlags: [],
    narrowed: [],
  });
});

test("mcp recordings: by default each ceiling has a folder of its own, whatever the order of its flags, and no server reaches another ceiling's recordings", async () => {
  const cache = mkdtempSync(join(tmpdir(), "renyi-mcp-default-folder-"));
  const env = { ...(process.env as Record<string, string>), RENYI_MCP_TIMEOUT: "10", RENYI_CACHE_DIR: cache };
  const open = async (flags: string[]): Promise<Client> => {
    const other = new Client({ name: "renyi-tests", version: "1.0.0" });
    await other.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [RENYI, "mcp", ...flags],
        cwd: ROOT,
        stderr: "pipe",
        env,
      }),
    );
    return other;
  };
  const listed = async (other: Client): Promise<string[]> =>
    (await other.listResources()).resources.map((r) => r.uri).filter((u) => u.startsWith("renyi://recordings/"));
  const wide = await open(["--allow", "console", "--allow-host", "api.example.com", "--allow", 'environment("HOME")']);
  const narrow = await open(["--allow", "console"]);
  const same = await open(["--allow", 'environment("HOME")', "--allow", "console", "--allow-host", "API.example.com"]);
  try {
    const source = `public function main()\n  purpose: Say hello.\n  needs console\n  console.print("hello")\nend\n`;
    const ran = (await wide.callTool({ name: "run", arguments: { source } })) as CallToolResult;
    const id = (ran.structuredContent as { recording: string }).recording;
    assert.deepEqual(await listed(wide), [`renyi://recordings/${id}`]);
    assert.deepEqual(
      await listed(same),
      [`renyi://recordings/${id}`],
      "the same ceiling, its flags in another order, shares the folder",
    );
    assert.deepEqual(await listed(narrow), [], "another ceiling lists none of it");
    await assert.rejects(narrow.readResource({ uri: `renyi://recordings/${id}` }), /there is no recording/);
    const replayed = (await narrow.callTool({
      name: "replay",
      arguments: { source, recording: id },
    })) as CallToolResult;
    assert.equal(replayed.isError, true);
    assert.match(text(replayed), /there is no recording/);
    const folders = readdirSync(join(cache, "recordings")).sort();
    assert.equal(folders.length, 2, folders.join(", "));
    for (const folder of folders) assert.match(folder, /^ceiling-[0-9a-f]{16}$/);
  } finally {
    await Promise.all([wide.close(), narrow.close(), same.close()]);
    rmSync(cache, { recursive: true, force: true });
  }
});
