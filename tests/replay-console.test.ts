// A replay of a program whose printed lines were edited (spec/recording.md, "When a call differs", "When the run
// ends"): a console line the recording does not hold no longer stops the replay, since the program reads nothing back
// from it. The new line is shown (with --console), takes the place of the recorded line when that is the next entry,
// and the lines that differ are listed at the end, E-RT-REPLAY-DIFFERS, exit 2; any other call still stops the replay
// at its first difference. Recorded against a local service on 127.0.0.1.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Recording } from "../vocabulary/recording.js";
import { renyi } from "./record-support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-replay-console-"));
let server: Server;
let base = "";

function program(print = `console.print("{i}: {r.body}")`, path = "page"): string {
  return `public function main() or fails with Text
  purpose: Print three pages.
  needs console, network.http("127.0.0.1")
  for each i in 1 to 3
    let r be http.get("${base}/${path}?n={i}") otherwise fail with "page {i} unreachable"
    ${print}
  end
end
`;
}

before(async () => {
  server = createServer((req, res) => res.end(`body ${/n=(\d)/.exec(req.url ?? "")?.[1]}`));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  writeFileSync(join(work, "pages.ry"), program());
  const recorded = await renyi(work, ["record", "--to", "pages.json", "pages.ry"]);
  assert.equal(recorded.status, 0, recorded.stderr);
  assert.equal(recorded.stdout, "1: body 1\n2: body 2\n3: body 3\n");
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

test("a replay of a program whose lines were edited shows the new lines and lists each against the recorded one", async () => {
  writeFileSync(join(work, "edited.ry"), program(`console.print("page {i}: {r.body}")`));
  const ran = await renyi(work, ["run", "--replay", "pages.json", "--console", "edited.ry"]);
  assert.equal(ran.status, 2, ran.stderr);
  assert.equal(ran.stdout, "page 1: body 1\npage 2: body 2\npage 3: body 3\n");
  assert.doesNotMatch(ran.stderr, /E-RT-REPLAY-MISMATCH/);
  assert.match(ran.stderr, /^error\[E-RT-REPLAY-DIFFERS\]: the replay ended differently from the recorded run\n/);
  assert.ok(
    ran.stderr.includes(
      "  = 3 console lines differ from the recording:\n" +
        '      console.print (call 2): "1: body 1" in the recording, "page 1: body 1" now\n' +
        '      console.print (call 4): "2: body 2" in the recording, "page 2: body 2" now\n' +
        '      console.print (call 6): "3: body 3" in the recording, "page 3: body 3" now\n',
    ),
    ran.stderr,
  );
  // Each edited line took its recorded line's place: no recorded call is left unreached.
  assert.doesNotMatch(ran.stderr, /not reached/);
  // The outcome is the recorded one: the run finished.
  assert.doesNotMatch(ran.stderr, /the run finished; the recorded run/);
});

test("a line added is listed as one the recording does not hold, and takes no recorded line's place", async () => {
  writeFileSync(join(work, "added.ry"), program(`console.print("{i}: {r.body}")\n    console.error("seen {i}")`));
  const ran = await renyi(work, ["run", "--replay", "pages.json", "added.ry"]);
  assert.equal(ran.status, 2, ran.stderr);
  assert.equal(ran.stdout, "", "without --console nothing is shown");
  assert.ok(
    ran.stderr.includes(
      "  = 3 console lines differ from the recording:\n" +
        '      console.error: "seen 1" now, no line in the recording\n',
    ),
    ran.stderr,
  );
  // The recorded lines all matched, and the output is the recorded output.
  assert.doesNotMatch(ran.stderr, /the output is/);
  assert.doesNotMatch(ran.stderr, /not reached/);
});

test("at most 10 differing lines are shown, then how many more", async () => {
  writeFileSync(
    join(work, "count.ry"),
    `public function main()
  purpose: Count to twelve.
  needs console
  for each i in 1 to 12
    console.print("line {i}")
  end
end
`,
  );
  assert.equal((await renyi(work, ["record", "--to", "count.json", "count.ry"])).status, 0);
  writeFileSync(join(work, "count.ry"), readFileSync(join(work, "count.ry"), "utf8").replace("line {i}", "row {i}"));
  const ran = await renyi(work, ["run", "--replay", "count.json", "--console", "count.ry"]);
  assert.equal(ran.status, 2, ran.stderr);
  assert.equal(ran.stdout.split("\n").length, 13);
  assert.match(ran.stderr, /12 console lines differ from the recording:\n/);
  assert.match(ran.stderr, /\(call 10\): "line 10" in the recording, "row 10" now\n {6}and 2 more\n/);
  assert.doesNotMatch(ran.stderr, /call 11/);
});

test("any other call that differs still stops the replay, saying which lines differed before it", async () => {
  writeFileSync(join(work, "moved.ry"), program(`console.print("page {i}: {r.body}")`, "other"));
  const ran = await renyi(work, ["run", "--replay", "pages.json", "--console", "moved.ry"]);
  assert.equal(ran.status, 2, ran.stderr);
  assert.match(ran.stderr, /^error\[E-RT-REPLAY-MISMATCH\]: the replay stopped at a call the recording does not hold/);
  assert.equal(ran.stdout, "");
  // An edited line before a call that differs: both are said.
  writeFileSync(
    join(work, "late.ry"),
    program(`console.print("page {i}: {r.body}")\n    let x be http.get("${base}/extra") otherwise fail with "extra"`),
  );
  const late = await renyi(work, ["run", "--replay", "pages.json", "--console", "late.ry"]);
  assert.equal(late.status, 2, late.stderr);
  assert.equal(late.stdout, "page 1: body 1\n");
  assert.match(
    late.stderr,
    /error\[E-RT-REPLAY-MISMATCH\][^\n]*\n {2}call made: std\.http\.get \{"url":"http:\/\/127\.0\.0\.1:\d+\/extra"\}/,
  );
  assert.match(
    late.stderr,
    /note: before the replay stopped, 1 console line differs from the recording:\n {6}console\.print \(call 2\): "1: body 1" in the recording, "page 1: body 1" now\n/,
  );
});

test("renyi reproduce lists a console line that differs from a recording edited by hand, and exits 2", async () => {
  const recording = JSON.parse(readFileSync(join(work, "pages.json"), "utf8")) as Recording;
  const edited = {
    ...recording,
    calls: recording.calls.map((c) => (c.sequence === 4 ? { ...c, arguments: { text: "2: from the past" } } : c)),
  };
  writeFileSync(join(work, "past.json"), JSON.stringify(edited, null, 2));
  const ran = await renyi(work, ["reproduce", "past.json"]);
  assert.equal(ran.status, 2, ran.stderr);
  assert.equal(ran.stdout, "1: body 1\n2: body 2\n3: body 3\n");
  assert.match(
    ran.stderr,
    / {2}= 1 console line differs from the recording:\n {6}console\.print \(call 4\): "2: from the past" in the recording, "2: body 2" now\n/,
  );
  assert.doesNotMatch(ran.stderr, /E-RT-REPLAY-MISMATCH|not reached/);
});
