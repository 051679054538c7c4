// Path scopes hold on disk: a symbolic link inside a scope cannot take a read
// or a write out of it (spec/security.md, "Path scopes, live and in replay").
// Real files and links in a temporary folder, the primitives called in process.

import assert from "node:assert/strict";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { spawnSync } from "node:child_process";
import { ROOT } from "./golden.js";
import { narrow, rootGrant, type GrantItem } from "../rtlib/grants.js";
import * as filesystem from "../rtlib/lib/filesystem.js";
import { configureLimits } from "../rtlib/limits.js";
import { outcome } from "./support.js";
import { toText } from "../rtlib/text.js";

configureLimits({});
// The real path: the resolution compares real folders, and the temporary folder may be under a link (macOS).
const work = realpathSync(mkdtempSync(join(tmpdir(), "renyi-scopes-fs-")));
after(() => rmSync(work, { recursive: true, force: true }));

/** A case of its own: `data` (the scope), `outside` next to it with a secret in it. */
function layout(name: string) {
  const root = join(work, name);
  const data = join(root, "data");
  const outside = join(root, "outside");
  mkdirSync(data, { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, "secret.txt"), "secret");
  writeFileSync(join(data, "inside.txt"), "inside");
  return { root, data, outside };
}

const reading = (scope: string): GrantItem => ({ path: ["filesystem", "read"], scope });
const writing = (scope: string): GrantItem => ({ path: ["filesystem", "write"], scope });
const denied = (path: string) => `FileError.PermissionDenied(path: ${JSON.stringify(path)})`;

test("a read never follows a link out of its scope: the file, a folder on the way, a `..` in the target", async () => {
  const { data, outside } = layout("read");
  symlinkSync(join(outside, "secret.txt"), join(data, "absolute"));
  symlinkSync("../outside/secret.txt", join(data, "relative"));
  symlinkSync(outside, join(data, "folder"));
  mkdirSync(join(data, "sub"));
  symlinkSync("../../outside", join(data, "sub", "climb"));
  const grant = rootGrant([reading(data)], "main");
  for (const path of [
    join(data, "absolute"),
    join(data, "relative"),
    join(data, "folder", "secret.txt"),
    join(data, "sub", "climb", "secret.txt"),
  ]) {
    assert.equal(await outcome(filesystem.read_text(grant, path)), denied(path));
    assert.equal(await outcome(filesystem.read_bytes(grant, path)), denied(path));
  }
  assert.equal(await outcome(filesystem.list(grant, join(data, "folder"))), denied(join(data, "folder")));
  // exists looks at the link itself (it is in the scope) but not through a folder that leaves it.
  assert.equal(await outcome(filesystem.exists(grant, join(data, "absolute"))), "ok true");
  assert.equal(
    await outcome(filesystem.exists(grant, join(data, "folder", "secret.txt"))),
    denied(join(data, "folder", "secret.txt")),
  );
});

test("a link whose target stays in the scope is followed; a loop of links is a failure, not a hang", async () => {
  const { data } = layout("inside");
  mkdirSync(join(data, "real"));
  writeFileSync(join(data, "real", "x.txt"), "x");
  symlinkSync("inside.txt", join(data, "alias"));
  symlinkSync(join(data, "real"), join(data, "folder"));
  symlinkSync("sub/../inside.txt", join(data, "through-missing"));
  symlinkSync("loop-b", join(data, "loop-a"));
  symlinkSync("loop-a", join(data, "loop-b"));
  const grant = rootGrant([reading(data)], "main");
  assert.equal(await outcome(filesystem.read_text(grant, join(data, "alias"))), "ok inside");
  assert.equal(await outcome(filesystem.read_text(grant, join(data, "folder", "x.txt"))), "ok x");
  assert.equal(await outcome(filesystem.list(grant, join(data, "folder"))), 'ok ["x.txt"]');
  // The system's lookup of `sub/..` fails where `sub` is missing; so does the walk.
  assert.equal(
    await outcome(filesystem.read_text(grant, join(data, "through-missing"))),
    `FileError.NotFound(path: ${JSON.stringify(join(data, "through-missing"))})`,
  );
  assert.equal(
    await outcome(filesystem.read_text(grant, join(data, "loop-a"))),
    `FileError.Failed(path: ${JSON.stringify(join(data, "loop-a"))}, reason: "too many symbolic links")`,
  );
});

test("a write never goes out of its scope: a linked folder is refused, a link at the final name is replaced", async () => {
  const { data, outside } = layout("write");
  symlinkSync(outside, join(data, "folder"));
  symlinkSync(join(outside, "secret.txt"), join(data, "planted.txt"));
  const grant = rootGrant([writing(data)], "main");
  const through = join(data, "folder", "new.txt");
  assert.equal(await outcome(filesystem.write_text(grant, through, "x")), denied(through));
  assert.equal(
    await outcome(filesystem.write_text(grant, join(data, "folder", "deeper", "new.txt"), "x")),
    denied(join(data, "folder", "deeper", "new.txt")),
  );
  assert.equal(existsSync(join(outside, "new.txt")) || existsSync(join(outside, "deeper")), false);
  // append would read the secret and write it back: refused, the secret untouched.
  assert.equal(
    await outcome(filesystem.append_text(grant, join(data, "planted.txt"), "more")),
    denied(join(data, "planted.txt")),
  );
  assert.equal(readFileSync(join(outside, "secret.txt"), "utf8"), "secret");
  // The rename replaces the link itself: the target outside keeps its content.
  assert.equal(await outcome(filesystem.write_text(grant, join(data, "planted.txt"), "new")), "ok nothing");
  assert.equal(readFileSync(join(outside, "secret.txt"), "utf8"), "secret");
  assert.equal(lstatSync(join(data, "planted.txt")).isFile(), true);
  assert.equal(readFileSync(join(data, "planted.txt"), "utf8"), "new");
  // remove takes the link away, not what it points to.
  symlinkSync(join(outside, "secret.txt"), join(data, "again.txt"));
  assert.equal(await outcome(filesystem.remove(grant, join(data, "again.txt"))), "ok nothing");
  assert.equal(existsSync(join(data, "again.txt")), false);
  assert.equal(readFileSync(join(outside, "secret.txt"), "utf8"), "secret");
  // No temporary file is left anywhere.
  assert.deepEqual(
    [...new Set([...readdir(data), ...readdir(outside)])].filter((n) => n.endsWith(".tmp")),
    [],
  );
});

function readdir(folder: string): string[] {
  return existsSync(folder) ? readdirSync(folder) : [];
}

test("append through a link that stays in the scope appends to its target", async () => {
  const { data } = layout("append");
  symlinkSync("inside.txt", join(data, "alias"));
  const grant = rootGrant([writing(data)], "main");
  assert.equal(await outcome(filesystem.append_text(grant, join(data, "alias"), "+more")), "ok nothing");
  assert.equal(readFileSync(join(data, "inside.txt"), "utf8"), "inside+more");
  assert.equal(readlinkSync(join(data, "alias")), "inside.txt");
});

test("every grant around the call holds on disk: a link inside the wider scope but outside the narrower is refused", async () => {
  const { root, data } = layout("nested");
  writeFileSync(join(root, "beside.txt"), "beside");
  symlinkSync("../beside.txt", join(data, "up"));
  const outer = rootGrant([reading(root)], "main");
  assert.equal(await outcome(filesystem.read_text(outer, join(data, "up"))), "ok beside");
  const inner = narrow(outer, [reading(data)], "load");
  assert.equal(await outcome(filesystem.read_text(inner, join(data, "up"))), denied(join(data, "up")));
  // A grant without a scope has nothing to stay beneath.
  assert.equal(
    await outcome(filesystem.read_text(rootGrant([{ path: ["filesystem", "read"] }], "main"), join(data, "up"))),
    "ok beside",
  );
});

test("the scope's own folder is found beneath the working folder: a linked scope that leaves it is refused", async () => {
  const { data } = layout("root-link");
  symlinkSync("../outside", join(data, "linked"));
  mkdirSync(join(data, "real"));
  writeFileSync(join(data, "real", "a.txt"), "a");
  symlinkSync("real", join(data, "alias"));
  const before = process.cwd();
  process.chdir(data);
  try {
    assert.equal(
      await outcome(filesystem.read_text(rootGrant([reading("linked")], "main"), "linked/secret.txt")),
      denied("linked/secret.txt"),
    );
    assert.equal(await outcome(filesystem.read_text(rootGrant([reading("alias")], "main"), "alias/a.txt")), "ok a");
    // `real/../linked` is `linked` by its text: the grant and the disk agree on it.
    assert.equal(
      await outcome(filesystem.read_text(rootGrant([reading(".")], "main"), "real/../linked/secret.txt")),
      denied("real/../linked/secret.txt"),
    );
  } finally {
    process.chdir(before);
  }
});

test("the walk agrees with the system wherever it stays in the scope, and refuses wherever the system would leave it", async () => {
  // Random trees of folders and links (relative, absolute, climbing, dangling, looping), each
  // path looked up both ways. Seeded, so that a failure can be repeated.
  let seed = 20240611;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const pick = <T>(items: readonly T[]) => items[next(items.length)]!;
  const names = ["a", "b", "c"];
  let cases = 0;
  let refused = 0;
  for (let tree = 0; tree < 40; tree++) {
    const { root, data } = layout(`tree-${tree}`);
    for (const folder of ["a", "b", "a/c"]) mkdirSync(join(data, folder), { recursive: true });
    writeFileSync(join(data, "a", "f"), "f");
    const targets = [
      "..",
      "../..",
      "../outside",
      "a",
      "../a",
      "c",
      "/",
      root,
      join(root, "outside"),
      data,
      join(data, "a"),
      "f",
      "../../outside/secret.txt",
      "b/../a",
      "missing/..",
    ];
    for (let i = 0; i < 6; i++) {
      const at = join(data, pick(["", "a", "b", "a/c"]), `l${i}`);
      symlinkSync(pick(targets), at);
    }
    const grant = rootGrant([reading(data)], "main");
    for (let i = 0; i < 25; i++) {
      const parts = Array.from({ length: 1 + next(4) }, () =>
        pick([...names, "l0", "l1", "l2", "l3", "l4", "l5", "f", "secret.txt"]),
      );
      const path = join(data, ...parts);
      let systemSays: string | undefined;
      try {
        systemSays = realpathSync(path);
      } catch {
        systemSays = undefined;
      }
      const walked = await outcome(filesystem.read_bytes(grant, path));
      cases++;
      if (walked.startsWith("FileError.PermissionDenied")) {
        refused++;
        continue;
      }
      // What the walk allowed, the system finds inside the scope too (or not at all).
      if (systemSays !== undefined)
        assert.ok(
          systemSays === data || systemSays.startsWith(`${data}/`),
          `${path} reached ${systemSays} (${walked})`,
        );
      // And what the walk read is what the system reads there.
      if (walked.startsWith("ok ")) assert.equal(walked, `ok ${toText(new Uint8Array(readFileSync(path)))}`, path);
    }
  }
  console.log(`walk against the system: ${cases} cases (${refused} refused)`);
});

test("through `renyi run`: a program granted `data` reads what is in it, and a link out of it is PermissionDenied", () => {
  const { data } = layout("run");
  symlinkSync("../outside/secret.txt", join(data, "leak"));
  const file = join(data, "..", "leak.ry");
  writeFileSync(
    file,
    `public function main() or fails with FileError
  purpose: Read a file in data, and a link that leads out of it.
  needs console, filesystem.read("data")
  console.print(filesystem.read_text("data/inside.txt") otherwise fail)
  let leaked be filesystem.read_text("data/leak") otherwise
    when FileError.PermissionDenied(path) then "refused: {path}"
    when _ then "other"
  end
  console.print(leaked)
end
`,
  );
  const result = spawnSync(process.execPath, [join(ROOT, "dist", "cli", "renyi.cjs"), "run", file], {
    cwd: join(data, ".."),
    encoding: "utf8",
    env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") },
  });
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(result.stdout.trim().split("\n"), ["inside", "refused: data/leak"]);
});
