// How many connections a program's server holds (rtlib/serving.ts,
// holdConnections; spec/security.md, "Servers"), on a real node:http server on
// 127.0.0.1 held to two: a connection past the limit takes the place of the
// one idle longest; when both have a request in flight, it is answered 503 and
// what it sends never reaches the handler.

import assert from "node:assert/strict";
import { createServer } from "node:http";
import { connect, type Socket } from "node:net";
import { test } from "node:test";
import { holdConnections } from "../rtlib/serving.js";
import { getFresh as get } from "./support.js";

function listening(handler: (release: Promise<void>) => Promise<string>) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let handled = 0;
  const server = createServer((req, res) => {
    if (!admitted(req, res)) return;
    handled++;
    void handler(released).then((body) => res.end(body));
  });
  const admitted = holdConnections(server, 2);
  return new Promise<{ port: number; release: () => void; handled: () => number; close: () => Promise<void> }>(
    (resolve) =>
      server.listen(0, "127.0.0.1", () =>
        resolve({
          port: (server.address() as { port: number }).port,
          release,
          handled: () => handled,
          close: () => {
            server.closeAllConnections();
            return new Promise((done) => server.close(() => done()));
          },
        }),
      ),
  );
}

function idle(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.on("error", reject);
  });
}

const closed = (socket: Socket) =>
  new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once("close", () => resolve())));

test("a connection past the limit takes the place of the one idle longest, and is answered", async () => {
  const server = await listening(async () => "answered");
  try {
    const first = await idle(server.port);
    first.on("error", () => undefined);
    const second = await idle(server.port);
    second.on("error", () => undefined);
    assert.deepEqual(await get(server.port, "/"), { status: 200, body: "answered" });
    // The first, idle longest, was let go; the second is still held.
    await closed(first);
    assert.equal(second.destroyed, false);
    second.destroy();
  } finally {
    await server.close();
  }
});

test("when every connection held has a request in flight, a new one is answered 503 and its request never reaches the handler", async () => {
  const server = await listening(async (released) => {
    await released;
    return "answered";
  });
  try {
    const busy = [get(server.port, "/a"), get(server.port, "/b")];
    while (server.handled() < 2) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(await get(server.port, "/c"), { status: 503, body: "the server is busy\n" });
    assert.equal(server.handled(), 2);
    server.release();
    assert.deepEqual(await Promise.all(busy), [
      { status: 200, body: "answered" },
      { status: 200, body: "answered" },
    ]);
    // Their requests answered, the two are idle again: a new connection is held and answered.
    assert.deepEqual(await get(server.port, "/d"), { status: 200, body: "answered" });
  } finally {
    await server.close();
  }
});
