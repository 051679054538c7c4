// The grant manifest as what a run trusts (spec/security.md, "Bundles and their
// manifests"), through the commands users run: the run's grant is the
// manifest's and a bundle whose own grant differs is refused; a signed manifest
// runs under --trust with its key and is refused otherwise; hostile manifests
// are refused with exit 3 and a message, never a stack trace.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import fc from "fast-check";
import { checkManifest } from "../cli/bundles/bundle-files.js";
import { readManifest } from "../report/manifest.js";
import { readStrictJson } from "../report/strict-json.js";
import { sha256 } from "../cli/bundles/validate.js";
import { ROOT } from "./golden.js";

const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const RENYIC = join(ROOT, "dist", "cli", "renyic.js");
const work = mkdtempSync(join(tmpdir(), "renyi-manifest-"));
after(() => rmSync(work, { recursive: true, force: true }));
const env = { ...process.env, RENYI_CACHE_DIR: join(work, "cache") };
const HELLO = join(ROOT, "examples", "hello.ry");

function run(command: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [command, ...args], { cwd: work, encoding: "utf8", env });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A fresh stable build of hello.ry in its own folder: the bundle's path. */
function built(name: string, ...extra: string[]): string {
  const out = join(work, name);
  const result = run(RENYIC, "build", HELLO, "--out", out, "--stable", ...extra);
  assert.equal(result.status, 0, result.stderr);
  return join(out, "hello.mjs");
}

function assertRefused(result: { status: number | null; stderr: string }, expected: RegExp, what = ""): void {
  assert.equal(result.status, 3, `${what}: ${result.stderr}`);
  assert.match(result.stderr, /error\[E-RT-REFUSED\]/, what);
  assert.match(result.stderr, expected, what);
  assert.doesNotMatch(result.stderr, /\n\s+at .*:\d+:\d+/, `${what}: a JavaScript stack trace`);
  assert.doesNotMatch(result.stderr, /E-RT-INTERNAL/, what);
}

const manifestOf = (bundle: string) => bundle.replace(/\.mjs$/, ".grant.json");
const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const writeJson = (path: string, value: unknown) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

test("a bundle whose own grant was widened, with the manifest's hash updated to match, is refused", () => {
  const bundle = built("widened-bundle");
  const code = readFileSync(bundle, "utf8");
  const widened = code.replace(
    'export const mainGrant = [{ path: ["console"] }];',
    'export const mainGrant = [{ path: ["console"] }, { path: ["process"] }];',
  );
  assert.notEqual(widened, code);
  writeFileSync(bundle, widened);
  const manifest = readJson(manifestOf(bundle));
  writeJson(manifestOf(bundle), { ...manifest, bundle: sha256(widened) });
  assertRefused(
    run(RENYI, "run", bundle),
    /the bundle's own grant differs from its manifest's: the manifest grants `console`, the bundle's mainGrant `console`, `process`/,
  );
  // A grant computed rather than written out is refused too: it could be anything.
  const computed = code.replace(
    'export const mainGrant = [{ path: ["console"] }];',
    'export const mainGrant = [{ path: ["con" + "sole"] }];',
  );
  writeFileSync(bundle, computed);
  writeJson(manifestOf(bundle), { ...manifest, bundle: sha256(computed) });
  assertRefused(run(RENYI, "run", bundle), /mainGrant` is not written as data/);
});

test("a manifest widened while the bundle is unchanged is refused; the grant lines must say what the needs grant", () => {
  const bundle = built("widened-manifest");
  const manifest = readJson(manifestOf(bundle));
  writeJson(manifestOf(bundle), {
    ...manifest,
    grant: ["console", 'process("sh")'],
    needs: [...manifest.needs, { capability: "process", scope: "sh" }],
  });
  assertRefused(
    run(RENYI, "run", bundle),
    /the manifest grants `console`, `process\("sh"\)`, the bundle's mainGrant `console`/,
  );
  // A reviewer reading `grant` must read what `needs` grants.
  writeJson(manifestOf(bundle), { ...manifest, grant: ["console at most 1 per run"] });
  assertRefused(run(RENYI, "run", bundle), /`grant` lines do not say what its `needs` grant/);
  writeJson(manifestOf(bundle), manifest);
  const restored = run(RENYI, "run", bundle, "--name", "Ada");
  assert.equal(restored.status, 0, restored.stderr);
  assert.equal(restored.stdout, "Hello, Ada!\n");
});

test("every form of grant the compiler writes is read back from the manifest, and the bundle runs with it", () => {
  const program = join(work, "grants.ry");
  writeFileSync(
    program,
    "public function main()\n  purpose: Print.\n" +
      '  needs console, network.http("*.example.com") at most 60 per minute, filesystem.write("out") at most 10 ' +
      "per run, " +
      'environment("TOKEN") only to network.http("api.example.com") or network.socket(8080), ' +
      'network.socket(8080) at most 1000 per run, process("ls")\n  console.print("granted")\nend\n',
  );
  const out = join(work, "grants");
  assert.equal(run(RENYIC, "build", program, "--out", out).status, 0);
  const manifest = readJson(join(out, "grants.grant.json"));
  assert.equal(manifest.grant.length, 6);
  const ran = run(RENYI, "run", join(out, "grants.mjs"));
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "granted\n");
});

test("a source map that is not the one built is refused; without one the bundle runs", () => {
  const bundle = built("map");
  writeFileSync(`${bundle}.map`, readFileSync(`${bundle}.map`, "utf8").replace('"hello.ry"', '"other.ry"'));
  assertRefused(run(RENYI, "run", bundle), /source map's hash does not match its manifest/);
  // Without its map the bundle runs; a crash would have no .ry position.
  rmSync(`${bundle}.map`);
  assert.equal(run(RENYI, "run", bundle).status, 0);
});

test("keygen writes a private key only its owner reads, and never overwrites one", () => {
  const name = join(work, "owner");
  const made = run(RENYIC, "keygen", "--out", name);
  assert.equal(made.status, 0, made.stderr);
  assert.match(made.stdout, /^ed25519:[0-9a-f]{16}: wrote /);
  assert.equal(statSync(`${name}.key`).mode & 0o777, 0o600);
  assert.match(readFileSync(`${name}.pub`, "utf8"), /^-----BEGIN PUBLIC KEY-----/);
  const key = readFileSync(`${name}.key`);
  const again = run(RENYIC, "keygen", "--out", name);
  assert.equal(again.status, 3);
  assert.match(again.stderr, /never overwritten/);
  assert.deepEqual(readFileSync(`${name}.key`), key);
});

test("a signed bundle runs under --trust with its key, and is refused unsigned, by another key, changed, or with a damaged signature", () => {
  const alice = join(work, "alice");
  const mallory = join(work, "mallory");
  assert.equal(run(RENYIC, "keygen", "--out", alice).status, 0);
  assert.equal(run(RENYIC, "keygen", "--out", mallory).status, 0);
  const bundle = built("signed", "--sign", `${alice}.key`);
  const signature = bundle.replace(/\.mjs$/, ".grant.sig");
  const original = readFileSync(signature, "utf8");

  const trusted = run(RENYI, "run", "--trust", `${alice}.pub`, bundle, "--name", "Ada");
  assert.equal(trusted.status, 0, trusted.stderr);
  assert.equal(trusted.stdout, "Hello, Ada!\n");
  // Several keys: any one of them will do.
  assert.equal(run(RENYI, "run", "--trust", `${mallory}.pub`, "--trust", `${alice}.pub`, bundle).status, 0);
  // Without --trust the signature is not looked at: the bundle runs as any bundle does.
  assert.equal(run(RENYI, "run", bundle).status, 0);

  assertRefused(
    run(RENYI, "run", "--trust", `${mallory}.pub`, bundle),
    /the manifest is signed by ed25519:[0-9a-f]{16}, which is not a key --trust names \(ed25519:[0-9a-f]{16}\)/,
    "another key",
  );
  // Signed by Mallory, who names Alice's key in the signature file.
  const aliceId = /ed25519 ([0-9a-f]{16}) /.exec(original)![1]!;
  const forged = built("forged", "--sign", `${mallory}.key`);
  const forgedSignature = forged.replace(/\.mjs$/, ".grant.sig");
  writeFileSync(
    forgedSignature,
    readFileSync(forgedSignature, "utf8").replace(/ed25519 [0-9a-f]{16} /, `ed25519 ${aliceId} `),
  );
  assertRefused(
    run(RENYI, "run", "--trust", `${alice}.pub`, forged),
    /signature by ed25519:[0-9a-f]{16} does not verify/,
    "a signature by another key under the trusted key's id",
  );

  const manifestPath = manifestOf(bundle);
  const manifest = readFileSync(manifestPath, "utf8");
  // The same JSON, written another way: the signature is over the bytes.
  writeFileSync(manifestPath, JSON.stringify(JSON.parse(manifest)));
  assertRefused(
    run(RENYI, "run", "--trust", `${alice}.pub`, bundle),
    /does not verify: the manifest was changed after it was signed/,
    "manifest changed",
  );
  writeFileSync(manifestPath, manifest);

  const damaged = original.slice(0, 50) + (original[50] === "A" ? "B" : "A") + original.slice(51);
  writeFileSync(signature, damaged);
  assertRefused(run(RENYI, "run", "--trust", `${alice}.pub`, bundle), /does not verify/, "damaged signature");
  writeFileSync(signature, `renyi-signature-v1 ed25519 ${original.split(" ")[2]} not-base64\n`);
  assertRefused(
    run(RENYI, "run", "--trust", `${alice}.pub`, bundle),
    /is not a signature file/,
    "malformed signature file",
  );
  writeFileSync(signature, original);
  assert.equal(run(RENYI, "run", "--trust", `${alice}.pub`, bundle).status, 0);

  // A build without --sign takes the old signature away: the manifest is unsigned.
  built("signed");
  assert.equal(existsSync(signature), false);
  assertRefused(run(RENYI, "run", "--trust", `${alice}.pub`, bundle), /the manifest is not signed/, "unsigned");

  // Keys in the wrong place, or not keys at all: through the function renyi run calls, and one through renyi run.
  assertRefused(
    run(RENYI, "run", "--trust", `${alice}.key`, bundle),
    /holds a private key/,
    "a private key to --trust",
  );
  for (const [key, expected] of [
    [manifestPath, /is not a PEM public key/],
    [join(work, "nobody.pub"), /cannot read the public key .*no such file/],
    [HELLO, /is not a PEM public key/],
  ] as const) {
    const checked = checkManifest(bundle, [key]);
    assert.equal(checked.ok, false);
    if (!checked.ok) assert.match(checked.problem, expected);
  }
  const wrongSign = run(RENYIC, "build", HELLO, "--out", join(work, "never"), "--sign", `${alice}.pub`);
  assert.equal(wrongSign.status, 3);
  assert.match(wrongSign.stderr, /not an unencrypted PEM private key/);
  assert.equal(existsSync(join(work, "never")), false, "a build that cannot be signed writes nothing");
  const onSource = run(RENYI, "run", "--trust", `${alice}.pub`, HELLO);
  assert.equal(onSource.status, 3);
  assert.match(onSource.stderr, /--trust checks the signature of a bundle/);
});

test("signed --stable builds are byte-identical, signature included", () => {
  const key = join(work, "stable-key");
  assert.equal(run(RENYIC, "keygen", "--out", key).status, 0);
  const a = built("stable-a", "--sign", `${key}.key`);
  const b = built("stable-b", "--sign", `${key}.key`);
  for (const suffix of [".mjs", ".mjs.map", ".grant.json", ".grant.sig"]) {
    const file = (bundle: string) => bundle.replace(/\.mjs$/, suffix);
    assert.deepEqual(
      readFileSync(file(a)),
      readFileSync(file(b)),
      `${suffix} differs between two stable signed builds`,
    );
  }
});

test("hostile manifests are refused with exit 3 and a message, never a stack trace", () => {
  const bundle = built("hostile");
  const path = manifestOf(bundle);
  const good = readJson(path);
  const goodText = readFileSync(path, "utf8");
  const withNeeds = (...needs: unknown[]) => ({ ...good, needs, grant: good.grant });
  const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
  const corpus: [string, string | Buffer, RegExp][] = [
    ["empty", "", /not valid JSON/],
    ["not JSON", "needs: console", /not valid JSON/],
    ["a list", "[]", /the manifest must be an object/],
    ["null", "null", /the manifest must be an object/],
    ["a number", "1e999", /too large/],
    ["deep", nested(100_000), /nesting deeper than/],
    ["huge", `{"program": "${"x".repeat(2 << 20)}"}`, /larger than the 1 MiB a file may have here/],
    ["not UTF-8", Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), /not UTF-8/],
    ["byte order mark", `\ufeff${goodText}`, /byte order mark/],
    ["lone surrogate", goodText.replace('"hello"', '"\\ud800"'), /lone surrogate/],
    [
      "a repeated key",
      goodText.replace('"needs": [', '"needs": [{"capability": "process"}],\n  "needs": ['),
      /"needs" appears twice/,
    ],
    [
      "__proto__ at the top",
      goodText.replace("{", '{"__proto__": {"needs": []},'),
      /field "__proto__", which a manifest does not have/,
    ],
    [
      "__proto__ in a need",
      goodText.replace('"capability": "console"', '"__proto__": {"scope": "x"}, "capability": "console"'),
      /needs\[0\] has a field "__proto__"/,
    ],
    ["an extra field", JSON.stringify({ ...good, extra: 1 }), /field "extra", which a manifest does not have/],
    ["a missing field", JSON.stringify({ ...good, needs: undefined }), /has no field `needs`/],
    ["needs not a list", JSON.stringify({ ...good, needs: { capability: "console" } }), /`needs` must be a list/],
    ["grant not texts", JSON.stringify({ ...good, grant: [1] }), /grant\[0\] must be a text/],
    [
      "an unknown capability",
      JSON.stringify({ ...good, grant: ["teleport"], needs: [{ capability: "teleport" }] }),
      /`teleport` is not a capability/,
    ],
    [
      "a capability's name malformed",
      JSON.stringify(withNeeds({ capability: "Console" })),
      /is not a capability's name/,
    ],
    [
      "a scope on console",
      JSON.stringify(withNeeds({ capability: "console", scope: "x" })),
      /not a scope of `console`, which takes none/,
    ],
    [
      "a text as a port",
      JSON.stringify(withNeeds({ capability: "network.socket", scope: "8080" })),
      /not a scope of `network.socket` \(a port number\)/,
    ],
    [
      "an empty host",
      JSON.stringify(withNeeds({ capability: "network.http", scope: "" })),
      /not a scope of `network.http`/,
    ],
    [
      "a scope that is a list",
      JSON.stringify(withNeeds({ capability: "network.http", scope: ["a"] })),
      /scope must be a text or a number/,
    ],
    [
      "a budget on console",
      JSON.stringify(withNeeds({ capability: "console", budget: { count: 1, unit: "run" } })),
      /takes no budget/,
    ],
    [
      "a budget of 0",
      JSON.stringify(withNeeds({ capability: "network", budget: { count: 0, unit: "run" } })),
      /count must be a whole number above 0/,
    ],
    [
      "a fractional budget",
      JSON.stringify(withNeeds({ capability: "network", budget: { count: 1.5, unit: "run" } })),
      /count must be a whole number above 0/,
    ],
    [
      "a budget as text",
      JSON.stringify(withNeeds({ capability: "network", budget: { count: "9", unit: "run" } })),
      /count must be a whole number above 0/,
    ],
    [
      "a budget per week",
      JSON.stringify(withNeeds({ capability: "network", budget: { count: 1, unit: "week" } })),
      /unit must be one of/,
    ],
    [
      "a budget with more",
      JSON.stringify(withNeeds({ capability: "network", budget: { count: 1, unit: "run", burst: 9 } })),
      /field "burst"/,
    ],
    [
      "a guard without sinks",
      JSON.stringify(withNeeds({ capability: "environment", guard: {} })),
      /guard has no field `sinks`/,
    ],
    [
      "a guard's sink unknown",
      JSON.stringify(withNeeds({ capability: "environment", guard: { sinks: ["anywhere"] } })),
      /`anywhere` is not a capability/,
    ],
    [
      "a guard's sink malformed",
      JSON.stringify(withNeeds({ capability: "environment", guard: { sinks: ['network.http("a"'] } })),
      /is not a capability/,
    ],
    [
      "a guard's sink written otherwise",
      JSON.stringify(withNeeds({ capability: "environment", guard: { sinks: ['network.http("\\u0061")'] } })),
      /not written as the compiler writes it/,
    ],
    ["a hash malformed", JSON.stringify({ ...good, bundle: "md5:00" }), /`bundle` is not of the form/],
    [
      "a source malformed",
      JSON.stringify({ ...good, sources: [{ module: "hello", file: "hello.ry" }] }),
      /sources\[0\] has no field `hash`/,
    ],
    ["an entry other than main", JSON.stringify({ ...good, entry: "other" }), /`entry` must be "main"/],
    ["a time malformed", JSON.stringify({ ...good, built_at: "yesterday" }), /`built_at` is not of the form/],
  ];
  // Every case through the function renyi run calls, and one of each kind through renyi run
  // itself (a child process costs about half a second of a machine's time).
  const throughTheCommand = new Set(["deep", "huge", "a repeated key", "__proto__ at the top", "a text as a port"]);
  for (const [what, bytes, expected] of corpus) {
    writeFileSync(path, bytes);
    const checked = checkManifest(bundle, []);
    assert.equal(checked.ok, false, what);
    if (!checked.ok) assert.match(checked.problem, expected, what);
    if (throughTheCommand.has(what)) assertRefused(run(RENYI, "run", bundle), expected, what);
  }
  // Not a regular file: a folder, and a FIFO that would block a reader for ever.
  rmSync(path);
  mkdirSync(path);
  assertRefused(run(RENYI, "run", bundle), /cannot read the grant manifest .*it is a folder/, "a folder");
  rmSync(path, { recursive: true });
  const fifo = spawnSync("mkfifo", [path]);
  if (fifo.status === 0) assertRefused(run(RENYI, "run", bundle), /not a regular file/, "a FIFO");
  rmSync(path, { force: true });
  assertRefused(run(RENYI, "run", bundle), /has no grant manifest at/, "no manifest");
  console.log(`hostile manifests: ${corpus.length + 3} cases (${throughTheCommand.size + 3} through renyi run)`);
});

test("the strict JSON reader reads what JSON.parse reads, and the manifest reader never throws", () => {
  let cases = 0;
  fc.assert(
    fc.property(fc.json(), (text) => {
      cases++;
      const read = readStrictJson(Buffer.from(text, "utf8"));
      // fc.json writes each object's keys once, so nothing here is a repeated key.
      assert.ok(read.ok, text);
      assert.deepEqual(JSON.parse(JSON.stringify(read.value)), JSON.parse(text));
    }),
    { numRuns: 500 },
  );
  const good = readFileSync(manifestOf(built("fuzz")), "utf8");
  const keys = [
    "program",
    "sources",
    "needs",
    "grant",
    "bundle",
    "map",
    "capability",
    "scope",
    "budget",
    "count",
    "unit",
    "guard",
    "sinks",
    "__proto__",
  ];
  fc.assert(
    fc.property(
      fc.nat(good.length),
      fc.nat(40),
      fc.oneof(
        fc.json(),
        fc.constantFrom(...keys).map((k) => JSON.stringify(k)),
        fc.string(),
      ),
      (at, cut, insert) => {
        cases++;
        const mutated = good.slice(0, at) + insert + good.slice(at + cut);
        const read = readManifest(Buffer.from(mutated, "utf8"));
        if (read.ok) assert.equal(read.manifest.grant.length, read.manifest.needs.length);
        else assert.match(read.problem, /^the grant manifest is (not valid JSON|refused)/);
      },
    ),
    { numRuns: 2000 },
  );
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
      cases++;
      assert.equal(readManifest(bytes).ok, false);
    }),
    { numRuns: 500 },
  );
  console.log(`strict JSON and manifest reader: ${cases} cases`);
});

test("the text admitted is the text that runs: a bundle leaves no copy in the cache folder, and its crash is placed at its .ry line", () => {
  const program = join(work, "crashing.ry");
  writeFileSync(
    program,
    'public function main()\n  purpose: Divide.\n  needs console\n  let zero be 0\n  console.print("{10 / zero}")\nend\n',
  );
  const out = join(work, "crashing");
  assert.equal(run(RENYIC, "build", program, "--out", out).status, 0);
  const cache = join(work, "admitted-cache");
  const result = spawnSync(process.execPath, [RENYI, "run", join(out, "crashing.mjs")], {
    cwd: work,
    encoding: "utf8",
    env: { ...process.env, RENYI_CACHE_DIR: cache },
  });
  assert.equal(result.status, 2, result.stderr);
  assert.match(result.stderr, /E-RT-DIVISION/);
  assert.match(result.stderr, /crashing\.ry:5:19/);
  const copies = existsSync(cache)
    ? readdirSync(cache, { recursive: true }).filter((f) => String(f).endsWith(".mjs"))
    : [];
  assert.deepEqual(copies, []);
});
