// Each primitive's declared failures, called in process with grants made by
// hand: refused by the grant, over a budget, and the failures of the world
// (a file where a folder should be, a program that cannot be run).

import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { Failure } from "../rtlib/errors.js";
import { rootGrant, type GrantItem } from "../rtlib/grants.js";
import * as database from "../rtlib/lib/database.js";
import * as filesystem from "../rtlib/lib/filesystem.js";
import * as foreign from "../rtlib/lib/foreign.js";
import * as http from "../rtlib/lib/http.js";
import * as processModule from "../rtlib/lib/process.js";
import * as server from "../rtlib/lib/server.js";
import { configureLimits } from "../rtlib/limits.js";
import { toText } from "../rtlib/text.js";

configureLimits({});
const work = mkdtempSync(join(tmpdir(), "renyi-primitives-"));
after(() => rmSync(work, { recursive: true, force: true }));

async function failure(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (e) {
    if (e instanceof Failure) return toText(e.value);
    throw e;
  }
  return "no failure";
}

const only = (...items: GrantItem[]) => rootGrant(items, "main");
const once = (path: string[], scope?: string | number): GrantItem => ({
  path,
  ...(scope === undefined ? {} : { scope }),
  budget: { count: 0 + 1, unit: "run" },
});

test("refused by the grant: each module's PermissionDenied (HostNotAllowed for another host)", async () => {
  const none = only({ path: ["console"] });
  assert.equal(await failure(http.get(none, "http://127.0.0.1:1/")), 'HttpError.PermissionDenied(host: "127.0.0.1:1")');
  assert.equal(
    await failure(http.get(only({ path: ["network", "http"], scope: "a.com" }), "http://b.com/")),
    'HttpError.HostNotAllowed(host: "b.com")',
  );
  assert.equal(await failure(filesystem.read_text(none, "x.txt")), 'FileError.PermissionDenied(path: "x.txt")');
  assert.equal(await failure(database.open(none, "x.db")), 'DbError.PermissionDenied(path: "x.db")');
  assert.equal(await failure(server.serve(none, 1, () => null)), "StartError.PermissionDenied(port: 1)");
  assert.equal(await failure(processModule.run(none, "node")), 'ProcessError.PermissionDenied(program: "node")');
  assert.equal(await failure(foreign.call(none, "m.mjs", "f")), 'ForeignError.PermissionDenied(module: "m.mjs")');
});

test("over a budget: each budgeted module's OverBudget", async () => {
  const dbPath = join(work, "budget.db");
  const db = only(once(["filesystem", "database"]));
  await database.open(db, dbPath);
  assert.equal(await failure(database.open(db, dbPath)), `DbError.OverBudget(path: ${JSON.stringify(dbPath)})`);
  // A budget spent before the call (made by hand: a program's budgets are at least 1) refuses it before anything
  // listens.
  const socket = only({ path: ["network", "socket"], budget: { count: 0, unit: "run" } });
  assert.equal(await failure(server.serve(socket, 2, () => null)), "StartError.OverBudget(port: 2)");
  const files = only(once(["filesystem", "read"]));
  await failure(filesystem.exists(files, "a"));
  assert.equal(await failure(filesystem.exists(files, "b")), 'FileError.OverBudget(path: "b")');
});

test("the world's failures: FileError.Failed, ProcessError.Failed", async () => {
  const file = join(work, "plain.txt");
  writeFileSync(file, "x");
  const write = only({ path: ["filesystem", "write"] });
  assert.equal(
    await failure(filesystem.write_text(write, join(file, "inside.txt"), "y")),
    `FileError.Failed(path: ${JSON.stringify(join(file, "inside.txt"))}, reason: "a part of the path is not a folder")`,
  );
  // Folders made one by one: where a file system will not make one (procfs answers ENOENT),
  // the write fails, where Node's recursive mkdir would loop for ever.
  if (existsSync("/proc/self"))
    assert.match(
      await failure(filesystem.write_text(write, "/proc/renyi-none/deeper/x.txt", "y")),
      /^FileError\.NotFound\(path: "\/proc\/renyi-none\/deeper\/x\.txt"\)$/,
    );
  const nested = join(work, "made", "one", "by", "one", "x.txt");
  await filesystem.write_text(write, nested, "z");
  assert.equal(readFileSync(nested, "utf8"), "z");
  const notRunnable = join(work, "not-runnable.sh");
  writeFileSync(notRunnable, "#!/bin/sh\necho hi\n");
  chmodSync(notRunnable, 0o644);
  const run = only({ path: ["process"] });
  assert.match(
    await failure(processModule.run(run, notRunnable)),
    /^ProcessError\.Failed\(program: ".*not-runnable\.sh", reason: ".*EACCES/,
  );
});
