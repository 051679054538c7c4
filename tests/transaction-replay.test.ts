// Transactions recorded and replayed (spec/recording.md, "Transactions"): a
// transaction's statements are recorded with its number, its own entry with how
// it ended; a replay runs the program's work against them, with no BEGIN or
// COMMIT, and stops where the work now differs. Real SQLite files in a temporary
// folder, real `renyi` processes.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import type { RecordedCall, Recording } from "../vocabulary/recording.js";
import { closeOpenTransactions } from "../cli/recordings/open-transactions.js";
import { readRecording } from "../cli/recordings/reader.js";
import { renyi } from "./record-support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-transaction-"));

/** A program that inserts two rows in one transaction; `second` is the second statement's SQL. */
function program(second = "INSERT INTO item (name) VALUES ('b')"): string {
  return `public function main() or fails with DbError
  purpose: Insert two rows in one transaction, then count them.
  needs console, filesystem.database("shop.db")
  let db be database.open("shop.db") otherwise fail
  database.execute(db, "CREATE TABLE IF NOT EXISTS item (name TEXT NOT NULL)") otherwise fail
  let added be database.transaction(db, function (d: Database) returns Int
    needs filesystem.database("shop.db")
    let a be database.execute(d, "INSERT INTO item (name) VALUES ('a')") otherwise crash with "first insert"
    let b be database.execute(d, "${second}") otherwise crash with "second insert"
    return a + b
  end) otherwise fail
  let rows be database.query(db, "SELECT count(*) AS n FROM item", as: Count) otherwise fail
  console.print("added {added}, {rows[0].n} rows")
end

type Count is record
  n: Int
end
`;
}

const read = (file: string) => JSON.parse(readFileSync(join(work, file), "utf8")) as Recording;
const fields = (c: RecordedCall) => ({ primitive: c.primitive, outcome: c.outcome, transaction: c.transaction });

before(async () => {
  writeFileSync(join(work, "shop.ry"), program());
  const ran = await renyi(work, ["record", "shop.ry"]);
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "added 2, 2 rows\n");
});

test("a transaction that commits is recorded as its statements, numbered, then its own entry", () => {
  const calls = read("shop.recording.json").calls;
  assert.deepEqual(calls.slice(2, 5).map(fields), [
    { primitive: "std.database.execute", outcome: { success: 1 }, transaction: 1 },
    { primitive: "std.database.execute", outcome: { success: 1 }, transaction: 1 },
    { primitive: "std.database.transaction", outcome: { success: "committed" }, transaction: 1 },
  ]);
  // The statements outside it carry no number.
  assert.equal(calls[1]!.transaction, undefined);
  assert.equal(calls[5]!.transaction, undefined);
});

test("a committed transaction is replayed and reproduced without touching the database", async () => {
  // The database the recording was made on is gone: a replay that ran BEGIN or a statement would fail or make it.
  rmSync(join(work, "shop.db"));
  const replayed = await renyi(work, ["run", "--replay", "shop.recording.json", "--console", "shop.ry"]);
  assert.equal(replayed.status, 0, replayed.stderr);
  assert.equal(replayed.stdout, "added 2, 2 rows\n");
  const reproduced = await renyi(work, ["reproduce", "shop.recording.json"]);
  assert.equal(reproduced.status, 0, reproduced.stderr);
  assert.match(reproduced.stderr, /reproduced: the run finished as recorded/);
  assert.throws(() => readFileSync(join(work, "shop.db")), /ENOENT/);
});

test("a replay whose transaction makes another statement stops at it", async () => {
  writeFileSync(join(work, "other.ry"), program("INSERT INTO item (name) VALUES ('c')"));
  const ran = await renyi(work, ["run", "--replay", "shop.recording.json", "other.ry"]);
  assert.equal(ran.status, 2, ran.stderr);
  assert.match(ran.stderr, /error\[E-RT-REPLAY-MISMATCH\]/);
  assert.match(ran.stderr, /call made: std\.database\.execute \{"sql":"INSERT INTO item \(name\) VALUES \('c'\)"\}/);
  assert.match(ran.stderr, /--> other\.ry:9:14/);
});

test("a replay whose transaction makes fewer statements stops at the transaction", async () => {
  writeFileSync(join(work, "fewer.ry"), program("SELECT 1").replace(/let b be database.execute\([^\n]*/, "let b be 1"));
  const ran = await renyi(work, ["run", "--replay", "shop.recording.json", "fewer.ry"]);
  assert.equal(ran.status, 2, ran.stderr);
  assert.match(ran.stderr, /call made: std\.database\.transaction \{\}/);
  assert.match(ran.stderr, /statements: 1 made here, 2 in the recording/);
});

test("a resumed run holds a transaction that committed: it is answered, its statements with it", async () => {
  rmSync(join(work, "shop.db"), { force: true });
  const ran = await renyi(work, ["run", "--resume", "shop.recording.json", "--to", "again.json", "shop.ry"]);
  assert.equal(ran.status, 0, ran.stderr);
  assert.match(ran.stderr, /7 calls answered from it, 0 made live/);
  assert.throws(() => readFileSync(join(work, "shop.db")), /ENOENT/);
  // The new recording keeps the transaction's entry after its statements, and replays.
  assert.deepEqual(
    read("again.json").calls.slice(2, 5).map(fields),
    read("shop.recording.json").calls.slice(2, 5).map(fields),
  );
  const replayed = await renyi(work, ["run", "--replay", "again.json", "shop.ry"]);
  assert.equal(replayed.status, 0, replayed.stderr);
});

/** The recording with its calls edited by `edit`, written to `file`. */
function edited(file: string, edit: (calls: RecordedCall[]) => void): void {
  const recording = read("shop.recording.json");
  edit(recording.calls);
  writeFileSync(join(work, file), JSON.stringify(recording, null, 2));
}

for (const [name, file, edit, why] of [
  [
    "a transaction entry with an unknown outcome",
    "unknown-outcome.json",
    (calls: RecordedCall[]) => void (calls[4]!.outcome = { success: "maybe" }),
    /calls\[4\] \(std\.database\.transaction\): outcome is \{"success":"maybe"\}, but a transaction ends/,
  ],
  [
    "a statement claiming a transaction that does not exist",
    "no-such-transaction.json",
    (calls: RecordedCall[]) => void (calls[2]!.transaction = 9),
    /calls\[2\]\.transaction is 9, but no std\.database\.transaction entry after it has that number/,
  ],
  [
    "a statement claiming a transaction whose entry comes before it",
    "transaction-before.json",
    (calls: RecordedCall[]) => void (calls[5]!.transaction = 1),
    /calls\[5\]\.transaction is 1, but no std\.database\.transaction entry after it has that number/,
  ],
  [
    "two transaction entries with one number",
    "twice-numbered.json",
    (calls: RecordedCall[]) => void calls.splice(1, 0, { ...calls[4]!, sequence: 1.5 } as RecordedCall),
    /calls\[1\]\.transaction is 1, which a later transaction entry has too/,
  ],
  [
    "a transaction's DbError that does not say where it failed",
    "no-at.json",
    (calls: RecordedCall[]) => void (calls[4]!.outcome = { failure: { Sql: { message: "busy" } } }),
    /calls\[4\] \(std\.database\.transaction\): outcome is \{"failure":\{"Sql":\{"message":"busy"\}\}\}/,
  ],
  [
    "`at` beside a statement's failure",
    "at-on-statement.json",
    (calls: RecordedCall[]) => void (calls[1]!.outcome = { failure: { Sql: { message: "busy" } }, at: "BEGIN" }),
    /calls\[1\]\.outcome\.at is only written beside the DbError a numbered std\.database\.transaction failed with/,
  ],
  [
    "a statement made in a transaction whose BEGIN failed",
    "in-failed-begin.json",
    (calls: RecordedCall[]) => void (calls[4]!.outcome = { failure: { Sql: { message: "nested" } }, at: "BEGIN" }),
    /calls\[3\]\.transaction is 1, a transaction whose BEGIN failed: nothing was made in it/,
  ],
  [
    "a transaction that never began, rolled back",
    "unnumbered-rollback.json",
    (calls: RecordedCall[]) => {
      calls.splice(2, 2);
      delete calls[2]!.transaction;
      calls[2]!.outcome = { failure: "rolled back" };
    },
    /calls\[2\] \(std\.database\.transaction\)/,
  ],
] as const) {
  test(`a recording with ${name} is refused as it is read`, async () => {
    edited(file, (calls) => {
      edit(calls);
      calls.forEach((c, i) => void (c.sequence = i + 1));
    });
    const ran = await renyi(work, ["run", "--replay", file, "shop.ry"]);
    assert.equal(ran.status, 3, ran.stderr);
    assert.match(ran.stderr, new RegExp(`^error\\[E-RT-RECORDING\\]: ${file.replace(".", "\\.")} is refused`));
    assert.match(ran.stderr, why);
    assert.doesNotMatch(ran.stderr, /\n\s+at /);
  });
}

/** A program whose transaction's work fails with the caller's failure, and so rolls back, when `--halt` is given. */
const STOCK = `type ShopError is variant
  Database(error: DbError)
  Stopped(after: Int)
end

public function main(halt: Boolean = false) or fails with ShopError
  purpose: Insert a row in a transaction whose work stops, and so rolls back, when asked to.
  needs console, filesystem.database("stock.db")
  let db be database.open("stock.db") otherwise fail
  database.execute(db, "CREATE TABLE IF NOT EXISTS item (name TEXT NOT NULL)") otherwise fail
  let added be database.transaction(db, function (d: Database) returns Int or fails with ShopError
    needs filesystem.database("stock.db")
    let n be database.execute(d, "INSERT INTO item (name) VALUES ('a')") otherwise fail
    if halt then fail with ShopError.Stopped(after: n)
    return n
  end) otherwise
    when ShopError.Stopped(after) then
      console.print("stopped after {after}: rolled back")
      return
    when _ then fail
  end
  let rows be database.query(db, "SELECT count(*) AS n FROM item", as: Count) otherwise fail
  console.print("added {added}, {rows[0].n} rows")
end

type Count is record
  n: Int
end
`;

/** The rows of stock.db's table, read with SQLite itself. */
async function stockRows(): Promise<number> {
  const Sqlite = (await import("better-sqlite3")).default;
  const db = new Sqlite(join(work, "stock.db"));
  try {
    return (db.prepare("SELECT count(*) AS n FROM item").all()[0] as { n: number }).n;
  } finally {
    db.close();
  }
}

test("a transaction whose work fails with the caller's failure rolls back, is recorded so, replayed and reproduced", async () => {
  writeFileSync(join(work, "stock.ry"), STOCK);
  const ran = await renyi(work, ["record", "--to", "halted.json", "stock.ry", "--halt"]);
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "stopped after 1: rolled back\n");
  assert.equal(await stockRows(), 0);
  assert.deepEqual(read("halted.json").calls.slice(2).map(fields), [
    { primitive: "std.database.execute", outcome: { success: 1 }, transaction: 1 },
    { primitive: "std.database.transaction", outcome: { failure: "rolled back" }, transaction: 1 },
    { primitive: "std.console.print", outcome: { success: null }, transaction: undefined },
  ]);
  const replayed = await renyi(work, ["run", "--replay", "halted.json", "--console", "stock.ry", "--halt"]);
  assert.equal(replayed.status, 0, replayed.stderr);
  assert.equal(replayed.stdout, "stopped after 1: rolled back\n");
  const reproduced = await renyi(work, ["reproduce", "halted.json"]);
  assert.equal(reproduced.status, 0, reproduced.stderr);
  assert.equal(await stockRows(), 0);
});

test("a replay whose transaction commits where the recording rolled back stops at the transaction", async () => {
  const ran = await renyi(work, ["run", "--replay", "halted.json", "stock.ry"]);
  assert.equal(ran.status, 2, ran.stderr);
  assert.match(ran.stderr, /error\[E-RT-REPLAY-MISMATCH\]/);
  assert.match(ran.stderr, /outcome: committed here, rolled back in the recording/);
  assert.match(ran.stderr, /--> stock\.ry:11:16/);
});

test("a resumed run goes live at a transaction that rolled back, and commits it", async () => {
  const ran = await renyi(work, ["run", "--resume", "halted.json", "--to", "committed.json", "stock.ry"]);
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "added 1, 1 rows\n");
  assert.match(ran.stderr, /2 calls answered from it, 4 made live/);
  assert.equal(await stockRows(), 1);
  const calls = read("committed.json").calls;
  assert.deepEqual(calls.slice(2, 4).map(fields), [
    { primitive: "std.database.execute", outcome: { success: 1 }, transaction: 1 },
    { primitive: "std.database.transaction", outcome: { success: "committed" }, transaction: 1 },
  ]);
  const replayed = await renyi(work, ["run", "--replay", "committed.json", "stock.ry"]);
  assert.equal(replayed.status, 0, replayed.stderr);
});

test("a transaction begun inside another's work fails at BEGIN, passed on into the work's failure, and replays", async () => {
  writeFileSync(
    join(work, "nested.ry"),
    `type ShopError is variant
  Database(error: DbError)
end

public function main() or fails with ShopError
  purpose: Begin a transaction inside another's work.
  needs console, filesystem.database("nested.db")
  let db be database.open("nested.db") otherwise fail
  let said be database.transaction(db, function (d: Database) returns Text or fails with ShopError
    needs filesystem.database("nested.db")
    return database.transaction(d, function (e: Database) returns Text or fails with ShopError
      return "the inner work ran"
    end) otherwise
      when ShopError.Database(error) then "inner: {error}"
    end
  end) otherwise fail
  console.print(said)
end
`,
  );
  const ran = await renyi(work, ["record", "nested.ry"]);
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, 'inner: DbError.Sql(message: "cannot start a transaction within a transaction")\n');
  // The inner transaction, numbered 2, completes first; the outer, 1, after it.
  const calls = read("nested.recording.json").calls;
  assert.deepEqual(
    calls.slice(1, 3).map((c) => [c.transaction, c.outcome]),
    [
      [2, { failure: { Sql: { message: "cannot start a transaction within a transaction" } }, at: "BEGIN" }],
      [1, { success: "committed" }],
    ],
  );
  const reproduced = await renyi(work, ["reproduce", "nested.recording.json"]);
  assert.equal(reproduced.status, 0, reproduced.stderr);
  assert.equal(reproduced.stdout, ran.stdout);
});

test("a recording made before transactions were numbered is read, and its transaction is not replayed", async () => {
  edited("older.json", (calls) => {
    for (const c of calls) delete c.transaction;
    calls[4]!.outcome = { success: 2 };
  });
  const least = await renyi(work, ["grant", "older.json", "shop.ry"]);
  assert.equal(least.status, 0, least.stderr);
  const ran = await renyi(work, ["run", "--replay", "older.json", "shop.ry"]);
  assert.equal(ran.status, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /error\[E-RT-REPLAY-MISMATCH\]: database\.transaction runs the program's own code inside it/,
  );
});

test("a run stopped by force inside a transaction leaves a recording that closes it, rolled back, and reads back", async () => {
  writeFileSync(
    join(work, "slow.ry"),
    `public function main() or fails with DbError
  purpose: Insert a row, then run a statement longer than the run may take, in one transaction.
  needs console, filesystem.database("slow.db")
  let db be database.open("slow.db") otherwise fail
  database.execute(db, "CREATE TABLE IF NOT EXISTS item (name TEXT NOT NULL)") otherwise fail
  let n be database.transaction(db, function (d: Database) returns Int or fails with DbError
    needs filesystem.database("slow.db")
    database.execute(d, "INSERT INTO item (name) VALUES ('a')") otherwise fail
    let rows be database.query(d, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 15000000) SELECT count(*) AS n FROM c", as: Count) otherwise fail
    return rows[0].n
  end) otherwise fail
  console.print("{n}")
end

type Count is record
  n: Int
end
`,
  );
  // SQLite's statement does not see the time limit: the run is stopped by force (or, on a fast machine, sees the
  // cancellation when the statement returns, and the transaction rolls back before COMMIT); either way the transaction
  // did not commit.
  const ran = await renyi(work, ["record", "--timeout", "1", "slow.ry"]);
  assert.equal(ran.status, 2, ran.stderr);
  assert.match(ran.stderr, /E-RT-TIMEOUT/);
  const read = readRecording(readFileSync(join(work, "slow.recording.json")));
  assert.ok(read.ok, read.ok ? "" : read.problem);
  // The statement is recorded when it returned before the force (the run noticed its limit after it, and did not
  // commit); never a committed transaction.
  const calls = read.recording.calls.slice(2).map(fields);
  assert.ok(
    calls.length === 2 || (calls.length === 3 && calls[1]!.primitive === "std.database.query"),
    JSON.stringify(calls),
  );
  assert.deepEqual(
    [calls[0], calls.at(-1)],
    [
      { primitive: "std.database.execute", outcome: { success: 1 }, transaction: 1 },
      { primitive: "std.database.transaction", outcome: { failure: "rolled back" }, transaction: 1 },
    ],
  );
});

test("an open transaction is closed, innermost first, after every call; a recording with none is left as it is", () => {
  const statement = (sequence: number, transaction: number): RecordedCall => ({
    sequence,
    capability: 'filesystem.database("a.db")',
    primitive: "std.database.execute",
    arguments: { sql: "DELETE FROM t" },
    outcome: { success: 0 },
    transaction,
  });
  const closed = closeOpenTransactions([statement(1, 1), statement(2, 2)]);
  assert.deepEqual(
    closed.slice(2).map((c) => [c.sequence, c.primitive, c.transaction, c.outcome]),
    [
      [3, "std.database.transaction", 2, { failure: "rolled back" }],
      [4, "std.database.transaction", 1, { failure: "rolled back" }],
    ],
  );
  const whole = [...closed];
  assert.deepEqual(closeOpenTransactions(whole), whole);
});
