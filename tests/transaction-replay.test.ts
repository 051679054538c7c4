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
    /calls\[4\] \(std\.database\.transaction\): outcome is \{"success":"maybe"\}, but a transaction that began ends/,
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
