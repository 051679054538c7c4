// Data coming in is held to the limits of a text and a list as it arrives
// (spec/effects.md, "Data coming in"): a response body, a file, a process's
// output, a database result and a server request's body stop being read at the
// limit and end with the module's failure, never held past it. Real parts: a
// node:http server on 127.0.0.1 that generates its body as it is read, sparse
// files and an endless device, real children (`yes` never ends by itself), a
// real SQLite file. The library is called in this process with the limit
// lowered to 4 MiB, so that the peak of this process's memory, measured,
// shows nothing was buffered past it; `renyi run` shows the default limit.

import assert from "node:assert/strict";
import { createServer, request as httpRequest, type Server, type ServerResponse } from "node:http";
import { closeSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { rootGrant } from "../rtlib/grants.js";
import * as database from "../rtlib/lib/database.js";
import * as filesystem from "../rtlib/lib/filesystem.js";
import * as http from "../rtlib/lib/http.js";
import * as processes from "../rtlib/lib/process.js";
import { configureIncoming } from "../rtlib/lib/incoming.js";
import { configureLimits } from "../rtlib/limits.js";
import { spawn } from "node:child_process";
import { freePort, outcome, RENYI, startProgram } from "./support.js";

const MiB = 1024 * 1024;
const LIMIT = 4 * MiB;
/** What every source offers: far past the limit, and past what the process's peak may reach. */
const OFFERED = 512 * MiB;
/** The peak this process's memory may reach: the test's own start-up, the limit, and room for the engine. */
const PEAK_BOUND = 256 * MiB;

configureLimits({});
configureIncoming({ bytes: LIMIT, rows: 1000 });
const work = realpathSync(mkdtempSync(join(tmpdir(), "renyi-incoming-")));
after(() => rmSync(work, { recursive: true, force: true }));

/** The most memory this process has held at once, so far. */
const peak = (): number => process.resourceUsage().maxRSS * 1024;

function assertBounded(what: string): void {
  console.log(`${what}: peak ${Math.round(peak() / MiB)} MiB of this process's memory`);
  assert.ok(
    peak() < PEAK_BOUND,
    `${what}: this process's memory peaked at ${Math.round(peak() / MiB)} MiB, for a limit of ${LIMIT / MiB} MiB`,
  );
}

/**
 * Writes `size` bytes of one repeated chunk, generated as the client reads them (never held), until the client goes.
 */
function stream(res: ServerResponse, size: number): void {
  const chunk = Buffer.alloc(64 * 1024, "x");
  let sent = 0;
  const more = (): void => {
    while (sent < size && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once("drain", more);
        return;
      }
    }
    res.end();
  };
  res.on("close", () => (sent = size));
  more();
}

let server: Server;
let port: number;
before(async () => {
  server = createServer((req, res) => {
    if (req.url === "/declared") {
      // Says how long it is: refused from the header, before any of it is read.
      res.writeHead(200, { "content-length": String(OFFERED) });
      stream(res, OFFERED);
    } else if (req.url === "/at-limit") {
      res.writeHead(200, { "content-type": "text/plain" });
      stream(res, LIMIT);
    } else {
      // Chunked: only counting the bytes can stop it.
      res.writeHead(200, { "content-type": "text/plain" });
      stream(res, OFFERED);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});
after(() => server.close());

/** A program that fetches /big and handles a body past the limit as HttpError.TooLarge. */
const FETCH_BIG = `public function main(port: Int) or fails with HttpError
  purpose: Fetch a body too large and say so.
  needs console, network.http
  let response be http.get("http://127.0.0.1:{port}/big") otherwise
    when HttpError.TooLarge(limit: limit) then
      console.print("too large: past {limit} bytes")
      return
    when _ then fail
  end
  console.print("accepted {response.body.length()}")
end
`;

test("a response body past the limit fails with HttpError.TooLarge, read no further than the limit", async () => {
  const grant = rootGrant([{ path: ["network", "http"], scope: `127.0.0.1:${port}` }], "main");
  const base = `http://127.0.0.1:${port}`;
  assert.equal(
    await outcome(http.get(grant, `${base}/chunked`)),
    `HttpError.TooLarge(url: "${base}/chunked", limit: ${LIMIT})`,
  );
  assertBounded("a chunked body of 512 MiB");
  assert.equal(
    await outcome(http.get(grant, `${base}/declared`)),
    `HttpError.TooLarge(url: "${base}/declared", limit: ${LIMIT})`,
  );
  // Exactly at the limit is not past it.
  const whole = (await http.get(grant, `${base}/at-limit`)) as { body: string; bytes: Uint8Array };
  assert.equal(whole.bytes.length, LIMIT);
  assert.equal(whole.body.length, LIMIT);
  assertBounded("a body at the limit");
});

test("a file past the limit fails with FileError.Failed, and an endless device stops at the limit", async () => {
  const path = join(work, "sparse.bin");
  // Sparse: 512 MiB to read, none of it on the disk.
  closeSync(openSync(path, "w"));
  const { truncateSync } = await import("node:fs");
  truncateSync(path, OFFERED);
  const grant = rootGrant(
    [
      { path: ["filesystem", "read"], scope: work },
      { path: ["filesystem", "read"], scope: "/dev/zero" },
      { path: ["filesystem", "write"], scope: work },
    ],
    "main",
  );
  const reason = `the file passed the limit of ${LIMIT.toLocaleString("en-US")} bytes for data coming in`;
  assert.equal(
    await outcome(filesystem.read_text(grant, path)),
    `FileError.Failed(path: ${JSON.stringify(path)}, reason: "${reason}")`,
  );
  assert.equal(
    await outcome(filesystem.read_bytes(grant, path)),
    `FileError.Failed(path: ${JSON.stringify(path)}, reason: "${reason}")`,
  );
  // A device says its size is 0 and never ends: only counting stops it.
  assert.equal(
    await outcome(filesystem.read_bytes(grant, "/dev/zero")),
    `FileError.Failed(path: "/dev/zero", reason: "${reason}")`,
  );
  // Appending reads the old content first: held to the same limit, and the file is left as it was.
  assert.equal(
    await outcome(filesystem.append_text(grant, path, "more")),
    `FileError.Failed(path: ${JSON.stringify(path)}, reason: "${reason}")`,
  );
  const { statSync } = await import("node:fs");
  assert.equal(statSync(path).size, OFFERED);
  // At the limit, read whole.
  const small = join(work, "at-limit.txt");
  writeFileSync(small, "y".repeat(LIMIT));
  assert.equal(((await filesystem.read_text(grant, small)) as string).length, LIMIT);
  assertBounded("a sparse file of 512 MiB and /dev/zero");
});

test("a process whose output passes the limit is killed and fails with ProcessError.Failed", async () => {
  const grant = rootGrant([{ path: ["process"] }], "main");
  // `yes` writes for ever: without the limit the call would never end.
  assert.equal(
    await outcome(processes.run(grant, "yes")),
    `ProcessError.Failed(program: "yes", reason: "its standard output passed the limit of ` +
      `${LIMIT.toLocaleString("en-US")} bytes for data coming in")`,
  );
  const toStderr = `process.stderr.write(Buffer.alloc(${OFFERED}, "e"))`;
  assert.match(
    await outcome(processes.run(grant, process.execPath, ["-e", toStderr])),
    /^ProcessError\.Failed\(program: ".*", reason: "its standard error passed the limit of 4,194,304 bytes for data coming in"\)$/,
  );
  // At the limit, whole.
  const result = (await processes.run(grant, "head", ["-c", String(LIMIT), "/dev/zero"])) as {
    stdout: string;
    exit_code: number;
  };
  assert.equal(result.stdout.length, LIMIT);
  assertBounded("an endless `yes`");
});

test("a database result past the limit of rows or bytes fails with DbError.Sql, read a row at a time", async () => {
  const path = join(work, "big.db");
  const grant = rootGrant([{ path: ["filesystem", "database"], scope: path }], "main");
  const db = await database.open(grant, path);
  await database.execute(grant, db, "CREATE TABLE t (n INTEGER, blob BLOB)");
  // 2,000 small rows, and 64 rows of 256 KiB (16 MiB in all).
  await database.execute(
    grant,
    db,
    "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000) INSERT INTO t SELECT i, NULL " +
      "FROM c",
  );
  await database.execute(
    grant,
    db,
    "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 64) INSERT INTO t SELECT -i, " +
      "zeroblob(262144) FROM c",
  );
  assert.equal(
    await outcome(database.query(grant, db, "SELECT n FROM t")),
    `DbError.Sql(message: "the result has more than 1,000 rows, the limit for data coming in")`,
  );
  assert.equal(
    await outcome(database.query(grant, db, "SELECT blob FROM t WHERE n < 0")),
    `DbError.Sql(message: "the result passed the limit of 4,194,304 bytes for data coming in")`,
  );
  // A result with no end of its own: the statement is stopped at the limit.
  assert.equal(
    await outcome(
      database.query(grant, db, "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT i FROM c"),
    ),
    `DbError.Sql(message: "the result has more than 1,000 rows, the limit for data coming in")`,
  );
  // The statement was reset: the database goes on.
  assert.match(await outcome(database.query(grant, db, "SELECT count(*) AS n FROM t")), /2064/);
  assert.match(await outcome(database.query(grant, db, "SELECT n FROM t LIMIT 1000")), /^ok /);
  assertBounded("a result of 16 MiB");
});

/** A POST whose chunked body of `size` bytes is generated as the server reads it; the status, or the error. */
function postStreaming(to: number, size: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: to, path: "/", method: "POST", agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on("error", reject);
    const chunk = Buffer.alloc(64 * 1024, "b");
    let sent = 0;
    const more = (): void => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", more);
          return;
        }
      }
      req.end();
    };
    more();
  });
}

/** The peak memory of a running process, from the system. */
function peakOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmHWM:"))!;
  return Number(/\d+/.exec(line)![0]) * 1024;
}

test("renyi record, then renyi reproduce: TooLarge is recorded as the call's failure and given back without a server", async () => {
  const big = createServer((_req, res) => {
    res.writeHead(200);
    stream(res, 100 * 1000 * 1000);
  });
  await new Promise<void>((resolve) => big.listen(0, "127.0.0.1", resolve));
  const bigPort = (big.address() as { port: number }).port;
  writeFileSync(join(work, "big.ry"), FETCH_BIG);
  const recorded = await renyi(["record", "big.ry", "--port", String(bigPort)]);
  assert.equal(recorded.status, 0, recorded.stderr);
  assert.equal(recorded.stdout, `too large: past ${64 * MiB} bytes\n`);
  await new Promise((resolve) => big.close(resolve));
  const reproduced = await renyi(["reproduce", "big.recording.json"]);
  assert.equal(reproduced.status, 0, reproduced.stderr);
  assert.equal(reproduced.stdout, recorded.stdout);
  assert.match(reproduced.stderr, /^reproduced: the run finished as recorded/);
});

// Once in six runs here this test hung: the server closed the connection with the
// body's bytes unread, the kernel reset it, the client saw EPIPE instead of the 413,
// and the test failed before it stopped the server, which kept the file running. The
// server now reads the rest before it closes (rtlib/lib/server.ts, refuseTooLarge);
// the server is stopped however the test ends, and the test is bounded.
test("renyi run: a program handles a 100 MB response as HttpError.TooLarge at the default 64 MiB limit, and a server answers a 512 MiB chunked body 413 without holding it", {
  timeout: 120_000,
}, async () => {
  const program = startProgram(work, FETCH_BIG, { after: ["--port", String(await bigServer())] });
  const result = await program.done;
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, `too large: past ${64 * MiB} bytes\n`);

  const serverPort = await freePort();
  const serving = startProgram(
    work,
    `public function main(port: Int) or fails with StartError
  purpose: Answer with the body's length.
  needs network.socket
  server.serve(port, (request: Request) => server.respond(200, "{request.body.length()}")) otherwise fail
end
`,
    { after: ["--port", String(serverPort)] },
  );
  let grew: number;
  try {
    for (let i = 0; ; i++) {
      try {
        await postStreaming(serverPort, 1);
        break;
      } catch (e) {
        if (i > 250) throw e;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    const before = peakOf(serving.child.pid!);
    assert.equal(await postStreaming(serverPort, OFFERED), 413);
    grew = peakOf(serving.child.pid!) - before;
  } finally {
    serving.child.kill("SIGINT");
    await serving.done;
  }
  console.log(`the server's memory grew by ${Math.round(grew / MiB)} MiB for a chunked body of 512 MiB`);
  assert.ok(grew < 64 * MiB, `the server's memory grew by ${Math.round(grew / MiB)} MiB for a body of 512 MiB`);
});

/** A server whose every answer is a chunked body of 100 MB, generated as it is read. */
async function bigServer(): Promise<number> {
  const big = createServer((_req, res) => {
    res.writeHead(200);
    stream(res, 100 * 1000 * 1000);
  });
  await new Promise<void>((resolve) => big.listen(0, "127.0.0.1", resolve));
  after(() => big.close());
  return (big.address() as { port: number }).port;
}

/** `renyi ARGS` in the work folder, to its end (not spawnSync: the server it talks to is in this process). */
function renyi(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [RENYI, ...args], {
    cwd: work,
    env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("exit", (status) => resolve({ status, stdout, stderr })));
}
