// The recording of a durable run, made from its journal (spec/durable.md,
// "Recordings from production"): the manifest from the journal's header and
// its end, the calls from its `calls` batches in journal order, renumbered 1,
// 2, 3…; every marker (an attempt, a sleep, a budget taken) skipped. Nothing
// here reads a file or the network: the rows come from journal-rows.ts, and
// what is made is checked by the recording reader before it is written.

import { readStrictJson, type Json } from "../../report/strict-json.js";
import { isObject, type JsonObject } from "../../report/json-shape.js";
import { DURABLE_FORM, JOURNAL_RUN_NAME, type JournalEnd, type JournalHeader } from "../../vocabulary/durable.js";
import type { OutcomeKind } from "../../vocabulary/outcomes.js";
import { MAX_RECORDING_DEPTH, type JsonValue, type RecordedCall, type Recording } from "../../vocabulary/recording.js";
import { runManifest } from "../recordings/manifest.js";
import type { JournalRow } from "./journal-rows.js";

export type JournalRecording =
  | {
      ok: true;
      recording: Recording;
      /** Whether the journal holds the run's end; a run still going, or stopped for good, does not. */
      ended: boolean;
      /** The journal index of the entry each call (by its place in `calls`) was read from. */
      entryOfCall: number[];
    }
  | { ok: false; detail: string };

/** How a run that has not ended is written: the outcome of a run stopped from outside (spec/recording.md). */
const NOT_ENDED: OutcomeKind = "cancelled";

const OUTCOMES: readonly string[] = ["finished", "failed", "crashed", "refused", "cancelled"];
const HASH = /^sha256:[0-9a-f]{64}$/;
/** main's module name, which the recording's `source` is made from. */
const PROGRAM = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MARKERS = ["sleep", "budget", "attempt"];

class EntryRefused extends Error {}

function refuse(message: string): never {
  throw new EntryRefused(message);
}

/** The recording the rows of a journal make, or the first entry that is not one the endpoint writes. */
export function recordingOfJournal(rows: readonly JournalRow[]): JournalRecording {
  try {
    return made(valuesOf(rows));
  } catch (e) {
    if (e instanceof EntryRefused) return { ok: false, detail: e.message };
    throw e;
  }
}

/** A step the journal completed: the index of its command, its value, and when its value was journaled. */
interface Step {
  readonly index: number;
  readonly value: Json;
  readonly at: string | undefined;
}

/** The value of each `ctx.run` the journal completed, in journal order. */
function valuesOf(rows: readonly JournalRow[]): Step[] {
  const commands: { index: number; id: number }[] = [];
  const results = new Map<number, { index: number; result: Json; at: string | undefined }>();
  const begun = new Set<number>();
  for (const row of rows) {
    // Every other entry (the input, the awakeable, a Sleep, a call to the budget object) is Restate's own, not read.
    if (row.entryType !== "Command: Run" && row.entryType !== "Notification: Run") continue;
    const entry = parsed(row.entryJson, `entry ${row.index}`, 8);
    if (row.entryType === "Command: Run") {
      const run = at(entry, ["Command", "Run"], row.index);
      const id = run["completion_id"];
      if (typeof id !== "number") refuse(`entry ${row.index}, a Run, has no completion_id`);
      const name = run["name"];
      if (name !== JOURNAL_RUN_NAME)
        refuse(
          `entry ${row.index} is a step named ${JSON.stringify(name)}; renyi serve names each ${JOURNAL_RUN_NAME}`,
        );
      if (begun.has(id)) refuse(`entry ${row.index} begins the step ${id} a second time`);
      begun.add(id);
      commands.push({ index: row.index, id });
    } else {
      const run = at(entry, ["Notification", "Completion", "Run"], row.index);
      const id = run["completion_id"];
      if (typeof id !== "number" || !("result" in run)) refuse(`entry ${row.index}, a Run's result, is incomplete`);
      if (results.has(id)) refuse(`entry ${row.index} completes the step ${id} a second time`);
      results.set(id, { index: row.index, result: run["result"]!, at: row.appendedAt });
    }
  }
  const values: Step[] = [];
  for (const command of commands) {
    const completed = results.get(command.id);
    // A step begun when the endpoint stopped, never completed: not journaled (spec/durable.md).
    if (completed === undefined) continue;
    const result = completed.result;
    if (!isObject(result) || !Array.isArray(result["Success"]))
      refuse(`entry ${completed.index} is a step that did not succeed (${short(result)}); renyi serve's steps do`);
    values.push({ index: command.index, value: stepValue(result["Success"], completed.index), at: completed.at });
  }
  return values;
}

/** A step's value: the UTF-8 bytes of the JSON the step returned. */
function stepValue(bytes: Json[], index: number): Json {
  if (!bytes.every((b) => typeof b === "number" && Number.isInteger(b) && b >= 0 && b <= 255))
    refuse(`entry ${index}'s value is not a list of bytes`);
  return parsed(Buffer.from(bytes as number[]), `entry ${index}'s value`, MAX_RECORDING_DEPTH + 4);
}

function parsed(text: string | Uint8Array, what: string, depth: number): Json {
  const read = readStrictJson(typeof text === "string" ? Buffer.from(text, "utf8") : text, depth);
  if (!read.ok) refuse(`${what} is not JSON (${read.problem})`);
  return read.value;
}

/** The object at `path` in an entry, or a refusal naming the entry. */
function at(entry: Json, path: readonly string[], index: number): JsonObject {
  let here: Json | undefined = entry;
  for (const key of path) here = isObject(here) ? here[key] : undefined;
  if (!isObject(here)) refuse(`entry ${index} is not a ${path.join(".")}`);
  return here;
}

function made(values: readonly Step[]): JournalRecording {
  const first = values[0];
  if (first === undefined) refuse("it holds no step of renyi serve's, not even the header");
  const header = headerOf(first.value, first.index);
  let end: JournalEnd["ended"] | undefined;
  let endIndex = 0;
  let endedAt: Date | undefined;
  const calls: RecordedCall[] = [];
  const entryOfCall: number[] = [];
  for (const { index, value, at: journaled } of values.slice(1)) {
    if (!isObject(value) || Object.keys(value).length !== 1) refuse(`entry ${index} is not an entry of the journal`);
    const [kind] = Object.keys(value) as [string];
    if (end !== undefined) refuse(`entry ${index} (${kind}) comes after the run's end, entry ${endIndex}`);
    if (kind === "calls") {
      const batch = value["calls"];
      if (!Array.isArray(batch) || !batch.every(isObject)) refuse(`entry ${index}'s calls are not a list of calls`);
      for (const call of batch) {
        // The recording's reader checks every field of the call; here it is renumbered in journal order.
        const { request: _served, ...own } = call as unknown as RecordedCall & { [key: string]: JsonValue };
        calls.push({ ...own, sequence: calls.length + 1 });
        entryOfCall.push(index);
      }
    } else if (kind === "ended") {
      end = endOf(value["ended"], index);
      endIndex = index;
      endedAt = journaled === undefined || Number.isNaN(Date.parse(journaled)) ? undefined : new Date(journaled);
    } else if (kind === "renyi") refuse(`entry ${index} is a second header`);
    else if (!MARKERS.includes(kind)) refuse(`entry ${index} is ${JSON.stringify(kind)}, not an entry of the journal`);
  }
  const manifest = runManifest({
    program: header.program,
    source: `${header.program}.ry`,
    code: header.code,
    argv: header.arguments,
    // The grant is set below: the manifest would read the files of its foreign modules, which are production's.
    grant: [],
    outcome: end === undefined ? NOT_ENDED : (end.outcome as OutcomeKind),
    ...(end !== undefined ? { output: { stdout: end.stdout, bytes: end.bytes } } : {}),
    calls,
    redacted: header.redacted,
    // When the end was journaled: the run ended then.
    ...(endedAt !== undefined ? { recordedAt: endedAt } : {}),
  });
  // What the manifest reads from this machine (the revision of its folder, its foreign modules) is not production's.
  delete manifest.revision;
  delete manifest.extensions;
  if (endedAt === undefined) delete manifest.recorded_at;
  manifest.grant = [...header.grant];
  return { ok: true, recording: { ...manifest, calls }, ended: end !== undefined, entryOfCall };
}

function headerOf(value: Json, index: number): JournalHeader {
  if (!isObject(value) || !("renyi" in value))
    refuse(`its first step (entry ${index}) is not the header renyi serve journals first`);
  if (value["renyi"] !== DURABLE_FORM)
    refuse(
      `its header (entry ${index}) is of the form ${short(value["renyi"]!)}; this toolchain reads ${DURABLE_FORM}`,
    );
  const where = `the header (entry ${index})`;
  const program = value["program"];
  if (typeof program !== "string" || !PROGRAM.test(program)) refuse(`${where}'s program is not a module's name`);
  const code = value["code"];
  if (typeof code !== "string" || !HASH.test(code)) refuse(`${where}'s code is not a sha256: hash`);
  const started = value["started_ms"];
  if (typeof started !== "number" || !Number.isFinite(started)) refuse(`${where}'s started_ms is not a number`);
  return {
    renyi: DURABLE_FORM,
    program,
    code,
    grant: texts(value["grant"], `${where}'s grant`),
    arguments: texts(value["arguments"], `${where}'s arguments`),
    redacted: texts(value["redacted"], `${where}'s redacted`),
    started_ms: started,
  };
}

function endOf(value: Json | undefined, index: number): JournalEnd["ended"] {
  const where = `the run's end (entry ${index})`;
  if (!isObject(value)) refuse(`${where} is not an object`);
  const { outcome, stdout, bytes } = value;
  if (typeof outcome !== "string" || !OUTCOMES.includes(outcome))
    refuse(`${where}'s outcome is ${short(outcome ?? null)}, not one of ${OUTCOMES.join(", ")}`);
  if (typeof stdout !== "string" || !HASH.test(stdout)) refuse(`${where}'s stdout is not a sha256: hash`);
  if (typeof bytes !== "number" || !Number.isSafeInteger(bytes) || bytes < 0)
    refuse(`${where}'s bytes is not a whole number`);
  return { outcome, stdout, bytes };
}

function texts(value: Json | undefined, where: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) refuse(`${where} is not a list of texts`);
  return value as string[];
}

/** A value in a message: its JSON, cut short. */
function short(value: Json): string {
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
