// The run's observers (rtlib/run-main.ts, rtlib/gateway.ts): every one the
// configuration lists sees every call through the gateway, in order, its
// success or its failure; a run configured with none leaves no observer behind.

import assert from "node:assert/strict";
import { test } from "node:test";
import { call, type CallRecord } from "../rtlib/gateway.js";
import { rootGrant } from "../rtlib/grants.js";
import { configureLimits } from "../rtlib/limits.js";
import { runMain } from "../rtlib/run-main.js";

const console = { name: "std.console.print", need: { path: ["console"] } };

test("every observer the run lists sees each gateway call, in order; none are left after a run without them", async () => {
  const seen: string[] = [];
  const watch = (who: string) => (record: CallRecord) =>
    seen.push(`${who} ${record.primitive} ${"success" in record.outcome ? "ok" : "failed"}`);
  let calls = 0;
  const main = async (grant: unknown) => {
    await call(grant as never, console, { text: "one" }, () => "done");
    await call(grant as never, console, { text: "two" }, () => Promise.reject(new Error("broken"))).catch(
      () => undefined,
    );
    calls += 2;
  };
  const outcome = await runMain(
    { main, mainGrant: [{ path: ["console"] }] },
    { argv: [], observers: [watch("recording"), watch("narration")] },
  );
  assert.equal(outcome.outcome, "finished");
  assert.deepEqual(seen, [
    "recording std.console.print ok",
    "narration std.console.print ok",
    "recording std.console.print failed",
    "narration std.console.print failed",
  ]);
  // The next run lists none: nothing watches its calls.
  seen.length = 0;
  assert.equal((await runMain({ main, mainGrant: [{ path: ["console"] }] }, { argv: [] })).outcome, "finished");
  await call(rootGrant([{ path: ["console"] }], "main"), console, {}, () => 1);
  assert.deepEqual(seen, []);
  assert.equal(calls, 4);
  configureLimits({});
});
