// A server recorded and replayed end to end (spec/recording.md, "Servers"): a
// program serves 20 concurrent requests over loopback, each handler reading a
// variable and calling a local upstream whose answers differ from call to call
// and come back in another order; the recording holds each request, its calls
// and its response. The replay binds no port, answers each request's calls from
// its own entries and compares each response; a changed handler is stopped at
// its first differing response; a replays test and `renyi grant` read it too.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, request as httpRequest, type Server } from "node:http";
import { connect, createServer as createTcpServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Recording } from "../vocabulary/recording.js";
import { renyi } from "./record-support.js";
import { freePort } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-server-replay-"));
let upstream: Server;
let upstreamBase: string;
let port: number;
let recording: Recording;
/** What each client was answered live, by its path. */
const live = new Map<string, { status: number; body: string }>();

after(() => {
  upstream?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The server's program; `change` rewrites its text (an edited handler). */
function program(change: (text: string) => string = (t) => t): string {
  return change(`function answer(request: Request) returns Response
  needs environment("GREETING_NAME"), network.http("127.0.0.1")
  let who be environment.get("GREETING_NAME").or_else("world")
  let up be http.get("${upstreamBase}/count") otherwise return server.respond(502, "no upstream")
  return server.respond(200, "{who} {request.path} {up.body}", headers: {"content-type": "text/plain", "x-path": request.path})
end

public function main() or fails with StartError
  purpose: Answer twenty requests, each with what the upstream says.
  needs environment("GREETING_NAME"), network.http("127.0.0.1"), network.socket(${port})
  server.serve(${port}, answer, requests: Some(20)) otherwise fail
end
`);
}

/** The line of `server.serve` in the program: where a differing response is reported. */
const SERVE_LINE = 11;

/** Waits until something accepts connections on the port, without sending a request (which the server would count). */
async function listening(at: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(at, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("the server never came up");
}

function get(path: string, to = port): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: to, path, agent: false }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`${path}: no answer in 15 s`)));
    req.end();
  });
}

before(async () => {
  // The upstream counts its calls and answers each after a delay that shrinks as the count grows, so that
  // the handlers' calls complete in another order than they were made, each with an answer of its own.
  let count = 0;
  upstream = createHttpServer((_req, res) => {
    const n = ++count;
    setTimeout(() => res.end(`#${n}`), Math.max(0, 60 - n * 3));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamBase = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  port = await freePort();
  writeFileSync(join(work, "server.ry"), program());
  const recorded = renyi(work, ["record", "--to", "served.json", "server.ry"], { env: { GREETING_NAME: "Ada" } });
  await listening(port);
  const paths = Array.from({ length: 20 }, (_, i) => `/r/${i + 1}`);
  const answers = await Promise.all(paths.map((p) => get(p)));
  for (const [i, p] of paths.entries()) live.set(p, answers[i]!);
  const ran = await recorded;
  assert.equal(ran.status, 0, ran.stderr);
  assert.match(ran.stderr, /recorded 41 calls and 20 requests to served\.json/);
  recording = JSON.parse(readFileSync(join(work, "served.json"), "utf8")) as Recording;
});

test("the recording holds each request, the calls its handler made and the response it gave", () => {
  const requests = recording.requests ?? [];
  assert.equal(requests.length, 20);
  assert.deepEqual(
    requests.map((r) => r.sequence),
    Array.from({ length: 20 }, (_, i) => i + 1),
  );
  const bodies = new Set<string>();
  for (const request of requests) {
    assert.equal(request.method, "GET");
    assert.equal(request.headers["host"], `127.0.0.1:${port}`);
    const answered = live.get(request.path)!;
    assert.ok(typeof request.response === "object" && "body" in request.response);
    assert.equal(request.response.status, answered.status);
    assert.equal(request.response.body, answered.body);
    assert.deepEqual(request.response.headers, { "content-type": "text/plain", "x-path": request.path });
    bodies.add(answered.body.split(" ")[2]!);
    // Its handler's two calls, and none of another request's.
    const own = recording.calls.filter((c) => c.request === request.sequence);
    assert.deepEqual(own.map((c) => c.primitive).sort(), ["std.environment.get", "std.http.get"]);
    const http = own.find((c) => c.primitive === "std.http.get")!;
    assert.equal((http.outcome as { success: { body: string } }).success.body, answered.body.split(" ")[2]);
  }
  // Every request had its own answer from the upstream: the same call, twenty answers.
  assert.equal(bodies.size, 20);
  const serve = recording.calls.filter((c) => c.request === undefined);
  assert.deepEqual(
    serve.map((c) => c.primitive),
    ["std.server.serve"],
  );
});

test("a replay binds no port, feeds each request to the handler, answers its own calls and compares", async () => {
  // The port is taken while the replay runs: a live serve would fail on it.
  const holder = createTcpServer();
  await new Promise<void>((resolve) => holder.listen(port, "127.0.0.1", resolve));
  try {
    const replayed = await renyi(work, ["run", "--replay", "served.json", "server.ry"]);
    assert.equal(replayed.status, 0, replayed.stderr);
    assert.match(replayed.stderr, /served 20 requests, 0 of them crashed/);
    assert.doesNotMatch(replayed.stderr, /error|note: .* not reached/);
    const reproduced = await renyi(work, ["reproduce", "served.json"]);
    assert.equal(reproduced.status, 0, reproduced.stderr);
    assert.match(reproduced.stderr, /reproduced: the run finished as recorded/);
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
});

test("a changed handler stops the replay at its first differing response, field by field, at the serve call", async () => {
  const changed = program((t) =>
    t.replace(
      `  return server.respond(200, "{who}`,
      `  if request.path is "/r/7" then return server.respond(404, "gone")\n  return server.respond(200, "{who}`,
    ),
  );
  writeFileSync(join(work, "changed.ry"), changed);
  const replayed = await renyi(work, ["run", "--replay", "served.json", "changed.ry"]);
  assert.equal(replayed.status, 2, replayed.stderr);
  const seventh = recording.requests!.find((r) => r.path === "/r/7")!;
  assert.match(
    replayed.stderr,
    new RegExp(`error\\[E-RT-REPLAY-RESPONSE\\]: the replay stopped at request ${seventh.sequence} \\(GET /r/7\\)`),
  );
  assert.match(replayed.stderr, /response\.status: 404 here, 200 in the recording/);
  assert.match(replayed.stderr, /response\.body: "gone" here, "Ada \/r\/7 #\d+" in the recording/);
  assert.match(replayed.stderr, new RegExp(`--> [^\\n]*changed\\.ry:${SERVE_LINE + 1}:3`));
  // The requests before it were answered as recorded: the replay stopped at the first that differs.
  assert.match(replayed.stderr, new RegExp(`served ${seventh.sequence} requests?`));
});

test("a handler that makes another call is stopped at that call, within its own request's calls", async () => {
  writeFileSync(
    join(work, "elsewhere.ry"),
    program((t) => t.replace(`/count")`, `/count?from={request.path}")`)),
  );
  const replayed = await renyi(work, ["run", "--replay", "served.json", "elsewhere.ry"]);
  assert.equal(replayed.status, 2, replayed.stderr);
  assert.match(replayed.stderr, /error\[E-RT-REPLAY-MISMATCH\]/);
  assert.match(replayed.stderr, /arguments\.url: "http:\/\/127\.0\.0\.1:\d+\/count\?from=\/r\/\d+" here/);
  assert.match(replayed.stderr, /--> [^\n]*elsewhere\.ry:4:\d+/);
});

test("a replays test of a server is answered from the recording, and fails when its handler changed", async () => {
  const testText = `
test "the server answers as it did" needs environment("GREETING_NAME"), network.http("127.0.0.1"), network.socket(${port}) replays "served.json"
  main() otherwise fail
end
`;
  writeFileSync(join(work, "served_test.ry"), program() + testText);
  const passed = await renyi(work, ["test", "served_test.ry"]);
  assert.equal(passed.status, 0, passed.stdout + passed.stderr);
  assert.match(passed.stdout + passed.stderr, /1 passed/);
  writeFileSync(
    join(work, "changed_test.ry"),
    program((t) => t.replace(`"{who} {request.path}`, `"{who}: {request.path}`)) + testText,
  );
  const failed = await renyi(work, ["test", "changed_test.ry"]);
  assert.notEqual(failed.status, 0);
  assert.match(failed.stdout + failed.stderr, /E-RT-REPLAY-RESPONSE/);
  assert.match(failed.stdout + failed.stderr, /response\.body: "Ada: \/r\/\d+ #\d+" here/);
});

test("renyi grant counts the calls of a server's handlers", async () => {
  const granted = await renyi(work, ["grant", "served.json", "--json"]);
  assert.equal(granted.status, 0, granted.stderr);
  const least = JSON.parse(granted.stdout) as { needs: string; items: { item: string; calls: number }[] };
  const calls = new Map(least.items.map((i) => [i.item, i.calls]));
  assert.equal(calls.get(`environment("GREETING_NAME")`), 20);
  assert.equal(calls.get(`network.http("${upstreamBase.replace("http://", "")}")`), 20);
  assert.equal(calls.get(`network.socket(${port})`), 1);
});

test("a server stopped by Ctrl-C, one request crashed and one body not UTF-8, replays to the same end", async () => {
  const at = await freePort();
  writeFileSync(
    join(work, "forever.ry"),
    `function answer(request: Request) returns Response
  if request.path is "/boom" then crash with "boom"
  return server.respond(200, "{request.bytes.length()} bytes")
end

public function main() or fails with StartError
  purpose: Answer until stopped.
  needs network.socket(${at})
  server.serve(${at}, answer) otherwise fail
end
`,
  );
  let child: ReturnType<typeof import("node:child_process").spawn> | undefined;
  const recorded = renyi(work, ["record", "--to", "forever.json", "forever.ry"], { onStarted: (c) => (child = c) });
  await listening(at);
  const post = (path: string, body: Buffer) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port: at, path, method: "POST", agent: false }, (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on("error", reject);
      req.end(body);
    });
  assert.equal((await post("/boom", Buffer.from("x"))).status, 500);
  assert.deepEqual(await post("/bin", Buffer.from([0xff, 0xfe, 0x00])), { status: 200, body: "3 bytes" });
  child!.kill("SIGINT");
  const ran = await recorded;
  assert.match(ran.stderr, /recorded 0 calls and 2 requests to forever\.json \(the run cancelled\)/);
  const saved = JSON.parse(readFileSync(join(work, "forever.json"), "utf8")) as Recording;
  assert.deepEqual(
    saved.requests?.map((r) => [r.path, "bytes" in r ? r.bytes : r.body, (r.response as { status: number }).status]),
    [
      ["/boom", "x", 500],
      ["/bin", "//4A", 200],
    ],
  );
  const replayed = await renyi(work, ["run", "--replay", "forever.json", "forever.ry"]);
  assert.equal(replayed.status, 130, replayed.stderr);
  assert.match(replayed.stderr, /error\[E-RT-CRASH\]: boom\n {2}--> [^\n]*forever\.ry:2:35/);
  assert.match(replayed.stderr, /served 2 requests, 1 of them crashed\ncancelled: interrupted/);
  assert.doesNotMatch(replayed.stderr, /E-RT-REPLAY/);
  const reproduced = await renyi(work, ["reproduce", "forever.json"]);
  assert.equal(reproduced.status, 0, reproduced.stderr);
  assert.match(reproduced.stderr, /reproduced: the run cancelled as recorded/);
});

test("a sealed recording holds no response a guarded value may have gone into, and replays without comparing it", async () => {
  const at = await freePort();
  const secret = "the-secret-value-42";
  writeFileSync(join(work, "seal.key"), Buffer.alloc(32, 7));
  writeFileSync(
    join(work, "guarded.ry"),
    `function answer(request: Request) returns Response
  needs environment("SERVED_SECRET")
  let secret be environment.get("SERVED_SECRET").or_else("none")
  return server.respond(200, "the secret is {secret}")
end

public function main() or fails with StartError
  purpose: Tell one client the secret.
  needs environment("SERVED_SECRET") only to network.socket(${at}), network.socket(${at})
  server.serve(${at}, answer, requests: Some(1)) otherwise fail
end
`,
  );
  const recorded = renyi(work, ["record", "--seal-key", "seal.key", "--to", "sealed.json", "guarded.ry"], {
    env: { SERVED_SECRET: secret },
  });
  await listening(at);
  // Whatever the guard makes of the response, the recording holds none of it.
  await get("/", at);
  const ran = await recorded;
  assert.equal(ran.status, 0, ran.stderr);
  const text = readFileSync(join(work, "sealed.json"), "utf8");
  assert.ok(!text.includes(secret), "the secret is in the sealed recording");
  const saved = JSON.parse(text) as Recording;
  assert.equal(saved.requests?.[0]?.response, "sealed");
  const replayed = await renyi(work, ["run", "--replay", "sealed.json", "--seal-key", "seal.key", "guarded.ry"]);
  assert.equal(replayed.status, 0, replayed.stderr);
});
