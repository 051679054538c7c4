// The recording reader takes hostile input (spec/recording.md, "Reading a
// recording"): whatever the bytes, it answers with a recording or a refusal
// with E-RT-RECORDING, and never throws. And a recording written by hand in
// the format of the specification's example replays.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { readRecording } from "../cli/recordings/reader.js";
import { ROOT } from "./golden.js";
import { renyi } from "./record-support.js";

const stdout = "Berlin: 21.5 degrees, wind 11.9 km/h\n";
const body = '{"current_weather": {"temperature": 21.5, "windspeed": 11.9}}';

/** A recording as a person writes it from the specification's example. */
const HAND_WRITTEN = {
  program: "weather",
  revision: "f520dc0",
  toolchain: "renyi 0.0.1",
  source: "examples/weather.ry",
  code: "sha256:9fc7216c...562cf1b",
  recorded_at: "2026-10-05T18:42:11Z",
  grant: ["console", 'network.http("api.open-meteo.com")'],
  outcome: "finished",
  output: { stdout: `sha256:${createHash("sha256").update(stdout).digest("hex")}`, bytes: Buffer.byteLength(stdout) },
  calls: [
    {
      sequence: 1,
      capability: 'network.http("api.open-meteo.com")',
      primitive: "std.http.get",
      arguments: { url: "https://api.open-meteo.com/v1/forecast?latitude=52.52&longitude=13.41&current_weather=true" },
      outcome: {
        success: {
          status: 200,
          headers: { "content-type": "application/json" },
          body,
          bytes: Buffer.from(body).toString("base64"),
        },
      },
      duration_ms: 184,
    },
    {
      sequence: 2,
      capability: "console",
      primitive: "std.console.print",
      arguments: { text: "Berlin: 21.5 degrees, wind 11.9 km/h" },
      outcome: { success: null },
    },
  ],
};

test("a recording written by hand in the specification's format replays the weather example offline", async () => {
  const work = mkdtempSync(join(tmpdir(), "renyi-hand-"));
  writeFileSync(join(work, "berlin.json"), JSON.stringify(HAND_WRITTEN, null, 2));
  const ran = await renyi(work, ["run", "--replay", "berlin.json", join(ROOT, "examples", "weather.ry")]);
  // Its one console.print is answered, not shown: the replay says so.
  assert.equal(ran.stderr, "note: 1 console line was answered from the recording and not shown; --console shows it\n");
  assert.equal(ran.status, 0);
});

test("a hostile recording is refused with E-RT-RECORDING, never a JavaScript stack", async () => {
  const work = mkdtempSync(join(tmpdir(), "renyi-hostile-"));
  const cases: Record<string, string> = {
    "not-json.json": "{",
    "repeated.json": JSON.stringify(HAND_WRITTEN).replace(
      '"program":"weather"',
      '"program":"weather","program":"other"',
    ),
    "wrong-grant.json": JSON.stringify({ ...HAND_WRITTEN, grant: ["network.http(api.open-meteo.com)"] }),
    "unknown-field.json": JSON.stringify({ ...HAND_WRITTEN, extra: 1 }),
    "disorder.json": JSON.stringify({ ...HAND_WRITTEN, calls: [...HAND_WRITTEN.calls].reverse() }),
    "proto.json": JSON.stringify(HAND_WRITTEN).replace('"calls":[{', '"calls":[{"__proto__":{},'),
  };
  for (const [name, text] of Object.entries(cases)) {
    writeFileSync(join(work, name), text);
    const ran = await renyi(work, ["run", "--replay", name, join(ROOT, "examples", "weather.ry")]);
    assert.equal(ran.status, 3, name);
    assert.match(ran.stderr, /^error\[E-RT-RECORDING\]: /, name);
    assert.doesNotMatch(ran.stderr, /\n\s+at /, name);
  }
  const missing = await renyi(work, ["reproduce", "nothing-here.json"]);
  assert.equal(missing.status, 3);
  assert.match(
    missing.stderr,
    /^error\[E-RT-RECORDING\]: I cannot read the recording nothing-here\.json: there is no such file/,
  );
});

/** Every path to a value inside a JSON value, and a copy with the value at one path replaced. */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (typeof value === "object" && value !== null)
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, Array.isArray(value) ? Number(k) : k]));
  return out;
}

function replaced(value: unknown, path: (string | number)[], by: unknown): unknown {
  if (path.length === 0) return by;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[path[0]!] = replaced(copy[path[0]!], path.slice(1), by);
  return copy;
}

test("property: the reader answers every mutated or random file with a recording or a refusal, and never throws", () => {
  const all = paths(HAND_WRITTEN);
  let cases = 0;
  const check = (bytes: Uint8Array) => {
    cases++;
    const read = readRecording(bytes);
    if (!read.ok) {
      assert.equal(read.code, "E-RT-RECORDING");
      assert.ok(read.problem.length > 0);
    }
  };
  fc.assert(
    fc.property(fc.nat(all.length - 1), fc.jsonValue({ maxDepth: 3 }), (which, by) => {
      check(Buffer.from(JSON.stringify(replaced(HAND_WRITTEN, all[which]!, by))));
    }),
    { numRuns: 1500 },
  );
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(), (noise, cut) => {
      const text = Buffer.from(JSON.stringify(HAND_WRITTEN));
      check(Buffer.concat([text.subarray(0, cut % text.length), noise]));
      check(noise);
    }),
    { numRuns: 1000 },
  );
  // Deep nesting, far past what a recording may have.
  check(Buffer.from("[".repeat(100_000)));
  check(
    Buffer.from(
      JSON.stringify({
        ...HAND_WRITTEN,
        calls: [{ ...HAND_WRITTEN.calls[0], arguments: { url: JSON.parse("[".repeat(70) + "]".repeat(70)) } }],
      }),
    ),
  );
  console.log(`recording reader: ${cases} cases`);
  // The unmutated recording is read.
  assert.ok(readRecording(Buffer.from(JSON.stringify(HAND_WRITTEN))).ok);
});
