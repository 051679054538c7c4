// Attacks on the surfaces new in the `timeout` merge: bundles run from a data:
// URL, the time limit's place, the replay's note of unshown console lines,
// filesystem.size and the new text functions, and the command line's flags.
// Those still open are marked todo, each with what the specification
// promises, so that the suite stays green until they are fixed. Every part is
// real: child processes, files in a fresh folder, a sink on 127.0.0.1.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { renyiIn, renyiTimed, type TimedRun } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-found3-"));
const cache = join(work, "cache");
let sink: Server;
let sinkPort = 0;
before(async () => {
  sink = createServer((_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  sinkPort = (sink.address() as { port: number }).port;
});
after(() => {
  sink.close();
  rmSync(work, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  writeFileSync(join(work, name), text);
  return name;
}

const run = (args: readonly string[], env: Record<string, string> = {}) => renyiIn(work, args, env, cache);

test("a replay of a sealed recording does not tell an edited program's plain guess from the sealed secret", async () => {
  const sinkLine = `environment("SECRET") only to network.http("127.0.0.1:${sinkPort}"), network.http("127.0.0.1:${sinkPort}")`;
  // The run the tool server records: the key goes to its sink, as the guard allows, and the call is sealed.
  write(
    "live.ry",
    `public function main()
  purpose: Send the key to the sink the guard names.
  needs console, ${sinkLine}
  let s be environment.get("SECRET").or_else("")
  console.print("start")
  let r be http.get("http://127.0.0.1:${sinkPort}/?k={s}") otherwise crash with "no"
  console.print("done")
end
`,
  );
  // The edited program the agent replays: the same guards, a guess of its own in place of the key.
  write(
    "guess.ry",
    `public function main(guess: Text = "")
  purpose: Guess the key.
  needs console, ${sinkLine}
  let s be environment.get("SECRET").or_else("")
  console.print("start")
  let r be http.get("http://127.0.0.1:${sinkPort}/?k={guess}") otherwise crash with "no"
  console.print("done")
end
`,
  );
  writeFileSync(join(work, "seal.key"), randomBytes(32), { mode: 0o600 });
  const secret = "hunter2";
  const recorded = await run(["record", "--seal-key", "seal.key", "--to", "rec.json", "live.ry"], { SECRET: secret });
  assert.equal(recorded.status, 0, recorded.stderr);
  const replay = (guess: string) =>
    run(["run", "--replay", "rec.json", "--seal-key", "seal.key", "guess.ry", "--guess", guess], { SECRET: "" });
  const wrong = await replay("wrong");
  const right = await replay(secret);
  // Without the key's value nothing the replay shows may depend on the guess being right.
  const shown = (r: { status: number | null; stderr: string }) =>
    `${r.status} ${(r.stderr.match(/note: .*/) ?? [""])[0]} ${/E-RT-REPLAY-MISMATCH/.test(r.stderr)}`;
  assert.equal(shown(right), shown(wrong), `right: ${right.stderr}\nwrong: ${wrong.stderr}`);
});

test("a replayed guess that carries the secret's origins is a decision on it: its end shows no difference", async () => {
  // Made after the test above: the same recording, key and sink, and a guess tagged with the key's origins.
  const sinkLine = `environment("SECRET") only to network.http("127.0.0.1:${sinkPort}"), network.http("127.0.0.1:${sinkPort}")`;
  write(
    "tagged.ry",
    `public function main(guess: Text = "")
  purpose: Guess the key, with its origins on the guess.
  needs console, ${sinkLine}
  let s be environment.get("SECRET").or_else("")
  console.print("start")
  let r be http.get("http://127.0.0.1:${sinkPort}/?k={guess}{s.replace(s, "")}") otherwise crash with "no"
  console.print("done")
end
`,
  );
  const replay = (guess: string) =>
    run(["run", "--replay", "rec.json", "--seal-key", "seal.key", "tagged.ry", "--guess", guess], { SECRET: "" });
  const right = await replay("hunter2");
  const wrong = await replay("hunter3");
  // Whether the run finished is the one bit a decision leaves (spec/runtime.md, "Decisions on guarded data").
  assert.equal(right.status, 0, right.stderr);
  assert.doesNotMatch(right.stderr, /note:/);
  assert.equal(wrong.status, 2, wrong.stderr);
  assert.match(wrong.stderr, /E-RT-GUARD\]: how the run ended was refused/);
  assert.doesNotMatch(wrong.stderr, /E-RT-REPLAY-MISMATCH|differences|hunter|-->|note:/);
});

/** `renyi ARGS` in the work folder, with the time it took, killed at `killAfterMs`. */
function timed(args: readonly string[], killAfterMs: number): Promise<TimedRun> {
  return renyiTimed(args, { cwd: work, env: { ...process.env, RENYI_CACHE_DIR: cache }, killAfterMs });
}

for (const call of ["size", "read_text"]) {
  // A pipe is refused rather than waited on: a thread held in its open cannot notice the run's time limit.
  test(`filesystem.${call} of a FIFO in its scope fails at once, and never holds the run past its --timeout`, async () => {
    const folder = `fifo-${call}`;
    execFileSync("mkdir", ["-p", join(work, folder)]);
    execFileSync("mkfifo", [join(work, folder, "pipe")]);
    write(
      `fifo-${call}.ry`,
      `public function main()
  purpose: Wait on a FIFO in the folder it may read.
  needs console, filesystem.read("${folder}")
  let n be filesystem.${call}("${folder}/pipe") otherwise crash with "failed"
  console.print("after")
end
`,
    );
    const ran = await timed(["run", "--timeout", "2", `fifo-${call}.ry`], 20_000);
    // The time limit, two seconds of grace for a thread that cannot notice, and room for a slow machine.
    assert.ok(ran.ms < 12_000, `the run took ${ran.ms} ms under --timeout 2: ${ran.stderr}`);
    assert.equal(ran.status, 2, ran.stderr);
    assert.match(ran.stderr, /failed/);
    assert.doesNotMatch(ran.stderr, /E-RT-TIMEOUT|E-RT-INTERNAL/);
    assert.ok(ran.ms < 2_000 + 1_500, `the call waited: ${ran.ms} ms`);
  });
}

test("a replay's note of recorded calls not reached does not tell a decision on the sealed secret", async () => {
  const sinkLine = `environment("SECRET") only to network.http("127.0.0.1:${sinkPort}"), network.http("127.0.0.1:${sinkPort}")`;
  write(
    "live-reach.ry",
    `public function main()
  purpose: Send the key to the sink the guard names.
  needs console, ${sinkLine}
  let s be environment.get("SECRET").or_else("")
  let r be http.get("http://127.0.0.1:${sinkPort}/?k={s}") otherwise crash with "no"
  console.print("done")
end
`,
  );
  write(
    "reach.ry",
    `public function main(guess: Text = "")
  purpose: Make the sealed call only when the key starts with a guess.
  needs console, ${sinkLine}
  let s be environment.get("SECRET").or_else("")
  if s.starts_with(guess)
    let r be http.get("http://127.0.0.1:${sinkPort}/?k={s}") otherwise crash with "no"
  end
  console.print("done")
end
`,
  );
  writeFileSync(join(work, "reach.key"), randomBytes(32), { mode: 0o600 });
  const recorded = await run(["record", "--seal-key", "reach.key", "--to", "reach.json", "live-reach.ry"], {
    SECRET: "hunter2",
  });
  assert.equal(recorded.status, 0, recorded.stderr);
  const replay = (guess: string) =>
    run(["run", "--replay", "reach.json", "--seal-key", "reach.key", "reach.ry", "--guess", guess], { SECRET: "" });
  const right = await replay("hu");
  const wrong = await replay("zz");
  assert.equal(right.stderr, wrong.stderr, "what the replay says may not depend on the guarded decision");
  assert.equal(right.status, wrong.status);
});

test("a test whose filesystem.size meets a FIFO its needs reach is answered at once, not held past its --timeout", async () => {
  execFileSync("mkdir", ["-p", join(work, "fifo-test")]);
  execFileSync("mkfifo", [join(work, "fifo-test", "pipe")]);
  write(
    "fifo_test.ry",
    `test "waits on a FIFO" needs filesystem.read("fifo-test")
  let n be filesystem.size("fifo-test/pipe") otherwise -1
  check n is -1
end
`,
  );
  const ran = await timed(["test", "--timeout", "2", "fifo_test.ry"], 20_000);
  assert.ok(ran.ms < 12_000, `renyi test took ${ran.ms} ms under --timeout 2: ${ran.stderr}`);
  assert.equal(ran.status, 0, ran.stdout + ran.stderr);
});
