// A recording read as hostile input (spec/recording.md, "Reading a
// recording"): a file of bounded size, strict JSON (no repeated key, UTF-8, a
// bounded depth), every field checked for its shape, the grant lines read back
// as a `needs` line writes them. Anything else is refused with E-RT-RECORDING
// and where in the file the problem is; the reader never throws.
//
// The reader is the one way in for every command that takes a recording
// (cli/recordings/reader.ts reads a file with it and opens sealed calls with a
// key), and for the playground of `renyi view`, which replays in a browser
// (spec/view.md, section 8): it names no Node module.

import { runMessage, type RunFacts } from "../vocabulary/problems/run.js";
import { readStrictJson, type Json } from "./strict-json.js";
import { fieldsOf, isObject, list, refuse, ShapeRefused, text } from "./json-shape.js";
import { impossibleAnswer } from "../vocabulary/recorded-answers.js";
import { checkedCallOf } from "../vocabulary/checked-call.js";
import { DEFAULT_LIMITS } from "../vocabulary/limits.js";
import type { GrantItem } from "../vocabulary/needs.js";
import { readGrantText, readNeedText } from "../vocabulary/grant-text.js";
import type { OutcomeKind } from "../vocabulary/outcomes.js";
import { checkRequestsOfCalls, requestsOf } from "./recording-requests.js";
import { MAX_SERVED_CALLS } from "../vocabulary/recorded-requests.js";
import {
  MANIFEST_FIELDS,
  SEALED,
  MAX_RECORDING_BYTES,
  MAX_RECORDING_DEPTH,
  REQUIRED_FIELDS,
  type JsonValue,
  type RecordedCall,
  type Recording,
} from "../vocabulary/recording.js";

const fields = fieldsOf("a recording");

/** A call whose answer no live call could give (vocabulary/recorded-answers.ts). */
class AnswerRefused extends ShapeRefused {}

/**
 * `sealed`: the sequence numbers of the calls that were sealed, opened with the key the read was given;
 * `sealedForResult`: those of them whose arguments carried no guarded data (sealed for what they gave back).
 */
export type ReadRecording =
  | {
      ok: true;
      recording: Recording;
      grant: GrantItem[];
      sealed: ReadonlySet<number>;
      sealedForResult: ReadonlySet<number>;
      /** The bytes read, which the program's worker is given to read its calls from (replay-plan.ts). */
      bytes: Uint8Array;
    }
  | { ok: false; code: "E-RT-RECORDING"; facts: RunFacts<"E-RT-RECORDING">; problem: string };

/** A refused read: the code, its facts, and the message made from them. */
export function refused(facts: RunFacts<"E-RT-RECORDING">): ReadRecording {
  return { ok: false, code: "E-RT-RECORDING", facts, problem: runMessage("E-RT-RECORDING", facts) };
}

/**
 * Opens a sealed call (cli/recordings/sealed-calls.ts, with the key the read was given): its bytes, or undefined when
 * the key does not open it.
 */
export type Unseal = (sealed: string, primitive: string) => Uint8Array | undefined;

/**
 * Reads a recording's bytes; `name` is what messages call it. Its sealed calls are opened with `unseal`, and refused
 * without one.
 */
export function readRecordingBytes(bytes: Uint8Array, name = "the recording", unseal?: Unseal): ReadRecording {
  if (bytes.length > MAX_RECORDING_BYTES)
    return refused({ file: name, problem: "too-large", detail: MAX_RECORDING_BYTES.toLocaleString("en") });
  const json = readStrictJson(bytes, MAX_RECORDING_DEPTH);
  if (!json.ok) return refused({ file: name, problem: "json", detail: json.problem });
  try {
    const sealed = new Set<number>();
    const sealedForResult = new Set<number>();
    const recording = recordingOf(json.value, { unseal, sealed, sealedForResult });
    const grant = recording.grant.map((text, i) => {
      const item = readGrantText(text);
      if (typeof item === "string") refuse(`grant[${i}]: ${item}`);
      return item;
    });
    return { ok: true, recording, grant, sealed, sealedForResult, bytes };
  } catch (e) {
    if (e instanceof AnswerRefused) return refused({ file: name, problem: "answer", detail: e.message });
    if (e instanceof ShapeRefused) return refused({ file: name, problem: "field", detail: e.message });
    throw e;
  }
}

/** How a refused recording is shown: one line with its code, and the exit code of a refusal. */
export function refusalText(read: { code: string; problem: string }): string {
  return `error[${read.code}]: ${read.problem}\n`;
}

function whole(value: Json | undefined, where: string, least: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < least)
    refuse(`${where} must be a whole number of at least ${least}`);
  return value;
}

function milliseconds(value: Json | undefined, where: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    refuse(`${where} must be a number of milliseconds, 0 or more`);
  return value;
}

const OUTCOMES: readonly OutcomeKind[] = ["finished", "failed", "crashed", "refused", "cancelled"];
const HASH = /^sha256:[0-9a-f.]+$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;
const PRIMITIVE = /^std(?:\.[a-z_]+){2}$/;
const MAX_LIST = 10_000;

/** How sealed calls are read: opened with the key, and their sequence numbers kept. */
interface Unsealing {
  readonly unseal: Unseal | undefined;
  readonly sealed: Set<number>;
  readonly sealedForResult: Set<number>;
}

function recordingOf(value: Json, unsealing: Unsealing): Recording {
  const at = fields(value, "the recording", REQUIRED_FIELDS, [...MANIFEST_FIELDS, "requests", "calls"]);
  const outcome = at["outcome"];
  if (typeof outcome !== "string" || !(OUTCOMES as readonly string[]).includes(outcome))
    refuse(`\`outcome\` must be one of ${OUTCOMES.join(", ")}`);
  const recording: Recording = {
    program: text(at["program"], "`program`"),
    toolchain: text(at["toolchain"], "`toolchain`"),
    source: text(at["source"], "`source`"),
    code: text(at["code"], "`code`", HASH),
    grant: list(at["grant"], "`grant`", MAX_LIST).map((g, i) => text(g, `grant[${i}]`)),
    outcome: outcome as OutcomeKind,
    calls: [],
  };
  if ("revision" in at) recording.revision = text(at["revision"], "`revision`");
  if ("extensions" in at)
    recording.extensions = list(at["extensions"], "`extensions`", MAX_LIST).map((e, i) => text(e, `extensions[${i}]`));
  if ("arguments" in at) {
    recording.arguments = list(at["arguments"], "`arguments`", MAX_LIST).map((a, i) => {
      if (typeof a !== "string") refuse(`arguments[${i}] must be a text`);
      return a;
    });
  }
  if ("environment" in at) {
    // Any names, each once (the strict JSON refuses a name twice): the object read, kept once its every value is
    // checked, as a plain object whose own keys are the names (`__proto__` among them).
    const environment = at["environment"];
    if (!isObject(environment)) refuse("`environment` must be an object");
    const names = Object.keys(environment);
    for (let i = 0; i < names.length; i++) {
      const hash = environment[names[i]!]!;
      if (hash !== null && (typeof hash !== "string" || !(HASH.test(hash) || hash === "<redacted>" || hash === SEALED)))
        refuse(`environment.${names[i]} must be a sha256: hash, "<redacted>", "sealed" or null`);
    }
    recording.environment = Object.setPrototypeOf(environment, Object.prototype) as { [name: string]: string | null };
  }
  if ("redacted" in at)
    recording.redacted = list(at["redacted"], "`redacted`", MAX_LIST).map((n, i) =>
      text(n, `redacted[${i}]`).toLowerCase(),
    );
  if ("recorded_at" in at) recording.recorded_at = text(at["recorded_at"], "`recorded_at`", INSTANT);
  if ("output" in at) {
    const output = fields(at["output"], "`output`", ["stdout", "bytes"]);
    recording.output = {
      stdout: text(output["stdout"], "output.stdout", HASH),
      bytes: whole(output["bytes"], "output.bytes", 0),
    };
  }
  let last = 0;
  // A server's handlers make calls beyond the run's own limit, each request within its own (read-requests.ts).
  const mostCalls = "requests" in at ? MAX_SERVED_CALLS : DEFAULT_LIMITS.maxHostCalls;
  recording.calls = list(at["calls"], "`calls`", mostCalls).map((c, i) => {
    const call = callOf(isObject(c) && "sealed" in c ? unsealed(c, `calls[${i}]`, unsealing) : c, `calls[${i}]`);
    if (call.sequence <= last)
      refuse(
        `calls[${i}].sequence is ${call.sequence}, which does not come after ${last}: the calls are numbered in ` +
          `the order they completed`,
      );
    last = call.sequence;
    return call;
  });
  checkTransactions(recording.calls);
  // The requests a server answered (spec/recording.md, "Servers"), which the calls of their handlers name.
  if ("requests" in at) {
    const requests = requestsOf(at["requests"]);
    checkRequestsOfCalls(recording.calls, requests);
    recording.requests = requests;
  } else if (recording.calls.some((c) => c.request !== undefined))
    refuse("`calls` names requests, but the recording has no `requests`");
  return recording;
}

/**
 * A sealed call opened: its capability, arguments and outcome as they were
 * recorded, in place of the placeholders, to be read as any call is. Refused
 * without the key, or when the key does not open it.
 */
function unsealed(value: { [key: string]: Json }, where: string, unsealing: Unsealing): Json {
  const at = fields(
    value,
    where,
    ["sequence", "capability", "primitive", "arguments", "outcome", "sealed"],
    ["duration_ms", "at_ms", "transaction", "request"],
  );
  if (at["arguments"] !== SEALED || at["outcome"] !== SEALED)
    refuse(`${where} is sealed, so its \`arguments\` and \`outcome\` must be "sealed"`);
  const primitive = text(at["primitive"], `${where}.primitive`, PRIMITIVE);
  const sealed = text(at["sealed"], `${where}.sealed`);
  if (unsealing.unseal === undefined)
    refuse(
      `${where} is sealed (it carried guarded data, recorded for renyi mcp): it is replayed only with the key it ` +
        `was sealed under, --seal-key FILE`,
    );
  const bytes = unsealing.unseal(sealed, primitive);
  if (bytes === undefined) refuse(`${where} is sealed, and the key given does not open it`);
  const opened = readStrictJson(bytes, MAX_RECORDING_DEPTH - 2);
  if (!opened.ok || !isObject(opened.value)) refuse(`${where} is sealed, and what it holds is not a call`);
  const inner = fields(opened.value, `${where} (sealed)`, ["capability", "arguments", "outcome"], ["guarded"]);
  // Without `guarded` (an entry sealed before it was written): its arguments were guarded data unless the entry shows
  // its capability's scope as it was, which sealing drops when they were (sealed-calls.ts); without a scope, taken to be.
  const guarded = inner["guarded"] ?? (keptScope(at["capability"], inner["capability"]) ? "result" : "arguments");
  if (guarded !== "arguments" && guarded !== "result")
    refuse(`${where} (sealed).guarded must be "arguments" or "result"`);
  const sequence = whole(at["sequence"], `${where}.sequence`, 1);
  unsealing.sealed.add(sequence);
  if (guarded === "result") unsealing.sealedForResult.add(sequence);
  const rest: { [key: string]: Json } = { ...at };
  delete rest["sealed"];
  return { ...rest, capability: inner["capability"]!, arguments: inner["arguments"]!, outcome: inner["outcome"]! };
}

/** Whether a sealed entry shows the capability it holds, with its scope: sealed for what it gave back alone. */
function keptScope(shown: Json | undefined, held: Json | undefined): boolean {
  if (typeof shown !== "string" || shown !== held) return false;
  const need = readNeedText(shown);
  return typeof need !== "string" && need.scope !== undefined;
}

function callOf(value: Json, where: string): RecordedCall {
  const at = fields(
    value,
    where,
    ["sequence", "capability", "primitive", "arguments", "outcome"],
    ["duration_ms", "at_ms", "transaction", "request", "redacted_at"],
  );
  const capability = text(at["capability"], `${where}.capability`);
  // Read once a call: readNeedText reads a capability it has read before without its pattern (grant-text.ts).
  const need = readNeedText(capability);
  if (typeof need === "string") refuse(`${where}.capability: ${need}`);
  if (!isObject(at["arguments"])) refuse(`${where}.arguments must be an object`);
  const outcome = fields(at["outcome"], `${where}.outcome`, [], ["success", "failure", "items", "at"]);
  const kinds = Object.keys(outcome).filter((k) => k !== "items" && k !== "at");
  if (kinds.length !== 1) refuse(`${where}.outcome must have exactly one of \`success\` and \`failure\``);
  const places = outcome["items"];
  if (places !== undefined && (kinds[0] !== "success" || !Array.isArray(places)))
    refuse(`${where}.outcome.items must be a list of places in arguments.items, beside \`success\``);
  // Each field checked in the order of the entry's fields; then the entry is made of them (vocabulary/checked-call.ts).
  whole(at["sequence"], `${where}.sequence`, 1);
  text(at["primitive"], `${where}.primitive`, PRIMITIVE);
  if (kinds[0] === "success") places?.forEach((p, i) => void whole(p, `${where}.outcome.items[${i}]`, 0));
  else transactionFailedAt(outcome["at"], where);
  if ("duration_ms" in at) milliseconds(at["duration_ms"], `${where}.duration_ms`);
  if ("at_ms" in at) milliseconds(at["at_ms"], `${where}.at_ms`);
  if ("request" in at) whole(at["request"], `${where}.request`, 1);
  if ("transaction" in at) whole(at["transaction"], `${where}.transaction`, 1);
  if ("redacted_at" in at) redactedPlaces(at["redacted_at"], `${where}.redacted_at`);
  const call = checkedCallOf(at as { [key: string]: JsonValue });
  // A transaction that began ended as one of three: its outcome is checked here rather than as a call's answer.
  if (transactionEnd(call, where) !== undefined) return call;
  const impossible = impossibleAnswer({ ...call, capability: need.path.join(".") });
  if (impossible !== undefined)
    throw new AnswerRefused(`${where} (${call.primitive}): ${impossible.field} ${impossible.why}`);
  return call;
}

// ---- Transactions (spec/recording.md, "Transactions") ----

const TRANSACTION = "std.database.transaction";
const STATEMENTS = new Set(["std.database.execute", "std.database.query"]);

/** A transaction's `outcome.at`, BEGIN or COMMIT, beside its failure; checked with the entry in transactionEnd. */
function transactionFailedAt(value: Json | undefined, where: string): { at?: "BEGIN" | "COMMIT" } {
  if (value === undefined) return {};
  if (value !== "BEGIN" && value !== "COMMIT") refuse(`${where}.outcome.at must be "BEGIN" or "COMMIT"`);
  return { at: value };
}

/**
 * How a transaction's entry ended, `committed` or `rolled back`; undefined for any other entry, and for one that
 * failed with a DbError of its own, which is read as any failure of the call is. Any other outcome of a numbered
 * transaction is refused, and so is `at` anywhere but beside a numbered transaction's DbError.
 */
function transactionEnd(call: RecordedCall, where: string): "committed" | "rolled back" | undefined {
  const at = "failure" in call.outcome ? call.outcome.at : undefined;
  const numbered = call.transaction !== undefined && call.primitive === TRANSACTION;
  if (at !== undefined && !(numbered && isObject((call.outcome as { failure: JsonValue }).failure)))
    refuse(`${where}.outcome.at is only written beside the DbError a numbered ${TRANSACTION} failed with`);
  if (!numbered) return undefined;
  if ("success" in call.outcome) {
    if (call.outcome.success === "committed" && call.outcome.items === undefined) return "committed";
  } else if (call.outcome.failure === "rolled back") return "rolled back";
  else if (at !== undefined) return undefined;
  throw new AnswerRefused(
    `${where} (${TRANSACTION}): outcome is ${JSON.stringify(call.outcome)}, but a transaction ends ` +
      `{"success": "committed"}, {"failure": "rolled back"}, or {"failure": DbError, "at": "BEGIN"} or "COMMIT"`,
  );
}

/**
 * Every statement that names a transaction is an `execute` or a `query` on the database of a transaction entry of
 * that number that comes after it (a transaction's entry is written when it ends, after its statements); no two
 * transaction entries share a number.
 */
function checkTransactions(calls: readonly RecordedCall[]): void {
  const ended = new Map<number, RecordedCall>();
  for (let i = calls.length - 1; i >= 0; i--) {
    const call = calls[i]!;
    if (call.transaction === undefined) continue;
    const where = `calls[${i}]`;
    if (call.primitive === TRANSACTION) {
      if (ended.has(call.transaction))
        refuse(`${where}.transaction is ${call.transaction}, which a later transaction entry has too`);
      ended.set(call.transaction, call);
      continue;
    }
    if (!STATEMENTS.has(call.primitive))
      refuse(
        `${where}.transaction: a ${call.primitive} entry is never part of a transaction; only execute and query are`,
      );
    const transaction = ended.get(call.transaction);
    if (transaction === undefined)
      refuse(
        `${where}.transaction is ${call.transaction}, but no ${TRANSACTION} entry after it has that number: ` +
          `a statement names the transaction it was made in, whose entry comes after it`,
      );
    if ("failure" in transaction.outcome && transaction.outcome.at === "BEGIN")
      refuse(`${where}.transaction is ${call.transaction}, a transaction whose BEGIN failed: nothing was made in it`);
    if (transaction.capability !== call.capability)
      refuse(
        `${where}.transaction is ${call.transaction}, a transaction on ${transaction.capability}, but the ` +
          `statement is on ${call.capability}`,
      );
  }
}

/** A call's `redacted_at`: places in its arguments, each a list of keys (texts) and indexes (whole numbers). */
function redactedPlaces(value: Json | undefined, where: string): (string | number)[][] {
  return list(value, where, MAX_LIST).map((place, i) => {
    if (!Array.isArray(place)) refuse(`${where}[${i}] must be a list of keys and indexes`);
    return place.map((step, j) => {
      if (typeof step === "string") return step;
      return whole(step, `${where}[${i}][${j}]`, 0);
    });
  });
}
