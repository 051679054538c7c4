// text.is_letter, is_digit and is_whitespace tell kinds of characters apart by
// Unicode's properties, in every script; text.split_where splits where a
// function says; bytes.length tells a Bytes' length. Each charges its work as
// fuel, and a hostile program gets no uncharged work out of them.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import fc from "fast-check";
import * as bytes from "../rtlib/lib/bytes.js";
import * as text from "../rtlib/lib/text.js";
import { Crash } from "../rtlib/errors.js";
import { configureCollections } from "../rtlib/limits-collections.js";
import { configureLimits, stepsUsed } from "../rtlib/limits.js";
import { ROOT } from "./golden.js";

configureLimits({});
const work = mkdtempSync(join(tmpdir(), "renyi-characters-"));
after(() => rmSync(work, { recursive: true, force: true }));

function run(name: string, source: string, ...options: string[]) {
  const path = join(work, name);
  writeFileSync(path, source);
  const result = spawnSync(process.execPath, [join(ROOT, "dist", "cli", "renyi.cjs"), "run", ...options, path], {
    cwd: work,
    encoding: "utf8",
    env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") },
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("a letter is a letter of any script, a digit a decimal digit of any script, white space Unicode's", () => {
  for (const c of ["a", "Z", "é", "ß", "Ω", "ж", "漢", "ع", "ñ", "𝒜", "ǅ"])
    assert.equal(text.is_letter(c), true, `${c} is a letter`);
  for (const c of ["1", "٣", "-", " ", "_", "😀", "\u0301", "Ⅻ", "²"])
    assert.equal(text.is_letter(c), false, `${c} is no letter`);
  // \p{Nd}: decimal digits of every script; not superscripts, fractions or numerals that are letters.
  for (const c of ["0", "9", "٣", "۷", "४", "๓", "０", "𝟘"]) assert.equal(text.is_digit(c), true, `${c} is a digit`);
  for (const c of ["a", "²", "½", "Ⅻ", "〇", "-", "."]) assert.equal(text.is_digit(c), false, `${c} is no digit`);
  for (const c of [" ", "\t", "\n", "\r", "\u00a0", "\u2003", "\u3000", "\u2028", "\u0085"])
    assert.equal(text.is_whitespace(c), true, `U+${c.codePointAt(0)!.toString(16)} is white space`);
  for (const c of ["a", "\u200b", "_", "\u0000"])
    assert.equal(text.is_whitespace(c), false, `U+${c.codePointAt(0)!.toString(16)} is no white space`);
});

test("each asks of every character of the text: a word of letters is letters, an empty text is none of them", () => {
  assert.equal(text.is_letter("Straße"), true);
  assert.equal(text.is_letter("Ωmega漢字"), true);
  assert.equal(text.is_letter("abc1"), false);
  assert.equal(text.is_digit("٣٤٥"), true);
  assert.equal(text.is_digit("12a"), false);
  assert.equal(text.is_whitespace(" \t\u3000"), true);
  assert.equal(text.is_whitespace(" x "), false);
  for (const f of [text.is_letter, text.is_digit, text.is_whitespace]) assert.equal(f(""), false);
  // A lone surrogate is no letter, nor a half of one: a letter outside the first plane is whole or nothing.
  assert.equal(text.is_letter("\ud835"), false);
  assert.equal(text.is_letter("𝒜".slice(0, 1)), false);
  // An e with a combining accent is two characters, the accent no letter (the module counts code points).
  assert.equal(text.is_letter("e\u0301"), false);
  assert.equal(text.is_letter("\u00e9"), true);
});

test("the answer for a text is the answer for each of its characters, all of them", () => {
  let cases = 0;
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom("a", "é", "Ω", "漢", "1", "٣", " ", "\u3000", "-", "😀", "\ud800") }),
      (t) => {
        cases++;
        const each = text.characters(t);
        assert.equal(text.is_letter(t), each.length > 0 && each.every(text.is_letter));
        assert.equal(text.is_digit(t), each.length > 0 && each.every(text.is_digit));
        assert.equal(text.is_whitespace(t), each.length > 0 && each.every(text.is_whitespace));
      },
    ),
    { numRuns: 1000 },
  );
  console.log(`kinds of characters: ${cases} cases`);
});

test("split_where drops the characters the function holds for and keeps the parts between, empty ones too", () => {
  assert.deepEqual(text.split_where("Café straße\u3000Ω 漢字", text.is_whitespace), ["Café", "straße", "Ω", "漢字"]);
  assert.deepEqual(text.split_where("a٣b٤٥c", text.is_digit), ["a", "b", "", "c"]);
  assert.deepEqual(text.split_where("", text.is_digit), [""]);
  assert.deepEqual(text.split_where("  ", text.is_whitespace), ["", "", ""]);
  assert.deepEqual(
    text.split_where("漢字", () => false),
    ["漢字"],
  );
  // The function is given whole characters: a character outside the first plane once, not its two halves.
  const seen: string[] = [];
  assert.deepEqual(
    text.split_where("a😀b𝒜c", (c) => {
      seen.push(c);
      return c === "😀";
    }),
    ["a", "b𝒜c"],
  );
  assert.deepEqual(seen, ["a", "😀", "b", "𝒜", "c"]);
  // Only true splits: a function's other answers (none a Renyi program can give) do not.
  assert.deepEqual(text.split_where("a,b", ((c: string) => (c === "," ? 1 : 0)) as (c: string) => unknown), ["a,b"]);
});

test("split_where's parts, joined with the characters dropped, are the text again; as many parts as those characters and one", () => {
  let cases = 0;
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom("a", "é", "漢", "٣", " ", "\u3000", "😀", "\ud800", ",") }), (t) => {
      cases++;
      const separators = text.characters(t).filter((c) => text.is_whitespace(c) || c === ",");
      const parts = text.split_where(t, (c) => text.is_whitespace(c) || c === ",");
      assert.equal(parts.length, separators.length + 1);
      assert.equal(parts.map((p, i) => p + (separators[i] ?? "")).join(""), t);
      for (const p of parts) assert.ok(!text.characters(p).some((c) => text.is_whitespace(c) || c === ","));
    }),
    { numRuns: 1000 },
  );
  console.log(`split_where: ${cases} cases`);
});

test("split_where with a function that waits awaits it a character at a time, in order", async () => {
  const seen: string[] = [];
  const parts = await text.split_whereAsync("ab cd", async (c) => {
    await new Promise((resolve) => setImmediate(resolve));
    seen.push(c);
    return c === " ";
  });
  assert.deepEqual(parts, ["ab", "cd"]);
  assert.deepEqual(seen, ["a", "b", " ", "c", "d"]);
});

test("the work is charged: the text's length before anything is walked, and split_where's list checked against its limit", () => {
  configureLimits({ fuel: 1e12 });
  for (const [f, t] of [
    [text.is_letter, "é".repeat(5000)],
    [text.is_digit, "٣".repeat(5000)],
    [text.is_whitespace, "\u3000".repeat(5000)],
  ] as const) {
    const before = stepsUsed();
    assert.equal(f(t), true);
    assert.ok(stepsUsed() - before >= 5000, `${stepsUsed() - before} steps for 5,000 characters`);
  }
  const before = stepsUsed();
  text.split_where("x".repeat(5000), () => false);
  assert.ok(stepsUsed() - before >= 5000);
  // Out of fuel, nothing is walked: the charge comes first.
  configureLimits({ fuel: 100 });
  let called = 0;
  assert.throws(
    () =>
      text.split_where("x".repeat(1000), () => {
        called++;
        return false;
      }),
    (e: unknown) => e instanceof Crash && e.code === "E-RT-FUEL",
  );
  assert.equal(called, 0);
  assert.throws(
    () => text.is_letter("é".repeat(1000)),
    (e: unknown) => e instanceof Crash && e.code === "E-RT-FUEL",
  );
  configureLimits({});
  // A list past the limit is refused as it passes it, before the rest of the text is walked.
  configureCollections({ maxCollection: 10 });
  try {
    called = 0;
    assert.throws(
      () =>
        text.split_where(",".repeat(1000), () => {
          called++;
          return true;
        }),
      (e: unknown) =>
        e instanceof Crash &&
        e.code === "E-RT-LIMIT-COLLECTION" &&
        /text\.split_where would build 11 elements/.test(e.message),
    );
    assert.equal(called, 10);
    assert.equal(text.split_where(",".repeat(9), () => true).length, 10);
  } finally {
    configureCollections({});
  }
});

test("bytes.length is the number of bytes, not of characters", () => {
  assert.equal(bytes.length(new Uint8Array()), 0);
  assert.equal(bytes.length(text.to_bytes("é")), 2);
  assert.equal(bytes.length(text.to_bytes("漢字")), 6);
  assert.equal(bytes.length(text.to_bytes("😀")), 4);
  assert.equal(bytes.length(new Uint8Array(70_000)), 70_000);
});

test("a program counts words through `renyi run`: functions and methods, a named function and a lambda, Bytes' length", () => {
  const result = run(
    "count.ry",
    `public function main()
  purpose: Count the words, letters and digits of a text in several scripts.
  needs console
  let sample be "Café  straße\\tΩmega 漢字\\u{3000}done ٣٤ x-1"
  let words be text.split_where(sample, text.is_whitespace).filter((w) => not w.is_empty())
  console.print("{words.length()} words: {words}")
  let characters be sample.characters()
  console.print("{characters.filter(text.is_letter).length()} letters, {characters.filter((c) => c.is_digit()).length()} digits")
  console.print("{"x-1".split_where((c) => not c.is_letter() and not c.is_digit())}")
  console.print("{"漢字".to_bytes().length()} bytes, {bytes.length("".to_bytes())} bytes")
end
`,
  );
  assert.equal(result.status, 0, result.stderr);
  assert.equal(
    result.stdout,
    `7 words: ["Café", "straße", "Ωmega", "漢字", "done", "٣٤", "x-1"]\n22 letters, 3 digits\n["x", "1"]\n` +
      `6 bytes, 0 bytes\n`,
  );
});

test("split_where with a function that has needs runs it in order; a hostile text under a small --fuel ends at once", () => {
  const effectful = run(
    "noisy.ry",
    `function noisy(c: Text) returns Boolean
  needs console
  console.print("saw {c}")
  return c is ","
end

public function main()
  purpose: Split with a function that prints.
  needs console
  console.print("{"é,漢".split_where(noisy)}")
end
`,
  );
  assert.equal(effectful.status, 0, effectful.stderr);
  assert.equal(effectful.stdout, 'saw é\nsaw ,\nsaw 漢\n["é", "漢"]\n');
  const hostile = run(
    "hostile.ry",
    `public function main()
  purpose: Ask of a long text over and over.
  needs console
  let long be "é".repeat(5_000_000)
  for each i in 1 to 1000
    console.print("{long.is_letter()} {long.split_where((c) => false).length()}")
  end
end
`,
    "--fuel",
    "6000000",
  );
  assert.equal(hostile.status, 2, hostile.stderr);
  assert.match(hostile.stderr, /^error\[E-RT-FUEL\]/);
  assert.equal(hostile.stdout, "");
});
