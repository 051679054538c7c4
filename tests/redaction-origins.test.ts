// `renyi record --redact NAME` follows the value NAME gives by its origin
// (spec/recording.md, "Redaction"): a key read through environment.get and sent
// in a header of any name is written as the placeholder there, and the entry
// marks the place (`redacted_at`); the echo of it in the response is kept out by
// the search for its value. A replay, given another key, matches the marked
// place with the value it sends there, which carries the origin; a program
// edited to send a constant there (even the placeholder itself) is refused at
// that call. A recording without marks keeps the rule it had.

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { formsIn } from "./secret-forms.js";
import { renyiIn } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-redaction-origins-"));
const cache = join(work, "cache");
let echo: Server;
let port = 0;

// The key: its forms are searched for in the whole file; its 7 characters from the third on are what the program
// sends sliced.
const KEY = "sk-live-Qw7Zp4Rt9Xy2";
const SLICE = KEY.slice(2, 9);

before(async () => {
  // Echoes every header it was sent in its body, as JSON, and the authorization header base64-encoded in a header.
  echo = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const auth = String(req.headers["authorization"] ?? "");
      res.setHeader("content-type", "application/json");
      res.setHeader("x-echo-base64", Buffer.from(auth).toString("base64"));
      res.end(JSON.stringify({ headers: req.headers, url: req.url }));
    });
  });
  await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
  port = (echo.address() as AddressInfo).port;
});

after(() => {
  echo.close();
  rmSync(work, { recursive: true, force: true });
});

/** The program, with what it sends in the authorization header (a Renyi text expression) and in x-part. */
function program(authorization: string, part = "text.slice(key, 2, 9)"): string {
  return `public function main()
  purpose: Send a key in a header and print the status.
  needs console, network.http("127.0.0.1:${port}"), environment("API_KEY")
  let key be environment.get("API_KEY").or_else("")
  let r be http.get("http://127.0.0.1:${port}/me", {"authorization": ${authorization}, "accept": "application/json"}) otherwise crash with "a"
  let s be http.get("http://127.0.0.1:${port}/part", {"x-part": ${part}}) otherwise crash with "b"
  console.print("status {r.status} {s.status}")
end
`;
}

function folder(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir);
  return dir;
}

interface Entry {
  primitive: string;
  arguments: { url?: string; headers?: Record<string, string> };
  redacted_at?: (string | number)[][];
}

async function recorded(dir: string, source: string): Promise<{ file: string; calls: Entry[] }> {
  writeFileSync(join(dir, "send.ry"), source);
  const ran = await renyiIn(
    dir,
    ["record", "--redact", "API_KEY", "--to", "rec.json", "send.ry"],
    { API_KEY: KEY },
    cache,
  );
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "status 200 200\n");
  const file = readFileSync(join(dir, "rec.json"), "utf8");
  return { file, calls: (JSON.parse(file) as { calls: Entry[] }).calls };
}

test("a key sent in a header of any name is redacted there by its origin, and its echoes by its value", async () => {
  const dir = folder("record");
  const { file, calls } = await recorded(dir, program('"Bearer {key}"'));
  // No form of the key (plain, percent-encoded, JSON-escaped, base64, hex) is anywhere in the file.
  assert.deepEqual(formsIn(file, KEY), []);
  assert.deepEqual(formsIn(JSON.stringify(JSON.parse(file)), KEY), []);
  // The slice sent in x-part (which no search for the key finds) is written whole as the placeholder, and its echo in
  // the body is taken out too.
  assert.equal(file.includes(SLICE), false, "the slice of the key is in the recording");
  const [me, part] = calls.filter((c) => c.primitive === "std.http.get");
  assert.equal(me!.arguments.headers!["authorization"], "Bearer <redacted>");
  // The other header of the same map did not come from the key, and is written as it was.
  assert.equal(me!.arguments.headers!["accept"], "application/json");
  assert.deepEqual(me!.redacted_at, [["headers", "authorization"]]);
  assert.equal(part!.arguments.headers!["x-part"], "<redacted>");
  assert.deepEqual(part!.redacted_at, [["headers", "x-part"]]);
  // The URL did not come from the key: no mark.
  assert.equal(JSON.stringify(me!.redacted_at).includes("url"), false);
});

test("the replay matches the marked places with another key, and refuses a constant written where the key was", async () => {
  const dir = folder("replay");
  await recorded(dir, program('"Bearer {key}"'));
  const replayed = await renyiIn(
    dir,
    ["run", "--replay", "rec.json", "--console", "send.ry"],
    { API_KEY: "another-key-entirely" },
    cache,
  );
  assert.equal(replayed.status, 0, replayed.stderr);
  assert.equal(replayed.stdout, "status 200 200\n");
  // The placeholder itself, written as a constant: the text is the recorded one, but it does not come from API_KEY.
  for (const [name, authorization] of [
    ["placeholder", '"Bearer <redacted>"'],
    ["other", '"Bearer sk-live-other"'],
  ] as const) {
    writeFileSync(join(dir, `${name}.ry`), program(authorization));
    const refused = await renyiIn(dir, ["run", "--replay", "rec.json", `${name}.ry`], {}, cache);
    assert.equal(refused.status, 2, refused.stderr);
    assert.match(refused.stderr, /error\[E-RT-REPLAY-MISMATCH\]/);
    assert.match(refused.stderr, new RegExp(`--> ${name}\\.ry:5:12`));
    if (name === "placeholder")
      assert.match(
        refused.stderr,
        /arguments\.headers\.authorization: the recording's came from a redacted name \(--redact\), and this call's does not/,
      );
  }
  // A slice of the key where the whole key was: the marked place holds what came from the name, and the slice does.
  writeFileSync(join(dir, "sliced.ry"), program('"Bearer {key}"', "text.slice(key, 1, 8)"));
  const sliced = await renyiIn(dir, ["run", "--replay", "rec.json", "sliced.ry"], {}, cache);
  assert.equal(sliced.status, 0, sliced.stderr);
  // A constant where the slice was is refused.
  writeFileSync(join(dir, "constant.ry"), program('"Bearer {key}"', '"-live-Q"'));
  const constant = await renyiIn(dir, ["run", "--replay", "rec.json", "constant.ry"], {}, cache);
  assert.equal(constant.status, 2, constant.stderr);
  assert.match(constant.stderr, /--> constant\.ry:6:12/);
});

test("a recording without marks keeps the rule it had: the placeholder matches itself", async () => {
  const dir = folder("old");
  await recorded(dir, program('"Bearer {key}"'));
  const recording = JSON.parse(readFileSync(join(dir, "rec.json"), "utf8")) as { calls: Entry[] };
  for (const call of recording.calls) delete call.redacted_at;
  writeFileSync(join(dir, "old.json"), JSON.stringify(recording));
  writeFileSync(join(dir, "placeholder.ry"), program('"Bearer <redacted>"', '"<redacted>"'));
  const replayed = await renyiIn(dir, ["run", "--replay", "old.json", "placeholder.ry"], {}, cache);
  assert.equal(replayed.status, 0, replayed.stderr);
});

test("a redacted option of main's is followed by its origin as a variable is", async () => {
  const dir = folder("option");
  writeFileSync(
    join(dir, "opt.ry"),
    `public function main(token: Text)
  purpose: Send a token given as an option.
  needs console, network.http("127.0.0.1:${port}")
  let r be http.get("http://127.0.0.1:${port}/me", {"x-token": text.upper(token)}) otherwise crash with "a"
  console.print("status {r.status}")
end
`,
  );
  const ran = await renyiIn(
    dir,
    ["record", "--redact", "token", "--to", "rec.json", "opt.ry", "--token", KEY],
    {},
    cache,
  );
  assert.equal(ran.status, 0, ran.stderr);
  const file = readFileSync(join(dir, "rec.json"), "utf8");
  // Upper-cased, the key is a text the value search does not look for; its origin marks it.
  assert.equal(file.includes(KEY.toUpperCase()), false, "the upper-cased token is in the recording");
  assert.deepEqual(formsIn(file, KEY), []);
  const call = (JSON.parse(file) as { calls: Entry[] }).calls.find((c) => c.primitive === "std.http.get")!;
  assert.equal(call.arguments.headers!["x-token"], "<redacted>");
  assert.deepEqual(call.redacted_at, [["headers", "x-token"]]);
});
