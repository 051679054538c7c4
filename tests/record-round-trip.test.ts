// Recorded runs end to end (spec/recording.md): a program records its calls to
// a real local server, the server is closed, and the recording is replayed and
// reproduced offline; then the recording is edited as a person would, and the
// replay answers as the edit says.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { readRecording } from "../cli/recordings/reader.js";
import type { Recording } from "../vocabulary/recording.js";
import { renyi, startServer } from "./record-support.js";

const SECRET = "s3cr3t-token-do-not-keep";
const work = mkdtempSync(join(tmpdir(), "renyi-record-"));
let recording: Recording;
let recordingText: string;
let liveStdout: string;

function program(base: string, needs = `console, network.http("127.0.0.1"), environment("API_KEY")`): string {
  return `type Item is record
  id: Int
end

type Payload is record
  b: Int
  a: List<Int>
end

public function main(label: Text = "x", token: Text = "none")
  purpose: Talk to the test server.
  needs ${needs}
  let key be optional.or_else(environment.get("API_KEY"), "none")
  let ids be from i in 1 to 4 concurrently at most 4 at a time select (http.get("${base}/item/{i}") otherwise crash with "no").body
  console.print("{ids}")
  let a be http.get("${base}/same") otherwise crash with "no"
  let b be http.get("${base}/same") otherwise crash with "no"
  let c be http.get("${base}/same") otherwise crash with "no"
  console.print("{a.body} {b.body} {c.body}")
  let bin be http.get("${base}/bin") otherwise crash with "no"
  console.print("{bin.bytes}")
  let e be http.post("${base}/echo", json.encode(Payload(b: 1, a: [1, 2])), headers: {"Authorization": "Bearer {key}"}) otherwise crash with "no"
  let item be json.decode(e.body, as: Item) otherwise crash with "the answer has another shape"
  console.print("{item.id} {label}")
end
`;
}

let base: string;

before(async () => {
  const server = await startServer();
  base = server.base;
  writeFileSync(join(work, "glue.ry"), program(base));
  const ran = await renyi(
    work,
    ["record", "--redact", "API_KEY", "--redact", "token", "glue.ry", "--label", "live", "--token", SECRET],
    { env: { API_KEY: SECRET } },
  );
  await server.close();
  assert.equal(ran.status, 0, ran.stderr);
  liveStdout = ran.stdout;
  recordingText = readFileSync(join(work, "glue.recording.json"), "utf8");
  const read = readRecording(Buffer.from(recordingText));
  assert.ok(read.ok, read.ok ? "" : read.problem);
  recording = read.recording;
});

after(() => undefined);

test("a recording holds every call in the order the calls completed, with the run manifest", () => {
  assert.equal(
    liveStdout,
    `["{\\"id\\":1}", "{\\"id\\":2}", "{\\"id\\":3}", "{\\"id\\":4}"]\n1 2 3\nBytes("AP/+wyiAAQ==")\n7 live\n`,
  );
  const items = recording.calls
    .filter((c) => String(c.arguments["url"]).includes("/item/"))
    .map((c) => String(c.arguments["url"]).slice(-1));
  // Made 1, 2, 3, 4 at once; the server answers 4 first.
  assert.deepEqual(items, ["4", "3", "2", "1"]);
  assert.deepEqual(
    recording.calls.map((c) => c.sequence),
    recording.calls.map((_, i) => i + 1),
  );
  assert.equal(recording.program, "glue");
  assert.equal(recording.outcome, "finished");
  assert.deepEqual(recording.grant, ["console", 'network.http("127.0.0.1")', 'environment("API_KEY")']);
  assert.match(recording.code, /^sha256:[0-9a-f]{64}$/);
  assert.deepEqual(recording.arguments, ["--label", "live", "--token", "<redacted>"]);
  assert.deepEqual(recording.environment, { API_KEY: "<redacted>" });
  assert.equal(recording.output?.bytes, Buffer.byteLength(liveStdout));
  // A body that is not UTF-8 is kept as base64 bytes, exactly.
  const bin = recording.calls.find((c) => String(c.arguments["url"]).endsWith("/bin"))!;
  assert.equal(
    (bin.outcome as { success: { bytes: string } }).success.bytes,
    Buffer.from([0, 0xff, 0xfe, 0xc3, 0x28, 0x80, 1]).toString("base64"),
  );
});

test("a redacted secret appears nowhere in the recording, in any form", () => {
  assert.ok(!recordingText.includes(SECRET));
  assert.ok(!recordingText.includes(Buffer.from(SECRET).toString("base64").slice(0, 16)));
  const echo = recording.calls.find((c) => String(c.arguments["url"]).endsWith("/echo"))!;
  assert.equal((echo.arguments["headers"] as Record<string, string>)["Authorization"], "Bearer <redacted>");
  // The server echoed the header back: the secret in the response is taken out too.
  assert.match(JSON.stringify(echo.outcome), /Bearer <redacted>/);
  assert.deepEqual(
    readdirSync(work).filter((f) => f.endsWith(".tmp")),
    [],
  );
});

test("with the server gone, the replay answers every call from the recording, writes nothing, and says at its end that the console lines were not shown", async () => {
  const ran = await renyi(work, [
    "run",
    "--replay",
    "glue.recording.json",
    "glue.ry",
    "--label",
    "live",
    "--token",
    "<redacted>",
  ]);
  assert.equal(
    ran.stderr,
    "note: 4 console lines were answered from the recording and not shown; --console shows them\n",
  );
  assert.equal(ran.status, 0);
  assert.equal(ran.stdout, "");
});

test("a replay whose program wrote no console line says nothing of the console; one line is said as one", async () => {
  writeFileSync(
    join(work, "quiet.ry"),
    `public function main()
  purpose: Read the clock and say nothing.
  needs time
  let now be time.now()
end
`,
  );
  writeFileSync(
    join(work, "once.ry"),
    `public function main()
  purpose: Say one thing on standard error.
  needs console
  console.error("once")
end
`,
  );
  for (const name of ["quiet", "once"]) {
    const recorded = await renyi(work, ["record", `${name}.ry`]);
    assert.equal(recorded.status, 0, recorded.stderr);
  }
  const quiet = await renyi(work, ["run", "--replay", "quiet.recording.json", "quiet.ry"]);
  assert.deepEqual([quiet.status, quiet.stdout, quiet.stderr], [0, "", ""]);
  const once = await renyi(work, ["run", "--replay", "once.recording.json", "once.ry"]);
  assert.deepEqual(
    [once.status, once.stdout, once.stderr],
    [0, "", "note: 1 console line was answered from the recording and not shown; --console shows it\n"],
  );
  // With --console the line is shown, and nothing more is said.
  const shown = await renyi(work, ["run", "--replay", "once.recording.json", "--console", "once.ry"]);
  assert.deepEqual([shown.status, shown.stdout, shown.stderr], [0, "", "once\n"]);
});

test("with --console, the replay prints what the program prints, from the recording; without --replay it is refused", async () => {
  const ran = await renyi(work, [
    "run",
    "--replay",
    "glue.recording.json",
    "--console",
    "glue.ry",
    "--label",
    "live",
    "--token",
    "<redacted>",
  ]);
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, liveStdout);
  assert.equal(ran.stderr, "", "the lines were shown: no note of them");
  const alone = await renyi(work, ["run", "--console", "glue.ry"]);
  assert.equal(alone.status, 3);
  assert.match(alone.stderr, /--console performs the console calls a replay answers; give --replay REC too/);
});

test("renyi reproduce runs the recorded program under its recorded arguments, console written", async () => {
  const ran = await renyi(work, ["reproduce", "glue.recording.json"]);
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, liveStdout);
  assert.match(ran.stderr, /^reproduced: the run finished as recorded, with the recorded output \(\d+ bytes\)\n$/);
});

test("renyi reproduce refuses a program whose code is not the recorded code", async () => {
  writeFileSync(join(work, "changed.ry"), program(base).replace("{item.id} {label}", "{item.id}: {label}"));
  const ran = await renyi(work, ["reproduce", "glue.recording.json", "changed.ry"]);
  assert.equal(ran.status, 3);
  assert.match(ran.stderr, /^error\[E-RT-REPLAY-CODE\]: changed\.ry is not the recorded program/);
});

test("a call that differs stops the replay at its .ry line, with the nearest recorded call and the fields that differ", async () => {
  writeFileSync(join(work, "moved.ry"), program(base).replace("/bin", "/binary"));
  const ran = await renyi(work, ["run", "--replay", "glue.recording.json", "moved.ry", "--label", "live"]);
  assert.equal(ran.status, 2);
  assert.match(
    ran.stderr,
    /^error\[E-RT-REPLAY-MISMATCH\]: the replay stopped at a call the recording does not hold\n/,
  );
  assert.match(ran.stderr, /call made: std\.http\.get \{"url":"http:\/\/127\.0\.0\.1:\d+\/binary"\}/);
  assert.match(
    ran.stderr,
    /nearest recorded call \(sequence \d+\): std\.http\.get \{"url":"http:\/\/127\.0\.0\.1:\d+\/bin"\}/,
  );
  assert.match(
    ran.stderr,
    /arguments\.url: "http:\/\/127\.0\.0\.1:\d+\/binary" here, "http:\/\/127\.0\.0\.1:\d+\/bin" in the recording/,
  );
  assert.match(ran.stderr, /--> moved\.ry:20:14/);
});

test("a console line that differs does not stop the replay: it is listed at the end against the recorded line", async () => {
  const ran = await renyi(work, ["run", "--replay", "glue.recording.json", "glue.ry", "--label", "other"]);
  assert.equal(ran.status, 2);
  assert.doesNotMatch(ran.stderr, /E-RT-REPLAY-MISMATCH/);
  assert.match(ran.stderr, /^error\[E-RT-REPLAY-DIFFERS\]: the replay ended differently from the recorded run\n/);
  assert.match(
    ran.stderr,
    /1 console line differs from the recording:\n {6}console\.print \(call \d+\): "7 live" in the recording, "7 other" now\n/,
  );
});

/** The recording with `edit` applied to its calls, written as `name`. */
function edited(name: string, edit: (calls: Recording["calls"]) => void): string {
  const copy = JSON.parse(recordingText) as Recording;
  edit(copy.calls);
  writeFileSync(join(work, name), JSON.stringify(copy, null, 2));
  return name;
}

test("a JSON body is matched by its meaning: other key order and spacing still match", async () => {
  const file = edited("reordered.json", (calls) => {
    const echo = calls.find((c) => String(c.arguments["url"]).endsWith("/echo"))!;
    echo.arguments["body"] = '{ "a": [1, 2],\n  "b": 1 }';
  });
  const ran = await renyi(work, ["run", "--replay", file, "glue.ry", "--label", "live"]);
  assert.equal(ran.status, 0, ran.stderr);
});

test("a response whose shape no longer fits the program's type fails the replay as it would in production", async () => {
  const file = edited("reshaped.json", (calls) => {
    const echo = calls.find((c) => String(c.arguments["url"]).endsWith("/echo"))!;
    (echo.outcome as { success: { body: string } }).success.body = '{"id": "seven"}';
  });
  const ran = await renyi(work, ["run", "--replay", file, "glue.ry", "--label", "live"]);
  assert.equal(ran.status, 2);
  assert.match(ran.stderr, /^error\[E-RT-CRASH\]: the answer has another shape/);
});

test("a recorded outcome that does not fit the primitive's own type is refused before the replay runs", async () => {
  const file = edited("bad-status.json", (calls) => {
    const same = calls.find((c) => String(c.arguments["url"]).endsWith("/same"))!;
    (same.outcome as { success: { status: unknown } }).success.status = "200";
  });
  const ran = await renyi(work, ["run", "--replay", file, "glue.ry", "--label", "live"]);
  assert.equal(ran.status, 3);
  assert.match(
    ran.stderr,
    /^error\[E-RT-RECORDING\]: bad-status\.json is refused: it holds an answer no live call could give: calls\[\d+\] \(std\.http\.get\): outcome\.success\.status is "200", but an HTTP status is a whole number from 100 to 599/,
  );
  assert.doesNotMatch(ran.stderr, /\n\s+at /);
});

test("a recording whose grant is wider than the program's is refused before the program runs", async () => {
  writeFileSync(
    join(work, "narrow.ry"),
    program(base, `console, network.http("127.0.0.1")`).replace(
      `optional.or_else(environment.get("API_KEY"), "none")`,
      `"<redacted>"`,
    ),
  );
  const ran = await renyi(work, ["run", "--replay", "glue.recording.json", "narrow.ry", "--label", "live"]);
  assert.equal(ran.status, 3);
  assert.equal(ran.stdout, "");
  assert.match(
    ran.stderr,
    /^error\[E-RT-REPLAY-GRANT\]: the recording's grant has `environment\("API_KEY"\)`, which the program's needs do not cover/,
  );
});

test("renyi run --manifest prints the run manifest and writes no file", async () => {
  const server = await startServer();
  writeFileSync(join(work, "manifest.ry"), program(server.base));
  const before = readdirSync(work).sort();
  const ran = await renyi(work, ["run", "--manifest", "manifest.ry", "--label", "m"], { env: { API_KEY: "k" } });
  await server.close();
  assert.equal(ran.status, 0, ran.stderr);
  const header = JSON.parse(ran.stderr) as Record<string, unknown>;
  assert.deepEqual(
    Object.keys(header),
    [
      "program",
      "revision",
      "toolchain",
      "source",
      "code",
      "arguments",
      "environment",
      "recorded_at",
      "grant",
      "outcome",
      "output",
    ].filter((k) => k !== "revision" || "revision" in header),
  );
  assert.deepEqual(header["environment"], {
    API_KEY: `sha256:${(await import("node:crypto")).createHash("sha256").update("k").digest("hex")}`,
  });
  assert.deepEqual(header["output"], {
    stdout: `sha256:${(await import("node:crypto")).createHash("sha256").update(ran.stdout).digest("hex")}`,
    bytes: Buffer.byteLength(ran.stdout),
  });
  assert.deepEqual(
    readdirSync(work)
      .filter((f) => f !== "cache")
      .sort(),
    before.filter((f) => f !== "cache"),
  );
});
