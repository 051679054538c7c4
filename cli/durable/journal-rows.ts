// The journal of one invocation, read from a Restate cluster's admin API
// (`POST /query`, SQL over `sys_journal`), for `renyi fetch-recording`
// (spec/durable.md, "Recordings from production"). The admin API is hostile
// input like any other: the invocation id is checked for Restate's form before
// it is put in SQL, every answer is bounded in size and time, and answers of
// another form are refused, never thrown.

import { readStrictJson, type Json } from "../../report/strict-json.js";
import { isObject } from "../../report/json-shape.js";
import { MAX_RECORDING_BYTES } from "../../vocabulary/recording.js";

/**
 * Restate's invocation id: `inv_`, the id scheme's version `1`, then the partition key (11) and the invocation's uuid
 * (22) in fixed-width base62. Nothing else reaches the SQL, so no quote, space or comment can.
 */
export const INVOCATION_ID = /^inv_1[0-9A-Za-z]{33}$/;

/** One entry of a journal, as `sys_journal` gives it. */
export interface JournalRow {
  readonly index: number;
  /** `Command: Run`, `Notification: Run`, `Command: Sleep`… */
  readonly entryType: string;
  readonly name: string | undefined;
  /** The entry as Restate writes it in JSON (a Run's value as the bytes of its JSON). */
  readonly entryJson: string;
  /** When the entry was appended, ISO 8601. */
  readonly appendedAt: string | undefined;
}

interface Journal {
  readonly rows: JournalRow[];
  /** The invocation's status in `sys_invocation` (`completed`, `running`, `backing-off`…), when it has a row. */
  readonly status: string | undefined;
}

export type JournalRead =
  | { ok: true; journal: Journal }
  | { ok: false; problem: "id" | "admin" | "unreachable" | "answer" | "none"; detail: string };

export interface JournalBounds {
  /** How long one answer of the admin API may take. */
  readonly timeoutMs: number;
  /** The most bytes of entries a journal may hold: what a recording may (vocabulary/recording.ts). */
  readonly maxJournalBytes: number;
  /** The most entries fetched with one query; more are fetched in pages. */
  readonly pageBytes: number;
}

export const JOURNAL_BOUNDS: JournalBounds = {
  timeoutMs: 30_000,
  maxJournalBytes: MAX_RECORDING_BYTES,
  pageBytes: 8 * 1024 * 1024,
};

/** The most entries one journal may have: a recording's calls at most, in batches, with markers between them. */
const MAX_ENTRIES = 1_000_000;

/**
 * An answer's limit beside the bytes of the entries it carries: `entry_json` writes each byte of a value as a number
 * and a comma (at most 4 characters), around it the entry's own fields.
 */
const ANSWER_BYTES_PER_ENTRY_BYTE = 6;
const ANSWER_SLACK_BYTES = 1024 * 1024;

/** Reads the journal of `invocation` from the admin API at `admin`. */
export async function readJournal(
  admin: string,
  invocation: string,
  bounds: JournalBounds = JOURNAL_BOUNDS,
): Promise<JournalRead> {
  if (!INVOCATION_ID.test(invocation))
    return { ok: false, problem: "id", detail: "an invocation id is `inv_1` and 33 letters and digits" };
  const base = adminBase(admin);
  if (typeof base === "string") return { ok: false, problem: "admin", detail: base };
  const query = (sql: string, limit: number) => queryRows(base, sql, limit, bounds.timeoutMs);
  const where = `WHERE id = '${invocation}'`;
  // The sizes first (a few bytes each), so that every later answer has a limit of its own.
  const sizes = await query(
    `SELECT index, raw_length FROM sys_journal ${where} ORDER BY index`,
    ANSWER_SLACK_BYTES + MAX_ENTRIES * 64,
  );
  if (!sizes.ok) return sizes;
  const statusRows = await query(`SELECT status FROM sys_invocation ${where}`, ANSWER_SLACK_BYTES);
  if (!statusRows.ok) return statusRows;
  const status = statusRows.rows.length === 1 ? statusRows.rows[0]!["status"] : undefined;
  if (status !== undefined && typeof status !== "string")
    return { ok: false, problem: "answer", detail: "sys_invocation's status is not a text" };
  if (sizes.rows.length === 0)
    return {
      ok: false,
      problem: "none",
      detail:
        status === undefined
          ? "the invocation is unknown to this cluster, or it ended long enough ago that its journal has expired"
          : `the invocation is ${status} and its journal holds no entry`,
    };
  if (sizes.rows.length > MAX_ENTRIES)
    return { ok: false, problem: "answer", detail: `the journal has more than ${MAX_ENTRIES} entries` };
  const pages = pagesOf(sizes.rows, bounds);
  if (typeof pages === "string") return { ok: false, problem: "answer", detail: pages };
  const rows: JournalRow[] = [];
  for (const page of pages) {
    const answer = await query(
      `SELECT index, entry_type, name, entry_json, appended_at FROM sys_journal ${where} ` +
        `AND index >= ${page.from} AND index <= ${page.to} ORDER BY index`,
      ANSWER_SLACK_BYTES + page.bytes * ANSWER_BYTES_PER_ENTRY_BYTE,
    );
    if (!answer.ok) return answer;
    for (const row of answer.rows) {
      const read = journalRow(row);
      if (typeof read === "string") return { ok: false, problem: "answer", detail: read };
      if (rows.length > 0 && read.index <= rows[rows.length - 1]!.index)
        return { ok: false, problem: "answer", detail: `entry ${read.index} comes out of order` };
      rows.push(read);
    }
  }
  return { ok: true, journal: { rows, status } };
}

/** The admin API's base URL, ending in `/`, or why it is refused. */
function adminBase(admin: string): URL | string {
  let url: URL;
  try {
    url = new URL(admin);
  } catch {
    return "it does not parse as a URL (http://HOST:9070)";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `its scheme is ${url.protocol}, not http or https`;
  if (url.username !== "" || url.password !== "") return "it holds a user name or a password; give the address alone";
  if (url.search !== "" || url.hash !== "") return "it has a query or a fragment; give the admin API's address alone";
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

/** Consecutive runs of entries whose bytes together stay within a page (an entry larger than a page alone). */
function pagesOf(
  sizes: readonly { [key: string]: Json }[],
  bounds: JournalBounds,
): { from: number; to: number; bytes: number }[] | string {
  const pages: { from: number; to: number; bytes: number }[] = [];
  let total = 0;
  for (const row of sizes) {
    const index = row["index"];
    const bytes = row["raw_length"];
    if (!isWhole(index) || !isWhole(bytes)) return "sys_journal's index and raw_length are not whole numbers";
    total += bytes;
    if (total > bounds.maxJournalBytes)
      return `the journal holds more than ${bounds.maxJournalBytes.toLocaleString("en")} bytes, more than a recording may`;
    const last = pages[pages.length - 1];
    if (last !== undefined && index <= last.to) return `entry ${index} comes out of order`;
    if (last !== undefined && last.bytes + bytes <= bounds.pageBytes) {
      last.to = index;
      last.bytes += bytes;
    } else pages.push({ from: index, to: index, bytes });
  }
  return pages;
}

function isWhole(value: Json | undefined): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/** One row of `sys_journal` as the entry it is, or what is wrong with it. */
function journalRow(row: { [key: string]: Json }): JournalRow | string {
  const index = row["index"];
  const entryType = row["entry_type"];
  const name = row["name"];
  const entryJson = row["entry_json"];
  const appendedAt = row["appended_at"];
  if (!isWhole(index)) return "a row of sys_journal has no whole index";
  if (typeof entryType !== "string") return `entry ${index} has no entry_type`;
  if (typeof entryJson !== "string") return `entry ${index} has no entry_json`;
  if (name !== undefined && name !== null && typeof name !== "string") return `entry ${index}'s name is not a text`;
  if (appendedAt !== undefined && appendedAt !== null && typeof appendedAt !== "string")
    return `entry ${index}'s appended_at is not a text`;
  return {
    index,
    entryType,
    name: typeof name === "string" ? name : undefined,
    entryJson,
    appendedAt: typeof appendedAt === "string" ? appendedAt : undefined,
  };
}

type Rows =
  | { ok: true; rows: { [key: string]: Json }[] }
  | { ok: false; problem: "unreachable" | "answer"; detail: string };

/** `POST /query` with one SQL statement: its rows, each an object, or why not; the answer at most `limit` bytes. */
async function queryRows(base: URL, sql: string, limit: number, timeoutMs: number): Promise<Rows> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(new URL("query", base), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query: sql }),
      redirect: "error",
      signal,
    });
  } catch (e) {
    return { ok: false, problem: "unreachable", detail: reason(e, timeoutMs) };
  }
  const body = await boundedBody(response, limit, timeoutMs);
  if (typeof body === "string")
    return { ok: false, problem: body.startsWith("no answer") ? "unreachable" : "answer", detail: body };
  if (response.status !== 200)
    return { ok: false, problem: "answer", detail: `status ${response.status}: ${shown(body)}` };
  const json = readStrictJson(body, 8);
  if (!json.ok) return { ok: false, problem: "answer", detail: `its answer is not JSON (${json.problem})` };
  const rows = isObject(json.value) ? json.value["rows"] : undefined;
  if (!Array.isArray(rows) || !rows.every((r) => isObject(r)))
    return { ok: false, problem: "answer", detail: 'its answer is not {"rows": [objects…]}' };
  return { ok: true, rows: rows as { [key: string]: Json }[] };
}

/** The body, read until `limit` bytes and no further, or why it was not read. */
async function boundedBody(response: Response, limit: number, timeoutMs: number): Promise<Uint8Array | string> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    return `its answer is ${declared.toLocaleString("en")} bytes, more than the ${limit.toLocaleString("en")} expected`;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    if (response.body === null) return new Uint8Array();
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > limit) {
        await response.body.cancel().catch(() => undefined);
        return `its answer is more than the ${limit.toLocaleString("en")} bytes expected`;
      }
      chunks.push(chunk);
    }
  } catch (e) {
    return `no answer in full: ${reason(e, timeoutMs)}`;
  }
  return Buffer.concat(chunks);
}

function reason(e: unknown, timeoutMs: number): string {
  const error = e as { name?: string; cause?: { code?: string; message?: string }; message?: string };
  if (error.name === "TimeoutError" || error.name === "AbortError")
    return `no answer within ${(timeoutMs / 1000).toLocaleString("en")} s`;
  return error.cause?.code ?? error.cause?.message ?? error.message ?? String(e);
}

/** The start of an error answer, on one line. */
function shown(body: Uint8Array): string {
  const text = Buffer.from(body).toString("utf8").replace(/\s+/g, " ").trim();
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}
