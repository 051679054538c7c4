// Attacks on the sealed compile cache, the checker's bounds, the runtime's
// charged walks and the tool server's worker. Those still open are marked
// todo, each with what the specification promises, so that the suite stays
// green until they are fixed. Every part is real: child processes, files in
// a fresh folder, nothing on the network.

import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { RENYI, renyiTimed, type TimedRun } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-found2-"));
after(() => rmSync(work, { recursive: true, force: true }));

type Ran = TimedRun;

/** `renyi ARGS` in `cwd` with exactly the environment given (and PATH), to its end or `killAfterMs`. */
function renyiWith(
  cwd: string,
  args: readonly string[],
  env: Record<string, string>,
  killAfterMs = 60_000,
): Promise<Ran> {
  return renyiTimed(args, { cwd, env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", ...env }, killAfterMs });
}

const SAYS_HELLO = `public function main()
  purpose: Say hello.
  needs console
  console.print("hello")
end
`;

// ---- The cache folder ----

const REACHES_CACHE = `public function main()
  purpose: Reach into the compile cache kept in the working folder.
  needs console, filesystem.read("."), filesystem.write(".")
  let key be filesystem.read_bytes(".cache/renyi.key") otherwise
    when FileError.PermissionDenied(p) then crash with "refused {p}"
    when _ then crash with "the key could not be read"
  end
  console.print("the key was read: {key.to_json()}")
  filesystem.write_text(".cache/renyi/planted.txt", "planted") otherwise
    when FileError.PermissionDenied(p) then console.print("refused {p}")
    when _ then console.print("the write failed")
  end
end
`;

test("with HOME empty, the command line keeps its cache in the password file's home, never in ./.cache/renyi where a program granted . would reach it", async () => {
  // spec/security.md, "The cache folder": no program may read or write the cache folder, anything beneath it, or its
  // key, whatever its grant.
  // Before, an empty HOME made the cache ./.cache/renyi, relative to where the command ran, and the runtime refused
  // nothing: a program granted . printed the key and wrote into the cache.
  const dir = join(work, "home-empty");
  mkdirSync(dir);
  writeFileSync(join(dir, "a.ry"), SAYS_HELLO);
  writeFileSync(join(dir, "reach.ry"), REACHES_CACHE);
  const env = { HOME: "" };
  assert.equal((await renyiWith(dir, ["run", "a.ry"], env)).status, 0);
  assert.equal(existsSync(join(dir, ".cache")), false, "no cache folder is made where the command runs");
  const ran = await renyiWith(dir, ["run", "reach.ry"], env);
  assert.doesNotMatch(ran.stdout, /the key was read/);
  assert.equal(existsSync(join(dir, ".cache", "renyi", "planted.txt")), false);
});

// ---- Walks over values ----

/** A program whose main fails with a case holding a tree of 2^levels leaves, built in `levels` steps. */
function failsWithTree(levels: number): string {
  return `type Tree is variant
  purpose: A tree.
  Leaf
  Node(left: Tree, right: Tree)
end

type Boom is variant
  purpose: A failure.
  Big(tree: Tree)
end

public function main() or fails with Boom
  purpose: Fail with a tree whose halves are one value.
  needs console
  var t be Tree.Leaf
  for each i in 1 to ${levels}
    set t to Tree.Node(left: t, right: t)
  end
  fail with Boom.Big(tree: t)
end
`;
}

test("a run that fails with a value sharing its parts is reported in bounded time, memory and text, with the value's own words", async () => {
  // spec/runtime.md, "Walks over values": the failure's value walks charging nothing, so that it must be cut, as a
  // type's text in a message is cut;
  // spec/security.md, "Bounded work on hostile input": the runtime's own reports (a crash, a failure) are one
  // diagnostic each, and output is bounded.
  const dir = join(work, "fails-with-tree");
  mkdirSync(dir);
  for (const levels of [20, 40]) {
    writeFileSync(join(dir, `t${levels}.ry`), failsWithTree(levels));
    const ran = await renyiWith(dir, ["run", "--fuel", "100000", `t${levels}.ry`], {
      HOME: dir,
      RENYI_CACHE_DIR: join(dir, "cache"),
    });
    assert.equal(ran.status, 1, ran.stderr.slice(0, 400));
    assert.match(ran.stderr, /E-RT-FAILED\]: main failed with Boom\.Big\(tree: Tree\.Node\(/);
    assert.doesNotMatch(ran.stderr, /\[object Object\]/);
    assert.ok(ran.stderr.length < 100_000, `a failure's report of ${ran.stderr.length} characters`);
    assert.ok(ran.ms < 2_000, `the report took ${ran.ms} ms`);
  }
});

test("the private folder that stands in for a cache folder others may write is refused to programs, and so is its key", async () => {
  // spec/security.md, "The cache folder": a private folder stands in for a folder others may write; no program may read
  // or write the cache folder, anything beneath it, or its key.
  const dir = join(work, "stand-in");
  const shared = join(dir, "shared");
  const temporary = join(dir, "tmp");
  mkdirSync(temporary, { recursive: true });
  mkdirSync(shared, { mode: 0o777 });
  chmodSync(shared, 0o777);
  writeFileSync(
    join(dir, "reach.ry"),
    `public function main()
  purpose: Reach the private folder that stands in for the cache folder.
  needs console, filesystem.read("tmp"), filesystem.write("tmp")
  let names be filesystem.list("tmp") otherwise crash with "the folder could not be listed"
  for each name in names
    let key be filesystem.read_bytes("tmp/{name}/cache.key") otherwise
      when FileError.PermissionDenied(p) then crash with "refused {p}"
      when _ then crash with "the key could not be read"
    end
    console.print("the key was read: {key.to_json()}")
    filesystem.write_text("tmp/{name}/cache/planted.txt", "planted") otherwise
      when FileError.PermissionDenied(p) then console.print("refused {p}")
      when _ then console.print("the write failed")
    end
  end
end
`,
  );
  const ran = await renyiWith(dir, ["run", "reach.ry"], { HOME: dir, TMPDIR: temporary, RENYI_CACHE_DIR: shared });
  assert.match(ran.stderr, /may be written by other users, so it is not used/);
  assert.doesNotMatch(ran.stdout, /the key was read/);
  assert.match(ran.stderr, /refused tmp\/renyi-cache-\w+\/cache\.key/);
});

test("with a relative RENYI_CACHE_DIR, a program run by renyi mcp can read neither the server's cache folder nor its key", async () => {
  // spec/security.md, "The cache folder": no program may read or write the cache folder, anything beneath it, or its
  // key, whatever its grant.
  const dir = join(work, "mcp-relative");
  mkdirSync(dir);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [RENYI, "mcp", "--allow", "console", "--allow", `filesystem.read("${dir}")`],
    cwd: dir,
    env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: dir, RENYI_CACHE_DIR: "cache" },
    stderr: "pipe",
  });
  const client = new Client({ name: "renyi-tests", version: "1.0.0" }, { capabilities: {} });
  await client.connect(transport);
  try {
    const source = `public function main()
  purpose: Read the server's cache key.
  needs console, filesystem.read("${dir}")
  let key be filesystem.read_bytes("${dir}/cache.key") otherwise
    when FileError.PermissionDenied(p) then crash with "refused {p}"
    when _ then crash with "the key could not be read"
  end
  console.print("the key was read: {key.to_json()}")
end
`;
    const result = (await client.callTool({ name: "run", arguments: { source } })) as CallToolResult;
    const said = JSON.stringify(result.structuredContent ?? result.content);
    assert.equal(existsSync(join(dir, "cache.key")), true, "the server keeps its cache in its working folder");
    assert.doesNotMatch(said, /the key was read/);
    assert.match(said, /refused/);
  } finally {
    await client.close();
  }
});

test("a database path ending in a NUL character is refused as the cache's key, not opened as the key", async () => {
  // spec/security.md, "The cache folder": DbError.PermissionDenied(path) for filesystem.database, checked as it is
  // opened, for the key too.
  const dir = join(work, "nul-key");
  mkdirSync(dir);
  writeFileSync(join(dir, "a.ry"), SAYS_HELLO);
  writeFileSync(
    join(dir, "key.ry"),
    `public function main()
  purpose: Open the cache's key as a database.
  needs console, filesystem.database(".cache/renyi.key\\0"), filesystem.database("x\\0.db")
  let key be database.open(".cache/renyi.key\\0") otherwise
    when DbError.PermissionDenied(p) then crash with "refused the key"
    when _ then crash with "the key could not be opened"
  end
  console.print("the key was opened as a database")
end
`,
  );
  const env = { HOME: dir };
  assert.equal((await renyiWith(dir, ["run", "a.ry"], env)).status, 0);
  assert.equal(existsSync(join(dir, ".cache", "renyi.key")), true);
  const ran = await renyiWith(dir, ["run", "key.ry"], env);
  assert.doesNotMatch(ran.stdout, /the key was opened/);
  assert.match(ran.stderr, /refused the key/);
});

// ---- Bounded work on hostile input: what check accepts, run compiles ----

/** A query of `joins` sources, each `from aI in [1]`, on one line: flat in the source. */
function manyJoins(joins: number): string {
  const sources = Array.from({ length: joins }, (_, i) => ` from a${i} in [1]`).join("");
  return `public function main()
  purpose: Join many lists of one item.
  needs console
  let r be${sources} select a0
  console.print("{r}")
end
`;
}

/** A query sorted by `keys` keys on one line. */
function manySortKeys(keys: number): string {
  return `public function main()
  purpose: Sort by many keys.
  needs console
  let r be from a in [1, 2]
    sort by ${Array(keys).fill("a").join(", ")}
    select a
  console.print("{r}")
end
`;
}

test("a query of 200 joins or sort keys runs; one of more (800 joins: 14 KB) is refused by check and run alike at the query, never with E-INTERNAL", async () => {
  // spec/security.md, "Compiled code and the bundle validator" and "Bounded work on hostile input": checked programs
  // compile;
  // a program whose types nest deeper than checking or compiling can follow is refused with E-CHECK-TOO-COMPLEX at the
  // definition being checked, by check as by run.
  const dir = join(work, "many-joins");
  mkdirSync(dir);
  const env = { HOME: dir, RENYI_CACHE_DIR: join(dir, "cache") };
  const cases = [
    ["joins200", manyJoins(200)],
    ["sort200", manySortKeys(200)],
    ["joins201", manyJoins(201)],
    ["joins800", manyJoins(800)],
    ["joins1500", manyJoins(1500)],
    ["sort201", manySortKeys(201)],
    ["sort3000", manySortKeys(3000)],
  ] as const;
  for (const [name, source] of cases) {
    writeFileSync(join(dir, `${name}.ry`), source);
    const checked = await renyiWith(dir, ["check", `${name}.ry`], env);
    const ran = await renyiWith(dir, ["run", `${name}.ry`], env);
    assert.doesNotMatch(ran.stderr, /E-INTERNAL|E-RT-INTERNAL/, `${name}: ${ran.stderr.slice(0, 300)}`);
    if (name === "joins200" || name === "sort200") {
      // Up to the bound, the query is checked, compiled past the validator, and run.
      assert.equal(checked.status, 0, `${name}: ${checked.stdout + checked.stderr}`);
      assert.equal(ran.status, 0, `${name}: ${ran.stderr.slice(0, 300)}`);
      assert.match(ran.stdout, name === "joins200" ? /\[1\]/ : /\[1, 2\]/);
      continue;
    }
    // Past it, check and run refuse the query alike, at the query (line 4), naming the count and the bound.
    const words = name.startsWith("joins")
      ? new RegExp(`query has ${Number(name.slice(5)).toLocaleString("en-US")} \`from\` clauses, more than the 200`)
      : new RegExp(`\`sort by\` has ${Number(name.slice(4)).toLocaleString("en-US")} keys, more than the 200`);
    for (const [what, r] of [
      ["check", checked],
      ["run", ran],
    ] as const) {
      assert.notEqual(r.status, 0, `${name}: ${what} accepted it`);
      assert.match(
        r.stdout + r.stderr,
        /E-CHECK-TOO-COMPLEX[^\n]*\n\s+--> [^\n]*:4:/,
        `${name}: ${what} said ${(r.stdout + r.stderr).slice(0, 300)}`,
      );
      assert.match(r.stdout + r.stderr, words, `${name}: ${what}`);
    }
  }
});

test("a narrated run (--explain) of a function that returns a value sharing its parts takes time and memory bounded by what it shows", async () => {
  // spec/runtime.md, "Walks over values": a narration's line walks as the charged walks do but charges nothing, so the
  // walk must stop where the line is cut;
  // spec/security.md, "Bounded work on hostile input".
  const dir = join(work, "narrated-tree");
  mkdirSync(dir);
  writeFileSync(
    join(dir, "wrap.ry"),
    `type Tree is variant
  purpose: A tree.
  Leaf
  Node(left: Tree, right: Tree)
end

function grow(levels: Int) returns Tree
  purpose: A tree whose halves are one value.
  var t be Tree.Leaf
  for each i in 1 to levels
    set t to Tree.Node(left: t, right: t)
  end
  return t
end

function wrap(t: Tree) returns Tree
  purpose: The same tree again.
  return t
end

public function main()
  purpose: Give a big tree to a function and take it back, twice.
  needs console
  let t be grow(40)
  let u be wrap(wrap(t))
  console.print("done")
end
`,
  );
  const ran = await renyiWith(
    dir,
    ["run", "--explain", "--fuel", "100000", "wrap.ry"],
    { HOME: dir, RENYI_CACHE_DIR: join(dir, "cache") },
    90_000,
  );
  assert.equal(ran.status, 0, ran.stderr.slice(0, 300));
  assert.match(ran.stdout, /done/);
  assert.ok(ran.ms < 5_000, `the narrated run took ${ran.ms} ms`);
});

test("json.decode into a type that doubles at each level names what it expected in bounded time, memory and text", async () => {
  // spec/security.md, "Bounded work on hostile input": a type's text in a message is cut past 200 characters, so no
  // message grows with the type it names;
  // spec/runtime.md, "Walks over values": work over a value is charged, or bounded.
  const dir = join(work, "decode-doubling");
  mkdirSync(dir);
  writeFileSync(
    join(dir, "nest.ry"),
    `type Nest<T> is record
  purpose: A nested type whose value doubles at each level.
  next: Optional<Nest<(T, T)>>
  value: T
end

public function main(levels: Int = 10)
  purpose: Decode a nest from JSON that nests only next.
  needs console
  let text be "\\{\\"next\\":".repeat(levels) + "null" + "}".repeat(levels)
  let m be json.decode(text, as: Nest<Int>) otherwise
    when JsonError.Shape(path, expected, found) then crash with "expected {expected.length()} characters"
    when _ then crash with "another failure"
  end
  console.print("{m}")
end
`,
  );
  const env = { HOME: dir, RENYI_CACHE_DIR: join(dir, "cache") };
  const small = await renyiWith(dir, ["run", "--fuel", "100000", "nest.ry", "--levels", "10"], env);
  const length = Number(/expected (\d+) characters/.exec(small.stderr)?.[1]);
  assert.ok(
    length <= 200,
    `JsonError.Shape's expected is ${length} characters at 10 levels: ${small.stderr.slice(0, 300)}`,
  );
  const large = await renyiWith(dir, ["run", "--fuel", "100000", "nest.ry", "--levels", "27"], env, 90_000);
  assert.match(large.stderr, /E-RT-CRASH\]: expected \d+ characters|E-RT-FUEL/);
  assert.ok(large.ms < 5_000, `27 levels took ${large.ms} ms`);
});
