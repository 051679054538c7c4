// Resuming a run that failed on a success it was given (spec/recording.md, "Resuming a run"): a status 503 is a
// success of `http.get`, so the recorded run failed on an answer the recording holds, and a resumption answers it
// again and fails at the same place. It says so, with the call and the command that makes it live again; `--from N`
// makes it live. A local service on 127.0.0.1 answers 503 for the third page until it is fixed, and counts requests.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Recording } from "../vocabulary/recording.js";
import { renyi } from "./record-support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-resume-from-"));
const counts = new Map<string, number>();
let busy = true;
let server: Server;
let base = "";

function program(needs = `network.http("127.0.0.1")`, query = ""): string {
  return `public function main() or fails with Text
  purpose: Four pages, each of which must answer 200.
  needs console, ${needs}
  for each i in 1 to 4
    let r be http.get("${base}/page?page={i}${query}") otherwise fail with "page {i} unreachable"
    if r.status is not 200
      fail with "page {i}: status {r.status}"
    end
    console.print("{i}: {r.body}")
  end
end
`;
}

before(async () => {
  server = createServer((req, res) => {
    const page = /page=(\d)/.exec(req.url ?? "")?.[1] ?? "?";
    counts.set(page, (counts.get(page) ?? 0) + 1);
    if (page === "3" && busy) {
      res.statusCode = 503;
      return void res.end("busy");
    }
    res.end(`page ${page}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  writeFileSync(join(work, "pages.ry"), program());
  const recorded = await renyi(work, ["record", "--to", "pages.json", "pages.ry"]);
  assert.equal(recorded.status, 1, recorded.stderr);
  assert.match(recorded.stderr, /page 3: status 503/);
  busy = false;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

test("a resumed run that fails where the recording did says so, with the call and the --from that makes it live", async () => {
  const before = new Map(counts);
  const ran = await renyi(work, ["run", "--resume", "pages.json", "pages.ry"]);
  assert.equal(ran.status, 1, ran.stderr);
  assert.deepEqual(counts, before, "no call was made live");
  assert.match(ran.stderr, /5 calls answered from it, 0 made live/);
  // Calls 1 to 5: page 1, its line, page 2, its line, page 3 (503).
  assert.ok(
    ran.stderr.includes(
      `note: the run failed where the recording did, after call 5 (std.http.get ${base}/page?page=3 answered 503 from ` +
        "the recording); to make it again live: renyi run --resume pages.json --from 5 pages.ry\n",
    ),
    ran.stderr,
  );
});

test("--from N makes live the call answered by entry N and every call after it; those before are answered", async () => {
  const before = new Map(counts);
  const ran = await renyi(work, ["run", "--resume", "pages.json", "--from", "5", "--to", "fixed.json", "pages.ry"]);
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "1: page 1\n2: page 2\n3: page 3\n4: page 4\n");
  assert.equal(counts.get("1"), before.get("1"), "page 1 was answered from the recording");
  assert.equal(counts.get("2"), before.get("2"), "page 2 was answered from the recording");
  assert.equal(counts.get("3"), (before.get("3") ?? 0) + 1, "page 3 was asked again");
  assert.equal(counts.get("4"), (before.get("4") ?? 0) + 1);
  assert.match(ran.stderr, /resumed pages\.json: 4 calls answered from it, 4 made live; recorded to fixed\.json/);
  assert.doesNotMatch(ran.stderr, /failed where the recording did/);
  const fixed = JSON.parse(readFileSync(join(work, "fixed.json"), "utf8")) as Recording;
  assert.equal(fixed.outcome, "finished");
  const status = (c: Recording["calls"][number]) => (c.outcome as { success: { status: number } }).success.status;
  assert.deepEqual(
    fixed.calls.filter((c) => c.primitive === "std.http.get").map(status),
    [200, 200, 200, 200],
    "the 503 is not in the new recording",
  );
  // The new recording replays.
  const replayed = await renyi(work, ["run", "--replay", "fixed.json", "--console", "pages.ry"]);
  assert.equal(replayed.status, 0, replayed.stderr);
  assert.equal(replayed.stdout, ran.stdout);
});

test("--from is refused past the recording's last call, without --resume, and by renyi record", async () => {
  const past = await renyi(work, ["run", "--resume", "pages.json", "--from", "6", "pages.ry"]);
  assert.equal(past.status, 3);
  assert.match(past.stderr, /^error: --from 6: pages\.json holds calls 1 to 5; give the sequence of a recorded call/);
  const alone = await renyi(work, ["run", "--from", "2", "pages.ry"]);
  assert.equal(alone.status, 3);
  assert.match(alone.stderr, /^error: --from says where a resumed run goes live; give --resume REC too/);
  const zero = await renyi(work, ["run", "--resume", "pages.json", "--from", "0", "pages.ry"]);
  assert.equal(zero.status, 3);
  assert.match(zero.stderr, /--from takes a whole number above 0/);
  const record = await renyi(work, ["record", "--from", "2", "pages.ry"]);
  assert.equal(record.status, 3);
  assert.match(record.stderr, /--from is for renyi run alone/);
});

// A run whose call carried a key its guard keeps from the console decided on guarded data (spec/runtime.md, "Decisions
// on guarded data"): where it failed is data of that key, and the note is not written.
test("a resumed run that decided on guarded data writes no note of where it failed, and nothing of the data", async () => {
  busy = true;
  try {
    writeFileSync(
      join(work, "keyed.ry"),
      program(
        `network.http("127.0.0.1"), environment("RENYI_RESUME_KEY") only to network.http("127.0.0.1")`,
        `&key={environment.get("RENYI_RESUME_KEY")}`,
      ),
    );
    const env = { RENYI_RESUME_KEY: "s3cr3t-Qx9" };
    const recorded = await renyi(work, ["record", "--to", "keyed.json", "keyed.ry"], { env });
    assert.equal(recorded.status, 1, recorded.stderr);
    const ran = await renyi(work, ["run", "--resume", "keyed.json", "keyed.ry"], { env });
    assert.equal(ran.status, 1, ran.stderr);
    assert.match(ran.stderr, /resumed keyed\.json: 8 calls answered from it, 0 made live/);
    assert.doesNotMatch(ran.stderr, /failed where the recording did/);
    assert.doesNotMatch(ran.stderr, /s3cr3t/);
  } finally {
    busy = false;
  }
});
