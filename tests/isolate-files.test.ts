// Open files under `renyi run --isolate` (spec/security.md, "Isolation"): a
// process.run that cannot open its pipes fails as ProcessError, which the
// program handles, and the run goes on; a server holds fewer connections than
// the process may open, so idle connections cannot take every file from the
// program, and a new request is still answered. Real child processes, real
// sockets on 127.0.0.1.

import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ROOT } from "./golden.js";
import { freePort, getWhenUp, startProgram } from "./support.js";
import { ISOLATED_OPEN_FILES, MAX_SERVER_CONNECTIONS } from "../vocabulary/limits.js";

const work = join(ROOT, "tmp", `isolate-files-${process.pid}`);
before(() => mkdirSync(work, { recursive: true }));
after(() => rmSync(work, { recursive: true, force: true }));

const running = new Set<ChildProcess>();
after(() => {
  for (const child of running) child.kill("SIGKILL");
});

test("the server's connections are fewer than the files an isolated process may open, with room left for the program's own", () => {
  assert.ok(
    MAX_SERVER_CONNECTIONS <= ISOLATED_OPEN_FILES / 2,
    `${MAX_SERVER_CONNECTIONS} connections of ${ISOLATED_OPEN_FILES} files`,
  );
});

test("--isolate: 400 process.run at once, more than the open files allow, fail as ProcessError where they cannot start, and the run goes on", async () => {
  const ran = await startProgram(
    work,
    `function start(i: Int) returns Text
  needs process("sh")
  let r be process.run("sh", ["-c", "sleep 1"]) otherwise
    when ProcessError.Failed(_, reason) then return "failed: {reason}"
    when _ then return "other"
  end
  return "ran"
end

public function main() or fails with ProcessError
  purpose: Start four hundred children at once, then one more.
  needs console, process("sh")
  let results be from i in list.range(0, 400) concurrently select start(i)
  let ran be from r in results where r is "ran" select r
  let failed be from r in results where r.starts_with("failed: ") select r
  console.print("{list.length(ran)} ran, {list.length(failed)} failed, {list.length(results)} in all")
  if list.length(failed) > 0 then console.print(failed.first().or_else(""))
  let last be process.run("sh", ["-c", "echo after"]) otherwise fail
  console.print(last.stdout)
end
`,
    { before: ["--isolate"] },
  ).done;
  assert.equal(ran.status, 0, ran.stderr);
  assert.doesNotMatch(ran.stderr, /E-RT-INTERNAL|reading 'on'/);
  const [counts, reason, last] = ran.stdout.split("\n");
  const [, started, failed, all] = /^(\d+) ran, (\d+) failed, (\d+) in all$/.exec(counts ?? "") ?? [];
  assert.equal(all, "400", ran.stdout);
  assert.equal(Number(started) + Number(failed), 400, ran.stdout);
  assert.ok(Number(failed) > 0 && Number(started) > 0, ran.stdout);
  assert.match(reason ?? "", /^failed: .*(EMFILE|too many open files)/i);
  assert.equal(last, "after");
});

/** A connection to 127.0.0.1:port that is made and then says nothing. */
function idle(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.on("error", reject);
  });
}

test("--isolate: a server with more idle connections than it may hold still answers a new request, whose handler starts a child", async () => {
  const port = await freePort();
  const program = startProgram(
    work,
    `public function main(port: Int) or fails with StartError
  purpose: Answer every request with a child's words.
  needs network.socket, process("sh")
  server.serve(port, function (request: Request) returns Response
    needs process("sh")
    let r be process.run("sh", ["-c", "echo still here"]) otherwise return server.respond(500, "no child")
    return server.respond(200, r.stdout)
  end) otherwise fail
end
`,
    { before: ["--isolate"], after: ["--port", String(port)] },
  );
  running.add(program.child);
  const sockets: Socket[] = [];
  try {
    assert.equal((await getWhenUp(port, "/up")).body, "still here\n");
    const began = Date.now();
    for (let i = 0; i < 300; i++) {
      const socket = await idle(port);
      socket.on("error", () => undefined);
      sockets.push(socket);
    }
    // The idle ones are let go as new ones come: the new request is answered, its child started.
    const answered = await getWhenUp(port, "/after");
    assert.deepEqual(answered, { status: 200, body: "still here\n" });
    assert.ok(Date.now() - began < 10_000);
  } finally {
    for (const s of sockets) s.destroy();
    program.child.kill("SIGINT");
    await program.done;
  }
});
