// A server's recording read as hostile input (spec/recording.md, "Servers" and
// "Reading a recording"): its requests, their headers, bodies and responses,
// and the calls that name them, are refused with E-RT-RECORDING and the JSON
// path of what is wrong; a file of 1 GiB is refused by its size before it is
// read; 100,000 requests are read in time that grows with their number alone.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { readRecording, readRecordingFile } from "../cli/recordings/reader.js";

const work = mkdtempSync(join(tmpdir(), "renyi-server-reader-"));
after(() => rmSync(work, { recursive: true, force: true }));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function request(sequence: number): { [key: string]: Json } {
  return {
    sequence,
    method: "GET",
    path: `/r/${sequence}`,
    query: { n: String(sequence) },
    headers: { host: "127.0.0.1:8080", "x-a": "b" },
    body: "",
    at_ms: sequence,
    response: { status: 200, headers: { "content-type": "text/plain" }, body: "ok" },
  };
}

/** A server's recording of `n` requests, each with one call of its handler, and `serve`'s own call. */
function served(n = 1): { [key: string]: Json } {
  const requests = Array.from({ length: n }, (_, i) => request(i + 1));
  const calls: Json[] = requests.map((_, i) => ({
    sequence: i + 1,
    request: i + 1,
    capability: 'environment("A")',
    primitive: "std.environment.get",
    arguments: { name: "A" },
    outcome: { success: null },
  }));
  calls.push({
    sequence: n + 1,
    capability: "network.socket(8080)",
    primitive: "std.server.serve",
    arguments: { port: 8080 },
    outcome: { success: null },
  });
  return {
    program: "s",
    toolchain: "renyi 0.1.0",
    source: "s.ry",
    code: "sha256:0",
    grant: ['environment("A")', "network.socket(8080)"],
    outcome: "finished",
    requests,
    calls,
  };
}

function read(recording: Json) {
  return readRecording(Buffer.from(JSON.stringify(recording), "utf8"), "served.json");
}

/** A recording as a hand edits it: any field, at any depth. */
// biome-ignore lint/suspicious/noExplicitAny: the tests write into the JSON anywhere, as a person editing the file would
type Editable = { [key: string]: any };

/** Reads `recording` edited by `edit`, and gives back the message it is refused with. */
function refusal(edit: (r: Editable) => void): string {
  const recording = served(2) as Editable;
  edit(recording);
  const got = read(recording as Json);
  assert.equal(got.ok, false, "the edited recording was read");
  if (got.ok) throw new Error("unreachable");
  assert.equal(got.code, "E-RT-RECORDING");
  return got.problem;
}

test("a server's recording is read with its requests and the request of each handler call", () => {
  const got = read(served(2));
  assert.ok(got.ok, got.ok ? "" : got.problem);
  assert.equal(got.recording.requests?.length, 2);
  assert.deepEqual(got.recording.requests?.[1]?.response, {
    status: 200,
    headers: { "content-type": "text/plain" },
    body: "ok",
  });
  assert.deepEqual(
    got.recording.calls.map((c) => c.request),
    [1, 2, undefined],
  );
  // A recording written before requests were recorded reads as it always did.
  const old = served(0);
  delete old["requests"];
  const oldRead = read(old);
  assert.ok(oldRead.ok);
  assert.equal(oldRead.recording.requests, undefined);
});

test("headers with CR or LF, or names that are no HTTP token, are refused at their JSON path", () => {
  assert.match(
    refusal((r) => (r.requests[1].headers["x-a"] = "b\r\nset-cookie: x")),
    /requests\[1\]\.headers\["x-a"\] is no header value/,
  );
  assert.match(
    refusal((r) => (r.requests[0].headers["bad name"] = "v")),
    /requests\[0\]\.headers\["bad name"\]: "bad name" is no header name/,
  );
  assert.match(
    refusal((r) => (r.requests[0].headers["X-Upper"] = "v")),
    /requests\[0\]\.headers\["X-Upper"\]: .* in lower case/,
  );
  assert.match(
    refusal((r) => (r.requests[0].response.headers["x-b"] = "one\ntwo")),
    /requests\[0\]\.response\.headers\["x-b"\] is no header value/,
  );
  assert.match(
    refusal((r) => (r.requests[0].response.headers["x\u0000"] = "v")),
    /requests\[0\]\.response\.headers\["x\\u0000"\]: .* is no header name/,
  );
  assert.match(
    refusal((r) => (r.requests[0].response.headers["Content-Length"] = "5")),
    /requests\[0\]\.response\.headers\["Content-Length"\] is framing/,
  );
  assert.match(
    refusal((r) => (r.requests[0].headers["x-a"] = 5)),
    /requests\[0\]\.headers\["x-a"\] must be a text/,
  );
});

test("a response status out of range, a method or path no request has, and a broken body are refused", () => {
  for (const status of [99, 199, 600, 200.5, "200", null, -1, 1e300])
    assert.match(
      refusal((r) => (r.requests[1].response.status = status)),
      /requests\[1\]\.response\.status is .*, but a server answers with a whole number from 200 to 599/,
    );
  assert.match(
    refusal((r) => (r.requests[0].method = "GE T")),
    /requests\[0\]\.method is "GE T"/,
  );
  assert.match(
    refusal((r) => (r.requests[0].path = "/a b")),
    /requests\[0\]\.path is "\/a b"/,
  );
  assert.match(
    refusal((r) => (r.requests[0].path = "relative")),
    /requests\[0\]\.path/,
  );
  assert.match(
    refusal((r) => (r.requests[0].bytes = "AAAA")),
    /requests\[0\] must have one of `body` and `bytes`/,
  );
  assert.match(
    refusal((r) => {
      delete r.requests[0].body;
      r.requests[0].bytes = "not base64!";
    }),
    /requests\[0\]\.bytes must be base64/,
  );
  assert.match(
    refusal((r) => (r.requests[0].surprise = 1)),
    /requests\[0\] has a field "surprise"/,
  );
  assert.match(
    refusal((r) => (r.requests[1].sequence = 1)),
    /requests\[1\]\.sequence is 1, which does not come after 1/,
  );
});

test("a call must name a request the recording holds, and requests only in a recording that has them", () => {
  assert.match(
    refusal((r) => (r.calls[0].request = 3)),
    /calls\[0\]\.request is 3, but the recording holds no request of that sequence/,
  );
  assert.match(
    refusal((r) => (r.calls[0].request = 0)),
    /calls\[0\]\.request must be a whole number of at least 1/,
  );
  assert.match(
    refusal((r) => delete r.requests),
    /`calls` names requests, but the recording has no `requests`/,
  );
});

test("a request body larger than a server reads is refused by its size", () => {
  const tooLarge = Buffer.alloc(10 * 1024 * 1024 + 3, 0xff).toString("base64");
  assert.match(
    refusal((r) => {
      delete r.requests[0].body;
      r.requests[0].bytes = tooLarge;
    }),
    /requests\[0\]'s body is 10,485,763 bytes, more than the 10,485,760 a server reads/,
  );
});

test("a recording of 1 GiB is refused by its size before it is read", () => {
  const file = join(work, "huge.json");
  writeFileSync(file, JSON.stringify(served(1)).slice(0, -1));
  // A file of 1 GiB that takes no room: its size is all the reader may look at.
  truncateSync(file, 1024 ** 3);
  const started = performance.now();
  const got = readRecordingFile(file);
  const ms = performance.now() - started;
  assert.equal(got.ok, false);
  if (got.ok) return;
  assert.equal(got.code, "E-RT-RECORDING");
  assert.match(got.problem, /268,435,456|larger than/);
  assert.ok(ms < 2000, `refusing took ${ms} ms: the file was read`);
});

test("100,000 requests are read in time that grows with their number alone", () => {
  const time = (n: number) => {
    const bytes = Buffer.from(JSON.stringify(served(n)), "utf8");
    const started = performance.now();
    const got = readRecording(bytes);
    const ms = performance.now() - started;
    assert.ok(got.ok, got.ok ? "" : got.problem);
    assert.equal(got.recording.requests?.length, n);
    return ms;
  };
  time(5_000); // warm
  const quarter = Math.min(time(25_000), time(25_000));
  const whole = time(100_000);
  // Linear: four times the requests, about four times the time (a square would be sixteen).
  assert.ok(whole < quarter * 10, `25,000 requests took ${quarter} ms, 100,000 took ${whole} ms`);
});
