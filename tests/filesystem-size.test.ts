// filesystem.size tells a file's size through filesystem.read: inside the
// grant's scope only, a link out of it refused like a read, a folder a failure,
// under the grant's budget, recorded, replayed from the recording (its answer
// checked) and in the least grant.

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { rootGrant, type GrantItem } from "../rtlib/grants.js";
import * as filesystem from "../rtlib/lib/filesystem.js";
import { configureLimits } from "../rtlib/limits.js";
import { outcome, renyiIn } from "./support.js";

configureLimits({});
const work = realpathSync(mkdtempSync(join(tmpdir(), "renyi-fs-size-")));
after(() => rmSync(work, { recursive: true, force: true }));

/** A folder of its own: `data` (the scope) with files in it, `outside` next to it. */
function layout(name: string): { root: string; data: string; outside: string } {
  const root = join(work, name);
  const data = join(root, "data");
  const outside = join(root, "outside");
  mkdirSync(join(data, "sub"), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(data, "a.txt"), "héllo");
  writeFileSync(join(data, "empty.txt"), "");
  writeFileSync(join(outside, "secret.txt"), "a secret of some length");
  return { root, data, outside };
}

const reading = (scope: string): GrantItem => ({ path: ["filesystem", "read"], scope });
const denied = (path: string) => `FileError.PermissionDenied(path: ${JSON.stringify(path)})`;

function renyi(cwd: string, ...args: string[]) {
  return renyiIn(cwd, args, {}, join(work, "cache"));
}

test("the size in bytes of a file in the scope; a folder, a missing file and a path outside the scope are failures", async () => {
  const { data, outside } = layout("calls");
  symlinkSync("../outside/secret.txt", join(data, "leak"));
  symlinkSync("a.txt", join(data, "alias"));
  const grant = rootGrant([reading(data)], "main");
  assert.equal(await outcome(filesystem.size(grant, join(data, "a.txt"))), "ok 6");
  assert.equal(await outcome(filesystem.size(grant, join(data, "empty.txt"))), "ok 0");
  // A link that stays in the scope is followed to its file; one that leaves is refused, as a read is.
  assert.equal(await outcome(filesystem.size(grant, join(data, "alias"))), "ok 6");
  assert.equal(await outcome(filesystem.size(grant, join(data, "leak"))), denied(join(data, "leak")));
  assert.equal(await outcome(filesystem.size(grant, join(outside, "secret.txt"))), denied(join(outside, "secret.txt")));
  assert.equal(
    await outcome(filesystem.size(grant, join(data, "..", "outside", "secret.txt"))),
    denied(join(data, "..", "outside", "secret.txt")),
  );
  assert.equal(
    await outcome(filesystem.size(grant, join(data, "none.txt"))),
    `FileError.NotFound(path: ${JSON.stringify(join(data, "none.txt"))})`,
  );
  assert.equal(
    await outcome(filesystem.size(grant, join(data, "sub"))),
    `FileError.Failed(path: ${JSON.stringify(join(data, "sub"))}, reason: "it is a folder")`,
  );
  // filesystem.write does not cover a read, and a grant without the file system refuses it.
  assert.equal(
    await outcome(
      filesystem.size(rootGrant([{ path: ["filesystem", "write"], scope: data }], "main"), join(data, "a.txt")),
    ),
    denied(join(data, "a.txt")),
  );
  assert.equal(
    await outcome(filesystem.size(rootGrant([{ path: ["console"] }], "main"), join(data, "a.txt"))),
    denied(join(data, "a.txt")),
  );
});

const program = `function told(path: Text) returns Text
  needs filesystem.read("data")
  let n be filesystem.size(path) otherwise
    when FileError.NotFound(p) then return "no file {p}"
    when FileError.PermissionDenied(p) then return "refused {p}"
    when FileError.OverBudget(p) then return "over budget {p}"
    when FileError.Failed(p, reason) then return "failed {p}: {reason}"
    when other then return "{other}"
  end
  return "{path}: {n} bytes"
end

public function main()
  purpose: Tell the sizes of files.
  needs console, filesystem.read("data")
  console.print(told("data/a.txt"))
  console.print(told("data/none.txt"))
  console.print(told("data/../outside/secret.txt"))
  let b be filesystem.read_bytes("data/a.txt") otherwise "".to_bytes()
  console.print("read {b.length()} bytes")
end
`;

test("through `renyi run`: sizes in the scope, a path outside it refused; a budget on filesystem.read holds for size too", async () => {
  const { root } = layout("run");
  writeFileSync(join(root, "size.ry"), program);
  const ran = await renyi(root, "run", "size.ry");
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(
    ran.stdout,
    "data/a.txt: 6 bytes\nno file data/none.txt\nrefused data/../outside/secret.txt\nread 6 bytes\n",
  );
  const budgeted = await renyi(root, "run", "--at-most", "filesystem.read=1/run", "size.ry");
  assert.equal(budgeted.status, 0, budgeted.stderr);
  assert.equal(
    budgeted.stdout,
    "data/a.txt: 6 bytes\nover budget data/none.txt\nrefused data/../outside/secret.txt\nread 0 bytes\n",
  );
});

test("recorded and replayed: the replay answers the recorded size, not the file's now; a size no file could have is refused", async () => {
  const { root } = layout("record");
  writeFileSync(join(root, "size.ry"), program);
  const recorded = await renyi(root, "record", "size.ry");
  assert.equal(recorded.status, 0, recorded.stderr);
  const recording = JSON.parse(readFileSync(join(root, "size.recording.json"), "utf8")) as {
    calls: { primitive: string; capability: string; arguments: unknown; outcome: unknown }[];
  };
  const sizes = recording.calls.filter((c) => c.primitive === "std.filesystem.size");
  // The refused call never reached the file system: it is not recorded.
  assert.deepEqual(
    sizes.map((c) => [c.capability, c.arguments, c.outcome]),
    [
      ['filesystem.read("data/a.txt")', { path: "data/a.txt" }, { success: 6 }],
      [
        'filesystem.read("data/none.txt")',
        { path: "data/none.txt" },
        { failure: { NotFound: { path: "data/none.txt" } } },
      ],
    ],
  );
  // The file changes and another appears where none was: the replay still answers what was recorded.
  writeFileSync(join(root, "data", "a.txt"), "a longer text now");
  writeFileSync(join(root, "data", "none.txt"), "here now");
  const replayed = await renyi(root, "run", "--replay", "size.recording.json", "--console", "size.ry");
  assert.equal(replayed.status, 0, replayed.stderr);
  assert.equal(
    replayed.stdout,
    "data/a.txt: 6 bytes\nno file data/none.txt\nrefused data/../outside/secret.txt\nread 6 bytes\n",
  );
  // The least grant names each file the sizes were told of.
  const least = await renyi(root, "grant", "size.recording.json", "size.ry");
  assert.equal(least.status, 0, least.stderr);
  assert.match(
    least.stdout,
    /^needs console, filesystem\.read\("data\/a\.txt"\), filesystem\.read\("data\/none\.txt"\)\n/,
  );
  // A recorded size below zero is an answer no live call gives.
  const edited = JSON.parse(readFileSync(join(root, "size.recording.json"), "utf8")) as {
    calls: { primitive: string; outcome: unknown }[];
  };
  edited.calls.find((c) => c.primitive === "std.filesystem.size")!.outcome = { success: -1 };
  writeFileSync(join(root, "bad.recording.json"), JSON.stringify(edited));
  const refused = await renyi(root, "run", "--replay", "bad.recording.json", "size.ry");
  assert.equal(refused.status, 3);
  assert.match(
    refused.stderr,
    /std\.filesystem\.size\): outcome\.success is -1, but a file's size in bytes is a whole number from 0 to/,
  );
});

test("a size told under a guard is the guard's data: printing it is refused", async () => {
  const { root } = layout("guarded");
  writeFileSync(
    join(root, "guarded.ry"),
    `public function main()
  purpose: Print the size of a guarded file.
  needs console, network.http("127.0.0.1"), filesystem.read("data") only to network.http("127.0.0.1")
  let n be filesystem.size("data/a.txt") otherwise -1
  console.print("{n}")
end
`,
  );
  const ran = await renyi(root, "run", "guarded.ry");
  assert.equal(ran.status, 2);
  assert.equal(ran.stdout, "");
  assert.match(
    ran.stderr,
    /E-RT-GUARD\]: .*filesystem\.read\("data"\), which may go only to network\.http\("127\.0\.0\.1"\), not to console/,
  );
});
