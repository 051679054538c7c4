// What a live call can answer, primitive by primitive (spec/recording.md, "What
// a live call can answer"). A recording is hostile input, and a replay hands its
// answers to the program as if the world had given them: an answer no live call
// could give (an HTTP status of 999, a header that could not have crossed the
// wire, an exit code no process has, a random integer outside its range) must
// never reach the program. The reader (cli/recordings/reader.ts) checks every
// entry against this table once, as the recording is read, and refuses the
// recording with E-RT-RECORDING at the first answer that does not fit.
//
// Each primitive is declared once: the capability its calls use, what its
// success can be, and the failures (variant and fields) it can end with from
// inside the call. Failures the gateway raises before a call is made (a grant
// or a budget refusing it, an address that is no URL) are never recorded, so a
// recording cannot hold them either.

import type { JsonValue } from "./recording.js";

type Args = { readonly [name: string]: JsonValue };

/** Why an answer cannot be a live one: the field, as a path from the entry, and what it should be. */
export interface Impossible {
  readonly field: string;
  readonly why: string;
}

class NotLive extends Error {
  constructor(
    readonly field: string,
    readonly why: string,
  ) {
    super(why);
  }
}

/** A check of one value at `at` (a path from the entry), given the entry's recorded arguments; throws NotLive. */
/** `places`: the outcome's `items`, where the answer's items are in `arguments.items` (random.choice, random.shuffle). */
type Check = (value: JsonValue | undefined, at: string, args: Args, places?: readonly number[]) => void;

function fail(at: string, value: JsonValue | undefined, expected: string): never {
  throw new NotLive(at, `${shown(value)}, but ${expected}`);
}

function shown(value: JsonValue | undefined): string {
  if (value === undefined) return "is missing";
  const text = JSON.stringify(value);
  return `is ${text.length > 60 ? `${text.slice(0, 57)}…` : text}`;
}

const nothing: Check = (v, at) => {
  if (v !== null) fail(at, v, "the call gives back nothing (null)");
};

const boolean: Check = (v, at) => {
  if (typeof v !== "boolean") fail(at, v, "it is true or false");
};

/**
 * A text, without what `without` names. (The reader's strict JSON already refuses a lone surrogate, which no text
 * decoded from bytes has.)
 */
function text(without?: { readonly pattern: RegExp; readonly what: string }): Check {
  return (v, at) => {
    if (typeof v !== "string") fail(at, v, "it is a text");
    if (without?.pattern.test(v)) fail(at, v, `it cannot hold ${without.what}`);
  };
}

const anyText = text();

function whole(least: number, most: number, what: string): Check {
  return (v, at) => {
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < least || v > most)
      fail(at, v, `${what} is a whole number from ${least.toLocaleString("en")} to ${most.toLocaleString("en")}`);
  };
}

function optional(check: Check): Check {
  return (v, at, args) => {
    if (v !== null) check(v, at, args);
  };
}

/** Base64 as the recorder writes it: the canonical form of some bytes. */
const base64: Check = (v, at) => {
  if (typeof v !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(v) || Buffer.from(v, "base64").toString("base64") !== v)
    fail(at, v, "bytes are written as base64");
};

function isRecord(v: JsonValue | undefined): v is { [key: string]: JsonValue } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** An object with exactly these fields (those marked optional may be left out). */
function fields(checks: { readonly [name: string]: Check }, optionalFields: readonly string[] = []): Check {
  // Listed once, not at each answer checked: a recording's every entry is checked with them.
  const named = Object.entries(checks);
  return (v, at, args) => {
    if (!isRecord(v))
      fail(
        at,
        v,
        `it is an object with ${Object.keys(checks)
          .map((k) => `\`${k}\``)
          .join(", ")}`,
      );
    for (const key of Object.keys(v))
      if (!Object.hasOwn(checks, key)) fail(`${at}.${key}`, v[key], "no live answer has that field");
    for (const [key, check] of named) {
      if (!Object.hasOwn(v, key)) {
        if (!optionalFields.includes(key)) fail(`${at}.${key}`, undefined, "every live answer has it");
        continue;
      }
      check(v[key], `${at}.${key}`, args);
    }
  };
}

function listOf(item: Check): Check {
  return (v, at, args) => {
    if (!Array.isArray(v)) fail(at, v, "it is a list");
    v.forEach((each, i) => {
      item(each, `${at}[${i}]`, args);
    });
  };
}

const anyJson: Check = () => undefined;

// ——— time ———

/** `2026-10-05T18:42:11.067Z`, with or without the milliseconds: an instant that exists. */
const instant: Check = (v, at) => {
  const m = typeof v === "string" ? /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,3}))?Z$/.exec(v) : null;
  const ms = m === null ? NaN : Date.parse(v as string);
  if (m === null || !Number.isFinite(ms) || new Date(ms).toISOString() !== `${m[1]}.${(m[2] ?? "").padEnd(3, "0")}Z`)
    fail(at, v, "an instant is an ISO 8601 time in UTC that exists, `2026-10-05T18:42:11.067Z`");
};

/** `2026-10-05`: a day that exists. */
const day: Check = (v, at) => {
  const ok =
    typeof v === "string" &&
    /^\d{4}-\d{2}-\d{2}$/.test(v) &&
    Number.isFinite(Date.parse(`${v}T00:00:00Z`)) &&
    new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;
  if (!ok) fail(at, v, "a date is a day that exists, `2026-10-05`");
};

// ——— random ———

const integerInRange: Check = (v, at, args) => {
  const { low, high } = args;
  if (
    typeof low !== "number" ||
    typeof high !== "number" ||
    !Number.isSafeInteger(low) ||
    !Number.isSafeInteger(high)
  ) {
    throw new NotLive(
      "arguments",
      "are not two whole numbers `low` and `high` (redacted?), so its answer cannot be checked against them",
    );
  }
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < low || v > high)
    fail(at, v, `random.integer(${low}, ${high}) answers a whole number from ${low} to ${high}`);
};

const unitFloat: Check = (v, at) => {
  if (typeof v !== "number" || !(v >= 0 && v < 1))
    fail(at, v, "random.float answers a number from 0 (included) to 1 (excluded)");
};

/** The JSON text of each item of the call's `items`, or a refusal when it has none. */
function itemsOf(args: Args): string[] {
  const items = args["items"];
  if (!Array.isArray(items))
    throw new NotLive("arguments.items", "is not a list, and random.choice and random.shuffle are called with one");
  return items.map((i) => JSON.stringify(i));
}

/**
 * The outcome's `items`, when given: each a place in `arguments.items` (`count` of them, each
 * once), whose item has the form the answer gives for it (`forms`).
 */
function checkPlaces(
  places: readonly number[],
  items: readonly string[],
  forms: readonly string[],
  count: number,
): void {
  const at = "outcome.items";
  if (places.length !== count) throw new NotLive(at, `has ${places.length} places, but the answer has ${count} items`);
  const seen = new Set<number>();
  places.forEach((p, k) => {
    if (!Number.isSafeInteger(p) || p < 0 || p >= items.length)
      throw new NotLive(at, `holds ${JSON.stringify(p)}, which is no place in arguments.items`);
    if (seen.has(p)) throw new NotLive(at, `holds the place ${p} twice`);
    seen.add(p);
    if (items[p] !== forms[k])
      throw new NotLive(at, `says item ${p}, but the answer's item there is written otherwise`);
  });
}

const oneOfItems: Check = (v, at, args, places) => {
  const items = itemsOf(args);
  if (places !== undefined) {
    if (items.length === 0) fail(at, v, "an empty list has no item to choose");
    return checkPlaces(places, items, [JSON.stringify(v)], 1);
  }
  if (v === null ? items.length > 0 : !items.includes(JSON.stringify(v)))
    fail(
      at,
      v,
      items.length === 0
        ? "an empty list has no item to choose"
        : "random.choice answers one of the items it was given",
    );
};

const itemsShuffled: Check = (v, at, args, places) => {
  if (places !== undefined && Array.isArray(v)) {
    const given = itemsOf(args);
    if (v.length !== given.length)
      fail(at, v, "random.shuffle answers the items it was given, each once, in some order");
    return checkPlaces(
      places,
      given,
      v.map((i) => JSON.stringify(i)),
      given.length,
    );
  }
  const items = itemsOf(args).sort();
  if (
    !Array.isArray(v) ||
    v.length !== items.length ||
    v
      .map((i) => JSON.stringify(i))
      .sort()
      .some((t, i) => t !== items[i])
  )
    fail(at, v, "random.shuffle answers the items it was given, each once, in some order");
};

const uuid: Check = (v, at) => {
  if (typeof v !== "string" || !/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(v))
    fail(at, v, "random.uuid answers a version 4 UUID in lower case");
};

// ——— http ———

/** RFC 9110 `token` (tchar), in lower case: the runtime lowers every header name it receives. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;
/** A field value as it crosses the wire, read as Latin-1: no CR, LF or NUL, nothing past U+00FF. */
const HEADER_VALUE_FORBIDDEN = /[\r\n\0\u0100-\uffff]/;

const headers: Check = (v, at) => {
  if (!isRecord(v)) fail(at, v, "headers are an object of names and texts");
  for (const [name, value] of Object.entries(v)) {
    if (!HEADER_NAME.test(name))
      throw new NotLive(
        `${at}[${JSON.stringify(name)}]`,
        "is a header name that is not an HTTP token in lower case (RFC 9110, tchar)",
      );
    if (typeof value !== "string" || HEADER_VALUE_FORBIDDEN.test(value))
      fail(`${at}.${name}`, value, "a header's value is a text without CR, LF or NUL, of characters up to U+00FF");
  }
};

/** The methods whose response has no body, and the statuses that have none. */
const NO_BODY_STATUS = new Set([204, 304]);

function httpHop(method: string): Check {
  const shape = fields({ status: whole(100, 599, "an HTTP status"), headers, body: text(), bytes: base64 }, [
    "body",
    "bytes",
  ]);
  return (v, at, args) => {
    shape(v, at, args);
    const hop = v as { status: number; body?: string; bytes?: string };
    if (hop.body === undefined && hop.bytes === undefined)
      fail(`${at}.body`, undefined, "a response has its body, as `body` (text) or `bytes` (base64)");
    if (
      hop.body !== undefined &&
      hop.bytes !== undefined &&
      Buffer.from(hop.body, "utf8").toString("base64") !== hop.bytes
    )
      fail(`${at}.bytes`, hop.bytes, "a response given as both `body` and `bytes` has them agree");
    const empty = (hop.body === undefined || hop.body === "") && (hop.bytes === undefined || hop.bytes === "");
    if (!empty && (method === "head" || NO_BODY_STATUS.has(hop.status)))
      fail(
        `${at}.body`,
        hop.body ?? hop.bytes,
        `a response ${method === "head" ? "to HEAD" : `of status ${hop.status}`} has no body`,
      );
  };
}

// ——— filesystem, database, process ———

const entryName: Check = (v, at) => {
  if (typeof v !== "string" || v === "" || v === "." || v === ".." || /[/\0]/.test(v))
    fail(at, v, "a directory's entry is a name without `/` or NUL, not `.` or `..`");
};

const directoryNames: Check = (v, at, args) => {
  listOf(entryName)(v, at, args);
  const names = v as string[];
  if (new Set(names).size !== names.length) fail(at, v, "a directory holds each name once");
};

/** database.open answers the database at the path it was given: a later call's scope is that path. */
const databaseAt: Check = (v, at, args) => {
  fields({ path: anyText })(v, at, args);
  if ((v as { path: string }).path !== args["path"])
    fail(
      `${at}.path`,
      (v as { path: string }).path,
      `database.open answers the database it opened, at ${JSON.stringify(args["path"])}`,
    );
};

// ——— the table ———

interface LiveAnswers {
  /** The capability its calls use, as a `needs` line names it. */
  readonly capability: string;
  readonly success: Check;
  /** Each failure it can end with from inside the call: the variant, and its fields. */
  readonly failures: { readonly [variant: string]: Check };
}

const t = anyText;
const HTTP_FAILURES = {
  Timeout: fields({ url: t }),
  Unreachable: fields({ url: t, reason: t }),
  TooLarge: fields({ url: t, limit: whole(0, Number.MAX_SAFE_INTEGER, "a limit") }),
};
const FILE_FAILURES = {
  PermissionDenied: fields({ path: t }),
  NotFound: fields({ path: t }),
  Failed: fields({ path: t, reason: t }),
};
const SQL_FAILURES = { Sql: fields({ message: t }), Constraint: fields({ message: t }) };
const port = whole(0, 65535, "a port");

const ANSWERS: { readonly [primitive: string]: LiveAnswers } = {
  "std.console.print": { capability: "console", success: nothing, failures: {} },
  "std.console.error": { capability: "console", success: nothing, failures: {} },
  "std.console.read_line": {
    capability: "console",
    success: optional(text({ pattern: /[\r\n]/, what: "a line break" })),
    failures: {},
  },
  "std.environment.get": {
    capability: "environment",
    success: optional(text({ pattern: /\0/, what: "NUL" })),
    failures: {},
  },
  "std.time.now": { capability: "time", success: instant, failures: {} },
  "std.time.today": { capability: "time", success: day, failures: {} },
  "std.time.sleep": { capability: "time", success: nothing, failures: {} },
  "std.random.integer": { capability: "random", success: integerInRange, failures: {} },
  "std.random.float": { capability: "random", success: unitFloat, failures: {} },
  "std.random.choice": { capability: "random", success: oneOfItems, failures: {} },
  "std.random.shuffle": { capability: "random", success: itemsShuffled, failures: {} },
  "std.random.uuid": { capability: "random", success: uuid, failures: {} },
  "std.filesystem.read_text": { capability: "filesystem.read", success: t, failures: FILE_FAILURES },
  "std.filesystem.read_bytes": { capability: "filesystem.read", success: base64, failures: FILE_FAILURES },
  "std.filesystem.list": { capability: "filesystem.read", success: directoryNames, failures: FILE_FAILURES },
  "std.filesystem.exists": { capability: "filesystem.read", success: boolean, failures: FILE_FAILURES },
  "std.filesystem.size": {
    capability: "filesystem.read",
    success: whole(0, Number.MAX_SAFE_INTEGER, "a file's size in bytes"),
    failures: FILE_FAILURES,
  },
  "std.filesystem.write_text": { capability: "filesystem.write", success: nothing, failures: FILE_FAILURES },
  "std.filesystem.write_bytes": { capability: "filesystem.write", success: nothing, failures: FILE_FAILURES },
  "std.filesystem.append_text": { capability: "filesystem.write", success: nothing, failures: FILE_FAILURES },
  "std.filesystem.remove": { capability: "filesystem.write", success: nothing, failures: FILE_FAILURES },
  "std.database.open": {
    capability: "filesystem.database",
    success: databaseAt,
    failures: { PermissionDenied: fields({ path: t }), ...SQL_FAILURES },
  },
  "std.database.execute": {
    capability: "filesystem.database",
    success: whole(0, Number.MAX_SAFE_INTEGER, "a count of rows"),
    failures: SQL_FAILURES,
  },
  // The rows' own shape is the program's type (`as:`): a replay decodes them against it (E-RT-REPLAY-SHAPE).
  "std.database.query": { capability: "filesystem.database", success: listOf(anyJson), failures: SQL_FAILURES },
  "std.database.transaction": { capability: "filesystem.database", success: anyJson, failures: SQL_FAILURES },
  "std.process.run": {
    capability: "process",
    success: fields({ exit_code: whole(0, 255, "an exit code"), stdout: t, stderr: t }),
    failures: { NotFound: fields({ program: t }), Failed: fields({ program: t, reason: t }) },
  },
  "std.server.serve": {
    capability: "network.socket",
    success: nothing,
    failures: { InUse: fields({ port }), PermissionDenied: fields({ port }) },
  },
  // A foreign module answers any JSON; its failures' reasons are its own.
  "std.foreign.call": {
    capability: "foreign",
    success: anyJson,
    failures: { Failed: fields({ module: t, reason: t }) },
  },
};

/** `std.http.get`, `std.http.request` (any method outside the named ones): all answered alike. */
function answersOf(primitive: string): LiveAnswers | undefined {
  if (Object.hasOwn(ANSWERS, primitive)) return ANSWERS[primitive];
  const method = /^std\.http\.([a-z_]+)$/.exec(primitive)?.[1];
  if (method === undefined) return undefined;
  return { capability: "network.http", success: httpHop(method), failures: HTTP_FAILURES };
}

/**
 * Why a recorded entry's outcome is one no live call of its primitive could give,
 * or undefined when a live call could give it. `capability` is the path of the
 * entry's capability (`network.http`), without its scope.
 */
export function impossibleAnswer(entry: {
  readonly primitive: string;
  readonly capability: string;
  readonly arguments: Args;
  readonly outcome: { success: JsonValue; items?: readonly number[] } | { failure: JsonValue };
}): Impossible | undefined {
  const answers = answersOf(entry.primitive);
  if (answers === undefined) return { field: "primitive", why: "is no primitive of the library" };
  if (entry.capability !== answers.capability)
    return {
      field: "capability",
      why: `is ${entry.capability}, but a call of ${entry.primitive} uses ${answers.capability}`,
    };
  try {
    if ("success" in entry.outcome) {
      const places = entry.outcome.items;
      if (places !== undefined && answers.success !== oneOfItems && answers.success !== itemsShuffled)
        throw new NotLive("outcome.items", "is given, but only random.choice and random.shuffle answer with items");
      answers.success(entry.outcome.success, "outcome.success", entry.arguments, places);
      return undefined;
    }
    const failure = entry.outcome.failure;
    const variants = Object.keys(answers.failures);
    const name = isRecord(failure) && Object.keys(failure).length === 1 ? Object.keys(failure)[0]! : undefined;
    if (name === undefined || !Object.hasOwn(answers.failures, name)) {
      fail(
        "outcome.failure",
        failure,
        variants.length === 0
          ? `${entry.primitive} cannot fail`
          : `${entry.primitive} fails only with ${variants.join(", ")}`,
      );
    }
    answers.failures[name]!(
      (failure as { [key: string]: JsonValue })[name],
      `outcome.failure.${name}`,
      entry.arguments,
    );
    return undefined;
  } catch (e) {
    if (e instanceof NotLive) return { field: e.field, why: e.why };
    throw e;
  }
}
