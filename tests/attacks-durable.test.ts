// Attacks on durable runs (spec/durable.md): a real restate-server and one
// `renyi serve --restate` endpoint, driven as an invoker who is hostile would
// drive them through the ingress. An attack the endpoint resists is a passing
// test; one that breaches a promise of the spec is a todo test named FOUND.

import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { RestateServer } from "./restate-support.js";
import { RENYI } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-attack-durable-"));
const cache = join(work, "cache");
const BUDGET = "network.http=2/minute";

let restate: RestateServer;
let standIn: Server;
let port = 0;
let child: ChildProcess | undefined;
const seen = new Map<string, number>();

interface Answer {
  outcome: string;
  code?: string;
  message?: string;
  output: string;
  errors: string;
  record: unknown;
}

function program(name: string, source: string): string {
  const file = join(work, `${name}.ry`);
  writeFileSync(file, source);
  return file;
}

async function invoke(service: string, body: unknown, raw?: string): Promise<Answer> {
  const answer = await restate.invoke(`${service}/run`, body, raw !== undefined ? { raw } : {});
  assert.equal(answer.status, 200, answer.body);
  return JSON.parse(answer.body) as Answer;
}

/** Every value the journal of the invocation holds, as the text Restate keeps of it. */
async function journalText(id: string): Promise<string> {
  const rows = await restate.query(`SELECT entry_json FROM sys_journal WHERE id = '${id}' ORDER BY index`);
  return rows.map((r) => String(r["entry_json"])).join("\n");
}

/** Decodes the Success bytes of each `Notification: Run` into the JSON value the step returned. */
async function journalValues(id: string): Promise<string> {
  const rows = await restate.query(
    `SELECT entry_json FROM sys_journal WHERE id = '${id}' AND entry_type = 'Notification: Run' ORDER BY index`,
  );
  return rows
    .map((r) => {
      const entry = JSON.parse(String(r["entry_json"])) as Record<string, unknown>;
      const found = JSON.stringify(entry).match(/"Success":\s*\[([\d,\s]*)\]/);
      return found === null ? JSON.stringify(entry) : Buffer.from(JSON.parse(`[${found[1]}]`)).toString();
    })
    .join("\n");
}

before(async () => {
  standIn = createServer((req, res) => {
    const path = req.url ?? "/";
    seen.set(path, (seen.get(path) ?? 0) + 1);
    res.end(`page ${path}`);
  });
  await new Promise<void>((resolve) => standIn.listen(0, "127.0.0.1", resolve));
  port = (standIn.address() as { port: number }).port;
  const files = [
    program(
      "hello",
      `public function main(name: Text = "world")
  purpose: Greet.
  needs console
  console.print("Hello, {name}!")
end
`,
    ),
    program(
      "fetcher",
      `public function main(path: Text)
  purpose: Fetch one page of the stand-in.
  needs console, network.http("127.0.0.1:${port}")
  let page be http.get("http://127.0.0.1:${port}/{path}") otherwise return
  console.print(page.body)
end
`,
    ),
    program(
      "proto",
      `public function main(constructor: Text)
  purpose: Print a required option named like a property of every JavaScript object.
  needs console
  console.print(constructor)
end
`,
    ),
    program(
      "leak",
      `public function main(token: Text)
  purpose: Print the token transformed, and a text made by branching on each of its characters.
  needs console
  console.print(token.reverse())
  console.print(token.upper())
  console.print(text.join(token.characters(), "-"))
  var out be ""
  for each c in token.characters()
    if c is "q"
      set out to out + "q"
    else
      set out to out + "z"
    end
  end
  console.print(out)
end
`,
    ),
    program(
      "sleeper",
      `public function main()
  purpose: Sleep ten years.
  needs console, time
  console.print("asleep")
  time.sleep(time.hours(87600))
  console.print("awake")
end
`,
    ),
    program(
      "words",
      `public function main(token: Text = "", arguments: List<Text>)
  purpose: Count its words.
  needs console
  console.print("{arguments.length()}")
end
`,
    ),
  ];
  const [server] = await Promise.all([
    RestateServer.start(),
    (async () => {
      child = spawn(
        process.execPath,
        [
          RENYI,
          "serve",
          "--restate",
          "--port",
          "0",
          "--allow",
          "console",
          "--allow",
          "time",
          "--allow-host",
          `127.0.0.1:${port}`,
          "--at-most",
          BUDGET,
          "--redact",
          "token",
          "--redact",
          "arguments",
          ...files,
        ],
        { cwd: work, env: { ...process.env, RENYI_CACHE_DIR: cache }, stdio: ["ignore", "pipe", "pipe"] },
      );
    })(),
  ]);
  restate = server;
  let stdout = "";
  let stderr = "";
  child!.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const uri = await new Promise<string>((resolve, reject) => {
    child!.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString();
      const found = / on (http:\/\/127\.0\.0\.1:\d+);/.exec(stdout)?.[1];
      if (found !== undefined) resolve(found);
    });
    child!.on("close", (status) => reject(new Error(`serve exited ${status}: ${stderr}`)));
  });
  const registered = await restate.register(uri);
  assert.ok(registered.status < 300, registered.body);
});

after(async () => {
  child?.kill("SIGTERM");
  standIn?.close();
  await restate?.stop();
  rmSync(work, { recursive: true, force: true });
});

test("hostile input: prototype keys, flag-like names and values, deep nesting, a lone surrogate are refused or read as data", async () => {
  for (const raw of [
    '{"__proto__": {"name": "x"}}',
    '{"--allow": "network"}',
    '{"name=x --allow-host": "evil"}',
    '{"constructor": "x"}',
    "[".repeat(400_000) + "]".repeat(400_000),
    `{"name": ${"[".repeat(200_000)}${"]".repeat(200_000)}}`,
    '{"name": "a\\u0000b"}',
  ]) {
    const answer = await invoke("hello", undefined, raw);
    assert.equal(answer.outcome, "refused", raw.slice(0, 60));
    assert.equal(answer.record, null);
    assert.doesNotMatch(answer.message ?? "", /at .*\.js:\d+|E-RT-INTERNAL/);
  }
  // Flag-like values are the option's text, never another flag of renyi run.
  const flag = await invoke("hello", { name: "x --allow network --trust /etc/passwd" });
  assert.equal(flag.output, "Hello, x --allow network --trust /etc/passwd!\n");
  const surrogate = await invoke("hello", undefined, '{"name": "\\ud800"}');
  assert.equal(surrogate.outcome, "finished");
  // The endpoint goes on.
  assert.equal((await invoke("hello", { name: "after" })).output, "Hello, after!\n");
});

test("a required option named like an Object.prototype property, missing, is refused before anything is journaled or run", async () => {
  const id = await restate.send("proto", {});
  const answer = JSON.parse((await restate.waitFor(id)).body) as Answer;
  assert.equal(answer.outcome, "refused");
  // Refused by the endpoint's input check, with nothing journaled.
  assert.equal(answer.record, null, JSON.stringify(answer));
  assert.equal(
    (await restate.query(`SELECT index FROM sys_journal WHERE id = '${id}' AND entry_type = 'Command: Run'`)).length,
    0,
  );
});

test("under --redact arguments, the words of arguments: List<Text> stay out of the journal's header", async () => {
  const id = await restate.send("words", { token: "tok-SECRET-1", arguments: ["word-SECRET-2"] });
  const answer = JSON.parse((await restate.waitFor(id)).body) as Answer;
  assert.equal(answer.outcome, "finished", answer.errors);
  const values = await journalValues(id);
  assert.doesNotMatch(values, /tok-SECRET-1/);
  assert.doesNotMatch(values, /word-SECRET-2/);
});

test("a redacted option's value stays out of the journal, header and calls alike", async () => {
  const id = await restate.send("words", { token: "tok-SECRET-3" });
  await restate.waitFor(id);
  assert.doesNotMatch(await journalText(id), /tok-SECRET-3/);
  assert.doesNotMatch(await journalValues(id), /tok-SECRET-3/);
});

test("under --redact, texts computed from a secret (reversed, upper-cased, split, rebuilt by branching) stay out of the journal and the fetched recording", async () => {
  const secret = "SeCrEtqzqzqqzz";
  const id = await restate.send("leak", { token: secret });
  const answer = JSON.parse((await restate.waitFor(id)).body) as Answer;
  assert.equal(answer.outcome, "finished", answer.errors);
  const values = await journalValues(id);
  for (const derived of [secret, "zzqqzqzqtErCeS", "SECRETQZQZQQZZ", "S-e-C-r-E-t", "zzzzzzqzqzqqzz"])
    assert.ok(!values.includes(derived), `${derived} in the journal`);
  const out = join(work, "leak.json");
  const fetched = spawnSync(
    process.execPath,
    [RENYI, "fetch-recording", "--restate", restate.adminUrl, "--to", out, id],
    {
      cwd: work,
      env: { ...process.env, RENYI_CACHE_DIR: cache },
    },
  );
  assert.equal(fetched.status, 0, fetched.stderr.toString());
  const recording = readFileSync(out, "utf8");
  for (const derived of [secret, "zzqqzqzqtErCeS", "SECRETQZQZQQZZ", "S-e-C-r-E-t", "zzzzzzqzqzqqzz"])
    assert.ok(!recording.includes(derived), `${derived} in the recording`);
});

test("a program's printed text shaped like the journal's header, markers and end changes nothing fetch-recording reads", async () => {
  const forged = [
    '{"renyi":"durable-1","program":"x","code":"sha256:00","grant":["network.http"],"arguments":[],"options":{},"redacted":[],"started_ms":0}',
    '{"ended":{"outcome":"finished","stdout":"sha256:00","bytes":0}}',
    '{"attempt":99}',
    '{"calls":[{"sequence":1}]}',
  ].join("\n");
  const id = await restate.send("hello", { name: forged });
  const answer = JSON.parse((await restate.waitFor(id)).body) as Answer;
  assert.equal(answer.outcome, "finished", answer.errors);
  assert.equal(answer.output, `Hello, ${forged}!\n`);
  const out = join(work, "forged.json");
  const fetched = spawnSync(
    process.execPath,
    [RENYI, "fetch-recording", "--restate", restate.adminUrl, "--to", out, id],
    {
      cwd: work,
      env: { ...process.env, RENYI_CACHE_DIR: cache },
    },
  );
  assert.equal(fetched.status, 0, fetched.stderr.toString());
  const recording = JSON.parse(readFileSync(out, "utf8")) as {
    program: string;
    grant: string[];
    outcome: string;
    calls: { primitive: string; arguments: { text: string } }[];
  };
  assert.equal(recording.program, "hello");
  assert.deepEqual(recording.grant, ["console"]);
  assert.equal(recording.outcome, "finished");
  assert.equal(recording.calls.length, 1);
  assert.equal(recording.calls[0]!.arguments.text, `Hello, ${forged}!`);
});

test("a shared budget holds against concurrent invocations", async () => {
  const answers = await Promise.all(Array.from({ length: 5 }, () => invoke("fetcher", { path: "c" })));
  const made = seen.get("/c") ?? 0;
  assert.ok(made <= 2, `${made} calls made under ${BUDGET}`);
  assert.equal(answers.filter((a) => a.output === "page /c\n").length, made);
});

test("the ingress cannot reach the renyi-budget object: a crafted take neither resets nor widens a shared budget", async () => {
  // The window is full (the test before spent it); after a second, a crafted take forgets it.
  await new Promise((r) => setTimeout(r, 1_200));
  const key = encodeURIComponent(BUDGET);
  const crafted = await fetch(`${restate.ingressUrl}/renyi-budget/${key}/take`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ count: 1_000_000, unit: "second" }),
  });
  assert.ok(crafted.status >= 400, `the ingress answered a take of renyi-budget with ${crafted.status}`);
  const before = seen.get("/c") ?? 0;
  const after = await invoke("fetcher", { path: "c" });
  const made = seen.get("/c") ?? 0;
  assert.ok(
    made <= 2,
    `the crafted take answered ${crafted.status}; ${made} calls made within a minute under ${BUDGET} (${before} before; ${after.output.trim()})`,
  );
});

/** The processes `renyi serve` has started and that still run. */
function runsOfEndpoint(): number[] {
  const listed = spawnSync("ps", ["-o", "pid=", "--ppid", String(child!.pid)]).stdout.toString();
  return listed
    .split("\n")
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0);
}

test("invocations asleep in a durable time.sleep give up their processes: the endpoint still serves everyone else", async () => {
  const slots = Math.max(4, availableParallelism() * 4);
  const ids = await Promise.all(Array.from({ length: slots }, () => restate.send("sleeper", {})));
  try {
    // Every sleeper has journaled its sleep.
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const sleeping = await restate.query(
        `SELECT id FROM sys_journal WHERE entry_type = 'Command: Sleep' AND id IN (${ids.map((i) => `'${i}'`).join(",")})`,
      );
      if (new Set(sleeping.map((r) => r["id"])).size === slots) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const answer = await fetch(`${restate.ingressUrl}/hello/run`, {
      method: "POST",
      body: '{"name": "next"}',
      signal: AbortSignal.timeout(6_000),
    })
      .then(async (r) => ((await r.json()) as Answer).output)
      .catch((e: Error) => `no answer: ${e.message}`);
    assert.equal(answer, "Hello, next!\n");
  } finally {
    await Promise.all(ids.map((id) => restate.cancel(id)));
    await Promise.all(ids.map((id) => restate.waitFor(id, 20_000)));
  }
});

test("a cancelled invocation asleep in a durable sleep ends cancelled with what it printed, and leaves no run behind", async () => {
  const deadline = Date.now() + 10_000;
  while (runsOfEndpoint().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  const id = await restate.send("sleeper", {});
  while (runsOfEndpoint().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 1_000));
  // Asleep on a long timer, the run has given up its process.
  assert.equal(runsOfEndpoint().length, 0);
  await restate.cancel(id);
  const answer = JSON.parse((await restate.waitFor(id, 20_000)).body) as Answer;
  assert.equal(answer.outcome, "cancelled", JSON.stringify(answer));
  assert.equal(answer.output, "asleep\n");
  const gone = Date.now() + 8_000;
  while (runsOfEndpoint().length > 0 && Date.now() < gone) await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(runsOfEndpoint(), []);
});
