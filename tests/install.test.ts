// Renyi installed as a user installs it, from the tarball `npm pack` makes, works
// away from the repository. What this proves:
// - the tarball (package.json's "files") holds what the commands need, the built
//   toolchain, spec/ and examples/ (which `renyi mcp` serves), and nothing of the
//   tests, the benchmarks or the sources;
// - npm puts `renyi` and `renyic` on the PATH from package.json's "bin", and those
//   commands run from a folder outside the repository, with the package unpacked
//   outside it too: `renyi run` runs a program with its options, `renyi test` its
//   tests, `renyi explain` reads the catalogue, `renyi lsp` loads the language server's
//   library, `renyic build` writes a bundle;
// - the README's block on installing names these commands and the tarball's name.
// What it does not prove: that npm fetches the dependencies. Tests talk to no
// registry, so the unpacked package reads the repository's own node_modules (the
// versions package-lock.json pins), and npm installs the unpacked folder offline,
// without scripts (the tarball is already built: `npm pack --ignore-scripts`),
// as `npm install -g .` in a clone does.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, relative } from "node:path";
import { after, before, test } from "node:test";
import { ROOT } from "./golden.js";

const work = realpathSync(mkdtempSync(join(tmpdir(), "renyi-install-")));
after(() => rmSync(work, { recursive: true, force: true }));

const prefix = join(work, "prefix");
const unpacked = join(work, "package");
const home = join(work, "home");
/** The npm beside this node, else the PATH's. */
const NPM = existsSync(join(dirname(process.execPath), "npm")) ? join(dirname(process.execPath), "npm") : "npm";
/** Only the installed commands and node itself on the PATH: no renyi a developer linked earlier. */
const PATH = [join(prefix, "bin"), dirname(process.execPath), "/usr/bin", "/bin"].join(delimiter);

/** The environment of every command here: none of an outer npm's settings, a home and cache of its own. */
function environment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^npm_/i.test(key) && !key.startsWith("RENYI_")) env[key] = value;
  return { ...env, PATH, HOME: home, RENYI_CACHE_DIR: join(work, "cache"), npm_config_cache: join(work, "npm-cache") };
}

function execute(
  command: string,
  args: readonly string[],
  cwd: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: environment(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

let packed: string[] = [];
let tarball = "";

before(async () => {
  mkdirSync(home);
  const pack = await execute(NPM, ["pack", "--ignore-scripts", "--json", "--pack-destination", work, ROOT], work);
  assert.equal(pack.status, 0, pack.stderr);
  const [entry] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  packed = entry!.files.map((f) => f.path);
  tarball = entry!.filename;
  const untar = await execute("tar", ["-xzf", join(work, entry!.filename), "-C", work], work);
  assert.equal(untar.status, 0, untar.stderr);
  symlinkSync(realpathSync(join(ROOT, "node_modules")), join(unpacked, "node_modules"));
  const install = await execute(
    NPM,
    ["install", "--global", "--prefix", prefix, "--offline", "--ignore-scripts", "--no-audit", "--no-fund", unpacked],
    work,
  );
  assert.equal(install.status, 0, install.stdout + install.stderr);
});

test("the tarball holds the built toolchain, the specification and the examples, and no tests", () => {
  for (const needed of [
    "package.json",
    "README.md",
    "dist/cli/renyi.cjs",
    "dist/cli/renyic.js",
    "dist/runtime.cjs",
    "dist/runtime.js",
    "dist/build-id.json",
    "dist/compiler/index.js",
    "spec/language.md",
    "spec/library.md",
    "examples/hello.ry",
  ])
    assert.ok(packed.includes(needed), `the tarball holds ${needed}`);
  const unwanted = packed.filter((path) =>
    /^(dist\/tests|dist\/bench|tests|bench|fixtures|compiler|rtlib|cli|scripts|node_modules)\//.test(path),
  );
  assert.deepEqual(unwanted, []);
});

test("the README's way to install is what this test does: npm pack, and npm install -g of the tarball it writes", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const install = /^## Install\n[\s\S]*?```sh\n([\s\S]*?)```/m.exec(readme)?.[1] ?? "";
  const commands = install.split("\n").map((line) => line.replace(/#.*$/, "").trim());
  for (const command of ["npm install", "npm link", "npm pack", `npm install -g ${tarball}`])
    assert.ok(commands.includes(command), `the README's install block says \`${command}\``);
});

test("npm puts renyi and renyic on the PATH, leading into the installed package, not the repository", () => {
  for (const command of ["renyi", "renyic"]) {
    const installed = realpathSync(join(prefix, "bin", command));
    assert.ok(relative(ROOT, installed).startsWith(".."), `${command} is ${installed}, inside the repository`);
    assert.ok(installed.startsWith(unpacked), `${command} is ${installed}`);
  }
});

test("renyi run and renyi test work from a folder outside the repository", async () => {
  const folder = join(work, "project");
  mkdirSync(folder);
  writeFileSync(
    join(folder, "greet.ry"),
    [
      'public function main(name: Text = "world")',
      "  purpose: Greet someone by name.",
      "  needs console",
      "  console.print(greeting(name))",
      "end",
      "",
      "function greeting(name: Text) returns Text",
      '  return "Hello, {name}!"',
      "end",
      "",
      'test "a greeting names its person"',
      '  check greeting("Ada") is "Hello, Ada!"',
      "end",
      "",
    ].join("\n"),
  );
  const ran = await execute("renyi", ["run", "greet.ry", "--name", "Ada"], folder);
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "Hello, Ada!\n");

  const tested = await execute("renyi", ["test"], folder);
  assert.equal(tested.status, 0, tested.stdout + tested.stderr);
  assert.match(tested.stdout, /passed {2}a greeting names its person/);
  assert.match(tested.stdout, /1 passed, 0 failed/);

  const explained = await execute("renyi", ["explain", "E-RT-DIVISION"], folder);
  assert.equal(explained.status, 0, explained.stderr);
  assert.match(explained.stdout, /E-RT-DIVISION/);

  // The language server loads its library from the install, and ends (1) when its input ends before `shutdown`.
  const served = await execute("renyi", ["lsp", "--stdio"], folder);
  assert.equal(served.status, 1, served.stderr);
  assert.equal(served.stderr, "");

  const built = await execute("renyic", ["build", "greet.ry", "--out", "out"], folder);
  assert.equal(built.status, 0, built.stderr);
  assert.ok(existsSync(join(folder, "out", "greet.mjs")));
  assert.match(readFileSync(join(folder, "out", "greet.grant.json"), "utf8"), /console/);
});
