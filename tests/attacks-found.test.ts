// Attacks on what a review had not reached: the compile cache (the program
// index, the compiled programs and modules kept there), a server's shutdown,
// a signed bundle under another name, and a recording that names an option as
// its program. Those fixed are plain tests; those still open are marked todo,
// each with what the specification promises, so that the suite stays green
// until they are fixed. Every part is real: child processes, sockets on 127.0.0.1.

import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ROOT } from "./golden.js";
import { freePort, RENYI, renyiIn } from "./support.js";

const RENYIC = join(ROOT, "dist", "cli", "renyic.js");
const work = mkdtempSync(join(tmpdir(), "renyi-found-"));
after(() => rmSync(work, { recursive: true, force: true }));
// Whatever is still running when the tests are done (a test that failed before it stopped its child) is killed.
const running = new Set<ChildProcess>();
after(() => {
  for (const child of running) child.kill("SIGKILL");
});

type Ran = { status: number | null; stdout: string; stderr: string };

/** `renyi ARGS` in a folder of its own with its own compile cache. */
function inFolder(name: string): { dir: string; cache: string; renyi: (...args: string[]) => Promise<Ran> } {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  const cache = join(dir, "cache");
  return { dir, cache, renyi: (...args: string[]) => renyiIn(dir, args, {}, cache) };
}

function renyic(cwd: string, ...args: string[]): Ran {
  const result = spawnSync(process.execPath, [RENYIC, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, RENYI_CACHE_DIR: join(cwd, "cache") },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const SAYS_HELLO = `public function main()
  purpose: Say hello.
  needs console
  console.print("hello from a")
end
`;
const READS_HOME = `public function main()
  purpose: Print a variable.
  needs console, environment("HOME")
  console.print("b read HOME={environment.get("HOME").or_else("?")}")
end
`;

/** The compiled program in the cache whose main is `module$main`. */
function cachedProgram(cache: string, module: string): string {
  const found = readdirSync(cache).filter(
    (f) => f.endsWith(".cjs") && readFileSync(join(cache, f), "utf8").includes(`exports.main = ${module}$main;`),
  );
  assert.equal(found.length, 1, `one compiled program of ${module} in ${readdirSync(cache).join(", ")}`);
  return join(cache, found[0]!);
}

// ---- The compile cache ----

test("a damaged program index, or a FIFO in its place or a compiled module's, is a miss: the program compiles and runs, with no internal error and no hang", async () => {
  const { dir, cache, renyi } = inFolder("index");
  writeFileSync(join(dir, "a.ry"), SAYS_HELLO);
  assert.equal((await renyi("run", "a.ry")).status, 0);
  const index = readdirSync(cache).find((f) => f.endsWith(".index.json"))!;
  for (const damaged of [
    "null",
    "[]",
    '{"entry":"a","modules":5}',
    '{"entry":"a","modules":[null]}',
    '{"entry":5,"modules":[{"name":"a","file":"a.ry"}]}',
    '{"entry":"a"}',
    "{",
  ]) {
    writeFileSync(join(cache, index), damaged);
    const ran = await renyi("run", "a.ry");
    assert.equal(ran.status, 0, `${damaged}: ${ran.stderr}`);
    assert.equal(ran.stdout, "hello from a\n", damaged);
    assert.doesNotMatch(ran.stderr, /INTERNAL|\n\s+at /, damaged);
  }
  // A FIFO where the index or a compiled module is kept would block a reader for ever.
  for (const file of readdirSync(cache).filter((f) => f.endsWith(".index.json") || /^m-.*\.json$/.test(f))) {
    rmSync(join(cache, file));
    assert.equal(spawnSync("mkfifo", [join(cache, file)]).status, 0);
  }
  rmSync(cachedProgram(cache, "a"));
  const started = Date.now();
  const ran = await renyi("run", "a.ry");
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "hello from a\n");
  assert.ok(Date.now() - started < 30_000);
});

test("a compiled program in the cache swapped for another program's runs that program, with its grant", async () => {
  // spec/security.md: "The program's grant is main's needs"; what a reviewer read (a.ry, needs console) is not what
  // runs.
  const { dir, cache, renyi } = inFolder("swap");
  writeFileSync(join(dir, "a.ry"), SAYS_HELLO);
  writeFileSync(join(dir, "b.ry"), READS_HOME);
  assert.equal((await renyi("run", "a.ry")).status, 0);
  assert.equal((await renyi("run", "b.ry")).status, 0);
  copyFileSync(cachedProgram(cache, "b"), cachedProgram(cache, "a"));
  const ran = await renyi("run", "--json", "a.ry");
  const record = JSON.parse(ran.stdout.trim().split("\n").at(-1)!) as { grant: string[] };
  assert.deepEqual(record.grant, ["console"], "a.ry needs console alone");
  assert.doesNotMatch(ran.stdout, /b read HOME/);
});

test("a compiled program in the cache replaced by JavaScript the validator would refuse runs unchecked", async () => {
  // spec/security.md: "What the compiler writes is validated like anything else"; here nothing validates what runs.
  const { dir, cache, renyi } = inFolder("unchecked");
  writeFileSync(join(dir, "a.ry"), SAYS_HELLO);
  assert.equal((await renyi("run", "a.ry")).status, 0);
  const marker = join(dir, "outside-every-grant");
  writeFileSync(
    cachedProgram(cache, "a"),
    `"use strict";\nrequire("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n` +
      `exports.main = async function a$main() {};\nexports.mainParameters = [];\n` +
      `exports.mainGrant = [{ path: ["console"] }];\nexports.mainPurpose = "Say hello.";\nexports.tests = [];\n`,
  );
  const ran = await renyi("run", "a.ry");
  assert.equal(existsSync(marker), false, "the replaced program reached node:fs");
  assert.equal(ran.stdout, "hello from a\n");
});

test("a compiled module in the cache edited by hand is compiled into the program that uses it", async () => {
  // spec/security.md: "What the compiler writes is validated like anything else"; the validator passes what the
  // edited module holds (it is valid compiled code), but it is not the source the reviewer read.
  const { dir, cache, renyi } = inFolder("module");
  writeFileSync(join(dir, "a.ry"), SAYS_HELLO);
  assert.equal((await renyi("run", "a.ry")).status, 0);
  for (const file of readdirSync(cache).filter((f) => /^m-.*\.json$/.test(f))) {
    writeFileSync(
      join(cache, file),
      readFileSync(join(cache, file), "utf8").replace("hello from a", "not what a.ry says"),
    );
  }
  rmSync(cachedProgram(cache, "a"));
  for (const file of readdirSync(cache).filter((f) => f.endsWith(".index.json"))) rmSync(join(cache, file));
  const ran = await renyi("run", "a.ry");
  assert.equal(ran.stdout, "hello from a\n");
});

test("a compiled program, a compiled module or an index written to a file of another name is a miss, never loaded", async () => {
  // Each is sealed with the name it is kept under: a sealed file copied to another name does not match.
  const { dir, cache, renyi } = inFolder("renamed");
  writeFileSync(join(dir, "a.ry"), SAYS_HELLO);
  writeFileSync(join(dir, "b.ry"), READS_HOME);
  assert.equal((await renyi("run", "a.ry")).status, 0);
  assert.equal((await renyi("run", "b.ry")).status, 0);
  const modules = readdirSync(cache).filter((f) => /^m-.*\.json$/.test(f));
  const fromB = modules.find((f) => readFileSync(join(cache, f), "utf8").includes("b read HOME"))!;
  for (const file of modules.filter((f) => f !== fromB)) copyFileSync(join(cache, fromB), join(cache, file));
  copyFileSync(cachedProgram(cache, "b"), cachedProgram(cache, "a"));
  const ran = await renyi("run", "a.ry");
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "hello from a\n");
  // The program was compiled again and kept anew, sealed: the next run takes it from the cache.
  assert.equal(readFileSync(cachedProgram(cache, "a"), "utf8").includes("hello from a"), true);
  assert.equal((await renyi("run", "a.ry")).stdout, "hello from a\n");
});

test("a program granted the cache folder, or a link to it, or its key, can neither read nor write them", async () => {
  // Whoever writes the cache folder chooses what later runs load; whoever reads the key can seal it.
  const { dir, cache, renyi } = inFolder("granted-cache");
  writeFileSync(join(dir, "a.ry"), SAYS_HELLO);
  assert.equal((await renyi("run", "a.ry")).status, 0);
  writeFileSync(join(cache, "known.txt"), "kept by renyi");
  symlinkSync("cache", join(dir, "link"));
  const refusal = (what: string) => `  otherwise
    when FileError.PermissionDenied(p) then console.print("refused {p}")
    when _ then console.print("${what} went through")
  end`;
  writeFileSync(
    join(dir, "reach.ry"),
    `public function main()
  purpose: Reach into the compile cache.
  needs console, filesystem.read("cache"), filesystem.read("cache.key"), filesystem.read("link"), filesystem.write("cache"), filesystem.write("link"), filesystem.database("cache/planted.db")
  let key be filesystem.read_text("cache.key") otherwise
    when FileError.PermissionDenied(p) then "refused {p}"
    when _ then "the key was read"
  end
  console.print(key)
  let known be filesystem.read_text("link/known.txt") otherwise
    when FileError.PermissionDenied(p) then "refused {p}"
    when _ then "the cache was read"
  end
  console.print(known)
  filesystem.write_text("cache/planted.cjs", "exports.main = 1;")
${refusal("the write")}
  filesystem.write_text("link/planted.json", "[]")
${refusal("the write through the link")}
  filesystem.remove("cache/known.txt")
${refusal("the removal")}
  let db be database.open("cache/planted.db") otherwise
    when DbError.PermissionDenied(p) then crash with "refused {p}"
    when _ then crash with "the database was opened"
  end
end
`,
  );
  const ran = await renyi("run", "reach.ry");
  assert.equal(
    ran.stdout,
    [
      "refused cache.key",
      "refused link/known.txt",
      "refused cache/planted.cjs",
      "refused link/planted.json",
      "refused cache/known.txt",
      "",
    ].join("\n"),
  );
  // The database is refused too, as a crash the program chose, with the refusal's words.
  assert.match(ran.stderr, /refused cache\/planted\.db/);
  assert.doesNotMatch(ran.stderr, /INTERNAL|\n\s+at /);
  assert.equal(
    ["planted.cjs", "planted.json", "planted.db"].some((f) => existsSync(join(cache, f))),
    false,
  );
  assert.equal(readFileSync(join(cache, "known.txt"), "utf8"), "kept by renyi");
});

test("the cache folder is made for its user alone, and one open to others, or whose key is, is not used", async () => {
  const { dir, cache, renyi } = inFolder("private");
  writeFileSync(join(dir, "a.ry"), SAYS_HELLO);
  const first = await renyi("run", "a.ry");
  assert.equal(first.stderr, "");
  assert.equal(lstatSync(cache).mode & 0o777, 0o700);
  assert.equal(lstatSync(`${cache}.key`).mode & 0o777, 0o600);
  const notUsed = async (why: RegExp) => {
    const kept = readdirSync(cache).sort();
    // A program planted there would run were the folder used.
    const ran = await renyi("run", "a.ry");
    assert.equal(ran.status, 0, ran.stderr);
    assert.equal(ran.stdout, "hello from a\n");
    assert.match(ran.stderr, why);
    assert.equal(ran.stderr.trim().split("\n").length, 1, "one line says why");
    assert.deepEqual(readdirSync(cache).sort(), kept, "nothing is written into it");
  };
  chmodSync(cache, 0o777);
  await notUsed(/^renyi: the cache folder .*cache may be written by other users, so it is not used/);
  chmodSync(cache, 0o700);
  chmodSync(`${cache}.key`, 0o644);
  await notUsed(/^renyi: the cache folder's key .*cache\.key is not a file this user alone can read and write/);
  chmodSync(`${cache}.key`, 0o600);
  if (process.getuid?.() === 0) {
    chownSync(cache, 65534, 65534);
    await notUsed(/^renyi: the cache folder .*cache belongs to another user/);
    chownSync(cache, 0, 0);
  }
  const again = await renyi("run", "a.ry");
  assert.equal(again.stderr, "");
});

test("a symbolic link planted at the name of a recording's temporary file, guessed in advance, is not written through", async () => {
  // The temporary file was PATH.PID.MILLISECONDS.tmp, opened as it was found: whoever could write the folder the
  // recording goes to (a shared one) could plant links for the next seconds and have the recording written over
  // any file the user may write.
  const { dir, cache } = inFolder("planted");
  writeFileSync(
    join(dir, "nap.ry"),
    `public function main()
  purpose: Say it is ready, then wait.
  needs console, time
  console.print("ready")
  time.sleep(time.milliseconds(3000))
end
`,
  );
  const shared = join(dir, "shared");
  mkdirSync(shared);
  const victim = join(dir, "victim.txt");
  writeFileSync(victim, "precious\n");
  const out = join(shared, "out.json");
  const child = spawn(process.execPath, [RENYI, "record", "--to", out, "nap.ry"], {
    cwd: dir,
    env: { ...process.env, RENYI_CACHE_DIR: cache },
    stdio: ["ignore", "pipe", "ignore"],
  });
  running.add(child);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (status) => resolve(status)));
  await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
  // The recording is written once the 3 s wait is over: links for every millisecond from then on, made from
  // the first (a loaded machine makes a few hundred a second at least), are there before it.
  const ready = Date.now();
  for (let t = ready + 2900; t < ready + 9000; t++) symlinkSync(victim, `${out}.${child.pid}.${t}.tmp`);
  assert.equal(await exited, 0);
  assert.equal(readFileSync(victim, "utf8"), "precious\n", "the recording was written through a planted link");
  assert.equal(lstatSync(out).isFile(), true);
  assert.equal((JSON.parse(readFileSync(out, "utf8")) as { program: string }).program, "nap");
});

// ---- A signed bundle under another name ----

test("a signed bundle renamed, with its manifest and signature, to another program's name is refused, signed or not", async () => {
  const { dir, renyi } = inFolder("renamed");
  writeFileSync(join(dir, "deploy.ry"), SAYS_HELLO.replace("hello from a", "deploying"));
  writeFileSync(join(dir, "cleanup.ry"), SAYS_HELLO.replace("hello from a", "cleaning up"));
  assert.equal(renyic(dir, "keygen", "--out", "alice").status, 0);
  for (const name of ["deploy", "cleanup"])
    assert.equal(
      renyic(
        dir,
        "build",
        `${name}.ry`,
        "--out",
        name === "deploy" ? "out" : "other",
        "--stable",
        "--sign",
        "alice.key",
      ).status,
      0,
    );
  assert.equal((await renyi("run", "--trust", "alice.pub", "out/deploy.mjs")).stdout, "deploying\n");
  for (const suffix of [".mjs", ".mjs.map", ".grant.json", ".grant.sig"])
    copyFileSync(join(dir, "other", `cleanup${suffix}`), join(dir, "out", `deploy${suffix}`));
  for (const trust of [["--trust", "alice.pub"], []]) {
    const ran = await renyi("run", ...trust, "out/deploy.mjs");
    assert.equal(ran.status, 3, ran.stderr);
    assert.match(
      ran.stderr,
      /^error\[E-RT-REFUSED\]: .*the manifest is for the program "cleanup", but the bundle is named "deploy\.mjs"/,
    );
    assert.equal(ran.stdout, "", "cleanup did not run in the place of deploy");
  }
  // Under its own name, where it was signed, it runs.
  assert.equal((await renyi("run", "--trust", "alice.pub", "other/cleanup.mjs")).stdout, "cleaning up\n");
});

// ---- A recording that names an option as its program ----

test("a recording whose source begins with - is refused by renyi reproduce, not read as one of renyi run's options", async () => {
  const { dir, renyi } = inFolder("reproduce");
  writeFileSync(join(dir, "a.ry"), SAYS_HELLO);
  assert.equal((await renyi("record", "--to", "a.json", "a.ry")).status, 0);
  const recording = JSON.parse(readFileSync(join(dir, "a.json"), "utf8")) as Record<string, unknown>;
  // Before, `--help` printed renyi run's usage and exited 0, which `renyi reproduce` means as "reproduced".
  for (const [source, words] of [
    ["--help", []],
    ["--explain", ["a.ry"]],
    ["--isolate", ["a.ry"]],
    ["--resume", ["a.json", "a.ry"]],
  ] as const) {
    writeFileSync(join(dir, "hostile.json"), JSON.stringify({ ...recording, source, arguments: words }));
    const ran = await renyi("reproduce", "hostile.json");
    assert.equal(ran.status, 3, `${source}: ${ran.stderr}`);
    assert.match(
      ran.stderr,
      /^error\[E-RT-RECORDING\]: hostile\.json is refused: `source` must name the program's file/,
      source,
    );
    assert.equal(ran.stdout, "", source);
  }
  assert.equal((await renyi("reproduce", "a.json")).status, 0);
});

// ---- A server's shutdown ----

let observer: Server;
let observerBase: string;
/** What the handlers told the observer, and when. */
const told: { path: string; at: number }[] = [];
before(async () => {
  observer = createServer((req, res) => {
    told.push({ path: req.url ?? "", at: Date.now() });
    res.end("seen");
  });
  await new Promise<void>((resolve) => observer.listen(0, "127.0.0.1", resolve));
  observerBase = `http://127.0.0.1:${(observer.address() as { port: number }).port}`;
});
after(() => observer.close());

/**
 * A server whose handler waits `/slow` for 1.5 s, then tells the observer of the request before it answers; once serve
 * returns, the run goes on for 3 s.
 */
const SLOW_SERVER = (requests: string) => `public function main(port: Int, observer: Text) or fails with StartError
  purpose: Answer slowly, after telling an observer.
  needs network.socket, time, network.http("127.0.0.1")
  server.serve(port, function (request: Request) returns Response
    needs time, network.http("127.0.0.1")
    if request.path is "/slow" then
      time.sleep(time.milliseconds(1500))
    end
    let seen be http.get("{observer}/handled{request.path}") otherwise crash with "the observer cannot be reached"
    return server.respond(200, "done {request.path}")
  end${requests}) otherwise fail
  let returned be http.get("{observer}/serve-returned") otherwise crash with "the observer cannot be reached"
  time.sleep(time.milliseconds(3000))
end
`;

async function startSlowServer(requests: string): Promise<{ port: number; child: ChildProcess; done: Promise<Ran> }> {
  const { dir } = inFolder("servers");
  const port = await freePort();
  writeFileSync(join(dir, `slow${port}.ry`), SLOW_SERVER(requests));
  const child = spawn(
    process.execPath,
    [RENYI, "run", `slow${port}.ry`, "--port", String(port), "--observer", observerBase],
    { cwd: dir, env: { ...process.env, RENYI_CACHE_DIR: join(dir, "cache") } },
  );
  running.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Ran>((resolve) => child.on("exit", (status) => resolve({ status, stdout, stderr })));
  for (let attempt = 0; ; attempt++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (up) break;
    if (attempt > 300 || child.exitCode !== null) throw new Error(`the server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { port, child, done };
}

/** A request: its status and body, or how it failed (`ECONNRESET`, ...). */
function ask(port: number, path: string): Promise<string> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, agent: false }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve(`${res.statusCode} ${body}`));
      res.on("error", (e: NodeJS.ErrnoException) => resolve(`cut short: ${e.code ?? e.message}`));
    });
    req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.setTimeout(10_000, () => req.destroy(new Error("no answer in 10 s")));
    req.end();
  });
}

/**
 * Eight requests to `/slow` a few milliseconds apart, then SIGINT: their answers, the run's end, and when it was
 * interrupted.
 */
async function interruptedWhileAnswering(): Promise<{ answers: string[]; result: Ran; interrupted: number }> {
  const server = await startSlowServer("");
  // A few milliseconds apart, their handlers' waits notice the interrupt at every phase of the
  // server's own 25 ms poll: some before it, some after.
  const inFlight: Promise<string>[] = [];
  for (let i = 0; i < 8; i++) {
    inFlight.push(ask(server.port, "/slow"));
    await new Promise((r) => setTimeout(r, 4));
  }
  await new Promise((r) => setTimeout(r, 500));
  const interrupted = Date.now();
  server.child.kill("SIGINT");
  const answers = await Promise.all(inFlight);
  const result = await server.done;
  // Past the moment the handlers' waits would have ended, and their calls been made.
  await new Promise((r) => setTimeout(r, 2000));
  return { answers, result, interrupted };
}

test("handlers still answering when the server is interrupted make no call after it, and nothing answers 200", async () => {
  const { answers, result, interrupted } = await interruptedWhileAnswering();
  assert.equal(result.status, 130, result.stderr);
  // Interrupted where main waits on its server: the place is the serve call's.
  assert.match(result.stderr, /cancelled: interrupted\n {2}--> [^\n]*\.ry:\d+:\d+, in `main` of module `\w+`\n$/);
  assert.doesNotMatch(result.stderr, /INTERNAL|\n\s+at /);
  assert.deepEqual(
    told.filter((t) => t.at > interrupted && t.path.startsWith("/handled/slow")),
    [],
  );
  for (const answer of answers) assert.match(answer, /^(503 the server is stopping\n|ECONNRESET)$/);
});

test("requests still answering when the server is interrupted are answered 503", async () => {
  // spec/effects.md, server: "A request still answering when the run is cancelled is answered 503 (the server is
  // stopping)".
  // Before, the server's own poll of the cancellation could close every connection before a handler that noticed it
  // later wrote its 503.
  const { answers } = await interruptedWhileAnswering();
  assert.deepEqual(answers, Array(8).fill("503 the server is stopping\n"));
});

test("a request still answering when serve has answered its `requests` is answered 503, its handler stopped, and it is not counted", async () => {
  // spec/effects.md, server: serve answers "until `requests` requests were answered"; one in flight at that moment was
  // neither answered (its connection was reset) nor stopped (its handler called the observer after serve returned),
  // and was counted as served.
  const server = await startSlowServer(", Some(1)");
  const slow = ask(server.port, "/slow");
  await new Promise((r) => setTimeout(r, 200));
  const fast = await ask(server.port, "/fast");
  assert.equal(fast, "200 done /fast");
  assert.equal(await slow, "503 the server is stopping\n");
  const result = await server.done;
  assert.equal(result.status, 0, result.stderr);
  const returned = told.find((t) => t.path === "/serve-returned");
  assert.ok(returned !== undefined);
  // The slow handler's wait ended during the 3 s the run went on after serve: its call was never made.
  assert.deepEqual(
    told.filter((t) => t.path === "/handled/slow"),
    [],
    "the handler of the request given up went on after serve returned",
  );
  assert.match(result.stderr, /served 1 request\b/);
  assert.doesNotMatch(result.stderr, /served 2/);
});

// ---- The tool server's recordings ----

test("a recording whose calls are concealed from the agent cannot be read before it is concealed", async () => {
  // spec/mcp.md, "What the agent sees": a run that read guarded data its guards keep from the console shows, in its
  // recording's resource, no calls. The marker that says so was written after `renyi record` had put the recording in
  // the folder, and resources/list and resources/read showed it meanwhile: an agent that read while the run ended
  // saw which calls it made, when, and a sealed value whose length follows the secret's. Now the run records under a
  // pending name, and the recording is renamed into place once its marker is written.
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const recordings = join(work, "mcp-recordings");
  const env = {
    ...(process.env as Record<string, string>),
    RENYI_MCP_TIMEOUT: "30",
    RENYI_RACE_SECRET: "a secret of some length",
    RENYI_CACHE_DIR: join(work, "mcp-cache"),
  };
  const args = [
    RENYI,
    "mcp",
    "--allow",
    "console",
    "--allow",
    'environment("RENYI_RACE_SECRET")',
    "--allow-host",
    "127.0.0.1:1",
    "--recordings",
    recordings,
  ];
  const client = new Client({ name: "renyi-attacks", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd: ROOT, stderr: "pipe", env }));
  try {
    const source = `public function main()
  purpose: Count to the secret's length.
  needs console, environment("RENYI_RACE_SECRET") only to network.http("127.0.0.1:1")
  let n be environment.get("RENYI_RACE_SECRET").or_else("").length()
  var i be 0
  while i < n * 1000
    set i to i + 1
  end
end
`;
    const shown: string[] = [];
    for (let attempt = 0; attempt < 5 && shown.length === 0; attempt++) {
      let done = false;
      const ran = client.callTool({ name: "run", arguments: { source } }).finally(() => (done = true));
      const before = new Set((await client.listResources()).resources.map((r) => r.uri));
      while (!done) {
        for (const { uri } of (await client.listResources()).resources) {
          if (before.has(uri) || !uri.startsWith("renyi://recordings/")) continue;
          try {
            const read = await client.readResource({ uri });
            const text = String((read.contents[0] as { text?: string }).text ?? "");
            if (Array.isArray((JSON.parse(text) as { calls?: unknown }).calls)) shown.push(text);
          } catch {
            // Not readable yet.
          }
        }
      }
      const result = (await ran) as { structuredContent?: { steps?: unknown; recording?: string } };
      assert.equal(result.structuredContent?.steps ?? null, null, "a run that read guarded data shows no steps");
      // Once the run tool has answered, the same resource shows no calls: what was read before was the race.
      const after = await client.readResource({ uri: `renyi://recordings/${result.structuredContent?.recording}` });
      assert.match(String((after.contents[0] as { text?: string }).text), /"calls":"sealed: /);
    }
    assert.deepEqual(shown, [], "the agent read the calls of a run whose calls are concealed from it");
    // A marker that is a link leading nowhere conceals all the same.
    const [id] = readdirSync(recordings)
      .filter((f) => f.endsWith(".concealed"))
      .map((f) => f.slice(0, -".concealed".length));
    assert.ok(id !== undefined);
    rmSync(join(recordings, `${id}.concealed`));
    symlinkSync(join(work, "nowhere"), join(recordings, `${id}.concealed`));
    const read = await client.readResource({ uri: `renyi://recordings/${id}` });
    assert.match(String((read.contents[0] as { text?: string }).text), /"calls":"sealed: /);
  } finally {
    await client.close();
  }
});

test("a recording whose server was killed before showing it stays under its pending name, never shown, and is reported", async () => {
  // spec/mcp.md, "run": a server killed while its run goes on never decides whether the run's calls are concealed; the
  // recording the run writes is kept (not lost) under a name no listing or read finds, and the next server names it.
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const recordings = join(work, "mcp-killed");
  const env = {
    ...(process.env as Record<string, string>),
    RENYI_MCP_TIMEOUT: "2",
    RENYI_CACHE_DIR: join(work, "mcp-cache"),
  };
  const args = [RENYI, "mcp", "--allow", "console", "--recordings", recordings];
  const spin =
    "public function main()\n  purpose: Spin.\n  needs console\n  var i be 0\n  while true\n    set i to i + 1\n" +
    "  end\nend\n";
  const first = new StdioClientTransport({ command: process.execPath, args, cwd: ROOT, stderr: "pipe", env });
  const client = new Client({ name: "renyi-attacks", version: "1.0.0" });
  await client.connect(first);
  const pending = (): string[] =>
    existsSync(recordings) ? readdirSync(recordings).filter((f) => /^rec-[0-9a-f]{12}\.pending\.json$/.test(f)) : [];
  try {
    void client.callTool({ name: "run", arguments: { source: spin, name: "spin" } }).catch(() => undefined);
    // The server is killed as soon as its run's command has begun; the command goes on to its 2-second timeout.
    await new Promise((r) => setTimeout(r, 300));
    process.kill(first.pid!, "SIGKILL");
    const started = Date.now();
    while (pending().length === 0 && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 100));
  } finally {
    await client.close().catch(() => undefined);
  }
  const [file] = pending();
  assert.ok(
    file !== undefined,
    `the run's recording was written under its pending name: ${readdirSync(recordings).join(", ")}`,
  );
  assert.deepEqual(
    readdirSync(recordings).filter((f) => f.endsWith(".recording.json")),
    [],
    "and never shown",
  );
  const id = file.slice(0, -".pending.json".length);
  const second = new StdioClientTransport({ command: process.execPath, args, cwd: ROOT, stderr: "pipe", env });
  let stderr = "";
  second.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const next = new Client({ name: "renyi-attacks", version: "1.0.0" });
  await next.connect(second);
  try {
    const listed = (await next.listResources()).resources.map((r) => r.uri);
    assert.ok(!listed.includes(`renyi://recordings/${id}`), "the next server does not list it");
    await assert.rejects(next.readResource({ uri: `renyi://recordings/${id}` }), /there is no recording/);
    assert.match(stderr, /1 recording is kept under a pending name and not shown/);
    assert.ok(stderr.includes(join(recordings, file)), stderr);
    assert.ok(existsSync(join(recordings, file)), "it is kept");
  } finally {
    await next.close();
  }
});
