// The commands' declarations (cli/commands/catalogue.ts) against what the
// commands do: spec/cli.md and the README's table of commands are what the
// declarations make; every flag a command declares is accepted by its reader
// and shown by its --help, and a flag it does not declare is refused, naming
// the flag. Real child processes for the commands cac reads, and for the
// refusals as a user sees them.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { ALL_COMMANDS, RECORD_COMMAND } from "../cli/commands/catalogue.js";
import { regeneratedCliReference, regeneratedReadme } from "../cli/commands/cli-reference.js";
import { parseGrantArguments } from "../cli/commands/grant.js";
import { parseRecordArguments } from "../cli/commands/record.js";
import type { CommandDeclaration, FlagDeclaration } from "../cli/host/command-declaration.js";
import { parseMcpArguments } from "../cli/mcp/ceiling.js";
import { parseRunArguments, RUN_COMMAND } from "../cli/running/run-options.js";
import { ROOT } from "./golden.js";

const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const RENYIC = join(ROOT, "dist", "cli", "renyic.js");
const work = join(ROOT, "tmp", `cli-reference-${process.pid}`);
mkdirSync(work, { recursive: true });
after(() => rmSync(work, { recursive: true, force: true }));

function command(program: "renyi" | "renyic", ...args: string[]) {
  const r = spawnSync(process.execPath, [program === "renyi" ? RENYI : RENYIC, ...args], {
    encoding: "utf8",
    cwd: work,
    input: "",
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A value each declared placeholder is given, which its reader takes. */
const SAMPLES: Record<string, string> = {
  N: "5",
  SECONDS: "5",
  MIB: "64",
  HOST: "api.example.com",
  "CAP=N/UNIT": "network.http=5/minute",
  CAPABILITY: "console",
};
const sample = (flag: FlagDeclaration): string[] =>
  flag.value === undefined ? [] : [SAMPLES[flag.value] ?? join(work, `given-${flag.value.toLowerCase()}`)];

const declared = (program: string, name: string): CommandDeclaration => {
  const found = ALL_COMMANDS.find((c) => c.program === program && c.name === name);
  assert.ok(found !== undefined, `${program} ${name} is declared`);
  return found;
};

test("spec/cli.md and the README's table of commands are what the declarations make", () => {
  const spec = readFileSync(join(ROOT, "spec", "cli.md"), "utf8");
  assert.ok(spec === regeneratedCliReference(spec), "spec/cli.md is stale: run npm run cli-reference");
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const table = regeneratedReadme(readme);
  assert.ok(table !== undefined, "README.md holds the markers around its table of commands");
  assert.ok(readme === table, "README.md's table of commands is stale: run npm run cli-reference");
  // Every command has its section, its flags and its row, and the row links to the section.
  for (const c of ALL_COMMANDS) {
    assert.ok(spec.includes(`\n## ${c.program} ${c.name}\n`), `${c.program} ${c.name} has a section`);
    assert.ok(readme.includes(`](spec/cli.md#${c.program}-${c.name})`), `${c.program} ${c.name} has a row`);
    for (const f of c.flags) assert.ok(spec.includes(`| \`${f.name}`), `${c.program} ${c.name} ${f.name}`);
  }
  // A stale file is caught: a flag's line changed by hand is written back as declared.
  const edited = spec.replace("| `--fuel N` |", "| `--fuel STEPS` |");
  assert.notEqual(edited, spec);
  assert.equal(regeneratedCliReference(edited), spec);
});

test("the declarations hold together: names unique, values for flags that take one, defaults where shown", () => {
  assert.equal(new Set(ALL_COMMANDS.map((c) => `${c.program} ${c.name}`)).size, ALL_COMMANDS.length);
  for (const c of ALL_COMMANDS) {
    const names = c.flags.map((f) => f.name);
    assert.equal(new Set(names).size, names.length, `${c.name}: a flag declared twice`);
    for (const f of c.flags) {
      assert.match(f.name, /^--[a-z][a-z-]*$/, `${c.name} ${f.name}`);
      assert.ok(f.says.length > 0 && !f.says.includes("(default"), `${c.name} ${f.name}: its default is data`);
    }
    for (const except of c.alsoTakes?.except ?? [])
      assert.ok(
        declared(c.program, c.alsoTakes!.command).flags.some((f) => f.name === except),
        `${c.name} leaves out ${except}, a flag of ${c.alsoTakes!.command}`,
      );
  }
});

test("renyi run's reader takes every flag declared, and refuses one that is not, naming the declared ones", () => {
  for (const flag of RUN_COMMAND.flags) {
    const parsed = parseRunArguments([flag.name, ...sample(flag), flag.name === "--trust" ? "x.mjs" : "x.ry"]);
    assert.ok("file" in parsed, `${flag.name}: ${"problem" in parsed ? parsed.problem : ""}`);
    if (flag.value === undefined) {
      assert.deepEqual(parsed.programArgs, [], flag.name);
      assert.ok("problem" in parseRunArguments([`${flag.name}=yes`, "x.ry"]), `${flag.name} takes no value`);
    }
  }
  const refused = parseRunArguments(["--undeclared", "x.ry"]);
  assert.ok("problem" in refused);
  assert.match(refused.problem, /^`renyi run` has no option --undeclared; its options are --fuel N, /);
  for (const flag of RUN_COMMAND.flags) assert.ok(refused.problem.includes(flag.name), flag.name);
});

test("a flag that takes one value is refused when given twice; a repeatable one adds up", () => {
  const readers: [CommandDeclaration, (argv: string[]) => object][] = [
    [RUN_COMMAND, (argv) => parseRunArguments([...argv, "x.ry"])],
    [RECORD_COMMAND, (argv) => parseRecordArguments([...argv, "x.ry"])],
    [ALL_COMMANDS.find((c) => c.name === "mcp")!, (argv) => parseMcpArguments(argv)],
  ];
  for (const [command, read] of readers) {
    for (const flag of command.flags) {
      const once = [flag.name, ...sample(flag)];
      if (flag.name === "--trust") continue; // a signature is checked on a bundle: x.ry is refused for another reason
      const twice = read([...once, ...once]);
      if (flag.repeatable === true)
        assert.ok(!("problem" in twice), `${command.name} ${flag.name}: ${JSON.stringify(twice)}`);
      else
        assert.deepEqual(
          twice,
          { problem: `${flag.name} is given twice; it takes one value` },
          `${command.name} ${flag.name}`,
        );
    }
  }
  const atMost = parseRunArguments(["--at-most", "console=1/run", "--at-most", "network=2/run", "x.ry"]);
  assert.ok("options" in atMost && atMost.options.atMost.length === 2);
});

test("renyi record takes its own flags and renyi run's, anywhere before the file, but those a live recording cannot use", () => {
  for (const flag of [...RECORD_COMMAND.flags, ...RUN_COMMAND.flags]) {
    const file = flag.name === "--trust" ? "x.mjs" : "x.ry";
    const before = flag.name === "--fuel" ? ["--max-depth", "7"] : ["--fuel", "7"];
    const parsed = parseRecordArguments([...before, flag.name, ...sample(flag), file, "--city", "Paris"]);
    const left = RECORD_COMMAND.alsoTakes!.except.includes(flag.name);
    assert.equal("problem" in parsed, left, `${flag.name}: ${"problem" in parsed ? parsed.problem : ""}`);
    if ("problem" in parsed) continue;
    // The file and the program's words reach renyi run's reader as given.
    assert.deepEqual(parsed.run.slice(-3), [file, "--city", "Paris"], flag.name);
    assert.ok("file" in parseRunArguments(parsed.run), flag.name);
  }
  const own = parseRecordArguments(["--fuel", "7", "--to=out.json", "--redact", "KEY", "x.ry", "--to", "p"]);
  assert.deepEqual(own, { to: "out.json", redact: ["KEY"], run: ["--fuel", "7", "x.ry", "--to", "p"] });
  const refused = parseRecordArguments(["--undeclared", "x.ry"]);
  assert.ok("problem" in refused);
  assert.equal(
    refused.problem,
    "`renyi record` has no option --undeclared; its options are --to OUT, --redact NAME and those of `renyi run`, before the file",
  );
});

test("renyi mcp's and renyi grant's readers take every flag declared, and refuse one that is not", () => {
  const mcp = declared("renyi", "mcp");
  for (const flag of mcp.flags) {
    const parsed = parseMcpArguments([flag.name, ...sample(flag)]);
    assert.ok(!("problem" in parsed), `${flag.name}: ${"problem" in parsed ? parsed.problem : ""}`);
  }
  const refused = parseMcpArguments(["--undeclared", "x"]);
  assert.ok("problem" in refused && refused.problem.startsWith("`renyi mcp` has no option --undeclared; "));
  for (const flag of mcp.flags) assert.ok("problem" in refused && refused.problem.includes(flag.name), flag.name);
  for (const flag of declared("renyi", "grant").flags)
    assert.deepEqual(parseGrantArguments(["a.json", flag.name]), { json: true, words: ["a.json"] });
  assert.deepEqual(parseGrantArguments(["--undeclared", "a.json"]), {
    problem: "`renyi grant` has no option --undeclared; its only option is --json",
  });
});

test("every command's --help shows each flag it declares, and its exit codes; a flag it does not declare is refused", () => {
  for (const c of ALL_COMMANDS) {
    const help = command(c.program, c.name, "--help");
    assert.equal(help.status, 0, `${c.program} ${c.name} --help: ${help.stderr}`);
    // Wrapped to the terminal's width: compared with its lines joined.
    const text = help.stdout.replace(/\s+/g, " ");
    assert.ok(text.includes(c.summary), `${c.name}: its summary`);
    for (const f of c.flags) assert.ok(help.stdout.includes(`  ${f.name}`), `${c.program} ${c.name} --help: ${f.name}`);
    for (const e of c.exitCodes ?? []) assert.ok(text.includes(`${e.code} ${e.means}`), `${c.name}: ${e.code}`);
    const wrong = command(c.program, c.name, "--undeclared-flag", "x");
    assert.equal(wrong.status, 3, `${c.program} ${c.name} --undeclared-flag: ${wrong.stderr}`);
    assert.match(wrong.stderr, /^error: .*--undeclared-flag/, `${c.program} ${c.name}`);
    assert.equal(wrong.stdout, "", `${c.program} ${c.name}`);
  }
  for (const program of ["renyi", "renyic"] as const) {
    const help = command(program, "--help").stdout;
    for (const c of ALL_COMMANDS.filter((d) => d.program === program))
      assert.ok(help.includes(`${c.name}`) && help.includes(c.summary), `${program} --help lists ${c.name}`);
  }
});

test("the commands cac reads accept every flag declared: none is an unknown option", () => {
  const byHand = new Set(["run", "record", "reproduce", "grant", "mcp"]);
  for (const c of ALL_COMMANDS.filter((d) => !(d.program === "renyi" && byHand.has(d.name)))) {
    const words = c.arguments.filter((a) => a.optional !== true).map(() => join(work, "absent.ry"));
    // Every flag at once: cac refuses an unknown option before any command runs, whichever flag it is.
    const args = [c.name, ...words, ...c.flags.flatMap((flag) => [flag.name, ...sample(flag)])];
    // A path the command would write to stays within the test's folder.
    if (args.includes("--out")) args.splice(args.indexOf("--out") + 1, 1, join(work, "out", "k"));
    const r = command(c.program, ...args);
    assert.doesNotMatch(r.stderr, /Unknown option|has no option/, `${c.program} ${args.join(" ")}`);
    assert.notEqual(r.status, null, `${c.program} ${args.join(" ")} ended`);
  }
});
