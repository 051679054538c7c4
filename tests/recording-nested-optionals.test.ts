// Values in a recording (spec/recording.md, "Values in arguments and outcomes"): what
// random.choice and random.shuffle answer is read back exactly, nested optionals
// included. `Some(None)`, `Some(nothing)` and `None` are all written `null`; the
// recording then says which items were answered (`outcome.items`), and a recording
// whose items' forms alone tell them apart is written as it always was. Random
// values of the prelude's types go through the real recorder, the real reader and
// the real replayer; a whole program is recorded and replayed by `renyi`.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import fc from "fast-check";
import { readRecording } from "../cli/recordings/reader.js";
import { equals } from "../rtlib/equality.js";
import { NONE, Some } from "../rtlib/prelude.js";
import { encodeCall } from "../rtlib/recording/encode.js";
import { Replayer } from "../rtlib/recording/replayer.js";
import { Pair } from "../rtlib/values.js";
import type { RecordedCall } from "../vocabulary/recording.js";
import { renyiIn } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-nested-"));
after(() => rmSync(work, { recursive: true, force: true }));

/** A type of the prelude, as a generator of its values: Int, Text, Bool, Nothing, and Optional, List and Pair of them. */
type Values = fc.Arbitrary<unknown>;

const leaf: fc.Arbitrary<Values> = fc.constantFrom<Values>(
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom("", "a", "null", "Some"),
  fc.boolean(),
  fc.constant(null),
);

const typeOf: fc.Arbitrary<Values> = fc.letrec<{ type: Values }>((tie) => ({
  type: fc.oneof(
    { maxDepth: 4, depthIdentifier: "type" },
    leaf,
    tie("type").map((inner) =>
      fc.oneof(
        fc.constant(NONE),
        inner.map((v) => new Some(v)),
      ),
    ),
    tie("type").map((inner) => fc.array(inner, { maxLength: 3 })),
    fc.tuple(tie("type"), tie("type")).map(([a, b]) => fc.tuple(a, b).map(([x, y]) => new Pair(x, y))),
  ),
})).type;

/** Items of one type, one chosen, and a shuffle of them. */
const calls = typeOf.chain((values) =>
  fc.array(values, { minLength: 1, maxLength: 6 }).chain((items) =>
    fc.tuple(
      fc.constant(items),
      fc.nat({ max: items.length - 1 }),
      fc.shuffledSubarray(
        items.map((_, i) => i),
        {
          minLength: items.length,
          maxLength: items.length,
        },
      ),
    ),
  ),
);

const RANDOM = { path: ["random"] };

/** The calls as `renyi record` writes them, read back as `renyi run --replay` reads them. */
function recordAndRead(made: { primitive: string; items: unknown[]; answer: unknown }[]): RecordedCall[] {
  const entries = made.map((call, i) =>
    encodeCall(
      {
        primitive: call.primitive,
        need: RANDOM,
        arguments: { items: call.items },
        outcome: { success: call.answer },
        durationMs: 0,
      },
      i + 1,
      0,
    ),
  );
  const recording = {
    program: "nested",
    toolchain: "renyi 0.1.0",
    source: "nested.ry",
    code: `sha256:${"0".repeat(64)}`,
    recorded_at: "2026-12-05T18:00:00Z",
    grant: ["random"],
    outcome: "finished",
    calls: entries,
  };
  const read = readRecording(Buffer.from(JSON.stringify(recording, null, 2)));
  assert.ok(read.ok, read.ok ? "" : read.problem);
  return read.recording.calls;
}

test("property: what random.choice and random.shuffle answered, of any nesting of the prelude's types, is read back exactly", () => {
  fc.assert(
    fc.property(calls, ([items, chosen, order]) => {
      const choice = new Some(items[chosen]);
      const shuffled = order.map((i) => items[i]);
      const read = recordAndRead([
        { primitive: "std.random.choice", items, answer: choice },
        { primitive: "std.random.shuffle", items, answer: shuffled },
      ]);
      const replayer = new Replayer(read, [{ path: ["random"] }]);
      const perform = () => assert.fail("a replayed call is never made");
      const answeredChoice = replayer.answer({ name: "std.random.choice", need: RANDOM }, { items }, perform, false);
      const answeredShuffle = replayer.answer({ name: "std.random.shuffle", need: RANDOM }, { items }, perform, false);
      assert.ok(equals(answeredChoice, choice), "the choice read back is the one made");
      assert.ok(equals(answeredShuffle, shuffled), "the shuffle read back is the one made");
    }),
    { numRuns: 400 },
  );
});

test("a recording whose items' forms tell them apart is written as before, without `items`", () => {
  const [choice, shuffle] = recordAndRead([
    { primitive: "std.random.choice", items: [1, 2, new Some(3)], answer: new Some(2) },
    { primitive: "std.random.shuffle", items: [NONE, new Some("a")], answer: [new Some("a"), NONE] },
  ]);
  assert.deepEqual(choice!.outcome, { success: 2 });
  assert.deepEqual(shuffle!.outcome, { success: ["a", null] });
});

test("a recording written before `items` reads as it did, and a wrong place is refused with E-RT-RECORDING", () => {
  const read = (outcome: object) =>
    readRecording(
      Buffer.from(
        JSON.stringify({
          program: "nested",
          toolchain: "renyi 0.1.0",
          source: "nested.ry",
          code: `sha256:${"0".repeat(64)}`,
          recorded_at: "2026-12-05T18:00:00Z",
          grant: ["random"],
          outcome: "finished",
          calls: [
            {
              sequence: 1,
              capability: "random",
              primitive: "std.random.choice",
              arguments: { items: [null, 3] },
              outcome,
            },
          ],
        }),
      ),
    );
  assert.ok(read({ success: 3 }).ok);
  // `null` alone still says the list was empty: refused, as before.
  const bare = read({ success: null });
  assert.ok(!bare.ok && /random\.choice answers one of the items it was given/.test(bare.problem));
  assert.ok(read({ success: null, items: [0] }).ok);
  for (const [items, why] of [
    [[1], /says item 1, but the answer's item there is written otherwise/],
    [[2], /holds 2, which is no place in arguments\.items/],
    [[0, 1], /has 2 places, but the answer has 1 items/],
    [["0"], /must be a whole number/],
  ] as const) {
    const wrong = read({ success: null, items });
    assert.ok(!wrong.ok, JSON.stringify(items));
    assert.match(wrong.problem, why);
    assert.equal(wrong.code, "E-RT-RECORDING");
  }
});

test("renyi record and renyi run --replay: Some(None), Some(nothing) and nested optionals replay as they ran", async () => {
  writeFileSync(
    join(work, "nest.ry"),
    `public function main()
  purpose: Choose among nested optionals.
  needs console, random
  let empty: Optional<Int> be None
  let inner: Optional<Optional<Int>> be Some(empty)
  let deep: Optional<Optional<Int>> be Some(Some(3))
  let n be random.choice([empty])
  let a be random.choice([None, inner, deep, inner])
  let s be random.shuffle([None, inner, deep, None, inner])
  let noth be random.choice([console.error("x")])
  console.print("{n} {a} {s} {noth}")
end
`,
  );
  const cache = join(work, "cache");
  const live = await renyiIn(work, ["record", "nest.ry"], {}, cache);
  assert.equal(live.status, 0, live.stderr);
  const recording = JSON.parse(readFileSync(join(work, "nest.recording.json"), "utf8")) as {
    calls: { primitive: string; outcome: { items?: number[] } }[];
  };
  assert.deepEqual(recording.calls[0]!.outcome, { success: null, items: [0] });
  const replayed = await renyiIn(work, ["run", "--replay", "nest.recording.json", "--console", "nest.ry"], {}, cache);
  assert.equal(replayed.status, 0, replayed.stderr);
  assert.equal(replayed.stdout, live.stdout);
  assert.match(live.stdout, /^Some\(None\) /);
});
