// Resuming a run (spec/recording.md, "Resuming a run"): a program makes five
// HTTP calls to a local server that breaks the connection of the fourth the
// first time, so the recorded run fails; resumed once the server is fixed,
// calls 1 to 3 are answered from the recording (the server counts requests),
// 4 and 5 go live, the run finishes, and the new recording replays.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Recording } from "../vocabulary/recording.js";
import { renyi } from "./record-support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-resume-"));
/** Requests by path. */
const counts = new Map<string, number>();
let broken = true;
let server: Server;
let base: string;

function program(extra = ""): string {
  return `public function main() or fails with Text
  purpose: Five steps against the test server.
  needs console, network.http("127.0.0.1")
  for each i in 1 to 5
    let r be http.get("${base}/step/{i}") otherwise fail with "step {i} failed"
    console.print("{i}: {r.body}${extra}")
  end
end
`;
}

const read = (file: string) => JSON.parse(readFileSync(join(work, file), "utf8")) as Recording;
const urls = (r: Recording) =>
  r.calls.filter((c) => c.primitive === "std.http.get").map((c) => String(c.arguments["url"]).replace(base, ""));

before(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? "";
    counts.set(path, (counts.get(path) ?? 0) + 1);
    // The fourth step breaks the connection while the server is broken: the call fails with an HttpError.
    if (path === "/step/4" && broken) return void req.socket.destroy();
    res.end(`${path} #${counts.get(path)}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  writeFileSync(join(work, "five.ry"), program());
  const ran = await renyi(work, ["record", "five.ry"]);
  assert.equal(ran.status, 1, ran.stderr);
  assert.match(ran.stderr, /step 4 failed/);
});

after(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

test("a failed run is resumed: calls 1 to 3 come from the recording, 4 and 5 go live, and the new recording replays", async () => {
  const old = readFileSync(join(work, "five.recording.json"), "utf8");
  const recorded = read("five.recording.json");
  assert.deepEqual(urls(recorded), ["/step/1", "/step/2", "/step/3", "/step/4"]);
  assert.ok("failure" in recorded.calls.find((c) => String(c.arguments["url"]).endsWith("/step/4"))!.outcome);
  broken = false;
  const before = new Map(counts);
  const ran = await renyi(work, ["run", "--resume", "five.recording.json", "five.ry"]);
  assert.equal(ran.status, 0, ran.stderr);
  // The whole run's output: the answered prints are written again, the live ones after them.
  assert.equal(ran.stdout, "1: /step/1 #1\n2: /step/2 #1\n3: /step/3 #1\n4: /step/4 #2\n5: /step/5 #1\n");
  for (const i of [1, 2, 3])
    assert.equal(counts.get(`/step/${i}`), before.get(`/step/${i}`), `step ${i} was not repeated`);
  assert.equal(counts.get("/step/4"), 2);
  assert.equal(counts.get("/step/5"), 1);
  assert.match(
    ran.stderr,
    /resumed five\.recording\.json: 6 calls answered from it, 4 made live; recorded to five\.recording\.resumed\.json \(the run finished\)/,
  );
  // The old recording is as it was; the new one holds the answered entries, then the live calls.
  assert.equal(readFileSync(join(work, "five.recording.json"), "utf8"), old);
  const resumed = read("five.recording.resumed.json");
  assert.equal(resumed.outcome, "finished");
  assert.equal(resumed.code, recorded.code);
  assert.deepEqual(urls(resumed), ["/step/1", "/step/2", "/step/3", "/step/4", "/step/5"]);
  assert.deepEqual(
    resumed.calls.map((c) => c.sequence),
    resumed.calls.map((_, i) => i + 1),
  );
  assert.deepEqual(
    resumed.calls.slice(0, 6).map((c) => c.outcome),
    recorded.calls.slice(0, 6).map((c) => c.outcome),
  );
  const times = resumed.calls.map((c) => c.at_ms!);
  assert.ok(times[6]! >= times[5]!, `a live call's at_ms counts on from the answered ones: ${times.join(", ")}`);
  assert.equal(resumed.output?.bytes, Buffer.byteLength(ran.stdout));
  // Offline: the new recording replays, and reproduces.
  const replayed = await renyi(work, ["run", "--replay", "five.recording.resumed.json", "five.ry"]);
  assert.equal(replayed.status, 0, replayed.stderr);
  const reproduced = await renyi(work, ["reproduce", "five.recording.resumed.json"]);
  assert.equal(reproduced.status, 0, reproduced.stderr);
  assert.equal(reproduced.stdout, ran.stdout);
});

test("once live, always live: a call the recording holds after the first it does not hold is made live", async () => {
  // The recording holds steps 1, 2, 3 and 5 (the failure of step 4 taken out), step 5 with an answer the server never
  // gave.
  const edited = read("five.recording.json");
  const five = structuredClone(edited.calls[0]!);
  five.arguments["url"] = `${base}/step/5`;
  five.outcome = { success: { status: 200, headers: {}, body: "from the recording" } };
  edited.calls = [...edited.calls.filter((c) => !("failure" in c.outcome)), five].map((c, i) => ({
    ...c,
    sequence: i + 1,
  }));
  writeFileSync(join(work, "edited.json"), JSON.stringify(edited));
  const before = new Map(counts);
  const ran = await renyi(work, ["run", "--resume", "edited.json", "--to", "out/edited-resumed.json", "five.ry"]);
  assert.equal(ran.status, 3, "the folder of --to does not exist");
  assert.match(ran.stderr, /there is no folder out to write the new recording in/);
  assert.deepEqual(counts, before, "nothing ran");
  const again = await renyi(work, ["run", "--resume", "edited.json", "--to", "edited-resumed.json", "five.ry"]);
  assert.equal(again.status, 0, again.stderr);
  assert.doesNotMatch(again.stdout, /from the recording/);
  assert.equal(counts.get("/step/5"), before.get("/step/5")! + 1);
  assert.equal(counts.get("/step/1"), before.get("/step/1"));
  assert.ok(existsSync(join(work, "edited-resumed.json")));
});

test("resume refuses another program's code, the old recording as --to, and --to without --resume; it never writes over a file", async () => {
  writeFileSync(join(work, "changed.ry"), program("!"));
  const other = await renyi(work, ["run", "--resume", "five.recording.json", "changed.ry"]);
  assert.equal(other.status, 3);
  assert.match(other.stderr, /^error\[E-RT-REPLAY-CODE\]: changed\.ry is not the recorded program/);
  const over = await renyi(work, [
    "run",
    "--resume",
    "five.recording.json",
    "--to",
    "./five.recording.json",
    "five.ry",
  ]);
  assert.equal(over.status, 3);
  assert.match(over.stderr, /never written over/);
  const to = await renyi(work, ["run", "--to", "x.json", "five.ry"]);
  assert.equal(to.status, 3);
  assert.match(to.stderr, /--to names the recording --resume writes/);
  // A second resume of the same recording writes a file of its own beside the first.
  const first = readFileSync(join(work, "five.recording.resumed.json"), "utf8");
  const second = await renyi(work, ["run", "--resume", "five.recording.json", "five.ry"]);
  assert.equal(second.status, 0, second.stderr);
  assert.equal(readFileSync(join(work, "five.recording.resumed.json"), "utf8"), first);
  assert.ok(existsSync(join(work, "five.recording.resumed-2.json")));
});
