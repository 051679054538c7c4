// `renyi run --durable` (spec/durable.md, "The run side"), started by a real
// parent that plays the endpoint (durable-parent.ts), against a node:http
// stand-in on 127.0.0.1: live calls are kept before the program goes on, a
// second attempt makes no call the journal holds, the code is checked, sleep
// waits on the endpoint's timer, shared budgets refuse as a run's own do, and
// a redacted secret is never in what is kept.

import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { RecordedCall } from "../vocabulary/recording.js";
import { durableAttempt, type EndpointSide } from "./durable-parent.js";
import { freePort, renyiIn, seeded } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-durable-run-"));
const cache = join(work, "cache");

/** The stand-in: each path's requests counted, with the time each came (ms since the epoch). */
const seen = new Map<string, number[]>();
let server: Server;
let port = 0;

before(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? "/";
    seen.set(path, [...(seen.get(path) ?? []), Date.now()]);
    res.setHeader("content-type", "text/plain");
    res.end(`page ${path}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});

after(() => server.close());

function count(path: string): number {
  return seen.get(path)?.length ?? 0;
}

function program(name: string, source: string): string {
  const file = join(work, `${name}.ry`);
  writeFileSync(file, source);
  return file;
}

/** The code hash of a program: a durable run refused for another code names it. */
async function codeOf(file: string): Promise<string> {
  const end = await durableAttempt(work, cache, file, { code: "sha256:none" }).done;
  assert.equal(end.status, 3, end.stderr);
  const hash = /its code hashes to (\S+),/.exec(end.stderr)?.[1];
  assert.ok(hash !== undefined, end.stderr);
  return hash;
}

const TWO_CALLS = `public function main(port: Int)
  purpose: Fetch two pages one after the other, and print what each said.
  needs console, network.http("127.0.0.1")
  let first be http.get("http://127.0.0.1:{port}/two/1") otherwise return
  console.print(first.body)
  let second be http.get("http://127.0.0.1:{port}/two/2") otherwise return
  console.print(second.body)
end
`;

test("--durable is refused without the channel renyi serve --restate starts it with", async () => {
  const file = program("plain", TWO_CALLS);
  const alone = await renyiIn(work, ["run", "--durable", file, "--port", String(port)], {}, cache);
  assert.equal(alone.status, 3);
  assert.match(alone.stderr, /--durable runs one attempt of a durable invocation.*no IPC channel/s);
  assert.equal(count("/two/1"), 0, "nothing ran");
  // A channel without RENYI_DURABLE=1 is refused too.
  const code = await codeOf(file);
  const unmarked = await durableAttempt(
    work,
    cache,
    file,
    { code },
    { after: ["--port", String(port)], env: { RENYI_DURABLE: "" } },
  ).done;
  assert.equal(unmarked.status, 3);
  assert.match(unmarked.stderr, /no RENYI_DURABLE=1/);
  assert.equal(count("/two/1"), 0, "nothing ran");
});

test("a live call is kept before the program goes on; a changed program is refused E-RT-REPLAY-CODE", async () => {
  const file = program("two", TWO_CALLS);
  const code = await codeOf(file);
  let keptFirstAt: number | undefined;
  const began = Date.now();
  const side: EndpointSide = {
    code,
    keptAfterMs: 400,
    answered: (_id, at) => void (keptFirstAt ??= at),
  };
  const end = await durableAttempt(work, cache, file, side, { after: ["--port", String(port)] }).done;
  assert.equal(end.status, 0, end.stderr);
  assert.equal(end.record.outcome, "finished");
  assert.equal(end.output, "page /two/1\npage /two/2\n");
  // Call 2 came to the stand-in only once call 1 was kept.
  const secondAt = seen.get("/two/2")![0]! - began;
  assert.ok(
    keptFirstAt !== undefined && secondAt >= keptFirstAt,
    `call 2 at ${secondAt} ms, call 1 kept at ${keptFirstAt} ms`,
  );
  assert.deepEqual(
    end.kept.map((c) => [c.sequence, c.primitive]),
    [
      [1, "std.http.get"],
      [2, "std.console.print"],
      [3, "std.http.get"],
      [4, "std.console.print"],
    ],
  );
  // The program changed: refused before anything runs.
  const changed = program(
    "two",
    TWO_CALLS.replace("one after the other", "in turn").replace(
      "console.print(first.body)",
      'console.print("{first.status}")',
    ),
  );
  const refused = await durableAttempt(work, cache, changed, { code }, { after: ["--port", String(port)] }).done;
  assert.equal(refused.status, 3);
  assert.match(refused.stderr, /E-RT-REPLAY-CODE/);
  assert.equal(refused.record.outcome, "refused");
  assert.equal(count("/two/1"), 1);
});

test("a live call that failed is kept before the program sees the failure", async () => {
  const closed = await freePort();
  const file = program(
    "failing",
    `function fetch(url: Text) returns Text
  needs network.http("127.0.0.1")
  let response be http.get(url) otherwise return "failed"
  return response.body
end

public function main(port: Int, closed: Int)
  purpose: Fetch from a port nothing listens on, then from the stand-in.
  needs console, network.http("127.0.0.1")
  console.print(fetch("http://127.0.0.1:{closed}/"))
  console.print(fetch("http://127.0.0.1:{port}/after-failure"))
end
`,
  );
  const code = await codeOf(file);
  let failureKeptAt: number | undefined;
  const began = Date.now();
  const end = await durableAttempt(
    work,
    cache,
    file,
    { code, keptAfterMs: 400, answered: (_id, at) => void (failureKeptAt ??= at) },
    { after: ["--port", String(port), "--closed", String(closed)] },
  ).done;
  assert.equal(end.output, "failed\npage /after-failure\n", end.stderr);
  assert.ok("failure" in end.kept[0]!.outcome, JSON.stringify(end.kept[0]));
  const secondAt = seen.get("/after-failure")![0]! - began;
  assert.ok(failureKeptAt !== undefined && secondAt >= failureKeptAt, `${secondAt} ms, kept at ${failureKeptAt} ms`);
});

test("a second attempt makes none of the calls the journal holds, and the rest live", async () => {
  const file = program("again", TWO_CALLS.replaceAll("/two/", "/again/"));
  const code = await codeOf(file);
  const first = await durableAttempt(work, cache, file, { code }, { after: ["--port", String(port)] }).done;
  assert.equal(first.status, 0, first.stderr);
  // The endpoint died after the first call was journaled: the second attempt has it alone.
  const held = first.journal.slice(0, 1);
  const second = await durableAttempt(work, cache, file, { code, journaled: held }, { after: ["--port", String(port)] })
    .done;
  assert.equal(second.status, 0, second.stderr);
  assert.equal(count("/again/1"), 1, "call 1 answered from the journal");
  assert.equal(count("/again/2"), 2, "call 2 made live again");
  // The program's output is the whole run's; the live calls are numbered on from the journal's last.
  assert.equal(second.output, "page /again/1\npage /again/2\n");
  assert.deepEqual(
    second.kept.map((c) => c.sequence),
    [2, 3, 4],
  );
  assert.ok(second.kept[0]!.at_ms! >= (held[0]!.at_ms ?? 0) + (held[0]!.duration_ms ?? 0));
});

const PAGES = `public function page(port: Int, n: Int) returns Text
  purpose: One page, or what went wrong.
  needs network.http("127.0.0.1")
  let response be http.get("http://127.0.0.1:{port}/pages/{n}") otherwise return "failed {n}"
  return response.body
end

public function main(port: Int)
  purpose: Fetch ten pages at once.
  needs console, network.http("127.0.0.1")
  let pages be
    from n in list.range(1, 11)
    concurrently
    select page(port, n)
  console.print(text.join(pages, ","))
end
`;

test("concurrent calls: every page the journal holds is answered from it, whatever subset it holds", async () => {
  const file = program("pages", PAGES);
  const code = await codeOf(file);
  const first = await durableAttempt(work, cache, file, { code }, { after: ["--port", String(port)] }).done;
  assert.equal(first.status, 0, first.stderr);
  const whole = first.output;
  const fetches = first.journal.filter((c) => c.primitive === "std.http.get");
  assert.equal(fetches.length, 10);
  const random = seeded(7);
  for (let round = 0; round < 4; round++) {
    const held = fetches.filter(() => random() < 0.5);
    const before = new Map(
      fetches.map((c) => [
        String(c.arguments["url"]).replace(/^http:\/\/[^/]+/, ""),
        count(String(c.arguments["url"]).replace(/^http:\/\/[^/]+/, "")),
      ]),
    );
    const again = await durableAttempt(
      work,
      cache,
      file,
      { code, journaled: held },
      { after: ["--port", String(port)] },
    ).done;
    assert.equal(again.status, 0, again.stderr);
    assert.equal(again.output, whole);
    for (const [path, was] of before) {
      const isHeld = held.some((c) => String(c.arguments["url"]).endsWith(path));
      assert.equal(count(path), was + (isHeld ? 0 : 1), `${path} (${isHeld ? "held" : "not held"}) in round ${round}`);
    }
    assert.equal(again.kept.filter((c) => c.primitive === "std.http.get").length, 10 - held.length);
  }
});

const SLEEPER = `public function main()
  purpose: Sleep a little, then say so.
  needs console, time
  time.sleep(time.milliseconds(200))
  console.print("awake")
end
`;

test("time.sleep waits for the endpoint's woke, and --timeout does not count the sleep", async () => {
  const file = program("sleeper", SLEEPER);
  const code = await codeOf(file);
  const asked: number[] = [];
  const began = Date.now();
  const end = await durableAttempt(
    work,
    cache,
    file,
    { code, wokeAfterMs: 2500, heard: (m) => void ("sleep" in m && asked.push(m.sleep.ms)) },
    // 2 s, not 1: room for a slow start on a loaded machine, and still shorter than the 2.5 s the run waits.
    { before: ["--timeout", "2"] },
  ).done;
  assert.equal(end.status, 0, end.stderr);
  assert.equal(end.output, "awake\n");
  assert.deepEqual(asked, [200]);
  assert.ok(Date.now() - began >= 2500, "the run waited for woke, not its own 200 ms timer");
  assert.ok(end.kept.some((c) => c.primitive === "std.time.sleep"));
  // A sleep the journal holds is not slept again.
  const again = await durableAttempt(work, cache, file, { code, journaled: end.journal, wokeAfterMs: 60_000 }).done;
  assert.equal(again.status, 0, again.stderr);
  assert.equal(again.output, "awake\n");
});

test("Ctrl-C ends a run asleep on the endpoint's timer at once", async () => {
  const file = program("sleeper", SLEEPER);
  const code = await codeOf(file);
  let attempt: ReturnType<typeof durableAttempt> | undefined;
  const sleeping = new Promise<void>((resolve) => {
    attempt = durableAttempt(work, cache, file, {
      code,
      wokeAfterMs: 60_000,
      heard: (m) => void ("sleep" in m && resolve()),
    });
  });
  await sleeping;
  const asked = Date.now();
  attempt!.interrupt();
  const end = await attempt!.done;
  assert.equal(end.record.outcome, "cancelled");
  assert.equal(end.status, 130);
  assert.ok(Date.now() - asked < 1500, "ended at once");
});

test("the endpoint gone (its channel closed), the attempt ends as at Ctrl-C", async () => {
  const file = program("sleeper", SLEEPER);
  const code = await codeOf(file);
  let attempt: ReturnType<typeof durableAttempt> | undefined;
  await new Promise<void>((resolve) => {
    attempt = durableAttempt(work, cache, file, {
      code,
      wokeAfterMs: 60_000,
      heard: (m) => void ("sleep" in m && resolve()),
    });
  });
  const closed = Date.now();
  attempt!.disconnect();
  const end = await attempt!.done;
  assert.equal(end.record.outcome, "cancelled", end.stderr);
  assert.ok(Date.now() - closed < 1500, "ended at once");
  // Closed right after `start`: the attempt ends all the same, having printed nothing, whether the channel closed before
  // it read `start` (refused) or while its program was compiled (cancelled).
  for (let i = 0; i < 3; i++) {
    const early = await durableAttempt(work, cache, file, { code, closeAfterStart: true }).done;
    assert.ok(["refused", "cancelled"].includes(early.record.outcome), early.stderr);
    assert.equal(early.output, "");
  }
});

test("a shared budget that refuses gives OverBudget as a value the program matches", async () => {
  const file = program(
    "shared",
    `public function main(port: Int)
  purpose: Fetch a page under a shared budget.
  needs console, network.http("127.0.0.1")
  let response be http.get("http://127.0.0.1:{port}/shared") otherwise
    when HttpError.OverBudget(host) then
      console.print("over budget: {host}")
      return
    when _ then
      console.print("other")
      return
  end
  console.print(response.body)
end
`,
  );
  const code = await codeOf(file);
  const budget = {
    key: 'network.http("127.0.0.1")=1/minute',
    need: { path: ["network", "http"], scope: "127.0.0.1" },
    count: 1,
    unit: "minute" as const,
  };
  const asked: string[][] = [];
  const refused = await durableAttempt(
    work,
    cache,
    file,
    { code, shared: [budget], take: (keys) => asked.push([...keys]) < 0 },
    { after: ["--port", String(port)] },
  ).done;
  assert.equal(refused.status, 0, refused.stderr);
  assert.equal(refused.output, `over budget: 127.0.0.1:${port}\n`);
  assert.deepEqual(asked, [[budget.key]]);
  assert.equal(count("/shared"), 0);
  const allowed = await durableAttempt(
    work,
    cache,
    file,
    { code, shared: [budget], take: () => true },
    { after: ["--port", String(port)] },
  ).done;
  assert.equal(allowed.output, "page /shared\n");
  assert.equal(count("/shared"), 1);
});

test("a shared budget spent by calls a decision on a guarded secret counted: what it refuses after is not printed", async () => {
  const SECRET = "abcde";
  const source = (guarded: boolean) => `public function main(port: Int)
  purpose: Spend a shared budget by the secret's length, then count what is left.
  needs console, environment("SECRET")${guarded ? ` only to network.http("127.0.0.1:${port}")` : ""}, network.http("127.0.0.1:${port}")
  let s be environment.get("SECRET").or_else("")
  for each i in 1 to s.length()
    let r be http.get("http://127.0.0.1:{port}/tick?{s}") otherwise crash with "no tick"
  end
  var left be 0
  for each j in 1 to 20
    let r be http.get("http://127.0.0.1:{port}/probe") otherwise skip
    set left to left + 1
  end
  console.print("left {left}")
end
`;
  const budget = {
    key: `network.http("127.0.0.1:${port}")=20/run`,
    need: { path: ["network", "http"], scope: `127.0.0.1:${port}` },
    count: 20,
    unit: "run" as const,
  };
  for (const guarded of [false, true]) {
    const file = program(guarded ? "shared-guarded" : "shared-plain", source(guarded));
    const code = await codeOf(file);
    let taken = 0;
    const end = await durableAttempt(
      work,
      cache,
      file,
      { code, shared: [budget], take: () => ++taken <= budget.count },
      { after: ["--port", String(port)], env: { SECRET } },
    ).done;
    if (!guarded) assert.equal(end.output, `left ${20 - SECRET.length}\n`, end.stderr);
    else {
      assert.equal(end.output, "", "the count of refusals got out");
      assert.match(end.stderr, /E-RT-GUARD/);
    }
  }
});

test("--redact: what is kept never holds the secret", async () => {
  const file = program(
    "secret",
    `public function main(port: Int, token: Text)
  purpose: Send a token in a header and a query, and print what came back.
  needs console, network.http("127.0.0.1"), environment("API_KEY")
  let key be environment.get("API_KEY").or_else("")
  let response be http.get("http://127.0.0.1:{port}/secret?k={key}&t={token}", headers: {"authorization": "Bearer {key}"}) otherwise return
  console.print(response.body)
end
`,
  );
  const code = await codeOf(file);
  const side = { code, redacted: ["API_KEY", "token"] };
  const end = await durableAttempt(work, cache, file, side, {
    after: ["--port", String(port), "--token", "tok-98765"],
    env: { API_KEY: "sk-live-12345" },
  }).done;
  assert.equal(end.status, 0, end.stderr);
  const kept = JSON.stringify(end.kept);
  assert.ok(end.kept.length >= 3, kept);
  assert.doesNotMatch(kept, /sk-live-12345|tok-98765/);
  assert.match(kept, /<redacted>/);
  // A second attempt answered from the redacted journal still runs to the same end, making no call again.
  const before = count(`/secret?k=sk-live-12345&t=tok-98765`);
  assert.equal(before, 1);
  const again = await durableAttempt(
    work,
    cache,
    file,
    { ...side, journaled: end.journal },
    {
      after: ["--port", String(port), "--token", "tok-98765"],
      env: { API_KEY: "sk-live-12345" },
    },
  ).done;
  assert.equal(again.status, 0, again.stderr);
  assert.equal(count(`/secret?k=sk-live-12345&t=tok-98765`), 1);
  assert.deepEqual(again.kept, []);
  // An attempt given only the variable's read (journaled as the placeholder) reads it again, and the live call after it,
  // whose answer echoes the secret, is kept without it.
  const read = end.journal.filter((c) => c.primitive === "std.environment.get");
  assert.equal(read.length, 1);
  const partly = await durableAttempt(
    work,
    cache,
    file,
    { ...side, journaled: read },
    { after: ["--port", String(port), "--token", "tok-98765"], env: { API_KEY: "sk-live-12345" } },
  ).done;
  assert.equal(partly.status, 0, partly.stderr);
  assert.equal(count(`/secret?k=sk-live-12345&t=tok-98765`), 2);
  assert.ok(partly.kept.some((c) => c.primitive === "std.http.get"));
  assert.doesNotMatch(JSON.stringify(partly.kept), /sk-live-12345|tok-98765/);
});

test("answered calls count under the run's own budgets, and are never refused by them", async () => {
  const file = program(
    "budgeted",
    `function page(port: Int, n: Int) returns Text
  needs network.http("127.0.0.1")
  let response be http.get("http://127.0.0.1:{port}/budgeted/{n}") otherwise
    when HttpError.OverBudget(host) then return "over"
    when _ then return "failed"
  end
  return response.body
end

public function main(port: Int)
  purpose: Fetch three pages under a budget of two.
  needs console, network.http("127.0.0.1") at most 2 per run
  console.print("{page(port, 1)} {page(port, 2)} {page(port, 3)}")
end
`,
  );
  const code = await codeOf(file);
  const first = await durableAttempt(work, cache, file, { code }, { after: ["--port", String(port)] }).done;
  assert.equal(first.output, "page /budgeted/1 page /budgeted/2 over\n", first.stderr);
  const fetches = first.journal.filter((c) => c.primitive === "std.http.get");
  assert.equal(fetches.length, 2);
  // The two calls answered from the journal spent the budget: the third is refused again, as it was live.
  const second = await durableAttempt(
    work,
    cache,
    file,
    { code, journaled: fetches },
    { after: ["--port", String(port)] },
  ).done;
  assert.equal(second.output, "page /budgeted/1 page /budgeted/2 over\n", second.stderr);
  assert.deepEqual(
    [1, 2, 3].map((n) => count(`/budgeted/${n}`)),
    [1, 1, 0],
  );
  // A journal that holds more calls than the budget allows is answered whole: answered calls are never refused.
  const third = {
    ...fetches[1]!,
    sequence: 3,
    arguments: { ...fetches[1]!.arguments, url: `http://127.0.0.1:${port}/budgeted/3` },
  };
  const whole = await durableAttempt(
    work,
    cache,
    file,
    { code, journaled: [...fetches, third] },
    { after: ["--port", String(port)] },
  ).done;
  assert.equal(whole.output, "page /budgeted/1 page /budgeted/2 page /budgeted/2\n", whole.stderr);
  assert.deepEqual(
    [1, 2, 3].map((n) => count(`/budgeted/${n}`)),
    [1, 1, 0],
  );
});

test("the durable rule: each call is answered while its key's queue lasts, failures too, and never goes live for good", async () => {
  const { Replayer } = await import("../rtlib/recording/replayer.js");
  const { LIVE } = await import("../rtlib/gateway.js");
  const { Failure } = await import("../rtlib/errors.js");
  const read = (path: string) => ({
    name: "std.filesystem.read_text",
    need: { path: ["filesystem", "read"], scope: path },
  });
  const entry = (sequence: number, path: string, outcome: RecordedCall["outcome"]): RecordedCall => ({
    sequence,
    capability: `filesystem.read("${path}")`,
    primitive: "std.filesystem.read_text",
    arguments: { path },
    outcome,
  });
  const journal = [
    entry(1, "a", { failure: { NotFound: { path: "a" } } }),
    entry(2, "b", { success: "b once" }),
    entry(3, "a", { success: "a twice" }),
  ];
  const replayer = new Replayer(journal, [], { durable: true });
  const ask = (path: string): unknown => {
    try {
      return replayer.answer(read(path) as never, { path }, () => "performed", false);
    } catch (e) {
      return e instanceof Failure ? "failed" : e;
    }
  };
  // A failure the journal holds is answered as it was, and the call after it is still answered (no going live for good).
  assert.equal(ask("a"), "failed");
  assert.equal(ask("c"), LIVE, "a call the journal does not hold is made live");
  assert.equal(ask("b"), "b once", "answered after a live call");
  assert.equal(ask("a"), "a twice");
  assert.equal(ask("a"), LIVE, "its queue spent");
  assert.equal(ask("b"), LIVE);
  assert.equal(replayer.offline, false, "a durable run looks host names up, as a live run does");
  assert.deepEqual(replayer.unreached(), []);
});
