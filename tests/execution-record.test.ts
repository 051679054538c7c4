// The execution record (spec/runtime.md, "The execution record"): `renyi run
// --json` ends standard output with one line of JSON saying what ran, with
// what, what it reached and how it ended. Checked field by field for programs
// that finish, fail, crash, run out of fuel and are refused; steps against the
// fuel the program needs exactly; host calls against a loopback server, a
// replay, a bundle and a program that serves.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import fc from "fast-check";
import { ROOT } from "./golden.js";
import { RECORD_FIELDS, type ExecutionRecord } from "../cli/running/execution-record.js";
import { BUILD_ID, VERSION } from "../cli/host/version.cjs";

const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const RENYIC = join(ROOT, "dist", "cli", "renyic.js");
const work = mkdtempSync(join(tmpdir(), "renyi-record-"));
after(() => rmSync(work, { recursive: true, force: true }));
const env = { ...process.env, RENYI_CACHE_DIR: join(work, "cache"), RECORD_WORD: "hello" };

function write(name: string, text: string): string {
  writeFileSync(join(work, name), text);
  return name;
}

interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[]): Promise<Ran> {
  const child = spawn(process.execPath, [command, ...args], { cwd: work, env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr })));
}

/**
 * `renyi run --json ...`: the program's output, and the record on the last line, checked for what every record holds.
 */
async function recorded(
  args: readonly string[],
  before: readonly string[] = [],
): Promise<{ ran: Ran; output: string; record: ExecutionRecord }> {
  const ran = await run(RENYI, ["run", "--json", ...before, ...args]);
  assert.match(ran.stdout, /\n$/, "the record ends the output with a line break");
  const lines = ran.stdout.slice(0, -1).split("\n");
  const record = JSON.parse(lines.pop()!) as ExecutionRecord;
  assert.deepEqual(Object.keys(record), [...RECORD_FIELDS], "every field, in the order the format lists them");
  assert.match(record.execution, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.deepEqual(record.toolchain, { version: VERSION, build: BUILD_ID });
  assert.ok(Math.abs(Date.parse(record.started) - Date.now()) < 10 * 60_000, record.started);
  assert.ok(Number.isInteger(record.ms) && record.ms >= 0);
  assert.equal(record.exit, ran.status, "exit is the command's exit code");
  assert.equal(record.exit, { finished: 0, failed: 1, crashed: 2, refused: 3, cancelled: 130 }[record.outcome]);
  for (const hash of [record.code, record.bundle]) if (hash !== null) assert.match(hash, /^sha256:[0-9a-f]{64}$/);
  return { ran, output: lines.length === 0 ? "" : `${lines.join("\n")}\n`, record };
}

// 22 steps, counted by hand as tests/execution.test.ts counts them.
const counted = write(
  "counted.ry",
  "public function main()\n  purpose: Count to six.\n  needs console\n  var total be 0\n  for each i in 1 to 3\n" +
    '    set total to total + i\n  end\n  console.print("{total}")\nend\n',
);

test("a finished run: its hashes, grant, exact steps and host calls; the code hash is the run manifest's", async () => {
  const file = write(
    "finished.ry",
    'public function main()\n  purpose: Greet.\n  needs console, environment("RECORD_WORD")\n' +
      '  let word be environment.get("RECORD_WORD").or_else("none")\n  console.print(word)\nend\n',
  );
  const { output, record } = await recorded([file]);
  assert.equal(output, "hello\n");
  assert.equal(record.program, "finished");
  assert.equal(record.source, file);
  assert.deepEqual(record.grant, ["console", 'environment("RECORD_WORD")']);
  assert.deepEqual(
    record.hostCalls.map((c) => [c.operation, c.target, c.outcome]),
    [
      ["std.environment.get", "RECORD_WORD", "ok"],
      ["std.console.print", undefined, "ok"],
    ],
  );
  for (const call of record.hostCalls) assert.ok(typeof call.ms === "number" && call.ms >= 0);
  assert.ok(!JSON.stringify(record).includes("hello"), "no value a call gave back is in the record");
  assert.deepEqual([record.outcome, record.error, record.served], ["finished", null, null]);
  // The same sources, hashed as the run manifest hashes them.
  const manifest = await run(RENYI, ["run", "--manifest", file]);
  assert.equal(record.code, (JSON.parse(manifest.stderr) as { code: string }).code);
  const exact = await recorded([counted]);
  assert.equal(exact.record.steps, 22);
});

test("failed, crashed at a known line, out of fuel, refused at run time and refused by the compiler: outcome, exit and error", async () => {
  const failing = write(
    "failing.ry",
    'public function main() or fails with Text\n  purpose: Fail.\n  needs console\n  console.print("before")\n' +
      '  fail with "no"\nend\n',
  );
  const dividing = write(
    "dividing.ry",
    'public function main()\n  purpose: Divide.\n  needs console\n  console.print("hello")\n  var x be 0\n' +
      '  console.print("{10 / x}")\nend\n',
  );
  const mistyped = write(
    "mistyped.ry",
    'public function main()\n  purpose: Add.\n  needs console\n  console.print(1 + "a")\nend\n',
  );
  const [failed, crashed, fuel, widened, compile] = await Promise.all([
    recorded([failing]),
    recorded([dividing]),
    recorded([counted], ["--fuel", "21"]),
    recorded([dividing], ["--allow-host", "example.com"]),
    recorded([mistyped]),
  ]);
  assert.equal(failed.output, "before\n");
  assert.deepEqual(
    [failed.record.outcome, failed.record.error?.code, failed.record.error?.file, failed.record.error?.line],
    ["failed", "E-RT-FAILED", failing, 5],
  );
  assert.equal(failed.record.error!.message, "main failed with no");

  assert.equal(crashed.output, "hello\n");
  assert.deepEqual(crashed.record.error, {
    code: "E-RT-DIVISION",
    message: "10 / 0: division by zero",
    file: dividing,
    line: 6,
    column: 19,
  });
  assert.equal(crashed.record.hostCalls.length, 1);

  assert.deepEqual(
    [fuel.record.outcome, fuel.record.error?.code, fuel.record.steps, fuel.output],
    ["crashed", "E-RT-FUEL", 21, ""],
  );

  // Refused by the runtime: main's grant is not widened; nothing ran, nothing was granted.
  assert.deepEqual(
    [widened.record.outcome, widened.record.grant, widened.record.steps, widened.record.hostCalls],
    ["refused", null, 0, []],
  );
  assert.match(widened.record.error!.message, /--allow-host example.com would widen the grant/);
  assert.equal(widened.record.program, "dividing", "a program refused at run time was compiled");

  // Refused by the compiler: the first error's code and place; no program, no code.
  assert.deepEqual(
    [compile.record.outcome, compile.record.program, compile.record.code, compile.record.bundle],
    ["refused", null, null, null],
  );
  assert.deepEqual(
    { ...compile.record.error, message: "" },
    { code: "E-TYPE-OPERATOR", message: "", file: mistyped, line: 4, column: 17 },
  );
  assert.match(compile.ran.stderr, /error\[E-TYPE-OPERATOR\]/, "the diagnostics are still shown");
});

test("a command line renyi run refuses still ends with the record when --json came before the file", async () => {
  const { record } = await recorded(["--nope", counted]);
  assert.deepEqual(
    [record.outcome, record.source, record.program, record.error?.code],
    ["refused", counted, null, null],
  );
  assert.match(record.error!.message, /has no option --nope/);
});

test("steps are exact: a generated program's record says the fuel it runs on, and one step less stops it", async () => {
  let cases = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 12 }),
      fc.integer({ min: 0, max: 3 }),
      fc.boolean(),
      async (turns, prints, divide) => {
        cases++;
        const body = [`  var total be 0`, `  for each i in 1 to ${turns}`, `    set total to total + i * 2`, `  end`];
        for (let p = 0; p < prints; p++) body.push(`  console.print("{total + ${p}}")`);
        if (divide) body.push(`  console.print("{total / (total - total)}")`);
        const file = write(
          `steps${cases}.ry`,
          `public function main()\n  purpose: Count.\n  needs console\n${body.join("\n")}\nend\n`,
        );
        const { record } = await recorded([file]);
        assert.equal(record.outcome, divide ? "crashed" : "finished");
        assert.equal(record.hostCalls.length, prints);
        const steps = record.steps!;
        const [enough, short] = await Promise.all([
          run(RENYI, ["run", "--fuel", String(steps), file]),
          run(RENYI, ["run", "--fuel", String(steps - 1), file]),
        ]);
        assert.equal(enough.status, divide ? 2 : 0, enough.stderr);
        if (divide) assert.match(enough.stderr, /E-RT-DIVISION/);
        assert.equal(short.status, 2);
        assert.match(short.stderr, /E-RT-FUEL/);
      },
    ),
    { numRuns: 4 },
  );
  console.log(`execution record steps: ${cases} cases`);
});

test("an HTTP call's target is its host and path, never its query, headers or body; a failure is its case", async () => {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "x-token": "HEADER-SECRET" });
    res.end("BODY-SECRET");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  try {
    const file = write(
      "fetch.ry",
      "public function main(url: Text, down: Text)\n  purpose: Fetch.\n" +
        '  needs network.http("127.0.0.1"), console\n  let r be http.get(url) otherwise crash with "no"\n' +
        '  console.print("{r.status}")\n  let d be http.get(down) otherwise\n' +
        '    when e then return console.print("down")\n  end\nend\n',
    );
    const { output, record } = await recorded([
      file,
      "--url",
      `http://127.0.0.1:${port}/items/7?key=QUERY-SECRET#part`,
      "--down",
      "http://127.0.0.1:1/gone",
    ]);
    assert.equal(output, "200\ndown\n");
    assert.deepEqual(
      record.hostCalls.map((c) => [c.operation, c.target, c.outcome]),
      [
        ["std.http.get", `127.0.0.1:${port}/items/7`, "ok"],
        ["std.console.print", undefined, "ok"],
        ["std.http.get", "127.0.0.1:1/gone", "HttpError.Unreachable"],
        ["std.console.print", undefined, "ok"],
      ],
    );
    const text = JSON.stringify(record);
    for (const secret of ["QUERY-SECRET", "HEADER-SECRET", "BODY-SECRET", "part"])
      assert.ok(!text.includes(secret), secret);
  } finally {
    server.close();
  }
});

test("a replay's record lists the replayed calls; a bundle's names the bundle's hash and the same code; a changed bundle is refused", async () => {
  const file = write(
    "greet.ry",
    "public function main()\n  purpose: Greet.\n  needs console, environment\n" +
      '  console.print(environment.get("RECORD_WORD").or_else("none"))\nend\n',
  );
  const live = await recorded([file]);
  const made = await run(RENYI, ["record", "--to", "greet.recording.json", file]);
  assert.equal(made.status, 0, made.stderr);
  const replay = await recorded([file], ["--replay", "greet.recording.json"]);
  assert.equal(replay.output, "", "a replay performs no effect");
  assert.deepEqual(
    replay.record.hostCalls.map((c) => [c.operation, c.replayed]),
    [
      ["std.environment.get", true],
      ["std.console.print", true],
    ],
  );
  assert.deepEqual([replay.record.code, replay.record.bundle], [live.record.code, live.record.bundle]);

  const built = await run(RENYIC, ["build", file, "--out", "build"]);
  assert.equal(built.status, 0, built.stderr);
  const bundle = await recorded(["build/greet.mjs"]);
  const manifest = JSON.parse(readFileSync(join(work, "build", "greet.grant.json"), "utf8")) as {
    bundle: string;
    code: string;
  };
  assert.deepEqual(
    [bundle.output, bundle.record.code, bundle.record.bundle, bundle.record.outcome],
    ["hello\n", live.record.code, manifest.bundle, "finished"],
  );
  assert.deepEqual(
    bundle.record.hostCalls.map((c) => c.replayed),
    [undefined, undefined],
  );

  writeFileSync(
    join(work, "build", "greet.mjs"),
    `${readFileSync(join(work, "build", "greet.mjs"), "utf8")}// changed\n`,
  );
  const changed = await recorded(["build/greet.mjs"]);
  assert.deepEqual(
    [changed.record.outcome, changed.record.error?.code, changed.record.error?.line],
    ["refused", "E-RT-REFUSED", null],
  );
});

test("a program that serves: its own calls are listed, its requests counted", async () => {
  const { freePort } = await import("./support.js");
  const port = await freePort();
  const file = write(
    "serve.ry",
    `function answer(request: Request) returns Response\n  return server.respond(200, "ok")\nend\n\n` +
      `public function main() or fails with StartError\n  purpose: Serve two requests.\n` +
      `  needs network.socket(${port}), console\n  console.print("up")\n` +
      `  server.serve(${port}, answer, requests: Some(2)) otherwise fail\nend\n`,
  );
  const running = recorded([file]);
  let answered = 0;
  for (let attempt = 0; attempt < 250 && answered < 2; attempt++) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/`);
      await r.text();
      answered++;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  const { record } = await running;
  assert.equal(record.outcome, "finished");
  assert.deepEqual(record.served, { answered: 2, crashed: 0, hostCalls: 0 });
  assert.deepEqual(
    record.hostCalls.map((c) => [c.operation, c.target, c.outcome]),
    [
      ["std.console.print", undefined, "ok"],
      ["std.server.serve", String(port), "ok"],
    ],
  );
});
