// Several machines (spec/durable.md, "Several machines"): three restate-server
// processes on this machine forming one cluster with a replicated log
// (replication 2), a small Restate service of this test's own registered once,
// invocations under way when one node is SIGKILLed, and every invocation ending
// once: one result each, the same again for its idempotency key, one Output in
// its journal, and no invocation beyond the ones sent.

import "../cli/durable/polyfill.js";
import * as restate from "@restatedev/restate-sdk";
import assert from "node:assert/strict";
import { createServer as createHttp2Server, type Http2Server } from "node:http2";
import { after, before, test } from "node:test";
import { RestateCluster } from "./restate-support.js";

/** Enough that some run on partitions the killed node leads (about a third of them). */
const INVOCATIONS = 24;

let cluster: RestateCluster;
let endpoint: Http2Server;
/** How many times each invocation's last step ran, by its input. */
const lastSteps = new Map<number, number>();
/** How many times the handler was called for each invocation, by its input: more than once after its leader died. */
const attempts = new Map<number, number>();

before(async () => {
  cluster = await RestateCluster.start(3, 2);
  const service = restate.service({
    name: "steps",
    handlers: {
      run: async (ctx: restate.Context, input: { n: number }) => {
        attempts.set(input.n, (attempts.get(input.n) ?? 0) + 1);
        let value = await ctx.run("first", () => input.n * 2);
        await ctx.sleep(1000);
        value = await ctx.run("second", () => value + 1);
        await ctx.sleep(1000);
        return ctx.run("last", () => {
          lastSteps.set(input.n, (lastSteps.get(input.n) ?? 0) + 1);
          return value + 1;
        });
      },
    },
  });
  endpoint = createHttp2Server(restate.createEndpointHandler({ services: [service] }));
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  const [first] = cluster.nodes;
  const registered = await fetch(`${first!.adminUrl}/deployments`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ uri: `http://127.0.0.1:${(endpoint.address() as { port: number }).port}`, force: true }),
  });
  assert.ok(registered.ok, await registered.text());
});

after(async () => {
  await cluster?.stop();
  endpoint?.close();
});

/** `POST /steps/run/send` through a node's ingress with an idempotency key: the invocation's id. */
async function send(ingress: string, n: number): Promise<string> {
  for (let tries = 0; ; tries++) {
    try {
      const response = await fetch(`${ingress}/steps/run/send`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": `k${n}` },
        body: JSON.stringify({ n }),
      });
      const body = await response.text();
      if (response.ok) return (JSON.parse(body) as { invocationId: string }).invocationId;
      if (tries > 100) throw new Error(`send answered ${response.status}: ${body}`);
    } catch (e) {
      if (tries > 100) throw e;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The invocation's result, through a node's ingress, waited for (retried while the cluster recovers). */
async function output(ingress: string, id: string): Promise<string> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      const response = await fetch(`${ingress}/restate/invocation/${id}/attach`, {
        signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
      });
      const body = await response.text();
      if (response.ok) return body;
      if (Date.now() > deadline) throw new Error(`attach answered ${response.status}: ${body}`);
    } catch (e) {
      if (Date.now() > deadline) throw e;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

test("a node of three SIGKILLed while invocations run: every invocation ends once, on the nodes left", async () => {
  const [first, second, third] = cluster.nodes as [
    RestateCluster["nodes"][0],
    RestateCluster["nodes"][0],
    RestateCluster["nodes"][0],
  ];
  const numbers = Array.from({ length: INVOCATIONS }, (_, i) => i + 1);
  // Sent through two nodes' ingresses, as a load balancer in front of them would.
  const ids = await Promise.all(numbers.map((n) => send((n % 2 === 0 ? first : second).ingressUrl, n)));
  // Killed once every invocation has begun (each then sleeps two seconds): on a loaded machine a
  // fixed wait could kill the node before any invocation had reached it.
  const begun = Date.now() + 60_000;
  while (attempts.size < INVOCATIONS && Date.now() < begun) await new Promise((r) => setTimeout(r, 20));
  assert.equal(attempts.size, INVOCATIONS, "every invocation begins within a minute");
  const killedAt = Date.now();
  await cluster.kill(third);
  const results = await Promise.all(ids.map((id) => output(first.ingressUrl, id)));
  const recovered = Date.now() - killedAt;
  assert.deepEqual(
    results.map((r) => JSON.parse(r) as number),
    numbers.map((n) => 2 * n + 2),
  );
  // The same idempotency key, through the other node: the same invocation, not a new one.
  const again = await Promise.all(numbers.map((n) => send(second.ingressUrl, n)));
  assert.deepEqual(again, ids);
  const rows = await cluster.query(
    first,
    "SELECT id, status, completion_result FROM sys_invocation WHERE target_service_name = 'steps'",
  );
  assert.equal(rows.length, INVOCATIONS);
  for (const row of rows) {
    assert.equal(row["status"], "completed", JSON.stringify(row));
    assert.equal(row["completion_result"], "success", JSON.stringify(row));
  }
  for (const id of ids) {
    const outputs = await cluster.query(
      first,
      `SELECT index FROM sys_journal WHERE id = '${id}' AND entry_type = 'Command: Output'`,
    );
    assert.equal(outputs.length, 1, id);
  }
  // A step's closure runs at least once: more than once only where a node died between running it and its journal.
  for (const n of numbers) assert.ok((lastSteps.get(n) ?? 0) >= 1, `invocation ${n} never ran its last step`);
  const repeated = numbers.filter((n) => (lastSteps.get(n) ?? 0) > 1).length;
  const resumed = numbers.filter((n) => (attempts.get(n) ?? 0) > 1).length;
  assert.ok(resumed >= 1, "no invocation was running on the node killed: the test proved nothing");
  process.stderr.write(
    `cluster: ${INVOCATIONS} invocations ended once each, ${recovered} ms after a node was killed; ` +
      `attempted again on another node: ${resumed}; last steps run again: ${repeated}\n`,
  );
});
