// The SHA-256 in plain JavaScript (report/sha256-pure.ts), which the compiler and the runtime
// use in a browser, against node:crypto's, which they use in Node (report/sha256.ts chooses):
// random bytes and texts of every length around a block's edges (55, 56, 63, 64, 65 bytes:
// where the padding takes a block of its own), empty input, non-ASCII and lone surrogates,
// several MiB, and the same input fed in random parts.

import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { test } from "node:test";
import fc from "fast-check";
import { pureSha256Hex, PureSha256 } from "../report/sha256-pure.js";
import { sha256, sha256Hasher } from "../report/sha256.js";

const node = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

test("the pure SHA-256 gives node:crypto's hash at and around every block edge", () => {
  for (let n = 0; n <= 200; n++) {
    const bytes = randomBytes(n);
    assert.equal(pureSha256Hex(bytes), node(bytes), `${n} bytes`);
  }
  assert.equal(pureSha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(pureSha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
});

test("the pure SHA-256 agrees with node:crypto on random bytes and texts, whole and in parts", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.uint8Array({ maxLength: 300 }),
        fc.constantFrom(55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129).map((n) => new Uint8Array(randomBytes(n))),
      ),
      fc.array(fc.nat(300), { maxLength: 5 }),
      (bytes, cuts) => {
        assert.equal(pureSha256Hex(bytes), node(bytes));
        const hash = new PureSha256();
        let at = 0;
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          const to = Math.min(cut, bytes.length);
          if (to < at) continue;
          hash.update(bytes.subarray(at, to));
          at = to;
        }
        hash.update(bytes.subarray(at));
        assert.equal(hash.digestHex(), node(bytes));
      },
    ),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }), fc.string()), (text) => {
      assert.equal(pureSha256Hex(text), node(text));
      assert.equal(sha256Hasher(true).update(text).digestHex(), sha256Hasher().update(text).digestHex());
    }),
    { numRuns: 500 },
  );
});

test("the pure SHA-256 agrees on several MiB, and the seam's two sides on the figures measured", () => {
  const big = randomBytes(5 * 1024 * 1024 + 17);
  assert.equal(pureSha256Hex(big), node(big));
  assert.equal(sha256(big), `sha256:${node(big)}`);
  for (const size of [100_000, 3_000_000]) {
    const input = randomBytes(size);
    let started = performance.now();
    const pure = sha256Hasher(true).update(input).digestHex();
    const pureMs = performance.now() - started;
    started = performance.now();
    const native = sha256Hasher().update(input).digestHex();
    const nativeMs = performance.now() - started;
    assert.equal(pure, native);
    console.log(
      `sha256 of ${size.toLocaleString("en")} bytes: pure ${pureMs.toFixed(2)} ms, node:crypto ${nativeMs.toFixed(2)} ms`,
    );
  }
});
