// A recorded run (spec/recording.md): the JSON document `renyi record` writes
// and `renyi run --replay` and `renyi reproduce` read, field for field, and the
// codes of the errors a recording or a replay can end with.

import type { OutcomeKind } from "./outcomes.js";
import type { RecordedRequest } from "./recorded-requests.js";

/** What `--redact NAME` writes in place of a secret, and what a replay matches against any value. */
export const REDACTED = "<redacted>";

/**
 * What a recording made for `renyi mcp` shows in place of the values of a call that carried guarded data, and of a
 * guarded variable's hash.
 */
export const SEALED = "sealed";

/** A JSON value as a recording holds it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A call's outcome: what it gave back, or the failure it ended with, both as ToJson writes them. */
/**
 * `items`: for random.choice and random.shuffle, the places in `arguments.items` of what the call
 * answered, when its form alone does not say which items they were (spec/recording.md, "Values in
 * arguments and outcomes": `Some(None)` and `None` are both `null`).
 */
/**
 * `at`: for a `database.transaction` that failed with a DbError of its own, whether its BEGIN or its COMMIT did
 * (spec/recording.md, "Transactions").
 */
export type RecordedOutcome =
  | { success: JsonValue; items?: number[] }
  | { failure: JsonValue; at?: "BEGIN" | "COMMIT" };

/** One primitive call, in the order the calls completed. */
export interface RecordedCall {
  sequence: number;
  /** The capability the call used, with its scope, as a `needs` line writes it: `network.http("api.example.com")`. */
  capability: string;
  /** `std.http.get` */
  primitive: string;
  arguments: { [name: string]: JsonValue };
  outcome: RecordedOutcome;
  duration_ms?: number;
  /** When the call was made, in milliseconds since the run began. */
  at_ms?: number;
  /**
   * The number of the transaction a statement was made in, or of the transaction a `database.transaction` entry is
   * (spec/recording.md, "Transactions").
   */
  transaction?: number;
  /** A call a server's handler made: the `sequence` of the request it answered (spec/recording.md, "Servers"). */
  request?: number;
  /**
   * The places in `arguments` (each a list of keys and indexes) whose value came from a redacted name and is written
   * with the placeholder: a replay matches any value carrying that origin there (spec/recording.md, "Redaction").
   */
  redacted_at?: (string | number)[][];
}

/** The run manifest: the recording's header, and what `renyi run --manifest` prints. */
export interface RunManifest {
  program: string;
  /** The version-control revision of the program's folder, when it is in a git repository. */
  revision?: string;
  toolchain: string;
  /** Capabilities beyond the standard library the run used (the foreign modules it called); left out when none. */
  extensions?: string[];
  source: string;
  /** The code hash of main and every definition it reaches, as parsed (compiler/hash/code-form.ts). */
  code: string;
  /** The program's own command-line words; left out when none. */
  arguments?: string[];
  /**
   * Each environment variable read: the SHA-256 of its value, `<redacted>`, `sealed` (read through a guard, in a sealed
   * recording), or null when unset; left out when none.
   */
  environment?: { [name: string]: string | null };
  /**
   * The names `--redact` was given, in lower case: where a replay matches the placeholder with any value. Left out when
   * none.
   */
  redacted?: string[];
  recorded_at?: string;
  /** main's grant, each item as its `needs` line writes it, budgets and guards spelled out. */
  grant: string[];
  outcome: OutcomeKind;
  output?: { stdout: string; bytes: number };
}

export interface Recording extends RunManifest {
  /** The requests a server answered, before `calls`; left out when the run served none. */
  requests?: RecordedRequest[];
  calls: RecordedCall[];
}

/** The header's fields in the order they are written; `calls` comes last. */
export const MANIFEST_FIELDS = [
  "program",
  "revision",
  "toolchain",
  "extensions",
  "source",
  "code",
  "arguments",
  "environment",
  "redacted",
  "recorded_at",
  "grant",
  "outcome",
  "output",
] as const;

/** Fields a recording must have: what a replay needs to check it. */
export const REQUIRED_FIELDS = ["program", "toolchain", "source", "code", "grant", "outcome", "calls"] as const;

/** The most bytes a recording may have: 90,000 calls with bodies of a few hundred bytes fit many times over. */
export const MAX_RECORDING_BYTES = 256 * 1024 * 1024;

/** How deeply a recording's JSON may nest: arguments and outcomes are values of the program's types. */
export const MAX_RECORDING_DEPTH = 64;
