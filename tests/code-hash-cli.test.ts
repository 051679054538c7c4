// The code hash from the command line: a recording made by `renyi record` still
// reproduces after a test and comments are added to the program, and is refused
// (E-RT-REPLAY-CODE, exit 3) once a function main reaches changes; `renyic
// build` writes the same hash in its manifest. The second module is edited and
// put back between runs, so that the program index, which keeps the hash, is
// read for texts it was not written for.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { ROOT } from "./golden.js";
import { renyiIn } from "./support.js";

const RENYIC = join(ROOT, "dist", "cli", "renyic.js");
const work = mkdtempSync(join(tmpdir(), "renyi-code-hash-"));
const cache = mkdtempSync(join(tmpdir(), "renyi-code-hash-cache-"));

const MAIN = `use words

public function main(name: Text = "world")
  purpose: Greet someone, twice.
  needs console
  console.print(words.greeting(name))
  console.print(words.greeting("again"))
end
`;

const WORDS = `public function greeting(name: Text) returns Text
  purpose: A greeting for a name.
  return "Hello, {name}!"
end

public function farewell(name: Text) returns Text
  purpose: Nothing main says.
  return "Bye, {name}."
end
`;

const run = (args: string[]) => renyiIn(work, args, {}, cache);

function refusedForItsCode(ran: { status: number | null; stderr: string }, what: string): void {
  assert.equal(ran.status, 3, `${what}: ${ran.stderr}`);
  assert.match(ran.stderr, /^error\[E-RT-REPLAY-CODE\]: main\.ry is not the recorded program/, what);
}

test("a recording reproduces after unrelated edits and is refused after an edit of what main reaches", async () => {
  writeFileSync(join(work, "main.ry"), MAIN);
  writeFileSync(join(work, "words.ry"), WORDS);
  const recorded = await run(["record", "--to", "greet.json", "main.ry", "--name", "Ada"]);
  assert.equal(recorded.status, 0, recorded.stderr);
  assert.equal(recorded.stdout, "Hello, Ada!\nHello, again!\n");
  const code = (JSON.parse(readFileSync(join(work, "greet.json"), "utf8")) as { code: string }).code;
  assert.match(code, /^sha256:[0-9a-f]{64}$/);

  // A test, comments and an unreached function's edit: the same program to main.
  writeFileSync(
    join(work, "main.ry"),
    `-- Greets.\n${MAIN.replace("  needs console\n", "  needs console\n  -- the name first\n")}\ntest "a greeting" needs console\n  check words.greeting("x") is "Hello, x!"\nend\n`,
  );
  writeFileSync(join(work, "words.ry"), `${WORDS.replace("Bye, ", "Goodbye, ")}\n-- the end\n`);
  const reproduced = await run(["reproduce", "greet.json"]);
  assert.equal(reproduced.status, 0, reproduced.stderr);
  assert.equal(reproduced.stdout, "Hello, Ada!\nHello, again!\n");
  assert.match(reproduced.stderr, /reproduced: the run finished as recorded/);

  // A function main reaches, in the other module: refused, by reproduce and by resume.
  const edited = readFileSync(join(work, "words.ry"), "utf8");
  writeFileSync(join(work, "words.ry"), edited.replace("Hello, {name}!", "Hello {name}!"));
  refusedForItsCode(await run(["reproduce", "greet.json"]), "reproduce");
  refusedForItsCode(await run(["run", "--resume", "greet.json", "--to", "resumed.json", "main.ry"]), "resume");

  // Put back: the program's bundle is in the cache from before, and its index was written for the edited texts.
  writeFileSync(join(work, "words.ry"), edited);
  const again = await run(["reproduce", "greet.json"]);
  assert.equal(again.status, 0, again.stderr);

  // The grant manifest of `renyic build` names the same hash.
  const built = spawnSync(process.execPath, [RENYIC, "build", "main.ry", "--out", "dist", "--stable"], {
    cwd: work,
    env: { ...process.env, RENYI_CACHE_DIR: cache },
    encoding: "utf8",
  });
  assert.equal(built.status, 0, built.stderr);
  const manifest = JSON.parse(readFileSync(join(work, "dist", "main.grant.json"), "utf8")) as { code: string };
  assert.equal(manifest.code, code);
});

test("a changed argument order, operator or text of main is refused", async () => {
  writeFileSync(
    join(work, "order.ry"),
    'public function main()\n  purpose: Print.\n  needs console\n  console.print("{1 - 2} {[1, 2]}")\nend\n',
  );
  const recorded = await renyiIn(work, ["record", "--to", "order.json", "order.ry"], {}, cache);
  assert.equal(recorded.status, 0, recorded.stderr);
  for (const edit of ['"{2 - 1} {[1, 2]}"', '"{1 + 2} {[1, 2]}"', '"{1 - 2} {[2, 1]}"', '"{1 - 2}  {[1, 2]}"']) {
    writeFileSync(
      join(work, "order.ry"),
      `public function main()\n  purpose: Print.\n  needs console\n  console.print(${edit})\nend\n`,
    );
    const ran = await renyiIn(work, ["reproduce", "order.json"], {}, cache);
    assert.equal(ran.status, 3, `${edit}: ${ran.stderr}`);
    assert.match(ran.stderr, /E-RT-REPLAY-CODE/);
  }
  writeFileSync(
    join(work, "order.ry"),
    '-- order\npublic function main()\n    purpose: Print.\n    needs console\n    console.print("{1 - 2} {[1, 2]}")   -- same\nend\n',
  );
  const same = await renyiIn(work, ["reproduce", "order.json"], {}, cache);
  assert.equal(same.status, 0, same.stderr);
});
