// How a replay's calls reach the program's worker, and how a capability text is read once its capability has been
// read (spec/recording.md, "Reading a recording"): the worker's calls, read again from the checked bytes, are the
// reader's own, and a capability text read without its pattern is read as the pattern reads it.

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { readRecording } from "../cli/recordings/reader.js";
import { callsOfChecked } from "../rtlib/recording/checked-recording.js";
import { readNeedText } from "../vocabulary/grant-text.js";
import { needText } from "../vocabulary/needs.js";

const RECORDING = {
  program: "shop",
  toolchain: "renyi 0.1.0",
  source: "shop.ry",
  code: "sha256:00",
  grant: ["random", 'filesystem.database("shop.db")', "environment"],
  outcome: "finished",
  environment: { HOME: null, __proto__: null },
  calls: [
    {
      sequence: 1,
      capability: "random",
      primitive: "std.random.choice",
      arguments: { items: ["a", "a"] },
      outcome: { success: "a", items: [1] },
      duration_ms: 0,
    },
    {
      sequence: 2,
      capability: 'environment("HOME")',
      primitive: "std.environment.get",
      arguments: { name: "HOME" },
      outcome: { success: "/home/x" },
      at_ms: 3,
      redacted_at: [["name"]],
    },
    {
      sequence: 3,
      capability: 'filesystem.database("shop.db")',
      primitive: "std.database.execute",
      arguments: { sql: "insert into t values (1)", parameters: [] },
      outcome: { success: 1 },
      transaction: 1,
    },
    {
      sequence: 4,
      capability: 'filesystem.database("shop.db")',
      primitive: "std.database.transaction",
      arguments: {},
      outcome: { failure: { Sql: { message: "disk full" } }, at: "COMMIT" },
      transaction: 1,
    },
  ],
};

test("the worker's calls, read again from the checked bytes, are those the reader gave", () => {
  // Written as JSON text: `__proto__` is then a key of the file, not the object's prototype.
  const text = JSON.stringify(RECORDING, null, 2).replace('"HOME": null', '"HOME": null, "__proto__": null');
  const read = readRecording(Buffer.from(text));
  assert.ok(read.ok, read.ok ? "" : read.problem);
  const again = callsOfChecked({ checked: new Uint8Array(read.bytes), opened: [] });
  assert.deepEqual(again, read.recording.calls);
  assert.equal(again.length, 4);
  // (Compared as JSON: the reader's objects have no prototype.)
  const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
  assert.deepEqual(asJson(again[0]!.outcome), { success: "a", items: [1] });
  assert.deepEqual(asJson(again[3]!.outcome), { failure: { Sql: { message: "disk full" } }, at: "COMMIT" });
  // The opened calls of a sealed recording take their places.
  const opened = { ...read.recording.calls[1]!, outcome: { success: "/opened" } };
  assert.deepEqual(callsOfChecked({ checked: new Uint8Array(read.bytes), opened: [[1, opened]] })[1], opened);
  // The environment header is a plain object of every name, `__proto__` among them.
  assert.deepEqual(Object.keys(read.recording.environment!), ["HOME", "__proto__"]);
});

test("a capability text is read the same before and after its capability has been read once", () => {
  const scopes = fc.string({ unit: "binary", maxLength: 12 });
  const property = (quick: boolean) =>
    fc.property(scopes, (scope) => {
      // Written as a needs line writes it: read back exactly, the first time and every time after.
      const written = `environment(${JSON.stringify(scope)})`;
      const read = readNeedText(written);
      if (scope === "") assert.equal(typeof read, "string");
      else assert.deepEqual(read, { path: ["environment"], scope });
      // Written between quotes as it is: a need only when a needs line would write it so.
      const raw = `environment("${scope}")`;
      const rawRead = readNeedText(raw);
      const writesSo = scope !== "" && JSON.stringify(scope) === `"${scope}"`;
      assert.equal(typeof rawRead !== "string", writesSo, `${raw} (${quick ? "after" : "before"})`);
      if (typeof rawRead !== "string") assert.equal(needText(rawRead), raw);
    });
  fc.assert(property(false), { numRuns: 300 });
  assert.deepEqual(readNeedText('environment("HOME")'), { path: ["environment"], scope: "HOME" });
  assert.deepEqual(readNeedText("console"), { path: ["console"] });
  fc.assert(property(true), { numRuns: 300 });
  for (const text of ['environment("A")x', 'environment("A", "B")', 'environment("")', "console ", "consoles"])
    assert.equal(typeof readNeedText(text), "string", text);
  assert.deepEqual(readNeedText("console"), { path: ["console"] });
  // A need read the quick way is the caller's own: changing it changes no later need.
  const need = readNeedText("console");
  assert.ok(typeof need !== "string");
  (need.path as string[]).push("changed");
  assert.deepEqual(readNeedText("console"), { path: ["console"] });
});
