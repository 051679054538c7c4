// `renyi serve --restate` (spec/durable.md, "Serving programs"): a real
// restate-server (restate-support.ts), a real `renyi serve` child process
// registered with it, and a node:http stand-in on 127.0.0.1 that counts the
// requests the programs make. Programs are invoked through the ingress as a
// client would: their answers, main's options as JSON, hostile input, an
// idempotency key, cancellation, failures, crashes and a limit; programs that
// must not be served are refused when the command starts.

import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ROOT } from "./golden.js";
import { RestateServer } from "./restate-support.js";
import { freePort, RENYI } from "./support.js";

const RENYIC = join(ROOT, "dist", "cli", "renyic.js");
const work = mkdtempSync(join(tmpdir(), "renyi-serve-"));
const cache = join(work, "cache");

/** The stand-in: each path's requests counted; /slow answers after a second. */
const seen = new Map<string, number>();
let standIn: Server;
let port = 0;
let restate: RestateServer;

interface Serving {
  readonly child: ChildProcess;
  /** The endpoint's address, once it said where it listens; or its exit, when it never listened. */
  readonly listening: Promise<string | { status: number | null; stderr: string }>;
  readonly done: Promise<{ status: number | null; stdout: string; stderr: string }>;
}

const servings: ChildProcess[] = [];

function serve(args: readonly string[]): Serving {
  const child = spawn(process.execPath, [RENYI, "serve", ...args], {
    cwd: work,
    env: { ...process.env, RENYI_CACHE_DIR: cache },
    stdio: ["ignore", "pipe", "pipe"],
  });
  servings.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (status) => resolve({ status, stdout, stderr })),
  );
  const listening = new Promise<string | { status: number | null; stderr: string }>((resolve) => {
    child.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString();
      const uri = / on (http:\/\/127\.0\.0\.1:\d+);/.exec(stdout)?.[1];
      if (uri !== undefined) resolve(uri);
    });
    void done.then(({ status }) => resolve({ status, stderr }));
  });
  return { child, listening, done };
}

function program(name: string, source: string, folder = work): string {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${name}.ry`);
  writeFileSync(file, source);
  return file;
}

interface Answer {
  outcome: string;
  failure?: unknown;
  code?: string;
  at?: string;
  message?: string;
  output: string;
  errors: string;
  record: { outcome: string; program: string; hostCalls: unknown[] } | null;
}

async function invoke(service: string, body: unknown, options: { idempotencyKey?: string; raw?: string } = {}) {
  const answer = await restate.invoke(`${service}/run`, body, options);
  assert.equal(answer.status, 200, answer.body);
  return JSON.parse(answer.body) as Answer;
}

const HELLO = `public function main(name: Text = "world")
  purpose: Greet someone by name.
  needs console
  console.print("Hello, {name}!")
end
`;

const OPTIONS = `public function main(city: Text, days: Int, metric: Boolean = false, ratio: Float = 1.5, note: Optional<Text>, arguments: List<Text>)
  purpose: Print its options.
  needs console
  console.print("{city} {days} {metric} {ratio} {note.or_else("none")} {arguments}")
end
`;

const COUNTED = (p: number) => `public function main(path: Text)
  purpose: Fetch one page of the stand-in and print it.
  needs console, network.http("127.0.0.1:${p}")
  let page be http.get("http://127.0.0.1:${p}/{path}") otherwise return
  console.print(page.body)
end
`;

const SLEEPER = `public function main()
  purpose: Sleep long, then say so.
  needs console, time
  console.print("asleep")
  time.sleep(time.seconds(60))
  console.print("awake")
end
`;

const FAILING = `public function main() or fails with Text
  purpose: Fail.
  needs console
  console.print("before")
  fail with "no"
end
`;

const DIVIDING = `public function main()
  purpose: Divide.
  needs console
  console.print("hello")
  var x be 0
  console.print("{10 / x}")
end
`;

const SPIN = `public function main()
  purpose: Count for a long time.
  needs console
  var n be 0
  while n < 1000000
    set n to n + 1
  end
  console.print("{n}")
end
`;

const keys = join(work, "keys");

/** `renyic build` of a greeting named `name`, signed with the key `sign`: the bundle's path. */
function build(name: string, out: string, sign: string): string {
  const file = program(name, HELLO.replace("Hello", name), join(work, "src"));
  const built = spawnSync(process.execPath, [RENYIC, "build", file, "--out", out, "--sign", sign], {
    env: { ...process.env, RENYI_CACHE_DIR: cache },
  });
  assert.equal(built.status, 0, built.stderr.toString());
  return join(out, `${name}.mjs`);
}

let endpoint: Serving;
let limited: Serving;

before(async () => {
  standIn = createServer((req, res) => {
    const path = req.url ?? "/";
    seen.set(path, (seen.get(path) ?? 0) + 1);
    res.setHeader("content-type", "text/plain");
    res.end(`page ${path}`);
  });
  await new Promise<void>((resolve) => standIn.listen(0, "127.0.0.1", resolve));
  port = (standIn.address() as { port: number }).port;
  mkdirSync(keys, { recursive: true });
  for (const who of ["alice", "mallory"])
    assert.equal(spawnSync(process.execPath, [RENYIC, "keygen", "--out", join(keys, who)]).status, 0);
  const bundled = build("bundled", join(work, "b0"), join(keys, "alice.key"));
  const files = [
    program("hello", HELLO),
    program("options", OPTIONS),
    program("counted", COUNTED(port)),
    program("sleeper", SLEEPER),
    program("failing", FAILING),
    program("dividing", DIVIDING),
  ];
  const [server] = await Promise.all([
    RestateServer.start(),
    (async () => {
      endpoint = serve([
        "--restate",
        "--port",
        "0",
        "--allow",
        "console",
        "--allow",
        "time",
        "--allow-host",
        `127.0.0.1:${port}`,
        ...files,
      ]);
      limited = serve([
        "--restate",
        "--port",
        "0",
        "--allow",
        "console",
        "--allow-host",
        `127.0.0.1:${port}`,
        "--at-most",
        "network.http=2/minute",
        "--fuel",
        "5000",
        "--redact",
        "name",
        "--trust",
        join(keys, "alice.pub"),
        bundled,
        program("spin", SPIN),
        program("greet", HELLO),
        program("budgeted", COUNTED(port)),
      ]);
    })(),
  ]);
  restate = server;
  for (const one of [endpoint, limited]) {
    const uri = await one.listening;
    assert.equal(typeof uri, "string", JSON.stringify(uri));
    const registered = await restate.register(uri as string);
    assert.ok(registered.status < 300, registered.body);
  }
});

after(async () => {
  for (const child of servings) child.kill("SIGTERM");
  standIn?.close();
  await restate?.stop();
  rmSync(work, { recursive: true, force: true });
});

test("a program is invoked through the ingress, and answers with its outcome, output and execution record", async () => {
  const hello = await invoke("hello", { name: "Ada" });
  assert.equal(hello.outcome, "finished");
  assert.equal(hello.output, "Hello, Ada!\n");
  assert.equal(hello.errors, "");
  assert.equal(hello.record?.outcome, "finished");
  assert.equal(hello.record?.program, "hello");
  assert.equal((await invoke("hello", {})).output, "Hello, world!\n");
  // As `curl -d` sends it: the body is read as JSON whatever its content type says.
  const form = await fetch(`${restate.ingressUrl}/hello/run`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: '{"name": "curl"}',
  });
  assert.equal(((await form.json()) as Answer).output, "Hello, curl!\n");
});

test("a bundle signed by a trusted key is served as the program it was built from", async () => {
  const answer = await invoke("bundled", { name: "Lin" });
  assert.equal(answer.outcome, "finished", answer.errors);
  assert.equal(answer.output, "bundled, Lin!\n");
  assert.equal(answer.record?.program, "bundled");
});

test("main's options are a JSON object, each of its parameter's type", async () => {
  const all = await invoke("options", {
    city: "Paris",
    days: 3,
    metric: true,
    ratio: 2.5,
    note: "x=y --z",
    arguments: ["a", "--b"],
  });
  assert.equal(all.outcome, "finished", all.errors);
  assert.equal(all.output, 'Paris 3 true 2.5 x=y --z ["a", "--b"]\n');
  const least = await invoke("options", { city: "Oslo", days: -1, note: null });
  assert.equal(least.output, "Oslo -1 false 1.5 none []\n");
});

test("hostile input is refused with a clear message, and the endpoint goes on", async () => {
  const cases: [unknown, string | undefined, RegExp][] = [
    [undefined, "not json {", /the input is not JSON/],
    [[1, 2], undefined, /the input is a list, not an object/],
    ["Paris", undefined, /the input is the text "Paris", not an object/],
    [{ city: 3, days: 1 }, undefined, /city takes a text, not the number 3/],
    [{ city: "Paris", days: 1.5 }, undefined, /days takes a whole number, not the number 1\.5/],
    [
      { city: "Paris", days: 1, colour: "red" },
      undefined,
      /the program has no option "colour"; its options: \{"city": Text/,
    ],
    [{ days: 1 }, undefined, /the program needs the option "city" \(Text\)/],
    [{ city: "a\u0000b", days: 1 }, undefined, /NUL character/],
  ];
  for (const [body, raw, expected] of cases) {
    const answer = await invoke("options", body, raw !== undefined ? { raw } : {});
    assert.equal(answer.outcome, "refused", JSON.stringify(body ?? raw));
    assert.match(answer.message ?? "", expected);
    assert.equal(answer.record, null, "nothing ran");
  }
  // A body past the ingress's request-size limit is answered there; the endpoint is not reached, and goes on.
  // (It answers 413, or closes the connection while the body is still being sent.)
  const huge = await restate
    .invoke("hello/run", undefined, { raw: `{"name": "${"x".repeat(64 * 1024 * 1024)}"}` })
    .then(
      (answer) => answer.status,
      () => "closed",
    );
  assert.ok(huge === "closed" || (typeof huge === "number" && huge >= 400), `a 64 MiB body answered ${huge}`);
  assert.equal((await invoke("hello", { name: "again" })).output, "Hello, again!\n");
});

test("/send starts an invocation in the background, and attach gives its answer", async () => {
  const id = await restate.send("hello", { name: "later" });
  const answer = await restate.waitFor(id);
  assert.equal(answer.status, 200, answer.body);
  assert.equal((JSON.parse(answer.body) as Answer).output, "Hello, later!\n");
});

/** The values of the invocation's journaled `ctx.run`s, in journal order. */
async function journaled(id: string): Promise<Record<string, unknown>[]> {
  const rows = await restate.query(
    `SELECT entry_json FROM sys_journal WHERE id = '${id}' AND entry_type = 'Notification: Run' ORDER BY index`,
  );
  return rows.map((row) => {
    const bytes = (
      JSON.parse(String(row["entry_json"])) as {
        Notification: { Completion: { Run: { result: { Success: number[] } } } };
      }
    ).Notification.Completion.Run.result.Success;
    return JSON.parse(Buffer.from(bytes).toString("utf8")) as Record<string, unknown>;
  });
}

test("the journal holds the header, the attempt's marker, every call the run made, and its end", async () => {
  const answer = await restate.invoke("counted/run", { path: "journal" });
  assert.equal(answer.status, 200, answer.body);
  const entries = await journaled(answer.headers.get("x-restate-id")!);
  const header = entries[0] as {
    renyi: string;
    program: string;
    code: string;
    grant: string[];
    arguments: string[];
    options: unknown;
  };
  assert.equal(header.renyi, "durable-1");
  assert.equal(header.program, "counted");
  assert.deepEqual(header.grant, ["console", `network.http("127.0.0.1:${port}")`]);
  assert.deepEqual(header.arguments, ["--path=journal"]);
  assert.deepEqual(header.options, { path: "journal" });
  assert.deepEqual(entries[1], { attempt: 1 });
  const calls = entries.slice(2, -1).flatMap((e) => (e["calls"] as { primitive: string }[]).map((c) => c.primitive));
  assert.deepEqual(calls, ["std.http.get", "std.console.print"]);
  const end = entries.at(-1) as { ended: { outcome: string; stdout: string; bytes: number } };
  assert.equal(end.ended.outcome, "finished");
  assert.equal(end.ended.bytes, Buffer.byteLength("page /journal\n"));
  assert.match(end.ended.stdout, /^sha256:[0-9a-f]{64}$/);
});

test("under --redact, a program option's value is kept out of the journal, header and calls alike", async () => {
  const answer = await restate.invoke("greet/run", { name: "s3cret-value" });
  assert.equal(answer.status, 200, answer.body);
  assert.equal((JSON.parse(answer.body) as Answer).output, "Hello, s3cret-value!\n", "the program sees the value");
  const entries = await journaled(answer.headers.get("x-restate-id")!);
  assert.ok(entries.length >= 4);
  assert.deepEqual((entries[0] as { options: unknown }).options, { name: "<redacted>" });
  assert.deepEqual((entries[0] as { redacted: unknown }).redacted, ["name"]);
  assert.doesNotMatch(JSON.stringify(entries), /s3cret/);
});

test("an idempotency key runs the program once: the stand-in is called once for two requests", async () => {
  const first = await invoke("counted", { path: "idem" }, { idempotencyKey: "k-1" });
  const second = await invoke("counted", { path: "idem" }, { idempotencyKey: "k-1" });
  assert.equal(first.output, "page /idem\n");
  assert.deepEqual(second, first);
  assert.equal(seen.get("/idem"), 1);
  const other = await invoke("counted", { path: "idem" }, { idempotencyKey: "k-2" });
  assert.equal(other.output, "page /idem\n");
  assert.equal(seen.get("/idem"), 2);
});

test("a failing program answers failed with its failure; a crashing one crashed with its code and .ry place", async () => {
  const failed = await invoke("failing", {});
  assert.equal(failed.outcome, "failed");
  assert.equal(failed.failure, "no");
  assert.equal(failed.code, "E-RT-FAILED");
  assert.match(failed.at ?? "", /failing\.ry:5:\d+$/);
  assert.equal(failed.output, "before\n");
  const crashed = await invoke("dividing", {});
  assert.equal(crashed.outcome, "crashed");
  assert.equal(crashed.code, "E-RT-DIVISION");
  assert.match(crashed.at ?? "", /dividing\.ry:6:19$/);
  assert.equal(crashed.output, "hello\n");
});

test("a shared budget of renyi serve holds across invocations, through the budget object", async () => {
  const outputs: string[] = [];
  for (let i = 0; i < 3; i++) outputs.push((await invoke("budgeted", { path: "budget" })).output);
  assert.deepEqual(outputs, ["page /budget\n", "page /budget\n", ""]);
  assert.equal(seen.get("/budget"), 2, "the third run's call was refused before it was made");
});

test("a limit of renyi serve holds for each invocation", async () => {
  const spun = await invoke("spin", {});
  assert.equal(spun.outcome, "crashed");
  assert.equal(spun.code, "E-RT-FUEL");
  assert.equal(spun.output, "");
});

test("an invocation cancelled through the admin API ends its run as cancelled", async () => {
  const id = await restate.send("sleeper", {});
  // Cancelled once its run sleeps: the sleep's marker is in the journal.
  await restate.untilSlept(id);
  assert.ok((await restate.cancel(id)) < 300);
  const answer = await restate.waitFor(id, 20_000);
  assert.equal(answer.status, 200, answer.body);
  const body = JSON.parse(answer.body) as Answer;
  assert.equal(body.outcome, "cancelled");
  assert.equal(body.output, "asleep\n");
});

const RESUMED = (p: number) => `public function main()
  purpose: Fetch a page, sleep, fetch another.
  needs console, time, network.http("127.0.0.1:${p}")
  let first be http.get("http://127.0.0.1:${p}/resumed/1") otherwise return
  console.print(first.body)
  time.sleep(time.seconds(2))
  let second be http.get("http://127.0.0.1:${p}/resumed/2") otherwise return
  console.print(second.body)
end
`;

test("an endpoint killed while its run sleeps is started again, and the run resumes without a call made twice", async () => {
  const file = program("resumed", RESUMED(port));
  const at = await freePort();
  const args = [
    "--restate",
    "--port",
    String(at),
    "--allow",
    "console",
    "--allow",
    "time",
    "--allow-host",
    `127.0.0.1:${port}`,
    file,
  ];
  const first = serve(args);
  const uri = await first.listening;
  assert.equal(uri, `http://127.0.0.1:${at}`);
  assert.ok((await restate.register(uri)).status < 300);
  const id = await restate.send("resumed", {});
  await restate.untilSlept(id);
  first.child.kill("SIGKILL");
  await first.done;
  const again = serve(args);
  assert.equal(await again.listening, uri);
  const answer = JSON.parse((await restate.waitFor(id, 30_000)).body) as Answer;
  assert.equal(answer.outcome, "finished", answer.errors);
  assert.equal(answer.output, "page /resumed/1\npage /resumed/2\n");
  assert.equal(seen.get("/resumed/1"), 1, "the call the journal held was not made again");
  assert.equal(seen.get("/resumed/2"), 1);
  const attempts = (await journaled(id)).filter((e) => "attempt" in e);
  assert.ok(attempts.length >= 2, `${attempts.length} attempts`);
  again.child.kill("SIGTERM");
  assert.equal((await again.done).status, 0, "SIGTERM ends renyi serve with exit 0");
});

test("an invocation whose program was changed before its next attempt is refused with E-RT-REPLAY-CODE", async () => {
  const file = program("changed", SLEEPER.replace("Sleep long", "Sleep long, then change"));
  const at = await freePort();
  const args = ["--restate", "--port", String(at), "--allow", "console", "--allow", "time", file];
  const first = serve(args);
  const uri = (await first.listening) as string;
  assert.ok((await restate.register(uri)).status < 300);
  const id = await restate.send("changed", {});
  await restate.untilSlept(id);
  first.child.kill("SIGKILL");
  await first.done;
  writeFileSync(file, readFileSync(file, "utf8").replace('"awake"', '"changed"'));
  const again = serve(args);
  assert.equal(await again.listening, uri);
  const answer = JSON.parse((await restate.waitFor(id, 30_000)).body) as Answer;
  assert.equal(answer.outcome, "refused");
  assert.equal(answer.code, "E-RT-REPLAY-CODE");
  assert.equal(answer.record, null, "nothing ran");
  again.child.kill("SIGTERM");
  await again.done;
});

test("programs that must not be served are refused when renyi serve starts, and nothing listens", async () => {
  const outside = program("outside", COUNTED(port));
  // A bundle changed after it was built, and one signed by a key not trusted.
  const tampered = build("tampered", join(work, "b1"), join(keys, "alice.key"));
  writeFileSync(tampered, readFileSync(tampered, "utf8").replace("tampered", "Tampered"));
  const untrusted = build("untrusted", join(work, "b2"), join(keys, "mallory.key"));
  const twin = program("hello", HELLO, join(work, "twin"));
  const refused = serve([
    "--restate",
    "--port",
    "0",
    "--allow",
    "console",
    "--trust",
    join(keys, "alice.pub"),
    outside,
    tampered,
    untrusted,
    program("hello", HELLO),
    twin,
  ]);
  const listened = await refused.listening;
  assert.equal(typeof listened, "object", "it never listened");
  const { status, stderr } = await refused.done;
  assert.equal(status, 3);
  assert.match(
    stderr,
    /outside\.ry: main's grant lies outside the ceiling: main needs network\.http\("127\.0\.0\.1:\d+"\)/,
  );
  assert.match(stderr, new RegExp(`--allow-host 127\\.0\\.0\\.1:${port}`));
  assert.match(stderr, /error\[E-RT-REFUSED\]: .*tampered\.mjs: the bundle's hash does not match its manifest/);
  assert.match(stderr, /error\[E-RT-REFUSED\]: .*untrusted\.mjs: .*sign/);
  assert.match(stderr, /twin\/hello\.ry: the program hello is served already/);
  assert.match(stderr, /4 of 5 programs refused; nothing is served/);
});

test("renyi serve without --restate, or with a shared budget per run, is refused with a hint", () => {
  const plain = spawnSync(process.execPath, [RENYI, "serve", "hello.ry"], { cwd: work });
  assert.equal(plain.status, 3);
  assert.match(plain.stderr.toString(), /needs --restate: `renyi serve --restate program\.ry`/);
  const perRun = spawnSync(
    process.execPath,
    [RENYI, "serve", "--restate", "--at-most", "network.http=3/run", "hello.ry"],
    {
      cwd: work,
    },
  );
  assert.equal(perRun.status, 3);
  assert.match(perRun.stderr.toString(), /counted per second, minute, hour or day, not per run/);
});
