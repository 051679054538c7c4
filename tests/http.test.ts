// The http module against a real HTTP server on loopback, started by the test.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ROOT } from "./golden.js";

const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const work = mkdtempSync(join(tmpdir(), "renyi-http-"));
after(() => rmSync(work, { recursive: true, force: true }));
let server: Server;
let port = 0;
const seen: string[] = [];

before(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      seen.push(`${req.method} ${req.url} ${body}`);
      if (req.url === "/json") {
        res.writeHead(200, { "content-type": "application/json", "x-test": "yes" });
        res.end('{"temperature": 21.5, "windspeed": 12}');
      } else if (req.url === "/missing") {
        res.writeHead(404);
        res.end("not here");
      } else if (req.url === "/redirect-away") {
        res.writeHead(302, { location: "http://localhost:1/elsewhere" });
        res.end();
      } else if (req.url === "/redirect-home") {
        res.writeHead(301, { location: "/json" });
        res.end();
      } else if (req.url === "/slow") {
        // Far later than any run here waits, so that a run that waited is plain to see on a loaded machine.
        setTimeout(() => res.end("late"), 10_000).unref();
      } else {
        res.writeHead(201, { "content-type": "text/plain" });
        res.end(`echo ${req.method} ${body}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});

after(() => server.close());

function run(source: string, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const file = join(work, `p${Math.random().toString(36).slice(2)}.ry`);
  writeFileSync(file, source);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [RENYI, "run", ...args, file], {
      env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (status) => resolve({ status, stdout, stderr }));
  });
}

const describeCall = `function show(r: Response) returns Text
  return "{r.status} {r.headers.get("content-type")} {r.body}"
end

function explain(e: HttpError) returns Text
  match e
    when HttpError.HostNotAllowed(host) then return "host not allowed: {host}"
    when HttpError.PermissionDenied(host) then return "permission denied: {host}"
    when HttpError.OverBudget(host) then return "over budget: {host}"
    when HttpError.InvalidUrl(url) then return "invalid: {url}"
    when HttpError.Timeout(_) then return "timed out"
    when HttpError.Unreachable(_, reason) then return "unreachable: {reason}"
    when HttpError.TooLarge(_, limit) then return "too large: past {limit} bytes"
    when HttpError.Guarded(origin, sink) then return "guarded: {origin} may not go to {sink}"
  end
end
`;

test("get, post and every status as a Response; failures only without a response", async () => {
  const base = `http://127.0.0.1:${port}`;
  const result = await run(
    `${describeCall}
public function main()
  purpose: Talk to the test server.
  needs console, network.http("127.0.0.1")
  let a be http.get("${base}/json") otherwise fail with "no"
  console.print(show(a))
  let b be http.get("${base}/missing") otherwise fail with "no"
  console.print(show(b))
  let c be http.post("${base}/echo", "payload", headers: {"x-a": "1"}) otherwise fail with "no"
  console.print(show(c))
  let d be http.request("PUT", "${base}/echo", body: "put body") otherwise fail with "no"
  console.print(show(d))
  let e be http.get("${base}/redirect-home") otherwise fail with "no"
  console.print("redirected: {e.status} {e.body}")
  console.print(attempt("${base}/redirect-away"))
  console.print(attempt("not a url"))
  console.print(attempt("http://other.example.com/"))
  console.print(attempt("http://127.0.0.1:1/"))
  let j be http.request("GET", "${base}/slow", timeout: Some(time.milliseconds(200))) otherwise
    when failure then return console.print(explain(failure))
  end
  console.print(show(j))
end

function attempt(url: Text) returns Text
  needs network.http("127.0.0.1")
  let r be http.get(url) otherwise
    when e then return explain(e)
  end
  return show(r)
end
`.replace(/otherwise fail with "no"/g, 'otherwise crash with "no"'),
  );
  assert.equal(result.status, 0, result.stderr);
  const lines = result.stdout.split("\n");
  assert.equal(lines[0], '200 Some("application/json") {"temperature": 21.5, "windspeed": 12}');
  assert.equal(lines[1], "404 None not here");
  assert.equal(lines[2], '201 Some("text/plain") echo POST payload');
  assert.equal(lines[3], '201 Some("text/plain") echo PUT put body');
  assert.equal(lines[4], 'redirected: 200 {"temperature": 21.5, "windspeed": 12}');
  // The redirect leads to a host the grant does not name: refused before anything is sent there.
  assert.equal(lines[5], "host not allowed: localhost:1");
  assert.equal(lines[6], "invalid: not a url");
  assert.equal(lines[7], "host not allowed: other.example.com");
  assert.match(lines[8]!, /^unreachable: ECONNREFUSED/);
  assert.equal(lines[9], "timed out");
  assert.ok(seen.includes("POST /echo payload"));
});

test("a budget stops the calls past it with OverBudget, and --at-most tightens it", async () => {
  const base = `http://127.0.0.1:${port}`;
  const program = `${describeCall}
public function main()
  purpose: Call until the budget is spent.
  needs console, network.http("127.0.0.1") at most 3 per minute
  for each i in 1 to 5
    let r be http.get("${base}/json") otherwise
      when HttpError.OverBudget(host) then
        console.print("call {i}: over budget for {host}")
        skip
      when _ then crash with "unexpected"
    end
    console.print("call {i}: {r.status}")
  end
end
`;
  const declared = await run(program);
  assert.equal(declared.status, 0, declared.stderr);
  assert.deepEqual(declared.stdout.trim().split("\n"), [
    "call 1: 200",
    "call 2: 200",
    "call 3: 200",
    `call 4: over budget for 127.0.0.1:${port}`,
    `call 5: over budget for 127.0.0.1:${port}`,
  ]);
  const tightened = await run(program, "--at-most", "network.http=1/run");
  assert.equal(tightened.status, 0, tightened.stderr);
  assert.equal(
    tightened.stdout
      .trim()
      .split("\n")
      .filter((l) => l.endsWith(": 200")).length,
    1,
  );
});

test("concurrent tasks never exceed a budget together", async () => {
  const base = `http://127.0.0.1:${port}`;
  const result = await run(`public function main()
  purpose: Call concurrently past the budget.
  needs console, network.http("127.0.0.1") at most 4 per run
  let statuses be from i in 1 to 10 concurrently at most 10 at a time select (http.get("${base}/json") otherwise
    when HttpError.OverBudget(_) then Response(status: 0, headers: {}, body: "", bytes: "".to_bytes())
    when _ then crash with "unexpected"
  end).status
  console.print("{from s in statuses where s is 200 select s} {from s in statuses where s is 0 select s}")
end
`);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout.trim(), "[200, 200, 200, 200] [0, 0, 0, 0, 0, 0]");
});

test("Ctrl-C interrupts a request in flight: the run ends cancelled without waiting for the answer", async () => {
  const base = `http://127.0.0.1:${port}`;
  const file = join(work, "slow.ry");
  writeFileSync(
    file,
    `public function main()
  purpose: Wait on a slow server.
  needs console, network.http("127.0.0.1")
  console.print("asking")
  let r be http.get("${base}/slow") otherwise crash with "failed"
  console.print("answered {r.status}")
end
`,
  );
  const child = spawn(process.execPath, [RENYI, "run", file], {
    env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") },
  });
  let stdout = "";
  let stderr = "";
  const started = Date.now();
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
    if (stdout.includes("asking")) setTimeout(() => child.kill("SIGINT"), 200);
  });
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const status = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  assert.equal(status, 130, stderr);
  assert.doesNotMatch(stdout, /answered/);
  assert.ok(Date.now() - started < 8000, "the run waited for the slow answer");
});
