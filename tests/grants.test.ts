// Grants and budgets at run time: the grant stack, narrowing from the command
// line, and budget windows with an injected clock.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { narrowByCommandLine } from "../rtlib/command-line-grant.js";
import { Budgets, budgetsOf, narrow, refusing, rootGrant, type GrantItem } from "../rtlib/grants.js";
import { ROOT } from "./golden.js";

const http = (scope?: string) => ({ path: ["network", "http"], ...(scope ? { scope } : {}) });

test("a call must be covered by the innermost grant and every grant around it", () => {
  const main = rootGrant([{ path: ["console"] }, http("*.example.com")], "main");
  const fetch = narrow(main, [http("api.example.com")], "fetch");
  assert.equal(refusing(fetch, http("api.example.com")), undefined);
  assert.equal(refusing(fetch, http("www.example.com"))?.owner, "fetch");
  assert.equal(refusing(fetch, { path: ["console"] })?.owner, "fetch", "fetch's needs do not name console");
  assert.equal(refusing(main, http("other.org"))?.owner, "main");
});

test("budgets: a sliding window per unit, and a count for the whole run", () => {
  for (const [unit, ms] of [
    ["second", 1_000],
    ["minute", 60_000],
    ["hour", 3_600_000],
    ["day", 86_400_000],
  ] as const) {
    let now = 1_000_000;
    const budgets = new Budgets();
    budgets.setClock(() => now);
    rootGrant([{ ...http("a.com"), budget: { count: 2, unit } }], "main", budgets);
    assert.ok(budgets.take(http("a.com")).ok);
    now += ms / 2;
    assert.ok(budgets.take(http("a.com")).ok);
    const over = budgets.take(http("a.com"));
    assert.equal(over.ok, false, `a third call within a ${unit}`);
    assert.match((over as { budget: string }).budget, new RegExp(`at most 2 per ${unit}`));
    // The first call leaves the window one unit after it was made.
    now += ms / 2 + 1;
    assert.ok(budgets.take(http("a.com")).ok, `a call a ${unit} after the first`);
    assert.equal(budgets.take(http("a.com")).ok, false);
  }
  const run = new Budgets();
  rootGrant([{ ...http(), budget: { count: 3, unit: "run" } }], "main", run);
  assert.ok(run.take(http("x.com")).ok && run.take(http("y.com")).ok && run.take(http("x.com")).ok);
  assert.equal(run.take(http("z.com")).ok, false, "a run budget counts every call under the capability");
});

test("a refused call is not counted against the budget; a budget covers only its capability", () => {
  let now = 0;
  const budgets = new Budgets();
  budgets.setClock(() => now);
  rootGrant(
    [{ ...http("a.com"), budget: { count: 1, unit: "minute" } }, { path: ["filesystem", "read"] }],
    "main",
    budgets,
  );
  assert.ok(budgets.take({ path: ["filesystem", "read"], scope: "x" }).ok);
  assert.ok(budgets.take(http("a.com")).ok);
  assert.equal(budgets.take(http("a.com")).ok, false);
  now += 60_001;
  assert.ok(budgets.take(http("a.com")).ok);
});

test("the command line narrows the grant and refuses to widen it", () => {
  const items: GrantItem[] = [
    { path: ["console"] },
    { ...http("*.example.com"), budget: { count: 60, unit: "minute" } },
  ];
  const narrowed = narrowByCommandLine(items, ["api.example.com"], []);
  assert.ok(narrowed.ok);
  if (narrowed.ok) {
    assert.equal(refusing(narrowed.grant, http("api.example.com")), undefined);
    assert.equal(refusing(narrowed.grant, http("www.example.com"))?.owner, "the command line");
    assert.equal(
      refusing(narrowed.grant, { path: ["console"] }),
      undefined,
      "other capabilities stay as main has them",
    );
  }
  const widen = narrowByCommandLine(items, ["evil.org"], []);
  assert.equal(widen.ok, false);
  assert.match((widen as { message: string }).message, /would widen the grant/);
  assert.ok(narrowByCommandLine(items, [], ["network.http=10/minute"]).ok);
  assert.ok(narrowByCommandLine(items, [], ["network.http=5/second"]).ok, "a budget of another unit only adds a limit");
  const looser = narrowByCommandLine(items, [], ["network.http=100/minute"]);
  assert.equal(looser.ok, false);
  assert.match((looser as { message: string }).message, /would widen main's budget of 60 per minute/);
  assert.equal(narrowByCommandLine(items, [], ["filesystem.read=1/run"]).ok, false, "a capability main does not have");
  assert.equal(narrowByCommandLine(items, [], ["network.http:60"]).ok, false, "a malformed flag");
  // A tighter budget from the command line is enforced.
  const tight = narrowByCommandLine(items, [], ['network.http("api.example.com")=1/run']);
  assert.ok(tight.ok);
  if (tight.ok) {
    assert.ok(budgetsOf(tight.grant).take(http("api.example.com")).ok);
    assert.equal(budgetsOf(tight.grant).take(http("api.example.com")).ok, false);
  }
});

const work = mkdtempSync(join(tmpdir(), "renyi-grants-"));
after(() => rmSync(work, { recursive: true, force: true }));
const env = {
  ...process.env,
  RENYI_CACHE_DIR: join(work, "cache"),
  RENYI_TEST_VALUE: "visible",
  RENYI_TEST_SECRET: "hidden",
};
const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");

function run(source: string, ...args: string[]) {
  const file = join(work, `p${Math.random().toString(36).slice(2)}.ry`);
  writeFileSync(file, source);
  const result = spawnSync(
    process.execPath,
    [RENYI, "run", ...args.slice(0, Math.max(0, args.indexOf("--"))), file, ...args.slice(args.indexOf("--") + 1)],
    { encoding: "utf8", env },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("a primitive that cannot fail crashes when the grant refuses it, naming whose needs refused", () => {
  const program = `function read(name: Text) returns Optional<Text>
  needs environment("RENYI_TEST_VALUE")
  return environment.get(name)
end

public function main(name: Text)
  purpose: Read a variable.
  needs console, environment
  console.print("{read(name)}")
end
`;
  const allowed = run(program, "--", "--name", "RENYI_TEST_VALUE");
  assert.equal(allowed.status, 0, allowed.stderr);
  assert.equal(allowed.stdout, 'Some("visible")\n');
  const refused = run(program, "--", "--name", "RENYI_TEST_SECRET");
  assert.equal(refused.status, 2);
  assert.match(
    refused.stderr,
    /E-RT-PERMISSION\]: environment\.get needs environment\("RENYI_TEST_SECRET"\), which the needs of read do not allow/,
  );
  assert.equal(refused.stdout, "");
});

test("--allow-host that would widen the grant is refused with exit 3", () => {
  const program = `public function main()
  purpose: Print.
  needs console, network.http("api.example.com")
  console.print("ran")
end
`;
  const widened = run(program, "--allow-host", "evil.org", "--");
  assert.equal(widened.status, 3);
  assert.match(widened.stderr, /--allow-host evil\.org would widen the grant/);
  const narrowed = run(program, "--allow-host", "api.example.com", "--");
  assert.equal(narrowed.status, 0, narrowed.stderr);
  assert.equal(narrowed.stdout, "ran\n");
  const looser = run(
    program.replace('network.http("api.example.com")', 'network.http("api.example.com") at most 5 per minute'),
    "--at-most",
    "network.http=50/minute",
    "--",
  );
  assert.equal(looser.status, 3);
  assert.match(looser.stderr, /would widen main's budget/);
});

test("the gateway's common call answers with a promise whatever happens: a refusal, a wrong result and a throw are rejections, never thrown at the caller", async () => {
  const { call } = await import("../rtlib/gateway.js");
  const { S, configureLimits } = await import("../rtlib/limits.js");
  const { TEXT } = await import("../rtlib/values.js");
  configureLimits({ fuel: 1e12 });
  S.maxHostCalls = Number.MAX_SAFE_INTEGER;
  const grant = rootGrant([{ path: ["environment"] }], "main");
  const primitive = (need: { path: string[] }) => ({ name: "std.test.call", need, result: TEXT });
  const cases: [string, () => Promise<unknown>, RegExp | string][] = [
    ["refused", () => call(grant, primitive({ path: ["time"] }), {}, () => "x"), /E-RT-PERMISSION/],
    [
      "wrong result",
      () => call(grant, primitive({ path: ["environment"] }), {}, () => 7 as unknown as string),
      /E-RT-INTERNAL/,
    ],
    [
      "thrown",
      () =>
        call(grant, primitive({ path: ["environment"] }), {}, () => {
          throw new Error("boom");
        }),
      /boom/,
    ],
    [
      "rejected",
      () => call(grant, primitive({ path: ["environment"] }), {}, () => Promise.reject(new Error("later"))),
      /later/,
    ],
    ["answered", () => call(grant, primitive({ path: ["environment"] }), {}, () => "ok"), "ok"],
    ["answered later", () => call(grant, primitive({ path: ["environment"] }), {}, () => Promise.resolve("ok")), "ok"],
  ];
  for (const [name, make, expected] of cases) {
    let pending: Promise<unknown> | undefined;
    assert.doesNotThrow(() => (pending = make()), name);
    assert.ok(pending instanceof Promise, name);
    if (typeof expected === "string") assert.equal(await pending, expected, name);
    else
      await assert.rejects(pending!, (e: unknown) => expected.test(String((e as { code?: string }).code ?? e)), name);
  }
});
