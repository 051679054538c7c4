// A recording holds only answers a live call could give (spec/recording.md,
// "What a live call can answer"). A program is recorded live against a real
// local server, a real file, database and child process; the recording is then
// edited into each impossible answer, and `renyi run --replay` refuses it with
// E-RT-RECORDING (exit 3) naming the entry and the field, before the program
// runs. Random edits of the recorded answers never end a replay with a stack
// or an internal error.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import fc from "fast-check";
import { readRecording } from "../cli/recordings/reader.js";
import type { JsonValue, RecordedCall, Recording } from "../vocabulary/recording.js";
import { renyi } from "./record-support.js";
import { freePort } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-answers-"));
let server: Server;
let recordingText: string;
let liveStdout: string;

function program(port: number, closed: number): string {
  return `type Line is record
  x: Int
end

public function main()
  purpose: Read from the world in each way a recording answers.
  needs console, time, random, environment("ANSWERS_NAME"), network.http("127.0.0.1"), filesystem.read("."), filesystem.write("."), filesystem.database("t.db"), process("node")
  let name be optional.or_else(environment.get("ANSWERS_NAME"), "none")
  let now be time.now()
  let today be time.today()
  time.sleep(time.milliseconds(1))
  let i be random.integer(1, 6)
  let f be random.float()
  let r be http.get("http://127.0.0.1:${port}/page") otherwise crash with "no page"
  let gone be http.get("http://127.0.0.1:${closed}/") otherwise r
  filesystem.write_text("a.txt", "hi") otherwise crash with "no write"
  let t be filesystem.read_text("a.txt") otherwise crash with "no read"
  let b be filesystem.read_bytes("a.txt") otherwise crash with "no read"
  let names be filesystem.list(".") otherwise crash with "no list"
  let db be database.open("t.db") otherwise crash with "no database"
  let n be database.execute(db, "CREATE TABLE IF NOT EXISTS t (x INTEGER)") otherwise crash with "no table"
  let rows be database.query(db, "SELECT x FROM t", as: Line) otherwise crash with "no rows"
  let p be process.run("node", ["-e", "process.stdout.write('out'); process.exit(3)"]) otherwise crash with "no process"
  console.print("{name} {i} {r.status} {r.headers} {r.body} {gone.status} {t} {p.exit_code} {p.stdout} {names.length()}")
end
`;
}

before(async () => {
  server = createServer((req, res) => {
    res.setHeader("x-kind", "page");
    res.end(`page ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  writeFileSync(join(work, "answers.ry"), program(port, await freePort()));
  const ran = await renyi(work, ["record", "--to", "answers.json", "answers.ry"], { env: { ANSWERS_NAME: "ann" } });
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  assert.equal(ran.status, 0, ran.stderr);
  liveStdout = ran.stdout;
  recordingText = readFileSync(join(work, "answers.json"), "utf8");
});

after(() => undefined);

type Calls = RecordedCall[];
type Success = { [key: string]: JsonValue };

/** The recorded call of `primitive` (the `nth` one, from 0), to edit. */
function callOf(calls: Calls, primitive: string, nth = 0): RecordedCall {
  const found = calls.filter((c) => c.primitive === primitive)[nth];
  assert.ok(found !== undefined, `the recording has no call ${nth} of ${primitive}`);
  return found;
}

function success(call: RecordedCall): Success {
  return (call.outcome as { success: Success }).success;
}

/** The recording with `edit` applied to its calls, written as `name`. */
function edited(name: string, edit: (calls: Calls) => void): string {
  const copy = JSON.parse(recordingText) as Recording;
  edit(copy.calls);
  writeFileSync(join(work, name), JSON.stringify(copy, null, 2));
  return name;
}

test("the recording as made replays, and prints what the live run printed", async () => {
  assert.match(liveStdout, /^ann \d 200 \{.*"x-kind": "page".*\} page \/page 200 hi 3 out \d+\n$/);
  const ran = await renyi(work, ["run", "--replay", "answers.json", "--console", "answers.ry"]);
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, liveStdout);
});

/** Each impossible answer: the edit, and the entry's field and what the refusal says of it. */
const IMPOSSIBLE: readonly { name: string; edit: (calls: Calls) => void; says: RegExp }[] = [
  {
    name: "an HTTP status above 599",
    edit: (c) => void (success(callOf(c, "std.http.get")).status = 999),
    says: /\(std\.http\.get\): outcome\.success\.status is 999, but an HTTP status is a whole number from 100 to 599/,
  },
  {
    name: "an HTTP status below 100",
    edit: (c) => void (success(callOf(c, "std.http.get")).status = 42),
    says: /outcome\.success\.status is 42, but an HTTP status/,
  },
  {
    name: "an HTTP status that is not whole",
    edit: (c) => void (success(callOf(c, "std.http.get")).status = 200.5),
    says: /outcome\.success\.status is 200\.5, but an HTTP status is a whole number/,
  },
  {
    name: "an HTTP status written as text",
    edit: (c) => void (success(callOf(c, "std.http.get")).status = "200"),
    says: /outcome\.success\.status is "200", but an HTTP status is a whole number/,
  },
  {
    name: "a header name that is no token",
    edit: (c) => void ((success(callOf(c, "std.http.get")).headers as Success)["x kind"] = "a"),
    says: /outcome\.success\.headers\["x kind"\] is a header name that is not an HTTP token/,
  },
  {
    name: "a header name in capitals",
    edit: (c) => void ((success(callOf(c, "std.http.get")).headers as Success)["X-Kind"] = "a"),
    says: /outcome\.success\.headers\["X-Kind"\] is a header name that is not an HTTP token in lower case/,
  },
  {
    name: "a header value with CR and LF",
    edit: (c) => void ((success(callOf(c, "std.http.get")).headers as Success)["x-kind"] = "a\r\nset-cookie: b"),
    says: /outcome\.success\.headers\.x-kind is "a\\r\\nset-cookie: b", but a header's value is a text without CR, LF or NUL/,
  },
  {
    name: "a header value with NUL",
    edit: (c) => void ((success(callOf(c, "std.http.get")).headers as Success)["x-kind"] = "a\u0000"),
    says: /outcome\.success\.headers\.x-kind is "a\\u0000", but a header's value/,
  },
  {
    name: "a header value that is no text",
    edit: (c) => void ((success(callOf(c, "std.http.get")).headers as Success)["x-kind"] = 5),
    says: /outcome\.success\.headers\.x-kind is 5, but a header's value is a text/,
  },
  {
    name: "a body that is not text",
    edit: (c) => void (success(callOf(c, "std.http.get")).body = ["page"]),
    says: /outcome\.success\.body is \["page"\], but it is a text/,
  },
  {
    name: "a response without a body",
    edit: (c) => void delete success(callOf(c, "std.http.get")).body,
    says: /outcome\.success\.body is missing, but a response has its body/,
  },
  {
    name: "a response with a field no response has",
    edit: (c) => void (success(callOf(c, "std.http.get")).url = "http://example.com/"),
    says: /outcome\.success\.url is "http:\/\/example\.com\/", but no live answer has that field/,
  },
  {
    name: "an HTTP failure raised before any call",
    edit: (c) => void (callOf(c, "std.http.get", 1).outcome = { failure: { HostNotAllowed: { host: "example.com" } } }),
    says: /outcome\.failure is \{"HostNotAllowed".*, but std\.http\.get fails only with Timeout, Unreachable, TooLarge/,
  },
  {
    name: "a negative duration",
    edit: (c) => void (callOf(c, "std.http.get").duration_ms = -5),
    says: /duration_ms must be a number of milliseconds, 0 or more/,
  },
  {
    name: "an exit code above 255",
    edit: (c) => void (success(callOf(c, "std.process.run")).exit_code = 256),
    says: /\(std\.process\.run\): outcome\.success\.exit_code is 256, but an exit code is a whole number from 0 to 255/,
  },
  {
    name: "a negative exit code",
    edit: (c) => void (success(callOf(c, "std.process.run")).exit_code = -1),
    says: /outcome\.success\.exit_code is -1, but an exit code/,
  },
  {
    name: "a process output that is not text",
    edit: (c) => void (success(callOf(c, "std.process.run")).stdout = 7),
    says: /outcome\.success\.stdout is 7, but it is a text/,
  },
  {
    name: "a random integer outside its bounds",
    edit: (c) => void (callOf(c, "std.random.integer").outcome = { success: 7 }),
    says: /\(std\.random\.integer\): outcome\.success is 7, but random\.integer\(1, 6\) answers a whole number from 1 to 6/,
  },
  {
    name: "a random float of 1",
    edit: (c) => void (callOf(c, "std.random.float").outcome = { success: 1 }),
    says: /outcome\.success is 1, but random\.float answers a number from 0 \(included\) to 1 \(excluded\)/,
  },
  {
    name: "an instant that does not exist",
    edit: (c) => void (callOf(c, "std.time.now").outcome = { success: "2026-02-30T10:00:00.000Z" }),
    says: /\(std\.time\.now\): outcome\.success is "2026-02-30T10:00:00\.000Z", but an instant is an ISO 8601 time/,
  },
  {
    name: "a day that does not exist",
    edit: (c) => void (callOf(c, "std.time.today").outcome = { success: "2026-13-01" }),
    says: /\(std\.time\.today\): outcome\.success is "2026-13-01", but a date is a day that exists/,
  },
  {
    name: "a sleep that answers a value",
    edit: (c) => void (callOf(c, "std.time.sleep").outcome = { success: 5 }),
    says: /\(std\.time\.sleep\): outcome\.success is 5, but the call gives back nothing/,
  },
  {
    name: "a variable's value with NUL",
    edit: (c) => void (callOf(c, "std.environment.get").outcome = { success: "a\u0000b" }),
    says: /\(std\.environment\.get\): outcome\.success is "a\\u0000b", but it cannot hold NUL/,
  },
  {
    name: "a directory entry that climbs out",
    edit: (c) => void (callOf(c, "std.filesystem.list").outcome = { success: ["../secret"] }),
    says: /\(std\.filesystem\.list\): outcome\.success\[0\] is "\.\.\/secret", but a directory's entry is a name without `\/`/,
  },
  {
    name: "a directory entry twice",
    edit: (c) => void (callOf(c, "std.filesystem.list").outcome = { success: ["a.txt", "a.txt"] }),
    says: /outcome\.success is \["a\.txt","a\.txt"\], but a directory holds each name once/,
  },
  {
    name: "file bytes that are not base64",
    edit: (c) => void (callOf(c, "std.filesystem.read_bytes").outcome = { success: "not base64!" }),
    says: /\(std\.filesystem\.read_bytes\): outcome\.success is "not base64!", but bytes are written as base64/,
  },
  {
    name: "a file read that is not text",
    edit: (c) => void (callOf(c, "std.filesystem.read_text").outcome = { success: { text: "hi" } }),
    says: /\(std\.filesystem\.read_text\): outcome\.success is \{"text":"hi"\}, but it is a text/,
  },
  {
    name: "a database opened at another path",
    edit: (c) => void (success(callOf(c, "std.database.open")).path = "/etc/other.db"),
    says: /\(std\.database\.open\): outcome\.success\.path is "\/etc\/other\.db", but database\.open answers the database it opened, at "t\.db"/,
  },
  {
    name: "a negative count of rows changed",
    edit: (c) => void (callOf(c, "std.database.execute").outcome = { success: -1 }),
    says: /\(std\.database\.execute\): outcome\.success is -1, but a count of rows/,
  },
  {
    name: "a print that fails",
    edit: (c) => void (callOf(c, "std.console.print").outcome = { failure: { Failed: { path: "x", reason: "y" } } }),
    says: /\(std\.console\.print\): outcome\.failure is .*, but std\.console\.print cannot fail/,
  },
  {
    name: "a call under another capability",
    edit: (c) => void (callOf(c, "std.environment.get").capability = "console"),
    says: /\(std\.environment\.get\): capability is console, but a call of std\.environment\.get uses environment/,
  },
];

for (const { name, edit, says } of IMPOSSIBLE) {
  test(`a replay refuses a recording holding ${name}, before the program runs`, async () => {
    const file = edited(`impossible-${name.replace(/\W+/g, "-")}.json`, edit);
    const ran = await renyi(work, ["run", "--replay", file, "--console", "answers.ry"]);
    assert.equal(ran.status, 3, ran.stderr);
    assert.equal(ran.stdout, "");
    assert.match(ran.stderr, new RegExp(`^error\\[E-RT-RECORDING\\]: ${file.replace(/\./g, "\\.")} is refused: `));
    assert.match(ran.stderr, /calls\[\d+\]/);
    assert.match(ran.stderr, says);
    assert.doesNotMatch(ran.stderr, /\n\s+at /);
  });
}

test("renyi reproduce and renyi grant refuse a recording with an impossible answer too", async () => {
  const file = edited("impossible-reproduce.json", (c) => void (success(callOf(c, "std.http.get")).status = 1000));
  const reproduced = await renyi(work, ["reproduce", file, "answers.ry"]);
  assert.equal(reproduced.status, 3);
  assert.match(reproduced.stderr, /^error\[E-RT-RECORDING\]: .* outcome\.success\.status is 1000/);
  const granted = await renyi(work, ["grant", file]);
  assert.equal(granted.status, 3);
  assert.match(granted.stderr, /E-RT-RECORDING/);
});

test("answers of the primitives this program does not call are held to what a live call gives too", () => {
  const entry = (primitive: string, capability: string, args: Success, outcome: RecordedCall["outcome"]) => {
    const copy = JSON.parse(recordingText) as Recording;
    copy.grant.push(capability);
    copy.calls = [{ sequence: 1, capability, primitive, arguments: args, outcome }];
    return readRecording(Buffer.from(JSON.stringify(copy)), "hand.json");
  };
  const refusedWith = (read: ReturnType<typeof readRecording>, pattern: RegExp) => {
    assert.ok(!read.ok, "the recording was read");
    assert.equal(read.code, "E-RT-RECORDING");
    assert.match(read.problem, pattern);
  };
  refusedWith(
    entry("std.server.serve", "network.socket(8080)", { port: 8080 }, { failure: { InUse: { port: 70000 } } }),
    /outcome\.failure\.InUse\.port is 70000, but a port is a whole number from 0 to 65,535/,
  );
  refusedWith(
    entry("std.server.serve", "network.socket(8080)", { port: 8080 }, { success: { status: 200 } }),
    /\(std\.server\.serve\): outcome\.success is .*, but the call gives back nothing/,
  );
  refusedWith(
    entry("std.console.read_line", "console", {}, { success: "one\ntwo" }),
    /outcome\.success is "one\\ntwo", but it cannot hold a line break/,
  );
  refusedWith(
    entry("std.random.uuid", "random", {}, { success: "00000000-0000-0000-0000-000000000000" }),
    /random\.uuid answers a version 4 UUID/,
  );
  refusedWith(
    entry("std.random.choice", "random", { items: [] }, { success: 1 }),
    /an empty list has no item to choose/,
  );
  refusedWith(
    entry("std.random.shuffle", "random", { items: [1, 2] }, { success: [2, 2] }),
    /random\.shuffle answers the items it was given/,
  );
  refusedWith(
    entry(
      "std.http.head",
      'network.http("127.0.0.1")',
      { url: "http://127.0.0.1/" },
      { success: { status: 200, headers: {}, body: "x" } },
    ),
    /a response to HEAD has no body/,
  );
  refusedWith(
    entry(
      "std.http.get",
      'network.http("127.0.0.1")',
      { url: "http://127.0.0.1/" },
      { success: { status: 204, headers: {}, body: "x" } },
    ),
    /a response of status 204 has no body/,
  );
  refusedWith(
    entry(
      "std.http.get",
      'network.http("127.0.0.1")',
      { url: "http://127.0.0.1/" },
      { success: { status: 200, headers: {}, body: "a", bytes: "Yg==" } },
    ),
    /has them agree/,
  );
  refusedWith(
    entry(
      "std.http.get",
      'network.http("127.0.0.1")',
      { url: "http://127.0.0.1/" },
      { success: { status: 200, headers: { "x-a": "\u20ac" }, body: "" } },
    ),
    /of characters up to U\+00FF/,
  );
  refusedWith(
    entry(
      "std.foreign.call",
      'foreign("m.mjs")',
      { module: "m.mjs", function: "f" },
      { failure: { PermissionDenied: { module: "m.mjs" } } },
    ),
    /std\.foreign\.call fails only with Failed/,
  );
  refusedWith(
    entry("std.unknown.call", "console", {}, { success: null }),
    /\(std\.unknown\.call\): primitive is no primitive of the library/,
  );
  const fine = entry(
    "std.foreign.call",
    'foreign("m.mjs")',
    { module: "m.mjs", function: "f" },
    { success: { any: ["json", 1.5, null] } },
  );
  assert.ok(fine.ok, fine.ok ? "" : fine.problem);
});

test("a redirect to a Location that is no address fails the call as InvalidUrl, in a replay as live", async () => {
  const file = edited("bad-location.json", (c) => {
    const hop = success(callOf(c, "std.http.get"));
    hop.status = 302;
    (hop.headers as Success)["location"] = "http://[";
  });
  const ran = await renyi(work, ["run", "--replay", file, "--console", "answers.ry"]);
  assert.equal(ran.status, 2, ran.stderr);
  assert.match(ran.stderr, /^error\[E-RT-CRASH\]: no page/);
  assert.doesNotMatch(ran.stderr, /E-RT-INTERNAL/);
});

/** Paths to every value inside a JSON value, the value itself first. */
function pathsIn(value: JsonValue, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value))
    value.forEach((v, i) => {
      out.push(...pathsIn(v, [...at, i]));
    });
  else if (typeof value === "object" && value !== null)
    for (const [k, v] of Object.entries(value)) out.push(...pathsIn(v, [...at, k]));
  return out;
}

/** A random edit of one recorded outcome: a value replaced, a field removed, or a field added. */
const mutation = fc.record({
  call: fc.nat(),
  path: fc.nat(),
  kind: fc.constantFrom("replace", "remove", "add"),
  value: fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.integer({ min: -1000, max: 1000 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(
      "",
      "a\r\nb",
      "a\u0000",
      "Bad Name",
      "2026-02-30",
      "../x",
      "<redacted>",
      "http://[",
      "/elsewhere",
      302,
      999,
      256,
      -1,
      1e300,
    ),
  ),
  key: fc.constantFrom(
    "status",
    "headers",
    "body",
    "bytes",
    "exit_code",
    "x-new",
    "location",
    "Bad Name",
    "path",
    "url",
  ),
});

function mutate(calls: Calls, m: { call: number; path: number; kind: string; value: unknown; key: string }): void {
  const call = calls[m.call % calls.length]!;
  const holder = call.outcome as unknown as { [key: string]: JsonValue };
  const side = Object.keys(holder)[0]!;
  const paths = pathsIn(holder[side]!, [side]);
  const path = paths[m.path % paths.length]!;
  let parent: { [key: string]: JsonValue } | JsonValue[] = holder;
  for (const part of path.slice(0, -1))
    parent = (parent as { [key: string]: JsonValue })[part as string] as { [key: string]: JsonValue };
  const last = path[path.length - 1]!;
  const target = (parent as { [key: string]: JsonValue })[last as string];
  if (m.kind === "add" && typeof target === "object" && target !== null && !Array.isArray(target))
    target[m.key] = m.value as JsonValue;
  else if (m.kind === "remove" && path.length > 1 && !Array.isArray(parent))
    delete (parent as { [key: string]: JsonValue })[last as string];
  else (parent as { [key: string]: JsonValue })[last as string] = m.value as JsonValue;
}

test("a random edit of a recorded answer is read or refused with E-RT-RECORDING, never an exception", () => {
  fc.assert(
    fc.property(mutation, (m) => {
      const copy = JSON.parse(recordingText) as Recording;
      mutate(copy.calls, m);
      const read = readRecording(Buffer.from(JSON.stringify(copy)), "mutated.json");
      if (!read.ok) assert.equal(read.code, "E-RT-RECORDING");
    }),
    { numRuns: 2000 },
  );
});

test("a replay of a randomly edited answer replays or stops with a recording or replay error, never a stack or an internal error", async () => {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(mutation, async (m) => {
      const file = edited(`mutated-${n++}.json`, (calls) => mutate(calls, m));
      const ran = await renyi(work, ["run", "--replay", file, "--console", "answers.ry"]);
      assert.ok(
        ran.status === 0 || ran.status === 1 || ran.status === 2 || ran.status === 3,
        `exit ${ran.status}: ${ran.stderr}`,
      );
      assert.doesNotMatch(ran.stderr, /E-RT-INTERNAL|E-INTERNAL/);
      assert.doesNotMatch(ran.stderr, /\n\s+at .*:\d+:\d+/);
      if (ran.status === 3) assert.match(ran.stderr, /^error\[E-RT-RECORDING\]/);
      // An answer the reader let through reached the program only as a live call could have given it.
      if (ran.status !== 3)
        assert.match(ran.stderr, /^$|E-RT-REPLAY-(SHAPE|MISMATCH|DIFFERS)|E-RT-CRASH|E-RT-FAILED|note: /);
    }),
    { numRuns: 40 },
  );
});
