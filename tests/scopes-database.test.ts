// A database grant is one file (spec/security.md, "Databases"): no statement
// attaches, copies out to, or loads another file, and the file itself is found
// beneath its scope. Each attack against a real SQLite file, checking that no
// other file appeared.

import assert from "node:assert/strict";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  readFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { rootGrant } from "../rtlib/grants.js";
import * as database from "../rtlib/lib/database.js";
import { refusal } from "../rtlib/lib/sql-refusals.js";
import { configureLimits } from "../rtlib/limits.js";
import { outcome } from "./support.js";

configureLimits({});
const work = realpathSync(mkdtempSync(join(tmpdir(), "renyi-scopes-db-")));
after(() => rmSync(work, { recursive: true, force: true }));

const granted = (path: string) => rootGrant([{ path: ["filesystem", "database"], scope: path }], "main");

test("a statement touches only the granted file: ATTACH, VACUUM INTO, file pragmas and load_extension are refused", async () => {
  const folder = join(work, "attacks");
  mkdirSync(folder);
  const path = join(folder, "app.db");
  const grant = granted(path);
  const db = await database.open(grant, path);
  await database.execute(grant, db, "CREATE TABLE t (x)");
  await database.execute(grant, db, "INSERT INTO t VALUES (1)");
  const before = readdirSync(folder).sort();
  const other = join(folder, "other.db");
  const attacks = [
    `ATTACH DATABASE '${other}' AS o`,
    `attach '${other}' as o`,
    `/* a comment */ -- and another\n\tATTACH '${other}' AS o`,
    `EXPLAIN ATTACH '${other}' AS o`,
    "DETACH DATABASE main",
    `VACUUM INTO '${other}'`,
    `vacuum main into '${other}'`,
    `VACUUM "main" /* x */ INTO '${other}'`,
    `PRAGMA temp_store_directory = '${folder}'`,
    `PRAGMA main.writable_schema = ON`,
    `PRAGMA "trusted_schema" = ON`,
    "PRAGMA hard_heap_limit = 1",
  ];
  for (const sql of attacks) {
    assert.match(
      await outcome(database.execute(grant, db, sql)),
      /^DbError\.Sql\(message: "(ATTACH|DETACH|VACUUM INTO|PRAGMA [a-z_]+) is refused: /,
      sql,
    );
    assert.match(await outcome(database.query(grant, db, sql)), /^DbError\.Sql\(message: ".* is refused: /, sql);
  }
  // The SQL function load_extension is off in SQLite unless enabled for SQL, which better-sqlite3 never does.
  assert.match(
    await outcome(database.query(grant, db, "SELECT load_extension(?)", [join(folder, "evil.so")])),
    /^DbError\.Sql\(message: "not authorized"\)$/,
  );
  assert.deepEqual(readdirSync(folder).sort(), before);
  // What concerns only this file still works: a plain VACUUM, pragmas of this file and connection.
  assert.equal(await outcome(database.execute(grant, db, "VACUUM")), "ok 0");
  assert.equal(await outcome(database.execute(grant, db, "PRAGMA user_version = 7")), "ok 0");
  assert.match(await outcome(database.query(grant, db, "PRAGMA user_version")), /"user_version":7/);
  assert.match(await outcome(database.query(grant, db, "SELECT x FROM t -- ATTACH 'x' AS y")), /"x":1/);
  // Defensive mode (better-sqlite3's default) refuses changing the schema table by hand.
  assert.match(
    await outcome(database.execute(grant, db, "UPDATE sqlite_master SET sql = 'x'")),
    /^DbError\.Sql\(message: "table sqlite_master may not be modified"\)$/,
  );
});

test("the statement reader: first words as SQLite's tokenizer reads them", () => {
  // `--` runs to a newline only, as in SQLite: a carriage return does not end it. A string as a
  // pragma's name (which SQLite takes) is refused: the reader refuses what it does not expect.
  let cases = 0;
  const refused = [
    "ATTACH 'a' AS b",
    "\u000bATTACH 'a' AS b",
    "/**/attach'a'as b",
    "EXPLAIN QUERY PLAN ATTACH 'a' AS b",
    "VACUUM INTO 'a'",
    "VACUUM [main] INTO 'a'",
    "VACUUM main 'a'",
    "PRAGMA x",
    "PRAGMA 'user_version'",
    "PRAGMA",
    "( SELECT 1 )",
    "PRAGMA busy_timeout = 60000",
    "pragma main.BUSY_TIMEOUT=1",
  ];
  const allowed = [
    "SELECT 'ATTACH'",
    "select 1 /* VACUUM INTO 'x' */",
    "VACUUM",
    "VACUUM main;",
    "PRAGMA foreign_keys = ON",
    "PRAGMA main.table_info(t)",
    "",
    "  -- only a comment",
    "--x\rATTACH 'a' AS b",
    "INSERT INTO attach VALUES (1)",
    "WITH x AS (SELECT 1) SELECT * FROM x",
  ];
  for (const sql of refused) {
    assert.notEqual(refusal(sql), undefined, sql);
    cases++;
  }
  for (const sql of allowed) {
    assert.equal(refusal(sql), undefined, sql);
    cases++;
  }
  console.log(`statement reader: ${cases} cases`);
});

test("the database file is found beneath its scope: a linked file, or a link where SQLite writes its journal, is refused", async () => {
  const folder = join(work, "links");
  const data = join(folder, "data");
  const outside = join(folder, "outside");
  mkdirSync(data, { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "victim.txt"), "victim");
  symlinkSync(join(outside, "secret.db"), join(data, "app.db"));
  const linked = join(data, "app.db");
  assert.equal(
    await outcome(database.open(granted(data), linked)),
    `DbError.PermissionDenied(path: ${JSON.stringify(linked)})`,
  );
  assert.deepEqual(readdirSync(outside), ["victim.txt"]);
  // A rollback journal planted as a link would take SQLite's writes to the victim.
  const journaled = join(data, "journaled.db");
  symlinkSync(join(outside, "victim.txt"), `${journaled}-journal`);
  assert.equal(
    await outcome(database.open(granted(data), journaled)),
    `DbError.PermissionDenied(path: ${JSON.stringify(journaled)})`,
  );
  assert.equal(readFileSync(join(outside, "victim.txt"), "utf8"), "victim");
  // A link that stays in the scope is followed.
  const grant = granted(data);
  const real = join(data, "real.db");
  symlinkSync("real.db", join(data, "alias.db"));
  const db = await database.open(grant, join(data, "alias.db"));
  assert.equal(await outcome(database.execute(grant, db, "CREATE TABLE t (x)")), "ok 0");
  assert.ok(readdirSync(data).includes("real.db"), real);
});
