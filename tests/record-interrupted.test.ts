// A recording is written whole however the run ends (spec/recording.md): a
// program that crashes, and one stopped with Ctrl-C (SIGINT to the renyi
// process) in the middle of a request, both leave a valid recording of every
// call that completed, with the outcome that says how the run ended.

import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { readRecording } from "../cli/recordings/reader.js";
import { renyi, startServer } from "./record-support.js";

function readBack(work: string, name: string) {
  const read = readRecording(readFileSync(join(work, name)));
  assert.ok(read.ok, read.ok ? "" : read.problem);
  assert.deepEqual(
    readdirSync(work).filter((f) => f.endsWith(".tmp")),
    [],
  );
  return read.recording;
}

test("a run that crashes leaves a valid recording of its calls, outcome crashed", async () => {
  const work = mkdtempSync(join(tmpdir(), "renyi-record-crash-"));
  const server = await startServer();
  writeFileSync(
    join(work, "boom.ry"),
    `public function main()
  purpose: Call once, then crash.
  needs console, network.http("127.0.0.1")
  let r be http.get("${server.base}/same") otherwise crash with "no"
  console.print("got {r.body}")
  crash with "boom"
end
`,
  );
  const ran = await renyi(work, ["record", "--to", "boom.json", "boom.ry"]);
  await server.close();
  assert.equal(ran.status, 2);
  assert.match(ran.stderr, /error\[E-RT-CRASH\]: boom/);
  const recording = readBack(work, "boom.json");
  assert.equal(recording.outcome, "crashed");
  assert.deepEqual(
    recording.calls.map((c) => c.primitive),
    ["std.http.get", "std.console.print"],
  );
});

test("Ctrl-C in the middle of a request leaves a valid recording of the calls before it, outcome cancelled", async () => {
  const work = mkdtempSync(join(tmpdir(), "renyi-record-interrupt-"));
  const server = await startServer();
  writeFileSync(
    join(work, "hang.ry"),
    `public function main()
  purpose: Call twice, then wait on a server that never answers.
  needs console, network.http("127.0.0.1")
  let a be http.get("${server.base}/same") otherwise crash with "no"
  let b be http.get("${server.base}/same") otherwise crash with "no"
  console.print("waiting after {a.body} {b.body}")
  let c be http.get("${server.base}/hang") otherwise crash with "no"
  console.print("never {c.body}")
end
`,
  );
  const ran = await renyi(work, ["record", "hang.ry"], {
    onStarted: (child) => {
      child.stdout!.on("data", (d: Buffer) => {
        if (d.toString().includes("waiting")) setTimeout(() => child.kill("SIGINT"), 100);
      });
    },
  });
  await server.close();
  assert.equal(ran.status, 130, ran.stderr);
  const recording = readBack(work, "hang.recording.json");
  assert.equal(recording.outcome, "cancelled");
  assert.deepEqual(
    recording.calls.map((c) => c.primitive),
    ["std.http.get", "std.http.get", "std.console.print"],
  );
  assert.deepEqual(
    recording.calls.map((c) => (c.outcome as { success: { body?: string } }).success?.body ?? null),
    ["1", "2", null],
  );
});
