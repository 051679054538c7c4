// Attacks on server replay, replayed transactions, the code hash, redaction by
// origins and traces. Those still open are marked todo, each with what the
// specification promises, so that the suite stays green until they are fixed.
// Every part is real: child processes and files in a fresh folder; nothing
// but 127.0.0.1 is reached.

import assert from "node:assert/strict";
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { renyiIn } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-attacks-replay-"));
const cache = join(work, "cache");
after(() => rmSync(work, { recursive: true, force: true }));

function write(name: string, text: string): string {
  writeFileSync(join(work, name), text);
  return name;
}

const run = (args: readonly string[], env: Record<string, string> = {}) => renyiIn(work, args, env, cache);

const served = `function answer(request: Request) returns Response
  needs console, environment("GREETING")
  let greeting be environment.get("GREETING").or_else("hello")
  let name be request.query.get("name").or_else("you")
  console.print("{request.method} {request.path} {name}")
  return server.respond(200, "{greeting}, {name}", headers: {"content-type": "text/plain"})
end

public function main() or fails with StartError
  purpose: Greet visitors, then stop.
  needs console, environment("GREETING"), network.socket(8080)
  server.serve(8080, answer, requests: Some(2)) otherwise fail
end
`;

const header = {
  program: "served",
  toolchain: "renyi 0.1.0",
  source: "served.ry",
  code: "sha256:0",
  grant: ["console", 'environment("GREETING")', "network.socket(8080)"],
};

function request(sequence: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sequence,
    method: "GET",
    path: `/r${sequence}`,
    query: {},
    headers: {},
    body: "",
    response: { status: 200, headers: { "content-type": "text/plain" }, body: "hello, you" },
    ...extra,
  };
}

const greetingCall = (sequence: number, req: number) => ({
  sequence,
  request: req,
  capability: 'environment("GREETING")',
  primitive: "std.environment.get",
  arguments: { name: "GREETING" },
  outcome: { success: "hello" },
});
const printCall = (sequence: number, req: number, text: string) => ({
  sequence,
  request: req,
  capability: "console",
  primitive: "std.console.print",
  arguments: { text },
  outcome: { success: null },
});

test("renyi grant counts the port of a server stopped by Ctrl-C, whose recording holds its requests but no serve entry", {
  todo: "the least grant leaves out network.socket(8080) and says no call used it, though the run bound the port and answered a request",
}, async () => {
  write("served.ry", served);
  // What `renyi record` writes for this server stopped by Ctrl-C after one request: no std.server.serve entry.
  write(
    "stopped.json",
    JSON.stringify({
      ...header,
      outcome: "cancelled",
      requests: [request(1)],
      calls: [greetingCall(1, 1), printCall(2, 1, "GET /r1 you")],
    }),
  );
  const r = await run(["grant", "stopped.json", "served.ry"]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout.split("\n")[0]!, /network\.socket\(8080\)/);
});

test("a handler that serves again inside a replayed request binds no port and is answered as a call", async () => {
  write(
    "nest.ry",
    `function answer(request: Request) returns Response
  needs console, network.socket(8080)
  console.print("in {request.path}")
  server.serve(8080, answer, requests: Some(1)) otherwise console.print("nested failed")
  return server.respond(200, "hello, you", headers: {"content-type": "text/plain"})
end

public function main() or fails with StartError
  purpose: Serve.
  needs console, network.socket(8080)
  server.serve(8080, answer, requests: Some(2)) otherwise fail
end
`,
  );
  const serveCall = (sequence: number, req?: number) => ({
    sequence,
    ...(req === undefined ? {} : { request: req }),
    capability: "network.socket(8080)",
    primitive: "std.server.serve",
    arguments: { port: 8080 },
    outcome: { success: null },
  });
  write(
    "nest.json",
    JSON.stringify({
      ...header,
      program: "nest",
      source: "nest.ry",
      grant: ["console", "network.socket(8080)"],
      outcome: "finished",
      requests: [request(1), request(2)],
      calls: [printCall(1, 1, "in /r1"), serveCall(2, 1), printCall(3, 2, "in /r2"), serveCall(4, 2), serveCall(5)],
    }),
  );
  const r = await run(["run", "--replay", "nest.json", "nest.ry"]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /served 2 requests/);
  assert.doesNotMatch(r.stderr, /E-RT-INTERNAL|\n\s+at /);
});

test("hostile requests in a server's recording end in a replay's own words, never an internal error", async () => {
  write("served.ry", served);
  const serveCall = (sequence: number, extra: Record<string, unknown> = {}) => ({
    sequence,
    capability: "network.socket(8080)",
    primitive: "std.server.serve",
    arguments: { port: 8080 },
    outcome: { success: null },
    ...extra,
  });
  const noResponse = request(1);
  delete noResponse["response"];
  const variants: Record<string, unknown>[] = [
    // serve's own entry placed among request 1's calls
    {
      requests: [request(1)],
      calls: [greetingCall(1, 1), printCall(2, 1, "GET /r1 you"), serveCall(3, { request: 1 })],
    },
    // a request never answered, whose handler makes a call it does not hold
    {
      requests: [noResponse, request(2)],
      calls: [printCall(1, 1, "x"), greetingCall(2, 2), printCall(3, 2, "GET /r2 you"), serveCall(4)],
    },
    // many requests whose calls are missing
    { requests: Array.from({ length: 5000 }, (_, i) => request(i + 1)), calls: [serveCall(1)] },
    // a transaction's entry among a request's calls
    {
      requests: [request(1)],
      calls: [
        greetingCall(1, 1),
        printCall(2, 1, "GET /r1 you"),
        {
          sequence: 3,
          request: 1,
          capability: 'filesystem.database("a.db")',
          primitive: "std.database.transaction",
          arguments: {},
          outcome: { success: "committed" },
          transaction: 1,
        },
        serveCall(4),
      ],
    },
  ];
  for (const [i, variant] of variants.entries()) {
    write(`hostile${i}.json`, JSON.stringify({ ...header, outcome: "finished", ...variant }));
    const r = await run(["run", "--replay", `hostile${i}.json`, "served.ry"]);
    assert.notEqual(r.status, null);
    assert.doesNotMatch(r.stderr, /E-RT-INTERNAL|\n\s+at [\w.<]+ \(|node:internal/, `variant ${i}: ${r.stderr}`);
  }
});

test("a resumed run holding a committed transaction does not go live at a transaction begun inside its work", async () => {
  const dir = mkdtempSync(join(work, "tx-"));
  writeFileSync(
    join(dir, "tx.ry"),
    `public function main() or fails with DbError
  purpose: Nested transactions.
  needs console, filesystem.database("shop.db")
  let db be database.open("shop.db") otherwise fail
  let added be database.transaction(db, function (d: Database) returns Int or fails with DbError
    needs filesystem.database("shop.db")
    database.execute(d, "CREATE TABLE IF NOT EXISTS item (name TEXT NOT NULL)") otherwise fail
    let inner be database.transaction(d, function (e: Database) returns Int or fails with DbError
      needs filesystem.database("shop.db")
      return database.execute(e, "INSERT INTO item (name) VALUES ('inner')") otherwise fail
    end) otherwise 0
    return database.execute(d, "INSERT INTO item (name) VALUES ('a')") otherwise fail
  end) otherwise fail
  console.print("added {added}")
end
`,
  );
  const recorded = await renyiIn(dir, ["record", "--to", "tx.json", "tx.ry"], {}, cache);
  assert.equal(recorded.status, 0, recorded.stderr);
  rmSync(join(dir, "shop.db"), { force: true });
  const resumed = await renyiIn(dir, ["run", "--resume", "tx.json", "--to", "resumed.json", "tx.ry"], {}, cache);
  // Every call of the run is held by the recording: nothing should be made live, and the database not touched.
  assert.equal(existsSync(join(dir, "shop.db")), false, "the database file was opened by the resumed run");
  assert.equal(resumed.status, 0, resumed.stderr);
  // The new recording holds the transactions as the old one did: the held one committed, the inner one as it ended.
  const ends = (file: string) =>
    (JSON.parse(readFileSync(join(dir, file), "utf8")) as { calls: { primitive: string; outcome: unknown }[] }).calls
      .filter((c) => c.primitive === "std.database.transaction")
      .map((c) => JSON.stringify(c.outcome));
  assert.deepEqual(ends("resumed.json"), ends("tx.json"));
});

test("data a guard keeps from everything but one host does not reach the trace file or the log lines as an HTTP method", async () => {
  write(
    "method.ry",
    `public function main()
  purpose: Use a key.
  needs console, environment("KEY") only to network.http("127.0.0.1:9"), network.http("127.0.0.1:9")
  let key be environment.get("KEY").or_else("none")
  let r be http.request(key, "http://127.0.0.1:9/x", "", {}) otherwise return
  console.print("done")
end
`,
  );
  const r = await run(["run", "--log", "--trace", "method-trace.json", "method.ry"], { KEY: "GUARDEDMETHODQ" });
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /guardedmethodq/i);
  assert.doesNotMatch(readFileSync(join(work, "method-trace.json"), "utf8"), /guardedmethodq/i);
});

test("a key recorded under --redact does not reach the recording as an HTTP method", async () => {
  write(
    "redmethod.ry",
    `public function main()
  purpose: Use a key.
  needs console, environment("API_KEY"), network.http("127.0.0.1:9")
  let key be environment.get("API_KEY").or_else("none")
  let r be http.request(key, "http://127.0.0.1:9/x", "", {}) otherwise return
  console.print("done")
end
`,
  );
  const r = await run(["record", "--redact", "API_KEY", "--to", "redmethod.json", "redmethod.ry"], {
    API_KEY: "SecretMethodXyz",
  });
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(readFileSync(join(work, "redmethod.json"), "utf8"), /secretmethodxyz/i);
});

test("a key recorded under --redact does not reach the recording as a header's name", async () => {
  write(
    "redheader.ry",
    `public function main()
  purpose: Use a key.
  needs console, environment("API_KEY"), network.http("127.0.0.1:9")
  let key be environment.get("API_KEY").or_else("none")
  let h be {"accept": "x", key: "v"}
  let r be http.get("http://127.0.0.1:9/x", headers: h) otherwise return
  console.print("done")
end
`,
  );
  const r = await run(["record", "--redact", "API_KEY", "--to", "redheader.json", "redheader.ry"], {
    API_KEY: "SecretHeaderXyz",
  });
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(readFileSync(join(work, "redheader.json"), "utf8"), /secretheaderxyz/i);
});

test("--trace replaces a symbolic link at its name and never writes through it", async () => {
  write("hello.ry", `public function main()\n  purpose: Greet.\n  needs console\n  console.print("hi")\nend\n`);
  const victim = join(work, "victim.txt");
  writeFileSync(victim, "untouched");
  symlinkSync(victim, join(work, "link-trace.json"));
  const r = await run(["run", "--trace", "link-trace.json", "hello.ry"]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(victim, "utf8"), "untouched");
  assert.equal(lstatSync(join(work, "link-trace.json")).isSymbolicLink(), false);
  assert.throws(() => readlinkSync(join(work, "link-trace.json")));
});
