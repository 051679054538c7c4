// The corpus under examples/: every program passes `renyi check`, every test
// passes `renyi test examples/` (its replays tests answered from their
// recordings), and every
// recording under examples/fixtures/ replays (`renyi run --replay REC PROGRAM`,
// under the recorded arguments) and reproduces (`renyi reproduce REC`) offline,
// from the repository's folder as the recordings name their sources. Nothing
// is listening for them: the stand-ins are not started here, and the public
// hosts the programs name are not reached. The `replays "..."` of each test
// names a recording of the same program whose grant the test's needs cover,
// and no recording holds the secret its run was given.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { parseSource } from "../compiler/index.js";
import type { GrantItem as GrantNode, TestDef } from "../compiler/parse/tree.js";
import { covers } from "../vocabulary/capabilities.js";
import { readGrantText } from "../vocabulary/grant-text.js";
import type { GrantItem } from "../vocabulary/needs.js";
import { ROOT } from "./golden.js";
import { RENYI } from "./support.js";

const EXAMPLES = join(ROOT, "examples");
const FIXTURES = join(EXAMPLES, "fixtures");
const cache = mkdtempSync(join(tmpdir(), "renyi-examples-"));
after(() => {
  rmSync(cache, { recursive: true, force: true });
  // The key that seals its code caches is kept beside it.
  rmSync(`${cache}.key`, { force: true });
});

/** `renyi ARGS...` from the repository's folder, with a compile cache of its own. */
function renyi(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const ran = spawnSync(process.execPath, [RENYI, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, RENYI_CACHE_DIR: cache },
  });
  return { status: ran.status, stdout: ran.stdout, stderr: ran.stderr };
}

// Where the stand-ins listened when the recordings were made, something listens
// now and counts connections: a replay that reached out would be seen.
const STAND_IN_PORTS = [8801, 8802, 8811, 8090];
const listeners: Server[] = [];
let connections = 0;
before(async () => {
  for (const port of STAND_IN_PORTS) {
    const server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    const listening = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (listening) listeners.push(server);
    else console.log(`port ${port} is taken: connections to it are not counted`);
  }
});
after(() => {
  for (const server of listeners) server.close();
});

/** The exit code `renyi run` ends with for each outcome a recording can hold. */
const EXIT: Record<string, number> = { finished: 0, failed: 1, crashed: 2, refused: 3, cancelled: 130 };

interface Recording {
  program: string;
  source: string;
  arguments?: string[];
  grant: string[];
  outcome: string;
}

const programs = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith(".ry"))
  .sort();
const recordings = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) =>
    readdirSync(join(FIXTURES, d.name))
      .filter((f) => f.endsWith(".json"))
      .map((f) => `${d.name}/${f}`),
  )
  .sort();

test("the corpus holds the programs examples/README.md lists, each with a fixture folder that says how its recordings were made", () => {
  for (const name of [
    "weather",
    "concurrent_fetch",
    "pagination",
    "assistant",
    "currency_tool",
    "status_api",
    "bookmarks",
  ]) {
    assert.ok(programs.includes(`${name}.ry`), `examples/${name}.ry`);
    const readme = join(FIXTURES, name, "README.md");
    assert.ok(existsSync(readme), `examples/fixtures/${name}/README.md`);
    assert.match(
      readFileSync(readme, "utf8"),
      /\*\*(written by hand|recorded)\*\*/,
      `${name}'s README says how its recordings were made`,
    );
  }
  const readme = readFileSync(join(EXAMPLES, "README.md"), "utf8");
  for (const file of programs) assert.ok(readme.includes(`[${file}](${file})`), `examples/README.md lists ${file}`);
});

test("every example passes renyi check", () => {
  const checked = renyi("check", ...programs.map((f) => join("examples", f)));
  assert.equal(checked.status, 0, checked.stdout + checked.stderr);
  assert.match(checked.stdout, new RegExp(`Checked ${programs.length} files: no problems found`));
});

for (const path of recordings) {
  const file = join("examples", "fixtures", path);
  const recording = JSON.parse(readFileSync(join(ROOT, file), "utf8")) as Recording;

  test(`${path} replays offline and ends as recorded (${recording.outcome})`, () => {
    assert.equal(recording.source, `examples/${recording.program}.ry`);
    const replayed = renyi("run", "--replay", file, recording.source, ...(recording.arguments ?? []));
    assert.equal(replayed.status, EXIT[recording.outcome], replayed.stderr);
    assert.doesNotMatch(replayed.stderr, /E-RT-REPLAY|E-RT-RECORDING/);
    // A replay writes nothing: the console's lines were answered from the recording.
    assert.equal(replayed.stdout, "");
  });

  test(`${path} reproduces offline`, () => {
    const reproduced = renyi("reproduce", file);
    assert.equal(reproduced.status, 0, reproduced.stderr);
    assert.match(reproduced.stderr, new RegExp(`reproduced: the run ${recording.outcome} as recorded`));
  });
}

test("renyi test examples/ passes every test, each replays test answered from its recording offline", () => {
  const ran = renyi("test", "--json", "examples");
  const report = JSON.parse(ran.stdout) as {
    tests: { file: string; name: string; status: string; recording?: string; message?: string }[];
    exitCode: number;
  };
  const notPassed = report.tests.filter((t) => t.status !== "passed");
  assert.deepEqual(notPassed, [], ran.stderr);
  assert.equal(ran.status, 0, ran.stderr);
  const replayed = report.tests.filter((t) => t.recording !== undefined);
  assert.equal(replayed.length, 16);
  for (const t of replayed) assert.ok(t.recording!.startsWith(FIXTURES), `${t.name}: ${t.recording}`);
  console.log(`renyi test examples/: ${report.tests.length} tests passed, ${replayed.length} of them replays tests`);
});

test("no replay, reproduction or replays test connected to where the stand-ins listened", () => {
  assert.equal(connections, 0);
  console.log(
    `replays: ${recordings.length} recordings replayed and reproduced, listening on ${listeners.length} of ` +
      `${STAND_IN_PORTS.length} stand-in ports, 0 connections`,
  );
});

/** Every `test` of a program with its `replays` path and its needs as grant items. */
function replaysTests(file: string): { name: string; replays: string; needs: GrantItem[] }[] {
  const text = readFileSync(join(EXAMPLES, file), "utf8");
  const parsed = parseSource(file, text);
  const tests = parsed.module!.items.filter(
    (item): item is TestDef => item.kind === "TestDef" && item.replays !== undefined,
  );
  return tests.map((t) => ({
    name: t.name.value,
    replays: t.replays!.value,
    needs: (t.needs?.items ?? []).map((item: GrantNode) => {
      const read = readGrantText(text.slice(item.span.start, item.span.end));
      assert.ok(typeof read !== "string", read as string);
      return read;
    }),
  }));
}

test("each replays test names a recording of its own program whose grant its needs cover", () => {
  let count = 0;
  const used = new Set<string>();
  for (const file of programs) {
    for (const t of replaysTests(file)) {
      const path = join(EXAMPLES, t.replays);
      assert.ok(existsSync(path), `${file}: "${t.name}" replays ${t.replays}, which does not exist`);
      used.add(t.replays.replace(/^fixtures\//, ""));
      const recording = JSON.parse(readFileSync(path, "utf8")) as Recording;
      assert.equal(`${recording.program}.ry`, file, `${t.replays} is a recording of ${recording.program}`);
      for (const line of recording.grant) {
        const item = readGrantText(line);
        assert.ok(typeof item !== "string", item as string);
        assert.ok(
          t.needs.some((n) => covers(n, item)),
          `${file}: the needs of "${t.name}" do not cover \`${line}\` of ${t.replays}`,
        );
      }
      count++;
    }
  }
  // Every program that reaches the outside world has one; every recording is some test's.
  for (const file of programs.filter((f) => f !== "hello.ry"))
    assert.ok(replaysTests(file).length > 0, `${file} has a replays test`);
  assert.deepEqual([...used].sort(), recordings);
  console.log(`replays tests: ${count} checked against ${recordings.length} recordings`);
});

test("the assistant's recording holds no secret: the header and the key are redacted", () => {
  const text = readFileSync(join(FIXTURES, "assistant", "capital.json"), "utf8");
  assert.doesNotMatch(text, /sk-[a-z]/i);
  assert.doesNotMatch(text, /Bearer/);
  const recording = JSON.parse(text) as {
    environment: Record<string, string>;
    calls: { primitive: string; arguments: { headers?: Record<string, string> }; outcome: { success?: unknown } }[];
  };
  assert.equal(recording.environment["OPENAI_API_KEY"], "<redacted>");
  const post = recording.calls.find((c) => c.primitive === "std.http.post")!;
  assert.equal(post.arguments.headers!["Authorization"], "<redacted>");
  assert.equal(recording.calls.find((c) => c.primitive === "std.environment.get")!.outcome.success, "<redacted>");
});

test("concurrent_fetch's calls completed in another order than they were made, and replay matches them all the same", () => {
  const recording = JSON.parse(readFileSync(join(FIXTURES, "concurrent_fetch", "board.json"), "utf8")) as {
    calls: { primitive: string; arguments: { url?: string } }[];
  };
  const urls = recording.calls.filter((c) => c.primitive === "std.http.get").map((c) => c.arguments.url);
  assert.equal(urls.length, 4);
  assert.notEqual(
    urls[0],
    "http://127.0.0.1:8801/health",
    "the first endpoint answered first: the recording does not show concurrency",
  );
});

test("the stand-ins and the client are where the READMEs say, and examples/ has no database left over", () => {
  for (const script of ["concurrent_fetch/stand-in.mjs", "assistant/stand-in.mjs", "status_api/client.mjs"])
    assert.ok(existsSync(join(FIXTURES, script)), script);
  assert.ok(!existsSync(join(ROOT, "bookmarks.db")) && !existsSync(join(dirname(FIXTURES), "bookmarks.db")));
});
