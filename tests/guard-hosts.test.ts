// Guards compare hosts where they lead (spec/runtime.md, section 9): a guarded
// host read through another of its names (`localhost`, `127.1`,
// `[::ffff:7f00:1]`) is guarded all the same, and guarded data goes out only to
// its sink's name, every hop of a redirect checked. Real `renyi run` processes
// against real servers on 127.0.0.1; the recording of a guarded run replays
// with the same decisions, offline.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { addressesOf, configureHostLookup, literalAddress } from "../rtlib/host-addresses.js";
import { renyi } from "./record-support.js";

const SECRET = "hunter2-Zq9";
const work = mkdtempSync(join(tmpdir(), "renyi-guard-hosts-"));

interface Listening {
  server: Server;
  port: number;
  heard: { url: string; body: string }[];
}

/** A server on 127.0.0.1 that remembers each request and answers it with `answer`. */
async function listen(
  answer: (url: string, port: number) => { status?: number; location?: string; body: string },
): Promise<Listening> {
  const heard: Listening["heard"] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      heard.push({ url: req.url ?? "", body });
      const a = answer(req.url ?? "", (server.address() as { port: number }).port);
      res.statusCode = a.status ?? 200;
      if (a.location !== undefined) res.setHeader("location", a.location);
      res.end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as { port: number }).port, heard };
}

/** The guarded host, whose answers are the secret. */
let guarded: Listening;
/** The sink the guard allows; `/away/PORT` redirects to `localhost:PORT`. */
let sink: Listening;
/** A host the program may reach, which guarded data may not. */
let other: Listening;

before(async () => {
  guarded = await listen(() => ({ body: SECRET }));
  sink = await listen((url) => {
    const away = /^\/away\/(\d+)$/.exec(url);
    return away === null ? { body: "ok" } : { status: 307, location: `http://localhost:${away[1]}/landed`, body: "" };
  });
  other = await listen(() => ({ body: "thanks" }));
});

after(() => {
  for (const s of [guarded, sink, other]) s.server.close();
  rmSync(work, { recursive: true, force: true });
});

const hosts = () => ({ g: guarded.port, s: sink.port, o: other.port });

/** main with `needs` and `body`, run live with `renyi run` (or `renyi record`). */
async function run(name: string, needs: string, body: string, command: readonly string[] = ["run"]) {
  writeFileSync(
    join(work, `${name}.ry`),
    `public function main()\n  purpose: Try a guard.\n  needs ${needs}\n  ${body.split("\n").join("\n  ")}\nend\n`,
  );
  for (const s of [guarded, sink, other]) s.heard.length = 0;
  return renyi(work, [...command, `${name}.ry`], { env: { SECRET } });
}

/** The guard of these programs, and its sink: what the guarded host answers goes only to the sink, by its name. */
const GUARD = () =>
  `network.http("127.0.0.1:${hosts().g}") only to network.http("127.0.0.1:${hosts().s}"), ` +
  `network.http("127.0.0.1:${hosts().s}")`;

test("IP literals are compared in one form, whatever form they are written in", async () => {
  for (const form of [
    "127.0.0.1",
    "127.1",
    "2130706433",
    "0x7f.1",
    "0x7f000001",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "::ffff:127.0.0.1",
  ]) {
    assert.equal(literalAddress(form), "127.0.0.1", form);
  }
  assert.equal(literalAddress("[::1]"), "::1");
  assert.equal(literalAddress("[0:0:0:0:0:0:0:1]"), "::1");
  assert.equal(literalAddress("localhost"), undefined);
  assert.equal(literalAddress("example.com"), undefined);
  configureHostLookup("offline");
  assert.deepEqual([...((await addressesOf("localhost")) as Set<string>)].sort(), ["127.0.0.1", "::1"]);
  assert.deepEqual([...((await addressesOf("0x7f.1")) as Set<string>)], ["127.0.0.1"]);
  // Offline (a replay), a DNS name is not looked up: it compares as written.
  assert.equal(((await addressesOf("renyi-no-such-name.example")) as Set<string>).size, 0);
  configureHostLookup("live");
});

test("a guarded host read through localhost is guarded: sending what it answered on to another host is refused, and nothing arrives", async () => {
  const { g, o } = hosts();
  const ran = await run(
    "through-localhost",
    `console, ${GUARD()}, network.http("localhost:${g}"), network.http("127.0.0.1:${o}")`,
    `let page be http.get("http://localhost:${g}/secret") otherwise crash with "no page"
let sent be http.post("http://127.0.0.1:${o}/leak", page.body) otherwise
  when HttpError.Timeout(url) then crash with "timeout"
  when _ then crash with "refused"
end
console.print("sent {sent.status}")`,
  );
  assert.equal(ran.status, 2, ran.stderr);
  // Whether the send failed was decided by what it carried: the crash its handler chose ends the run at no place.
  assert.match(ran.stderr, /^error\[E-RT-GUARD\]: how the run ended was refused/);
  assert.equal(guarded.heard.length, 1);
  assert.deepEqual(other.heard, []);
  assert.ok(!ran.stdout.includes(SECRET) && !ran.stderr.includes(SECRET));
});

test("printing what the guarded host answered through localhost is refused with E-RT-GUARD", async () => {
  const { g } = hosts();
  const ran = await run(
    "print-localhost",
    `console, ${GUARD()}, network.http("localhost:${g}")`,
    `let page be http.get("http://localhost:${g}/secret") otherwise crash with "no page"\nconsole.print(page.body)`,
  );
  assert.equal(ran.status, 2, ran.stderr);
  assert.match(ran.stderr, /^error\[E-RT-GUARD\]/);
  assert.ok(!ran.stdout.includes(SECRET) && !ran.stderr.includes(SECRET));
});

for (const form of ["127.1", "[::ffff:7f00:1]", "[::ffff:127.0.0.1]", "2130706433", "0x7f.1"]) {
  test(`the guarded host read as ${form} is guarded`, async () => {
    const { g } = hosts();
    const ran = await run(
      `form-${form.replace(/\W+/g, "")}`,
      `console, ${GUARD()}, network.http`,
      `let page be http.get("http://${form}:${g}/secret") otherwise crash with "no page"\nconsole.print(page.body)`,
    );
    assert.equal(ran.status, 2, ran.stderr);
    assert.match(ran.stderr, /^error\[E-RT-GUARD\]/);
    assert.equal(guarded.heard.length, 1);
    assert.ok(!ran.stdout.includes(SECRET));
  });
}

test("another port of the guarded host is another host: a scope with a port covers only that port", async () => {
  const { o } = hosts();
  const ran = await run(
    "other-port",
    `console, ${GUARD()}, network.http("localhost:${o}")`,
    `let page be http.get("http://localhost:${o}/") otherwise crash with "no page"\nconsole.print(page.body)`,
  );
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "thanks\n");
});

test("the honest flow still works: the guarded host's answer and a guarded secret go to the sink by its name", async () => {
  const { g, s } = hosts();
  const ran = await run(
    "honest",
    `console, ${GUARD()}, environment("SECRET") only to network.http("127.0.0.1:${s}")`,
    `let page be http.get("http://127.0.0.1:${g}/secret") otherwise crash with "no page"
let key be environment.get("SECRET").or_else("")
let sent be http.post("http://127.0.0.1:${s}/in", "{page.body} {key}") otherwise crash with "refused"
console.print("sent {sent.status}")`,
  );
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "sent 200\n");
  assert.deepEqual(sink.heard, [{ url: "/in", body: `${SECRET} ${SECRET}` }]);
});

test("a secret guarded to the sink is refused through another name of the sink's own host", async () => {
  const { s } = hosts();
  const ran = await run(
    "sink-other-name",
    `console, environment("SECRET") only to network.http("127.0.0.1:${s}"), network.http("127.0.0.1:${s}"), ` +
      `network.http("localhost:${s}")`,
    `let key be environment.get("SECRET").or_else("")
let sent be http.post("http://localhost:${s}/in", key) otherwise crash with "refused"
console.print("sent")`,
  );
  assert.equal(ran.status, 2, ran.stderr);
  assert.match(ran.stderr, /^error\[E-RT-CRASH\]: refused/);
  assert.deepEqual(sink.heard, []);
});

test("a redirect from the sink to another name of another host is refused at that hop, and nothing arrives there", async () => {
  const { s, o } = hosts();
  const ran = await run(
    "redirected",
    `console, environment("SECRET") only to network.http("127.0.0.1:${s}"), network.http("127.0.0.1:${s}"), ` +
      `network.http("localhost:${o}")`,
    `let key be environment.get("SECRET").or_else("")
let sent be http.post("http://127.0.0.1:${s}/away/${o}", key) otherwise crash with "refused"
console.print("sent {sent.status}")`,
  );
  assert.equal(ran.status, 2, ran.stderr);
  assert.match(ran.stderr, /^error\[E-RT-CRASH\]: refused/);
  assert.deepEqual(
    sink.heard.map((h) => h.url),
    [`/away/${o}`],
  );
  assert.deepEqual(other.heard, []);
});

test("a redirect from the sink to another name of its own host is refused too: the sink is its name", async () => {
  const { s } = hosts();
  const ran = await run(
    "redirected-home",
    `console, environment("SECRET") only to network.http("127.0.0.1:${s}"), network.http("127.0.0.1:${s}"), ` +
      `network.http("localhost:${s}")`,
    `let key be environment.get("SECRET").or_else("")
let sent be http.post("http://127.0.0.1:${s}/away/${s}", key) otherwise crash with "refused"
console.print("sent {sent.status}")`,
  );
  assert.equal(ran.status, 2, ran.stderr);
  assert.match(ran.stderr, /^error\[E-RT-CRASH\]: refused/);
  assert.deepEqual(
    sink.heard.map((h) => h.url),
    [`/away/${s}`],
  );
});

test("the recording of a guarded run replays offline with the same decisions", async () => {
  const { g, o } = hosts();
  const needs = `console, ${GUARD()}, network.http("localhost:${g}"), network.http("127.0.0.1:${o}")`;
  const body = `let page be http.get("http://localhost:${g}/secret") otherwise crash with "no page"
let sent be http.post("http://127.0.0.1:${o}/leak", page.body) otherwise
  when HttpError.Timeout(url) then crash with "timeout"
  when _ then crash with "refused"
end
console.print("sent {sent.status}")`;
  const recorded = await run("replayed", needs, body, ["record", "--to", "replayed.json"]);
  assert.equal(recorded.status, 2, recorded.stderr);
  assert.match(recorded.stderr, /E-RT-GUARD\]: how the run ended was refused/);
  // Offline, nothing sent: the replay takes the same decision from the recorded answer.
  const ran = await renyi(work, ["run", "--replay", "replayed.json", "replayed.ry"]);
  assert.equal(ran.status, 2, ran.stderr);
  assert.match(ran.stderr, /^error\[E-RT-GUARD\]: how the run ended was refused/);
  assert.doesNotMatch(ran.stderr, /E-RT-REPLAY-DIFFERS/);
});
