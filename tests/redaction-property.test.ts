// `renyi record --redact NAME` keeps the value read from NAME out of the
// recording in every form it takes there (spec/recording.md, "Redaction"):
// random secrets, sent by a real program in a URL's query, as a body, in a
// JSON body and as JSON bytes (base64) to a service on 127.0.0.1 that echoes
// them back plain, JSON-escaped, with \uXXXX escapes, as base64, base64url and
// hex, in its body and its headers. No form of the secret is in the file, and
// the replay, given the placeholder where the program read the secret, makes
// the same calls again.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import fc from "fast-check";
import { formsIn } from "./secret-forms.js";
import { renyiIn } from "./support.js";

/** How many random flows of the key are recorded and replayed: 8 in npm test, RENYI_FUZZ_CASES under npm run fuzz. */
const FLOWS = Number(process.env["RENYI_FUZZ_CASES"] ?? 8);

const work = mkdtempSync(join(tmpdir(), "renyi-redaction-property-"));
let echo: Server;
let port = 0;

before(async () => {
  echo = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const text = body.toString("utf8");
      const ascii = JSON.stringify(text).replace(
        /[^\x20-\x7e]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`,
      );
      res.setHeader("content-type", "application/json");
      res.setHeader("x-echo-base64", body.toString("base64"));
      res.setHeader("x-echo-hex", body.toString("hex"));
      res.end(
        `{"url": ${JSON.stringify(req.url)}, "body": ${JSON.stringify(text)}, "ascii": ${ascii}, "base64": ` +
          `"${body.toString("base64")}", "base64url": "${body.toString("base64url")}", "hex": ` +
          `"${body.toString("hex").toUpperCase()}"}`,
      );
    });
  });
  await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
  port = (echo.address() as AddressInfo).port;
});

after(() => {
  echo.close();
  rmSync(work, { recursive: true, force: true });
});

function program(): string {
  const at = `http://127.0.0.1:${port}`;
  return `public function main()
  purpose: Send a key every way the library writes it.
  needs console, network.http("127.0.0.1:${port}"), environment("SECRET_KEY")
  let key be environment.get("SECRET_KEY").or_else("")
  let a be http.get("${at}/query?k={key}") otherwise crash with "a"
  let b be http.post("${at}/text", key) otherwise crash with "b"
  let c be http.post("${at}/json", json.encode({"k": key})) otherwise crash with "c"
  let d be http.post("${at}/bytes", json.encode(text.to_bytes(key))) otherwise crash with "d"
  console.print("sent {a.status} {b.status} {c.status} {d.status}")
end
`;
}

// The characters a secret is made of: spaces, quotes, characters beyond ASCII, %, +, /, backslashes, newlines.
const CHARACTER = fc.constantFrom(
  " ",
  '"',
  "'",
  "é",
  "ü",
  "中",
  "😀",
  "%",
  "+",
  "/",
  "\\",
  "\n",
  "=",
  "&",
  "?",
  "a",
  "Z",
  "7",
  "-",
  "_",
);
// A core of letters keeps a secret from being a part of any other text of the run (a port, a status).
const SECRET = fc
  .tuple(
    // fast-check makes JavaScript's own property names among its strings on purpose, and `length` is a part of the
    // recording's `content-length`: such a core is a word of the run, not a secret's.
    fc.stringMatching(/^[A-Za-z]{6}$/).filter((core) => !["length", "caller"].includes(core)),
    fc.array(CHARACTER, { minLength: 1, maxLength: 12 }),
    fc.array(CHARACTER, { maxLength: 6 }),
  )
  .map(([core, middle, end]) => `${middle.join("")}${core}${end.join("")}`);

let round = 0;

test("redaction follows the value: no form of a redacted secret is in the recording, and the replay still matches", async () => {
  await fc.assert(
    fc.asyncProperty(SECRET, async (secret) => {
      const dir = join(work, `r${round++}`);
      const { mkdirSync } = await import("node:fs");
      mkdirSync(dir);
      writeFileSync(join(dir, "send.ry"), program());
      const recorded = await renyiIn(
        dir,
        ["record", "--redact", "SECRET_KEY", "--to", "send.json", "send.ry"],
        { SECRET_KEY: secret },
        join(work, "cache"),
      );
      assert.equal(recorded.status, 0, recorded.stderr);
      assert.equal(recorded.stdout, "sent 200 200 200 200\n");
      const file = readFileSync(join(dir, "send.json"), "utf8");
      // Searched in the file as written and in every text it holds, read back.
      const texts: string[] = [file];
      const walk = (v: unknown): void => {
        if (typeof v === "string") texts.push(v);
        else if (Array.isArray(v)) v.forEach(walk);
        else if (typeof v === "object" && v !== null)
          for (const [k, x] of Object.entries(v)) {
            texts.push(k);
            walk(x);
          }
      };
      walk(JSON.parse(file));
      const found = texts.flatMap((t) => formsIn(t, secret));
      assert.deepEqual(found, [], `the secret ${JSON.stringify(secret)} is in the recording: ${found.join("; ")}`);
      const recording = JSON.parse(file) as { redacted?: string[]; environment?: Record<string, string> };
      assert.deepEqual(recording.redacted, ["secret_key"]);
      assert.equal(recording.environment?.["SECRET_KEY"], "<redacted>");
      // The replay gives the program the placeholder and matches every call it makes with it.
      const replayed = await renyiIn(
        dir,
        ["run", "--replay", "send.json", "--console", "send.ry"],
        {},
        join(work, "cache"),
      );
      assert.equal(replayed.status, 0, `${JSON.stringify(secret)}: ${replayed.stderr}`);
      assert.equal(replayed.stdout, "sent 200 200 200 200\n");
    }),
    { numRuns: 12, endOnFailure: true, verbose: 2 },
  );
});

// ---- flows: the key through computations, followed by its origin ----

/** One step a flow takes the key through: its Renyi expression around `x`, and what it makes of a text in JavaScript. */
interface Step {
  readonly name: string;
  readonly renyi: (x: string) => string;
  /** Where the value search cannot find the key in what the step makes (the origin must mark it). */
  readonly hides: boolean;
}

const codePoints = (t: string) => Array.from(t);

const STEPS: readonly Step[] = [
  { name: "concatenation", renyi: (x) => `"pre-{${x}}-post"`, hides: false },
  { name: "plus", renyi: (x) => `"v=" + ${x}`, hides: false },
  { name: "json", renyi: (x) => `json.encode({"k": ${x}, "n": "1"})`, hides: false },
  { name: "base64", renyi: (x) => `json.encode(text.to_bytes(${x}))`, hides: false },
  // The core of the key, and the two characters before it: a part of the key no search for the whole finds.
  { name: "slice", renyi: (x) => `text.slice(${x}, 0, text.length(${x}) - 2)`, hides: true },
  { name: "upper", renyi: (x) => `text.upper(${x})`, hides: true },
  { name: "reverse", renyi: (x) => `text.reverse(${x})`, hides: true },
];

/** Where the flow's value goes: the URL's query, a body, a header (base64, which any text can be sent as), a list. */
const SINKS: readonly ((v: string, at: string) => string)[] = [
  (v, at) => `http.get("${at}/q?v=" + ${v})`,
  (v, at) => `http.post("${at}/body", ${v})`,
  (v, at) => `http.get("${at}/h", {"x-flow": json.encode(text.to_bytes(${v})), "accept": "text/plain"})`,
  (v, at) => `http.post("${at}/list", json.encode(["a", ${v}, "b"]))`,
];

function flowProgram(steps: readonly Step[], sink: number): string {
  let value = "key";
  for (const step of steps) value = step.renyi(value);
  return `public function main()
  purpose: Send what a flow makes of a key.
  needs console, network.http("127.0.0.1:${port}"), environment("SECRET_KEY")
  let key be environment.get("SECRET_KEY").or_else("")
  let flowed be ${value}
  let r be ${SINKS[sink]!("flowed", `http://127.0.0.1:${port}`)} otherwise crash with "sent"
  console.print("sent {r.status}")
end
`;
}

/** What the JavaScript side expects each hiding step to leave of the key: a text the recording must not hold. */
function hidden(secret: string, steps: readonly Step[]): string[] {
  const out: string[] = [];
  let value = secret;
  for (const step of steps) {
    if (step.name === "slice") value = codePoints(value).slice(0, -2).join("");
    else if (step.name === "upper") value = value.toUpperCase();
    else if (step.name === "reverse") value = codePoints(value).reverse().join("");
    else break;
    out.push(value);
  }
  return out;
}

test("redaction follows the key's origin through computations: no flow of it into arguments puts it in the recording", async () => {
  const STEP = fc.constantFrom(...STEPS);
  await fc.assert(
    fc.asyncProperty(
      SECRET,
      fc.array(STEP, { minLength: 1, maxLength: 3 }),
      fc.integer({ min: 0, max: SINKS.length - 1 }),
      async (secret, steps, sink) => {
        const dir = join(work, `f${round++}`);
        const { mkdirSync } = await import("node:fs");
        mkdirSync(dir);
        writeFileSync(join(dir, "flow.ry"), flowProgram(steps, sink));
        const recorded = await renyiIn(
          dir,
          ["record", "--redact", "SECRET_KEY", "--to", "flow.json", "flow.ry"],
          { SECRET_KEY: secret },
          join(work, "cache"),
        );
        const what = `${JSON.stringify(secret)} through ${steps.map((s) => s.name).join(", ")} into sink ${sink}`;
        assert.equal(recorded.status, 0, `${what}: ${recorded.stderr}`);
        const file = readFileSync(join(dir, "flow.json"), "utf8");
        const texts: string[] = [file, JSON.stringify(JSON.parse(file))];
        const found = texts.flatMap((t) => formsIn(t, secret));
        assert.deepEqual(found, [], `${what}: the key is in the recording: ${found.join("; ")}`);
        // What a leading run of hiding steps made of the key (its characters but the last two, upper-cased, reversed),
        // while it still holds the key's 6-letter core: a text no search for the key finds, kept out by its origin.
        for (const made of hidden(secret, steps).filter((m) => m.length >= 8)) {
          const plainFound = texts.flatMap((t) => formsIn(t, made));
          assert.deepEqual(plainFound, [], `${what}: ${JSON.stringify(made)} is in the recording`);
        }
        // The call that sent it marks where the key went.
        const calls = (JSON.parse(file) as { calls: { primitive: string; redacted_at?: unknown[] }[] }).calls;
        const sent = calls.find((c) => c.primitive.startsWith("std.http."));
        assert.ok(sent?.redacted_at !== undefined && sent.redacted_at.length > 0, `${what}: no place is marked`);
        // The replay, given the placeholder where the key was read, matches the marked place with what the flow makes of
        // it (a slice of the placeholder may be empty, which a request sends as no body at all: not replayed here).
        if (!steps.some((s) => s.name === "slice")) {
          const replayed = await renyiIn(dir, ["run", "--replay", "flow.json", "flow.ry"], {}, join(work, "cache"));
          assert.equal(replayed.status, 0, `${what}: ${replayed.stderr}`);
        }
      },
    ),
    { numRuns: FLOWS, endOnFailure: true, verbose: 2 },
  );
});
