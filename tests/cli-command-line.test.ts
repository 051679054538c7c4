// The `renyi` and `renyic` command lines as users type them: real child
// processes. Both read their commands one way and report a wrong call one way.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { ROOT } from "./golden.js";

const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const RENYIC = join(ROOT, "dist", "cli", "renyic.js");

function run(command: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [command, ...args], { encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("an unknown command is refused by renyi and renyic alike: one sentence, exit 3", () => {
  for (const [command, name] of [[RENYI, "renyi"], [RENYIC, "renyic"]] as const) {
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
