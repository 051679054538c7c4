// A program's server against hostile requests, over loopback: one request's
// crash, loop, wait or unsendable response answers that request 500 and the
// server goes on; each request has its own fuel and time, exactly, however
// requests interleave; the final report counts the crashed requests.

import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { request as httpRequest } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { ROOT } from "./golden.js";
import { freePort } from "./support.js";

const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const work = mkdtempSync(join(tmpdir(), "renyi-server-"));
after(() => rmSync(work, { recursive: true, force: true }));

// A test that fails before it stops its server would leave the program running, and
// this file would never end: whatever is still running when the tests are done is killed.
const running = new Set<ChildProcess>();
after(() => {
  for (const child of running) child.kill("SIGKILL");
});

function start(source: string, renyiOptions: string[], ...args: string[]) {
  const file = join(work, `server${Math.random().toString(36).slice(2)}.ry`);
  writeFileSync(file, source);
  const child = spawn(process.execPath, [RENYI, "run", ...renyiOptions, file, ...args], {
    cwd: work,
    env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") },
  });
  running.add(child);
  child.on("exit", () => running.delete(child));
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("exit", (status) => resolve({ status, stdout, stderr })),
  );
  return { child, done, file, stderr: () => stderr };
}

/** How long a request may go without a byte either way before it fails: no request can hang the file. */
const QUIET_MS = 15_000;

/** One request on a fresh connection: status and body. */
function get(
  port: number,
  path: string,
  body?: string,
  expectContinue = false,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const headers = expectContinue ? { expect: "100-continue", "content-length": Buffer.byteLength(body ?? "") } : {};
    const req = httpRequest(
      { host: "127.0.0.1", port, path, method: body === undefined ? "GET" : "POST", agent: false, headers },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, body: text, headers: res.headers }));
        // Node reports a response cut short (the connection closed mid-body) only to an 'error' listener.
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.setTimeout(QUIET_MS, () => req.destroy(new Error(`${path}: nothing came or went for ${QUIET_MS} ms`)));
    // Asking first, the body is sent only if the server says to go on.
    if (expectContinue) req.on("continue", () => req.end(body));
    else req.end(body);
  });
}

async function whenUp(port: number): Promise<void> {
  for (let attempt = 0; attempt < 250; attempt++) {
    try {
      await get(port, "/up");
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  throw new Error("the program's server did not start");
}

async function stopped(program: ReturnType<typeof start>) {
  program.child.kill("SIGINT");
  return program.done;
}

test("a handler that crashes on one input answers that request 500 and the server goes on; the report counts it", async () => {
  const port = await freePort();
  const program = start(
    `public function main(port: Int) or fails with StartError
  purpose: Divide by the number asked for.
  needs network.socket
  server.serve(port, function (request: Request) returns Response
    let n be request.query.get("n").or_else("1").to_int() otherwise 1
    return server.respond(200, "{100 / n}")
  end) otherwise fail
end
`,
    [],
    "--port",
    String(port),
  );
  await whenUp(port);
  const first = await get(port, "/?n=4");
  assert.deepEqual([first.status, first.body], [200, "25"]);
  const crashed = await get(port, "/?n=0&secret=hunter2");
  assert.equal(crashed.status, 500);
  assert.equal(crashed.body, "internal error\n");
  // Every later request is still answered.
  for (const n of [5, 0, 10]) assert.equal((await get(port, `/?n=${n}`)).status, n === 0 ? 500 : 200);
  assert.equal((await get(port, "/?n=50")).body, "2");
  const result = await stopped(program);
  assert.equal(result.status, 130, result.stderr);
  assert.match(result.stderr, /error\[E-RT-DIVISION\]: 100 \/ 0: division by zero\n  --> .*server\w+\.ry:6:34\n/);
  assert.match(result.stderr, /the request was answered 500 and the server went on/);
  assert.doesNotMatch(result.stderr, /hunter2|E-RT-INTERNAL|at .*\.js/);
  // Interrupted where main waits on its server: at the serve call.
  assert.match(
    result.stderr,
    /served 7 requests, 2 of them crashed\ncancelled: interrupted\n {2}--> [^\n]*server\w+\.ry:4:3, in `main` of module `server\w+`\n$/,
  );
});

test("each request has its own fuel, exactly, however requests interleave; handler steps are not the run's", async () => {
  const port = await freePort();
  // Each request takes about 2,500 steps between 20 awaits; 12 at once take 30,000,
  // far more than one request's 8,000 or the run's 2,000.
  const program = start(
    `public function main(port: Int) or fails with StartError
  purpose: Count between sleeps.
  needs network.socket, time
  server.serve(port, function (request: Request) returns Response
    needs time
    let turns be request.query.get("turns").or_else("20").to_int() otherwise 20
    var total be 0
    for each i in 1 to turns
      time.sleep(time.milliseconds(1))
      for each j in 1 to 30
        set total to total + j
      end
    end
    return server.respond(200, "{total}")
  end) otherwise fail
end
`,
    ["--fuel", "2000", "--request-fuel", "8000"],
    "--port",
    String(port),
  );
  await whenUp(port);
  const answers = await Promise.all(Array.from({ length: 12 }, () => get(port, "/?turns=20")));
  assert.deepEqual(
    answers.map((a) => `${a.status} ${a.body}`),
    Array(12).fill("200 9300"),
  );
  // One request that alone needs more than its fuel is stopped, while others go on beside it.
  const [greedy, ...modest] = await Promise.all([
    get(port, "/?turns=200"),
    ...Array.from({ length: 4 }, () => get(port, "/?turns=20")),
  ]);
  assert.equal(greedy!.status, 500);
  assert.deepEqual(
    modest.map((a) => a.status),
    [200, 200, 200, 200],
  );
  const result = await stopped(program);
  assert.equal(result.status, 130, result.stderr);
  assert.match(
    result.stderr,
    /error\[E-RT-FUEL\]: the request used all of its 8,000 steps of fuel \(--request-fuel N gives more\)\n  --> /,
  );
  assert.match(result.stderr, /served 18 requests, 1 of them crashed/);
});

test("a handler that loops or waits past its time is stopped with E-RT-LIMIT-TIME and answered 500", async () => {
  const port = await freePort();
  const program = start(
    `public function main(port: Int) or fails with StartError
  purpose: Loop or wait when asked to.
  needs network.socket, time
  server.serve(port, function (request: Request) returns Response
    needs time
    if request.path is "/wait" then
      time.sleep(time.seconds(600))
    end
    if request.path is "/loop" then
      var i be 0
      while true
        set i to i + 1
      end
    end
    return server.respond(200, "ok")
  end) otherwise fail
end
`,
    ["--request-timeout", "1", "--request-fuel", "100000000000"],
    "--port",
    String(port),
  );
  await whenUp(port);
  const [waited, looped] = await Promise.all([get(port, "/wait"), get(port, "/loop")]);
  assert.equal(waited.status, 500);
  assert.equal(looped.status, 500);
  assert.equal((await get(port, "/")).body, "ok");
  const result = await stopped(program);
  assert.equal(result.status, 130, result.stderr);
  const limits =
    result.stderr.match(
      /error\[E-RT-LIMIT-TIME\]: the request was not answered within its 1 s \(--request-timeout SECONDS allows more\)\n  --> [^\n]*:(\d+):\d+/g,
    ) ?? [];
  assert.equal(limits.length, 2, result.stderr);
  // The loop is stopped where it runs; the wait is reported at the serve it came through.
  assert.deepEqual(
    limits.map((l) => Number(/:(\d+):\d+$/.exec(l)![1])).sort((a, b) => a - b),
    [4, 12],
  );
  assert.match(result.stderr, /served 4 requests, 2 of them crashed/);
});

test("a response that cannot be sent (a status outside 200..599, a header that would split it) answers 500 with E-RT-RESPONSE", async () => {
  const port = await freePort();
  const program = start(
    `public function main(port: Int) or fails with StartError
  purpose: Answer with what the request asks for.
  needs network.socket
  server.serve(port, function (request: Request) returns Response
    let status be request.query.get("status").or_else("200").to_int() otherwise 200
    let name be request.query.get("name").or_else("x-echo")
    let value be request.query.get("value").or_else("")
    return server.respond(status, "body", {name: value})
  end) otherwise fail
end
`,
    [],
    "--port",
    String(port),
  );
  await whenUp(port);
  const bad = [
    "status=99",
    "status=600",
    "status=-1",
    "status=1000",
    "value=a%0d%0aset-cookie:%20x=1",
    "value=a%0ab",
    "value=a%00b",
    "name=bad%20name",
    "name=x%0d%0ay",
    "name=",
    "name=content-length&value=1",
    "name=transfer-encoding&value=chunked",
    "value=%E2%82%AC",
  ];
  for (const query of bad) {
    const answer = await get(port, `/?${query}`);
    assert.equal(answer.status, 500, query);
    assert.equal(answer.body, "internal error\n", query);
    assert.equal(answer.headers["set-cookie"], undefined, query);
  }
  const fine = await get(port, "/?status=201&value=caf%C3%A9%09ok");
  assert.equal(fine.status, 201);
  assert.equal(fine.headers["x-echo"], Buffer.from("café\tok", "latin1").toString("latin1"));
  const result = await stopped(program);
  assert.equal(result.status, 130, result.stderr);
  assert.equal((result.stderr.match(/error\[E-RT-RESPONSE\]/g) ?? []).length, bad.length, result.stderr);
  assert.match(
    result.stderr,
    /error\[E-RT-RESPONSE\]: the handler's response has status 99, outside 200 to 599\n  --> [^\n]*:4:3\n/,
  );
  assert.doesNotMatch(result.stderr, /E-RT-INTERNAL/);
});

test("a port outside 0..65535 is StartError.InvalidPort; a body over 10 MiB is answered 413; an explicit --timeout still stops a server", async () => {
  for (const port of [-1, 65536, 70000]) {
    const program = start(
      `public function main(port: Int)
  purpose: Serve on a port that cannot be.
  needs console, network.socket
  server.serve(port, (request: Request) => server.respond(200, "x")) otherwise
    when StartError.InvalidPort(p) then console.print("invalid port: {p}")
    when _ then console.print("other")
  end
end
`,
      [],
      "--port",
      String(port),
    );
    const result = await program.done;
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, `invalid port: ${port}\n`);
  }
  const port = await freePort();
  const program = start(
    `public function main(port: Int) or fails with StartError
  purpose: Answer with the body's length.
  needs network.socket
  server.serve(port, (request: Request) => server.respond(200, "{request.body.length()}")) otherwise fail
end
`,
    ["--timeout", "3"],
    "--port",
    String(port),
  );
  await whenUp(port);
  assert.equal((await get(port, "/", "x".repeat(11 * 1024 * 1024), true)).status, 413);
  // Sent without asking first, the body is still arriving when the 413 is: it reaches the client all the same.
  assert.equal((await get(port, "/", "x".repeat(11 * 1024 * 1024))).status, 413);
  assert.equal((await get(port, "/", "x".repeat(1024 * 1024), true)).body, String(1024 * 1024));
  assert.equal((await get(port, "/", "abc")).body, "3");
  const result = await program.done;
  assert.equal(result.status, 2, result.stderr);
  assert.match(
    result.stderr,
    /served 5 requests, 0 of them crashed\nerror\[E-RT-TIMEOUT\]: the run reached its time limit of 3 s \(--timeout SECONDS allows more\)\n/,
  );
});

test("property: a response the server accepts is one Node sends, and none with CR, LF or NUL in a header is accepted", async () => {
  const fc = (await import("fast-check")).default;
  const { validateHeaderName, validateHeaderValue } = await import("node:http");
  const { responseProblem } = await import("../rtlib/lib/server.js");
  const { RMap } = await import("../rtlib/values.js");
  const char = fc.oneof(
    fc.constantFrom("\r", "\n", "\0", "\t", " ", ":", "é", "€", "\x7f", "\x01", "😀"),
    fc.string({ minLength: 1, maxLength: 1 }),
  );
  const text = fc.array(char, { maxLength: 8 }).map((cs) => cs.join(""));
  let cases = 0;
  fc.assert(
    fc.property(fc.integer({ min: -5, max: 1100 }), text, text, (status, name, value) => {
      cases++;
      const headers = new RMap();
      headers.setInPlace(name, value);
      const problem = responseProblem({ status, headers, body: "", bytes: new Uint8Array() });
      if (problem === undefined) {
        validateHeaderName(name);
        validateHeaderValue(name, value);
        assert.ok(status >= 200 && status <= 599);
      }
      if (/[\r\n\0]/.test(name + value)) assert.notEqual(problem, undefined);
    }),
    { numRuns: 5000, seed: 10 },
  );
  console.log(`response validation: ${cases} cases`);
});
