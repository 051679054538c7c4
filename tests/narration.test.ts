// Narrated runs (spec/runtime.md, "Narrated runs"): `renyi run --explain`
// narrates every recording of the corpus, replayed offline, as its golden file
// in fixtures/narrated/ shows (`RENYI_UPDATE=1` rewrites them: review the
// diff); a failure is narrated with the `otherwise` that caught it; the
// narration has its own bound and leaves the program's output limits alone;
// `renyi test --explain` narrates each test; and a program compiled without
// narration holds no narration code at all.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { compileProgram } from "../compiler/build.js";
import { parseSource } from "../compiler/index.js";
import { ROOT, UPDATE } from "./golden.js";
import { RENYI } from "./support.js";

const cache = mkdtempSync(join(tmpdir(), "renyi-narration-"));
const work = mkdtempSync(join(tmpdir(), "renyi-narration-work-"));
after(() => {
  rmSync(cache, { recursive: true, force: true });
  rmSync(`${cache}.key`, { force: true });
  rmSync(work, { recursive: true, force: true });
});

function renyi(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const ran = spawnSync(process.execPath, [RENYI, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, RENYI_CACHE_DIR: cache },
  });
  return { status: ran.status, stdout: ran.stdout, stderr: ran.stderr };
}

const FIXTURES = join(ROOT, "examples", "fixtures");
const recordings = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) =>
    readdirSync(join(FIXTURES, d.name))
      .filter((f) => f.endsWith(".json"))
      .map((f) => [d.name, f.slice(0, -".json".length)] as const),
  )
  .sort();

for (const [program, name] of recordings) {
  test(`the narrated replay of ${program}/${name}.json reads as its golden file`, () => {
    const file = join("examples", "fixtures", program, `${name}.json`);
    const recording = JSON.parse(readFileSync(join(ROOT, file), "utf8")) as { source: string; arguments?: string[] };
    const ran = renyi(ROOT, "run", "--replay", file, "--explain", recording.source, ...(recording.arguments ?? []));
    assert.equal(ran.stdout, "", "a replay writes nothing on stdout");
    const golden = join(ROOT, "fixtures", "narrated", `${program}_${name}.txt`);
    if (UPDATE || !existsSync(golden)) writeFileSync(golden, ran.stderr);
    assert.equal(ran.stderr, readFileSync(golden, "utf8"));
  });
}

test("every corpus program with a recording has a narrated golden file, and no golden file is left over", () => {
  const expected = recordings.map(([program, name]) => `${program}_${name}.txt`).sort();
  assert.deepEqual(readdirSync(join(ROOT, "fixtures", "narrated")).sort(), expected);
});

const FAILING = `type Problem is variant
  TooSmall(given: Int)
end

function checked(n: Int) returns Int or fails with Problem
  purpose: Accept a number of at least ten.
  if n < 10 then fail with Problem.TooSmall(given: n)
  return n
end

function helper(word: Text) returns Text
  return "{word}!"
end

public function main()
  purpose: Show a failure and where it was caught.
  needs console
  let n be checked(3) otherwise 10
  console.print(helper("{n}"))
end
`;

test("a failure is narrated with its value and the otherwise that caught it, at its .ry line", () => {
  writeFileSync(join(work, "failing.ry"), FAILING);
  const ran = renyi(work, "run", "--explain", "failing.ry");
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "10!\n");
  assert.equal(
    ran.stderr,
    [
      "Show a failure and where it was caught. (main)",
      "  Accept a number of at least ten. (failing.checked, n: 3)",
      "    failed Problem.TooSmall(given: 3), caught by otherwise at failing.ry:18",
      // A private helper without a purpose is narrated by its name.
      '  failing.helper(word: "10")',
      '    -> "10!"',
      '  console "10!"',
      "",
    ].join("\n"),
  );
  // Without --explain nothing is narrated.
  const plain = renyi(work, "run", "failing.ry");
  assert.equal(plain.stderr, "");
  assert.equal(plain.stdout, "10!\n");
});

test("the narration is bounded on its own, and does not count against the program's output limits", () => {
  const program = `function step(i: Int) returns Int
  return i + 1
end

public function main()
  purpose: Count to twelve thousand, one call a step.
  needs console
  var total be 0
  for each i in 1 to 12000
    set total to step(total)
  end
  console.print("{total}")
  console.print("done")
end
`;
  writeFileSync(join(work, "loop.ry"), program);
  const ran = renyi(work, "run", "--explain", "--max-output-lines", "2", "loop.ry");
  assert.equal(ran.status, 0, ran.stderr);
  // Both lines the program printed are there: the narration's lines were not counted against --max-output-lines.
  assert.equal(ran.stdout, "12000\ndone\n");
  const lines = ran.stderr.split("\n").filter((l) => l !== "");
  assert.equal(lines.length, 10_001);
  assert.equal(lines[lines.length - 1], "[narration truncated: more than 10,000 lines or 4 MiB]");
});

test("renyi test --explain shows each test's narration under its line", () => {
  const ran = renyi(ROOT, "test", "--explain", "examples/weather.ry");
  assert.equal(ran.status, 0, ran.stdout + ran.stderr);
  assert.match(
    ran.stdout,
    /passed {2}the forecast for Berlin is read \(\d+ ms\)\n {8}Fetch the forecast for a city\. \(weather\.fetch, city: "Berlin"\)\n/,
  );
  assert.match(ran.stdout, / {10}network\.http GET https:\/\/api\.open-meteo\.com\/v1\/forecast\?\S+ -> 200, 184 ms\n/);
  const plain = renyi(ROOT, "test", "examples/weather.ry");
  assert.doesNotMatch(plain.stdout, /Fetch the forecast/);
});

test("a program compiled without narration holds no narration code; the narrated variant does", () => {
  const file = "failing.ry";
  const syntax = parseSource(file, FAILING);
  const modules = [
    { name: "failing", file, text: FAILING, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics },
  ];
  const plain = compileProgram(modules, { runtime: "renyi/runtime", entry: "failing", file: "failing.mjs" }).bundle!
    .code;
  assert.doesNotMatch(plain, /narration/);
  const narrated = compileProgram(modules, {
    runtime: "renyi/runtime",
    entry: "failing",
    file: "failing.mjs",
    narrate: true,
  }).bundle!.code;
  assert.match(narrated, /\$narration\.enter\("Accept a number of at least ten\.", "failing\.checked"/);
  assert.match(narrated, /\$narration\.caught\(\$e\d+, "failing\.ry:18"\)/);
});
