// A request goes to the host the grant decided on (spec/security.md,
// "Network"): a program's Host header cannot name another site, the runtime
// frames the request itself, and a redirect to another origin does not take the
// program's credentials along. A real server on loopback that echoes what it got.

import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { after, before, test } from "node:test";
import { Failure } from "../rtlib/errors.js";
import { rootGrant } from "../rtlib/grants.js";
import * as http from "../rtlib/lib/http.js";
import { configureLimits } from "../rtlib/limits.js";
import { toText } from "../rtlib/text.js";
import { RMap } from "../rtlib/values.js";

configureLimits({});
let server: Server;
let port = 0;
const seen: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];

before(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      seen.push({ url: req.url ?? "", headers: req.headers, body });
      if (req.url === "/away") {
        res.writeHead(302, { location: `http://localhost:${port}/landed` });
      } else if (req.url === "/home") {
        res.writeHead(302, { location: "/landed" });
      }
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});
after(() => server.close());

async function outcome(call: Promise<unknown>): Promise<string> {
  try {
    return `ok ${((await call) as { status: number }).status}`;
  } catch (e) {
    if (e instanceof Failure) return toText(e.value);
    throw e;
  }
}

const grant = () =>
  rootGrant(
    [
      { path: ["network", "http"], scope: "127.0.0.1" },
      { path: ["network", "http"], scope: "localhost" },
    ],
    "main",
  );
const headers = (entries: [string, string][]) => new RMap(entries);

test("a Host header naming another host is refused before anything is sent; the URL's own is the one sent", async () => {
  const base = `http://127.0.0.1:${port}`;
  let cases = 0;
  for (const [name, value] of [
    ["Host", "evil.example"],
    ["host", "  Evil.Example "],
    [" HOST ", "localhost"],
    ["hOsT", `127.0.0.1:${port + 1}`],
    ["Host", "127.0.0.1"],
  ]) {
    seen.length = 0;
    assert.equal(
      await outcome(http.get(grant(), `${base}/x`, headers([[name!, value!]]))),
      `HttpError.HostNotAllowed(host: ${JSON.stringify(value!.trim())})`,
      `${name}: ${value}`,
    );
    assert.equal(seen.length, 0, "a request was sent");
    cases++;
  }
  seen.length = 0;
  assert.equal(await outcome(http.get(grant(), `${base}/x`, headers([["Host", `127.0.0.1:${port}`]]))), "ok 200");
  assert.equal(seen[0]?.headers.host, `127.0.0.1:${port}`);
  console.log(`host headers: ${cases + 1} cases`);
});

test("framing headers are the runtime's: the body is sent whole, with its own length", async () => {
  const base = `http://127.0.0.1:${port}`;
  seen.length = 0;
  const smuggling = headers([
    ["Content-Length", "0"],
    ["Transfer-Encoding", "chunked"],
    ["Connection", "close, upgrade"],
    ["Upgrade", "websocket"],
    ["Keep-Alive", "timeout=99"],
    ["TE", "trailers"],
    ["Expect", "100-continue"],
    ["X-Kept", "yes"],
  ]);
  assert.equal(await outcome(http.post(grant(), `${base}/echo`, "hello", smuggling)), "ok 200");
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.body, "hello");
  assert.equal(seen[0]!.headers["content-length"], "5");
  assert.equal(seen[0]!.headers["transfer-encoding"], undefined);
  assert.equal(seen[0]!.headers["upgrade"], undefined);
  assert.equal(seen[0]!.headers["x-kept"], "yes");
});

test("a redirect to another origin drops Authorization and Cookie; one to the same origin keeps them", async () => {
  const base = `http://127.0.0.1:${port}`;
  const credentials = headers([
    ["Authorization", "Bearer secret"],
    ["Cookie", "session=1"],
    ["X-Other", "kept"],
  ]);
  seen.length = 0;
  assert.equal(await outcome(http.get(grant(), `${base}/away`, credentials)), "ok 200");
  assert.deepEqual(
    seen.map((s) => s.url),
    ["/away", "/landed"],
  );
  assert.equal(seen[1]!.headers.authorization, undefined);
  assert.equal(seen[1]!.headers.cookie, undefined);
  assert.equal(seen[1]!.headers["x-other"], "kept");
  seen.length = 0;
  assert.equal(await outcome(http.get(grant(), `${base}/home`, credentials)), "ok 200");
  assert.equal(seen[1]!.headers.authorization, "Bearer secret");
});
