// The channels beside data and decisions (spec/runtime.md, "Decisions on guarded data",
// what remains): a program that reads the clock after deciding on a secret, counts
// what a budget refuses, ends at a place or after a number of steps chosen by the
// secret, passes or fails a test by it, or answers a server's request by it. Each was
// a whole-secret leak found by attacking the guards; each is shown to tell without the
// guard and to tell nothing with it. Real `renyi` processes, servers on 127.0.0.1.

import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, getWhenUp, renyiIn, startProgram } from "./support.js";

const SECRET = "hunter2-Zq9";
const work = mkdtempSync(join(tmpdir(), "renyi-channels-"));
after(() => rmSync(work, { recursive: true, force: true, maxRetries: 5 }));

let sink: Server;
let sinkPort = 0;
before(async () => {
  sink = createServer((_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  sinkPort = (sink.address() as { port: number }).port;
});
after(() => sink.close());

const GUARD = (guarded: boolean) =>
  `environment("SECRET")${guarded ? ` only to network.http("127.0.0.1:${sinkPort}")` : ""}`;

function run(args: readonly string[]) {
  return renyiIn(work, args, { SECRET }, join(work, "cache"));
}

function write(name: string, text: string): string {
  writeFileSync(join(work, name), text);
  return name;
}

test("the clock read after a decision on the secret carries it: a loop's length is not read back", async () => {
  const program = (guarded: boolean) => `public function main()
  purpose: Time a loop whose length is the secret's first letter.
  needs console, time, ${GUARD(guarded)}
  let s be environment.get("SECRET").or_else("")
  let started be time.now()
  var i be 0
  while i < s.length() * 20000
    set i to i + 1
  end
  let took be time.since(started, time.now()).milliseconds
  console.print("took {took} ms")
end
`;
  const plain = await run(["run", write("clock-plain.ry", program(false))]);
  assert.equal(plain.status, 0, plain.stderr);
  assert.match(plain.stdout, /^took \d+ ms\n$/);
  const guarded = await run(["run", write("clock.ry", program(true))]);
  assert.equal(guarded.status, 2, guarded.stderr);
  assert.equal(guarded.stdout, "");
  assert.match(guarded.stderr, /E-RT-GUARD/);
});

test("a budget spent by calls a decision on the secret counted: what it refuses after is gathered, not printed", async () => {
  const program = (guarded: boolean) => `public function main()
  purpose: Spend a budget by the secret's length, then count what is left.
  needs console, ${GUARD(guarded)}, network.http("127.0.0.1:${sinkPort}") at most 20 per run
  let s be environment.get("SECRET").or_else("")
  for each i in 1 to s.length()
    let r be http.get("http://127.0.0.1:${sinkPort}/tick?{s}") otherwise crash with "no tick"
  end
  var left be 0
  for each j in 1 to 20
    let r be http.get("http://127.0.0.1:${sinkPort}/probe") otherwise skip
    set left to left + 1
  end
  console.print("left {left}")
end
`;
  const plain = await run(["run", write("budget-plain.ry", program(false))]);
  assert.equal(plain.stdout, `left ${20 - SECRET.length}\n`, plain.stderr);
  const guarded = await run(["run", write("budget.ry", program(true))]);
  assert.equal(guarded.stdout, "", "the count of refusals got out");
  assert.match(guarded.stderr, /E-RT-GUARD/);
});

test("a run that ends where a decision on the secret chose shows neither the place nor its steps", async () => {
  const program = (guarded: boolean) => `public function main()
  purpose: Crash at a line the secret's length picks, after steps it counts.
  needs console, ${GUARD(guarded)}
  let n be environment.get("SECRET").or_else("").length()
  var i be 0
  while i < n * 100
    set i to i + 1
  end
  if n is 10 then crash with "ten"
  if n is 11 then crash with "eleven"
  if n is 12 then crash with "twelve"
end
`;
  const plainRun = await run(["run", "--json", write("ends-plain.ry", program(false))]);
  const plainRecord = JSON.parse(plainRun.stdout.trim().split("\n").at(-1)!) as {
    steps: number | null;
    error: { line: number | null; message: string };
  };
  assert.equal(plainRecord.error.line, 10, "without the guard the place tells the length");
  assert.ok(typeof plainRecord.steps === "number" && plainRecord.steps > 1100);
  const guardedRun = await run(["run", "--json", write("ends.ry", program(true))]);
  assert.equal(guardedRun.status, 2, guardedRun.stderr);
  const record = JSON.parse(guardedRun.stdout.trim().split("\n").at(-1)!) as {
    steps: number | null;
    error: { code: string; line: number | null; message: string };
  };
  assert.equal(record.error.code, "E-RT-GUARD");
  assert.equal(record.error.line, null);
  assert.equal(record.steps, null);
  assert.doesNotMatch(guardedRun.stderr, /eleven|:10:|:11:/);
  assert.match(guardedRun.stderr, /how the run ended was refused/);
});

test("a test's verdict on the secret is a decision: every test that read it ends the same, and one that did not passes", async () => {
  const bit = (k: number, guarded: boolean) => `test "bit ${k}" needs ${GUARD(guarded)}
  let s be environment.get("SECRET").or_else("")
  check (s.length() / ${2 ** k}) mod 2 is 0
end
`;
  const file = (guarded: boolean) =>
    [0, 1, 2, 3].map((k) => bit(k, guarded)).join("\n") +
    `
test "work of its own" needs ${GUARD(guarded)}
  check 6 * 7 is 42
end
`;
  const plain = await run(["test", write("bits-plain_test.ry", file(false))]);
  // 11 is 1011: bits 0, 1 and 3 set, so those checks fail and bit 2's passes.
  assert.match(plain.stdout, /failed +bit 0[\s\S]*failed +bit 1[\s\S]*passed +bit 2[\s\S]*failed +bit 3/);
  const guarded = await run(["test", write("bits_test.ry", file(true))]);
  for (const k of [0, 1, 2, 3])
    assert.match(guarded.stdout, new RegExp(`crashed bit ${k} [^\\n]*\\n[^\\n]*how the test ended was refused`));
  assert.match(guarded.stdout, /passed +work of its own/);
});

test("a server's handler that decides on the secret gives every request the same answer, however it ends", async () => {
  const port = await freePort();
  const program = `function answer(r: Request, s: Text) returns Response
  let prefix be r.query.get("p").or_else("")
  var spin be 0
  while s.starts_with(prefix)
    set spin to spin + 1
  end
  return server.respond(200, "no")
end

public function main() or fails with StartError
  purpose: Answer whether a prefix starts the secret, by how a request ends.
  needs console, network.socket(${port}), ${GUARD(true)}
  let s be environment.get("SECRET").or_else("")
  server.serve(${port}, function (r: Request) returns Response
    return answer(r, s)
  end, requests: Some(3)) otherwise fail
end
`;
  const started = startProgram(work, program, { env: { SECRET }, before: ["--request-fuel", "20000"] });
  const answers: string[] = [];
  for (const prefix of ["h", "x", "hu"]) answers.push(await get(port, `/?p=${prefix}`));
  await started.done;
  assert.equal(new Set(answers).size, 1, `the answers differ: ${JSON.stringify(answers)}`);
  assert.match(answers[0]!, /^500 the response was refused/);
});

async function get(port: number, path: string): Promise<string> {
  const { status, body } = await getWhenUp(port, path);
  return `${status} ${body}`;
}

// Found by a second attack, with no decision of the program's own: each got out a character or more a run.

test("a refusal decided by where the secret led is gathered: a port made of the secret is no oracle", async () => {
  const program = (guarded: boolean) => `public function main()
  purpose: Ask, for each letter, whether a port made of the secret's first letter is the allowed one.
  needs console, network.http("127.0.0.1"), ${GUARD(guarded)}
  let ch be environment.get("SECRET").or_else("").characters()[0]
  var out be ""
  for each a in "abcdefghijklmnopqrstuvwxyz".characters()
    let url be "http://127.0.0.1:{${sinkPort} + ch.replace(a, "").length()}/probe"
    let got be http.get(url) otherwise Response(status: 599, body: "", headers: {}, bytes: "".to_bytes())
    if got.status is not 599 then
      set out to out + a
    end
  end
  console.print(out)
end
`;
  const plain = await run(["run", write("port-plain.ry", program(false))]);
  assert.equal(
    plain.stdout,
    "h\n",
    "without the guard the refusals spell the letter: the allowed host is the only one up",
  );
  const guarded = await run(["run", write("port.ry", program(true))]);
  assert.equal(guarded.stdout, "", guarded.stderr);
  assert.match(guarded.stderr, /E-RT-GUARD/);
});

test("a crash the secret caused, with no decision, shows no place", async () => {
  const program = (guarded: boolean) => `public function main()
  purpose: Divide by the secret's length less a guess, at a line per guess.
  needs console, ${GUARD(guarded)}
  let n be environment.get("SECRET").or_else("").length()
${Array.from({ length: 16 }, (_, k) => `  let z${k} be 1 / (n - ${k})`).join("\n")}
end
`;
  const plain = await run(["run", write("crash-plain.ry", program(false))]);
  assert.match(
    plain.stderr,
    new RegExp(`crash-plain\\.ry:${5 + SECRET.length}:`),
    "without the guard the line tells the length",
  );
  const guarded = await run(["run", write("crash.ry", program(true))]);
  assert.equal(guarded.status, 2);
  assert.match(guarded.stderr, /how the run ended was refused/);
  // (The checker's warning about the guard points at the needs line; the run's error at nothing.)
  assert.doesNotMatch(guarded.stderr.slice(guarded.stderr.indexOf("error[E-RT-GUARD]")), /crash\.ry:\d+:/);
});

test("a server's request that crashes on the secret ends the run: one question a run, not one a request", async () => {
  const port = await freePort();
  const program = `public function main()
  purpose: Crash a request when a bit of the secret's length is 0.
  needs console, network.socket(${port}), ${GUARD(true)}
  let n be environment.get("SECRET").or_else("").length()
  server.serve(${port}, function (request: Request) returns Response
    let b be request.query.get("b").or_else("0").to_int() otherwise 0
    let z be 1 / ((n / (b + 1)) mod 2)
    return server.respond(200, "ok")
  end, requests: Some(4)) otherwise return
end
`;
  const started = startProgram(work, program, { env: { SECRET } });
  const answers: string[] = [];
  for (const b of [0, 1, 2, 3]) {
    try {
      answers.push(await get(port, `/?b=${b}`));
    } catch {
      answers.push("no answer");
    }
    if (answers.at(-1) !== "200 ok") break;
  }
  const ended = await started.done;
  // 11 / 1 mod 2 = 1, 11 / 2 mod 2 = 1, 11 / 3 mod 2 = 1, 11 / 4 mod 2 = 0: the first three answer, the fourth ends the
  // run.
  assert.deepEqual(answers, ["200 ok", "200 ok", "200 ok", "500 internal error\n"]);
  assert.equal(ended.status, 2, ended.stderr);
  assert.match(ended.stderr, /how the run ended was refused/);
});

test("the steps of a run whose library work was sized by the secret are not shown", async () => {
  const program = (guarded: boolean) => `public function main()
  purpose: Repeat a text as many times as the secret is long, squared.
  needs console, ${GUARD(guarded)}
  let n be environment.get("SECRET").or_else("").length()
  let s be "x".repeat(n * n * 1000)
  console.print("done")
end
`;
  const record = async (name: string, guarded: boolean) => {
    const ran = await run(["run", "--json", write(name, program(guarded))]);
    assert.equal(ran.status, 0, ran.stderr);
    return JSON.parse(ran.stdout.trim().split("\n").at(-1)!) as { steps: number | null };
  };
  const plain = await record("steps-plain.ry", false);
  assert.ok(typeof plain.steps === "number" && plain.steps > SECRET.length * SECRET.length * 1000, `${plain.steps}`);
  assert.equal((await record("steps.ry", true)).steps, null);
});

// Found by a third attack.

test("a header made of the secret that cannot be sent is gathered like a URL made of it", async () => {
  const program = (guarded: boolean) => `public function main()
  purpose: Ask, for each letter, whether a header made of the secret's first letter can be sent to the allowed host.
  needs console, network.http("127.0.0.1:${sinkPort}"), ${GUARD(guarded)}
  let ch be environment.get("SECRET").or_else("").characters()[0]
  var out be ""
  for each a in "abcdefghijklmnopqrstuvwxyz".characters()
    let sent be (http.get("http://127.0.0.1:${sinkPort}/h", headers: {"x-k": ch.replace(a, "\\n")}) otherwise
      when _ then Response(status: 599, body: "", headers: {}, bytes: "".to_bytes())
    end).status
    if sent is 599 then
      set out to out + a
    end
  end
  console.print(out)
end
`;
  const plain = await run(["run", write("header-plain.ry", program(false))]);
  assert.equal(plain.stdout, "h\n", plain.stderr);
  const guarded = await run(["run", write("header.ry", program(true))]);
  assert.equal(guarded.stdout, "", guarded.stderr);
  assert.match(guarded.stderr, /E-RT-GUARD/);
});

test("the clock read after work the secret sized, with no decision, carries it", async () => {
  const program = (guarded: boolean) => `public function main()
  purpose: Time a text repeated as many times as the secret is long.
  needs console, time, ${GUARD(guarded)}
  let n be environment.get("SECRET").or_else("").length()
  let started be time.now()
  let s be "x".repeat(n * 100000).reverse()
  console.print("took {time.since(started, time.now()).milliseconds} ms")
end
`;
  const plain = await run(["run", write("sized-plain.ry", program(false))]);
  assert.match(plain.stdout, /^took \d+ ms\n$/, plain.stderr);
  const guarded = await run(["run", write("sized.ry", program(true))]);
  assert.equal(guarded.stdout, "");
  assert.match(guarded.stderr, /E-RT-GUARD/);
});

test("a header that cannot be sent fails at once, however many times, and takes no connection", async () => {
  const ran = await run([
    "run",
    "--timeout",
    "20",
    write(
      "headers.ry",
      `public function main()
  purpose: Send twenty requests whose header holds a line break, then one that can go.
  needs console, network.http("127.0.0.1:${sinkPort}")
  var failed be 0
  for each i in 1 to 20
    let r be http.get("http://127.0.0.1:${sinkPort}/", headers: {"x-k": "a\\nb"}) otherwise
      when HttpError.Unreachable(url, reason) then Response(status: 0, body: reason, headers: {}, bytes: "".to_bytes())
      when _ then Response(status: 1, body: "", headers: {}, bytes: "".to_bytes())
    end
    if r.status is 0 then set failed to failed + 1
  end
  let last be http.get("http://127.0.0.1:${sinkPort}/") otherwise crash with "the last request did not go"
  console.print("{failed} failed, then {last.status}")
end
`,
    ),
  ]);
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "20 failed, then 200\n");
});
