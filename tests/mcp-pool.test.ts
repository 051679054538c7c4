// The worker pool of `renyi mcp` (cli/mcp/pool.ts) on its own: a thread's error
// that no job listens for, as when a thread being ended reaches its heap limit
// on its way out, never ends the server's process, and a thread that ends while
// it waits is not given the next job.

import assert from "node:assert/strict";
import { test } from "node:test";
import type { Worker } from "node:worker_threads";
import { WorkPool } from "../cli/mcp/pool.js";

/** The threads waiting for work, which the pool keeps to itself. */
const idleOf = (pool: WorkPool): Worker[] => (pool as unknown as { idle: Worker[] }).idle;

test("an error from a thread no job listens to is dropped, and the next job is answered", async () => {
  const pool = new WorkPool({ seconds: 30, memoryMib: 256 });
  try {
    const first = await pool.run<{ title: string }>({ kind: "explain", code: "E-RT-FUEL" });
    assert.ok("answer" in first, JSON.stringify(first));
    const waiting = idleOf(pool)[0];
    assert.ok(waiting !== undefined, "a thread waits for the next job");
    // With no listener, EventEmitter throws an 'error' it is given: the server's process would end here.
    assert.doesNotThrow(() =>
      waiting.emit("error", Object.assign(new Error("late"), { code: "ERR_WORKER_OUT_OF_MEMORY" })),
    );
    const second = await pool.run({ kind: "explain", code: "E-RT-DIVISION" });
    assert.ok("answer" in second, JSON.stringify(second));
  } finally {
    pool.close();
  }
});

test("a thread that ends while it waits leaves the idle list, and the next job gets a live thread", async () => {
  const pool = new WorkPool({ seconds: 30, memoryMib: 256 });
  try {
    assert.ok("answer" in (await pool.run({ kind: "explain", code: "E-RT-FUEL" })));
    const waiting = idleOf(pool)[0]!;
    await waiting.terminate();
    // The exit event comes after terminate() resolves, on the next turns of the loop.
    for (let i = 0; i < 50 && idleOf(pool).includes(waiting); i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(idleOf(pool).includes(waiting), false);
    const answered = await pool.run({ kind: "explain", code: "E-RT-DIVISION" });
    assert.ok("answer" in answered, JSON.stringify(answered));
  } finally {
    pool.close();
  }
});
