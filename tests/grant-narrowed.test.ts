// After `renyi grant` narrows a program (spec/recording.md, "The least grant"), the recording made under the wider
// grant is refused by a replay (E-RT-REPLAY-GRANT): the recording's header is wider than the program's needs. `renyi
// grant` says so when it prints the narrower line, and the refusal says how to record again; the command it gives,
// run as it is written, records a run that replays. Recorded against a local service on 127.0.0.1.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { renyi } from "./record-support.js";
import { RENYI } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-grant-narrowed-"));
let server: Server;
let port = 0;

function program(needs: string): string {
  return `public function main(city: Text) or fails with Text
  purpose: Ask the service about a city.
  needs ${needs}
  let r be http.get("http://127.0.0.1:${port}/weather?city={city}") otherwise fail with "unreachable"
  console.print(r.body)
end
`;
}

const WIDE = `console, network.http("127.0.0.1"), environment("HOME")`;

before(async () => {
  server = createServer((req, res) =>
    res.end(`sunny in ${new URL(req.url ?? "", "http://x").searchParams.get("city")}`),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
  writeFileSync(join(work, "weather.ry"), program(WIDE));
  const recorded = await renyi(work, ["record", "--to", "weather.json", "weather.ry", "--city", "Saint Malo"]);
  assert.equal(recorded.status, 0, recorded.stderr);
  assert.equal(recorded.stdout, "sunny in Saint Malo\n");
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const AGAIN = "renyi record --to weather.json weather.ry --city 'Saint Malo'";

test("renyi grant, printing a narrower line, says the recording will be refused once the needs are narrowed", async () => {
  const ran = await renyi(work, ["grant", "weather.json", "weather.ry"]);
  assert.equal(ran.status, 0, ran.stderr);
  assert.match(ran.stdout, new RegExp(`^needs console, network\\.http\\("127\\.0\\.0\\.1:${port}"\\)\\n`));
  assert.ok(
    ran.stdout.endsWith(
      "\nnote: once main's needs are narrowed to this line, weather.json, recorded under the wider grant " +
        '(`network.http("127.0.0.1")`), is refused by a replay (E-RT-REPLAY-GRANT); then record the run again: ' +
        `${AGAIN}\n`,
    ),
    ran.stdout,
  );
  // --json keeps its shape: the note is for a person.
  const json = await renyi(work, ["grant", "weather.json", "--json"]);
  assert.doesNotThrow(() => JSON.parse(json.stdout));
});

test("once narrowed, renyi grant and the refused replay both give the command that records again, which works", async () => {
  writeFileSync(join(work, "weather.ry"), program(`console, network.http("127.0.0.1:${port}")`));
  const grant = await renyi(work, ["grant", "weather.json", "weather.ry"]);
  assert.match(grant.stdout, /main's needs are no wider than the recording used/);
  assert.ok(
    grant.stdout.includes(
      "note: weather.json was recorded under a wider grant than weather.ry needs " +
        '(`network.http("127.0.0.1")`): a replay of it is refused (E-RT-REPLAY-GRANT); record the run again: ' +
        `${AGAIN}\n`,
    ),
    grant.stdout,
  );
  const refused = await renyi(work, ["run", "--replay", "weather.json", "weather.ry", "--city", "Saint Malo"]);
  assert.equal(refused.status, 3, refused.stderr);
  assert.match(
    refused.stderr,
    /^error\[E-RT-REPLAY-GRANT\]: the recording's grant has `network\.http\("127\.0\.0\.1"\)`, which the program's needs do not cover[^\n]*\n {2}= hint: record the run again under the program's needs to replay it: renyi record --to weather\.json weather\.ry --city 'Saint Malo'\n$/,
  );
  // The command, as a shell reads it, records a run that replays under the narrowed needs.
  // (Spawned without blocking: the service answers in this very process.)
  const again = await shell(AGAIN.replace(/^renyi /, `"${process.execPath}" "${RENYI}" `));
  assert.equal(again.status, 0, again.stderr);
  const replayed = await renyi(work, [
    "run",
    "--replay",
    "weather.json",
    "--console",
    "weather.ry",
    "--city",
    "Saint Malo",
  ]);
  assert.equal(replayed.status, 0, replayed.stderr);
  assert.equal(replayed.stdout, "sunny in Saint Malo\n");
  const clean = await renyi(work, ["grant", "weather.json", "weather.ry"]);
  assert.doesNotMatch(clean.stdout, /note:/);
});

/** A command line run by `sh -c` in the work folder, as a person would paste it. */
function shell(line: string): Promise<{ status: number | null; stderr: string }> {
  const child = spawn("sh", ["-c", line], { cwd: work, env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") } });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("exit", (status) => resolve({ status, stderr })));
}
