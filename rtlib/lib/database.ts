// The `database` module, on better-sqlite3. Parameters are always bound, never
// put into the SQL text; query rows are read into the records the program
// declares (`as: T`), checked like JSON (a Boolean from SQLite's 0 and 1,
// Bytes from a blob).

/// <reference path="./better-sqlite3.d.ts" />
import type Sqlite from "better-sqlite3";
import { call, type Primitive } from "../gateway.js";
import type { TransactionCall } from "../primitive.js";
import { Cancelled, Failure, GuardRefusal } from "../errors.js";
import type { Grant } from "../grants.js";
import { decodeValue } from "../json.js";
import { Database as DatabaseRecord, DbError } from "../prelude.js";
import { descOf, INT, list as listOf, record, type Shape } from "../values.js";
import { isFailure } from "../errors.js";
import { hostImport } from "../host-import.js";
import { resolve } from "node:path";
import { fsPromises } from "../builtins.js";
import { onDisk, OutOfScope } from "./beneath.js";
import { refuseOffLimits } from "./off-limits.js";
import { refusal } from "./sql-refusals.js";
import { counted, INCOMING } from "./incoming.js";
import { cancellableWait, checkCancelled } from "../limits.js";

const open_ = new Map<string, Sqlite>();

// better-sqlite3 (a native addon) is loaded by the first open, not when every program starts.
let SqliteClass: typeof Sqlite | undefined;

/** The transaction open on each database (by the path the program gave), by its number in the run. */
const openTransactions = new Map<string, number>();
/** The number the last transaction of the run was given (spec/recording.md, "Transactions"). */
let lastTransaction = 0;

function primitive(name: string, path: string): Primitive {
  // A statement made while a transaction is open on its database is part of it, whichever task made it: SQLite's
  // connection is one.
  const inTransaction = name === "query" || name === "execute" ? openTransactions.get(path) : undefined;
  return {
    ...(inTransaction !== undefined ? { inTransaction } : {}),
    name: `std.database.${name}`,
    need: { path: ["filesystem", "database"], scope: path },
    denied: () => DbError.make("PermissionDenied", path),
    overBudget: () => DbError.make("OverBudget", path),
    refusedByGuard: (origin, sink) => DbError.make("Guarded", origin, sink),
  };
}

/** How long a statement waits for a database another connection holds before it fails "database is locked". */
const BUSY_WAIT_MS = 1000;

/**
 * Runs `work`, and runs it again while another connection holds the database,
 * for up to BUSY_WAIT_MS. SQLite's own busy timeout would block the thread,
 * where no cancellation is seen; this waits between tries, and a cancellation
 * (Ctrl-C, the deadline) ends the wait. A statement that found the database
 * busy did nothing, so running it again is safe.
 */
async function whileBusy<T>(work: () => T): Promise<T> {
  const until = performance.now() + BUSY_WAIT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, 25)) {
    try {
      return work();
    } catch (e) {
      if ((e as { code?: string }).code !== "SQLITE_BUSY" || performance.now() + pause > until) throw e;
    }
    // (cancellableWait looks for a cancellation first: a pause shorter than its poll would never see one.)
    await cancellableWait(pause);
  }
}

/** What a statement threw, as the failure the program sees; a cancellation stays one. */
function dbError(e: unknown): Failure | Cancelled {
  if (isFailure(e) || e instanceof Cancelled) return e;
  const code = (e as { code?: string }).code ?? "";
  const message = e instanceof Error ? e.message : String(e);
  return new Failure(
    code.startsWith("SQLITE_CONSTRAINT") ? DbError.make("Constraint", message) : DbError.make("Sql", message),
  );
}

/** SQLite's own files beside a database: a link planted at one of these names would take its writes elsewhere. */
const COMPANIONS = ["-journal", "-wal", "-shm"];

/** The database file found beneath its scope, with no link at the names SQLite writes beside it. */
async function databaseFile(grant: Grant, path: string): Promise<string> {
  const real = resolve(await onDisk(grant, { path: ["filesystem", "database"], scope: path }, path, true));
  // Nor in the compile cache's folder, or at its key, whatever the grant (off-limits.ts).
  await refuseOffLimits(real, path);
  const { lstat } = await fsPromises();
  for (const suffix of COMPANIONS) {
    try {
      if ((await lstat(real + suffix)).isSymbolicLink()) throw new OutOfScope(path);
    } catch (e) {
      if (e instanceof OutOfScope) throw e;
    }
  }
  return real;
}

/** A statement is prepared only when it touches nothing but the granted file. */
function prepare(db: unknown, sql: string): ReturnType<Sqlite["prepare"]> {
  const refused = refusal(sql);
  if (refused !== undefined) throw new Failure(DbError.make("Sql", refused));
  return handle(db).prepare(sql);
}

function handle(db: unknown): Sqlite {
  const path = (db as { path: string }).path;
  const found = open_.get(path);
  if (found === undefined) throw new Failure(DbError.make("Sql", `the database ${path} is not open`));
  return found;
}

/** Values bound to `?` parameters: Json values as SQLite takes them. */
function bindable(parameters: unknown[]): unknown[] {
  return parameters.map((p) =>
    typeof p === "boolean"
      ? p
        ? 1
        : 0
      : p === undefined
        ? null
        : typeof p === "object" && p !== null
          ? JSON.stringify(p)
          : p,
  );
}

/** A row as JSON-like values, shaped for the record it is read into. */
function rowValue(row: Record<string, unknown>, shape: Shape): unknown {
  if (shape.k !== "record") return row;
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const field of shape.desc.fields) {
    let value = row[field.json];
    if (field.shape.k === "bool" && (value === 0 || value === 1)) value = value === 1;
    if (Buffer.isBuffer(value)) value = value.toString("base64");
    if (value === null && field.shape.k === "variant") value = null;
    out[field.json] = value;
  }
  return out;
}

/** What one value of a row counts for: a text or blob its bytes, anything else eight. */
function sizeOf(value: unknown): number {
  if (typeof value === "string") return Buffer.byteLength(value, "utf8");
  if (value instanceof Uint8Array) return value.length;
  return 8;
}

/**
 * The rows of a result, read one at a time (SQLite steps the statement) and
 * counted, rows and bytes: past either limit for data coming in, the statement
 * is stopped (leaving the loop resets it) and the query fails with Sql, having
 * held no more than the limit.
 */
function boundedRows(statement: ReturnType<Sqlite["prepare"]>, parameters: unknown[]): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  let size = 0;
  for (const row of statement.iterate(...parameters)) {
    for (const key in row) size += sizeOf(row[key]);
    if (rows.length >= INCOMING.rows) {
      throw new Failure(
        DbError.make("Sql", `the result has more than ${counted(INCOMING.rows)} rows, the limit for data coming in`),
      );
    }
    if (size > INCOMING.bytes) {
      throw new Failure(
        DbError.make("Sql", `the result passed the limit of ${counted(INCOMING.bytes)} bytes for data coming in`),
      );
    }
    rows.push(row);
  }
  return rows;
}

export const open = (grant: Grant, path: string): Promise<unknown> =>
  call(grant, { ...primitive("open", path), result: record(DatabaseRecord.desc) }, { path }, async () => {
    await connect(grant, path);
    return DatabaseRecord.desc.make([path]);
  });

/** Opens the connection to the database at `path`, checked as `open` checks it, unless this run has it open. */
async function connect(grant: Grant, path: string): Promise<void> {
  if (open_.has(path)) return;
  try {
    SqliteClass ??= (await hostImport<{ default: typeof Sqlite }>("better-sqlite3")).default;
    // SQLite is given the file's real, absolute path: never a name it might read as a URI or `:memory:`.
    if (!open_.has(path)) open_.set(path, new SqliteClass(await databaseFile(grant, path), { timeout: 0 }));
  } catch (e) {
    if (e instanceof OutOfScope) throw new Failure(DbError.make("PermissionDenied", path));
    throw dbError(e);
  }
}

/**
 * A statement or a transaction made live in a resumed run whose `open` was answered from the recording finds no
 * connection: it opens one (the database is a file the call's grant covers, checked as `open` checks it).
 */
async function connected(grant: Grant, db: unknown): Promise<void> {
  const path = (db as { path?: unknown }).path;
  if (typeof path === "string" && !open_.has(path)) await connect(grant, path);
}

export const query = (
  grant: Grant,
  db: unknown,
  sql: string,
  parameters: unknown[] = [],
  shape?: Shape,
): Promise<unknown> => {
  const path = (db as { path: string }).path;
  // The rows' type, when the program gave one: what a replay decodes the recorded rows as.
  const rows = shape === undefined ? {} : { result: listOf(shape.k === "list" ? shape.item : shape) };
  return call(
    grant,
    { ...primitive("query", path), ...rows },
    { sql, ...(parameters.length > 0 ? { parameters } : {}) },
    async () => {
      let rows: Record<string, unknown>[];
      try {
        await connected(grant, db);
        rows = await whileBusy(() => boundedRows(prepare(db, sql), bindable(parameters)));
      } catch (e) {
        throw dbError(e);
      }
      if (shape === undefined) return rows;
      const item: Shape = shape.k === "list" ? shape.item : shape;
      return rows.map((row) => {
        try {
          return decodeValue(rowValue(row, item), item);
        } catch (e) {
          if (isFailure(e) && descOf(e.value)?.variant === "JsonError") {
            const detail = e.value as { path: string; expected: string; found: string };
            throw new Failure(
              DbError.make(
                "Sql",
                `a row does not fit the record: ${detail.path.replace(/^\$\./, "")} should be ${detail.expected}, but is ${detail.found}`,
              ),
            );
          }
          throw e;
        }
      });
    },
  );
};

export const execute = (grant: Grant, db: unknown, sql: string, parameters: unknown[] = []): Promise<unknown> => {
  const path = (db as { path: string }).path;
  return call(
    grant,
    { ...primitive("execute", path), result: INT },
    { sql, ...(parameters.length > 0 ? { parameters } : {}) },
    async () => {
      try {
        await connected(grant, db);
        return await whileBusy(() => prepare(db, sql).run(...bindable(parameters)).changes);
      } catch (e) {
        throw dbError(e);
      }
    },
  );
};

/**
 * `work` runs inside BEGIN and COMMIT; a failure or crash in it rolls back, and the failure is passed on. A
 * transaction is numbered, and so is each statement made in it, so that a replay can run the work again
 * against the recorded statements (spec/recording.md, "Transactions"); how it ended is told to the gateway's observers.
 */
export const transaction = async (
  grant: Grant,
  db: unknown,
  work: (db: unknown) => unknown,
  /** How a DbError of the transaction's own becomes the work's failure type; absent when that is DbError. */
  dbErrorInto?: (error: unknown) => unknown,
): Promise<unknown> => {
  // What the work failed with passes on as it is; any other failure is the transaction's own, a DbError.
  let fromWork: unknown;
  const runWork = async (): Promise<unknown> => {
    try {
      return await work(db);
    } catch (e) {
      fromWork = e;
      throw e;
    }
  };
  try {
    return await transactionCall(grant, db, runWork);
  } catch (e) {
    if (e === fromWork || dbErrorInto === undefined || !isFailure(e)) throw e;
    // A guard's refusal stays one, wrapped.
    throw new (e instanceof GuardRefusal ? GuardRefusal : Failure)(dbErrorInto(e.value), e.site);
  }
};

const transactionCall = (grant: Grant, db: unknown, work: () => Promise<unknown>): Promise<unknown> => {
  const path = (db as { path: string }).path;
  const state: TransactionCall = {
    number: undefined,
    ended: undefined,
    replayWork: work,
    answeredAs: (number) => void (lastTransaction = Math.max(lastTransaction, number)),
  };
  return call(grant, { ...primitive("transaction", path), transaction: state }, {}, async () => {
    // Numbered as it is made, before BEGIN: a replay finds the recorded transactions in the order they were begun.
    state.number = ++lastTransaction;
    let sqlite: Sqlite;
    try {
      await connected(grant, db);
      sqlite = handle(db);
      sqlite.exec("BEGIN");
    } catch (e) {
      state.ended = "BEGIN failed";
      throw dbError(e);
    }
    openTransactions.set(path, state.number);
    try {
      let result: unknown;
      try {
        result = await work();
        // A run cancelled while its work ran (a statement does not see the deadline or Ctrl-C until it returns) does
        // not commit: the limit came first, and nothing the run does after it may last.
        checkCancelled();
      } catch (e) {
        state.ended = "rolled back";
        throw e;
      }
      try {
        await whileBusy(() => sqlite.exec("COMMIT"));
      } catch (e) {
        state.ended = "COMMIT failed";
        throw dbError(e);
      }
      state.ended = "committed";
      return result;
    } finally {
      openTransactions.delete(path);
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
    }
  });
};
