// The `renyi` and `renyic` command lines as users type them: real child
// processes. Both read their commands one way and report a wrong call one way.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { ROOT } from "./golden.js";

const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const RENYIC = join(ROOT, "dist", "cli", "renyic.js");

function run(command: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [command, ...args], { encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("an unknown command is refused by renyi and renyic alike: one sentence, exit 3", () => {
  for (const [command, name] of [
    [RENYI, "renyi"],
    [RENYIC, "renyic"],
  ] as const) {
    const r = run(command, "frobnicate");
    assert.equal(r.stderr, `error: \`frobnicate\` is not a ${name} command; see \`${name} --help\`\n`);
    assert.equal(r.stdout, "");
    assert.equal(r.status, 3);
  }
});

test("a wrong call is a usage error, never reported as Renyi's own bug", () => {
  const calls: [string, string[], RegExp][] = [
    [RENYI, ["check", "--bogus", "x.ry"], /^error: Unknown option `--bogus`\n$/],
    [RENYI, ["parse"], /^error: missing required args for command `parse <file>`\n$/],
    [RENYIC, ["build"], /^error: missing required args for command `build <file>`\n$/],
    [RENYIC, ["keygen", "--bogus"], /^error: Unknown option `--bogus`\n$/],
    [RENYIC, ["build", "x.ry", "--sign", "a.key", "--sign", "b.key"], /^error: --sign takes one key file/],
  ];
  for (const [command, args, expected] of calls) {
    const r = run(command, ...args);
    assert.match(r.stderr, expected, args.join(" "));
    assert.equal(r.status, 3, args.join(" "));
  }
});

// Under the project, so that a built bundle finds `renyi/runtime` as users' do.
const work = join(ROOT, "tmp", `command-line-${process.pid}`);
mkdirSync(work, { recursive: true });
after(() => rmSync(work, { recursive: true, force: true }));

function program(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

const weather = program(
  "weather.ry",
  `function main(city: Text, days: Int = 3, units: Text = "metric", verbose: Boolean = false, note: Optional<Text>, arguments: List<Text>)
  purpose: Print the forecast for a city.
  needs console
  console.print("{city} {days}")
end
`,
);

const WEATHER_HELP = `Print the forecast for a city.

Options:
  --city TEXT         (required)
  --days INT          (optional, default 3)
  --units TEXT        (optional, default "metric")
  --verbose BOOLEAN   (optional, default false)
  --note TEXT         (optional)
  WORDS...            arguments: the words after the options
`;

test("renyi run FILE.ry --help prints the program's purpose and options from main's parameters, and main does not run", () => {
  for (const args of [["--help"], ["--city", "Paris", "--help"]]) {
    const r = run(RENYI, "run", weather, ...args);
    assert.equal(r.stdout, WEATHER_HELP, args.join(" "));
    assert.equal(r.stderr, "");
    assert.equal(r.status, 0);
  }
});

test("a built bundle answers --help the same way, run by renyi run or by node", () => {
  const out = join(work, "out");
  assert.equal(run(RENYIC, "build", weather, "--out", out).status, 0);
  for (const [command, args] of [
    [RENYI, ["run", join(out, "weather.mjs"), "--help"]],
    [join(out, "weather.mjs"), ["--help"]],
  ] as const) {
    const r = run(command, ...args);
    assert.equal(r.stdout, WEATHER_HELP, command);
    assert.equal(r.status, 0);
  }
});

test("--help is the program's own option when main has a parameter named help; after -- it is a word", () => {
  const own = program(
    "own-help.ry",
    'function main(help: Boolean = false)\n  needs console\n  console.print("help is {help}")\nend\n',
  );
  assert.equal(run(RENYI, "run", own, "--help").stdout, "help is true\n");
  const words = program(
    "words.ry",
    'function main(arguments: List<Text>)\n  needs console\n  console.print("{arguments.length()}")\nend\n',
  );
  const r = run(RENYI, "run", words, "--", "--help");
  assert.equal(r.stdout, "1\n", r.stderr);
});

test("--help for a program without a purpose or options says it takes none", () => {
  const bare = program("bare.ry", 'function main()\n  needs console\n  console.print("hi")\nend\n');
  const r = run(RENYI, "run", bare, "--help");
  assert.equal(r.stdout, "This program takes no options.\n");
  assert.equal(r.status, 0);
});

test("renyi run's usage, its refusal and its reader come from one table: every option the usage lists is read", async () => {
  const { parseRunArguments, runUsage } = await import("../cli/running/run-options.js");
  const RUN_USAGE = runUsage();
  const listed = [...RUN_USAGE.matchAll(/^ {2}(--[a-z-]+) (\S+)/gm)].map((m) => [m[1]!, m[2]!] as const);
  assert.equal(listed.length, 21);
  const refusal = parseRunArguments(["--nope", "x.ry"]);
  // A flag takes no value: the usage lists it alone.
  const flag = parseRunArguments(["--manifest", "x.ry"]);
  assert.ok("file" in flag && flag.options.manifest && flag.file === "x.ry");
  const isolate = parseRunArguments(["--isolate", "x.ry"]);
  assert.ok("file" in isolate && isolate.options.isolate && isolate.file === "x.ry");
  // Each flag is listed without a value: followed by a comma, "and", or nothing.
  assert.ok(
    "problem" in refusal &&
      /--manifest(,| and)/.test(refusal.problem) &&
      /--isolate, --explain, --json and --durable, before the file$/.test(refusal.problem),
    "problem" in refusal ? refusal.problem : "",
  );
  const json = parseRunArguments(["--json", "x.ry"]);
  assert.ok("file" in json && json.options.json && !json.options.manifest);
  for (const [name, value] of listed) {
    const parsed = parseRunArguments([
      name,
      value === "PUBKEY" ? "key.pub" : /^[A-Z]+$/.test(value) && value !== "HOST" ? "5" : "x=1/run",
      name === "--trust" ? "x.mjs" : "x.ry",
    ]);
    assert.ok("file" in parsed, `${name}: ${"problem" in parsed ? parsed.problem : ""}`);
    assert.ok("problem" in refusal && refusal.problem.includes(`${name} ${value}`), name);
  }
});
