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
