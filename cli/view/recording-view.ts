// `api/recording`, `api/call` and `api/compare` (spec/view.md, section 3): a recording as the
// review shows it, read by the one reader every command reads recordings with
// (cli/recordings/reader.ts: bounded size, strict JSON, every field checked), so that the page
// shows what a replay would accept and refuses what it would refuse, with the same message.
// A recording read is kept, by its real path, size and time of change, in a small cache: the
// page asks for one call after another of the same recording. This module runs in the reader's
// process (reader.ts), and the cache is bounded by the heap the reader uses, not by the files'
// bytes: a recording of tiny values takes about 25 times its file once read.

import { getHeapStatistics } from "node:v8";
import { covers } from "../../vocabulary/capabilities.js";
import { readNeedText } from "../../vocabulary/grant-text.js";
import { grantInWords } from "../../vocabulary/grant-words.js";
import type { BudgetUnit, GrantItem, Need } from "../../vocabulary/needs.js";
import { grantText } from "../../vocabulary/needs.js";
import { REDACTED, type JsonValue, type RecordedCall, type Recording } from "../../vocabulary/recording.js";
import { differingFields, type FieldDifference } from "../../rtlib/recording/difference.js";
import type {
  BudgetView,
  CallDetail,
  CallDifference,
  CallSummary,
  CompareView,
  ManifestView,
  RecordingView,
} from "../../view/api.js";
import { leastGrant, needsLine } from "../recordings/least-grant.js";
import { readRecordingFile } from "../recordings/reader.js";
import type { Found } from "./found.js";

/** The most bytes of a call's arguments, or of its outcome, sent as JSON text: the rest is said in bytes. */
const MAX_DETAIL_BYTES = 256 * 1024;
/** The most recordings kept read; fewer when they fill the heap's budget (`cacheBudget`). */
const CACHE_ENTRIES = 4;
/** The most differences a comparison lists, and the most fields of one call. */
const MAX_DIFFERENCES = 2_000;
const MAX_FIELDS_PER_CALL = 12;
const WIDTH = 200;

const WINDOW_MS: Record<Exclude<BudgetUnit, "run">, number> = {
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

export type Read =
  | { ok: true; recording: Recording; grant: GrantItem[] }
  | { ok: false; code: string; message: string };

const cache = new Map<string, { key: string; read: Read }>();

/** The most bytes of heap the reader may use with the recordings it keeps: half its limit (reader-process.ts). */
function cacheBudget(): number {
  return getHeapStatistics().heap_size_limit / 2;
}

/** The recording `found` names, read (or taken from the cache when its file has not changed). */
export function readFound(found: Found): Read {
  const key = `${found.bytes}:${found.mtimeMs}`;
  const kept = cache.get(found.path);
  if (kept !== undefined && kept.key === key) {
    cache.delete(found.path);
    cache.set(found.path, kept);
    return kept.read;
  }
  const read = readRecordingFile(found.path);
  const answer: Read = read.ok
    ? { ok: true, recording: read.recording, grant: read.grant }
    : { ok: false, code: read.code, message: read.problem.replaceAll(found.path, found.id) };
  cache.set(found.path, { key, read: answer });
  // The least recently used are let go while the heap is over its budget (its garbage counted too: a recording let
  // go is not kept for a garbage the next collection would free), the one just read kept.
  const budget = cacheBudget();
  for (const path of [...cache.keys()]) {
    if (cache.size <= CACHE_ENTRIES && getHeapStatistics().used_heap_size <= budget) break;
    if (path !== found.path) cache.delete(path);
  }
  return answer;
}

/** A call's failure, by its kind: a failure's case name, or its text. */
function failureOf(call: RecordedCall): string | undefined {
  if (!("failure" in call.outcome)) return undefined;
  const failure = call.outcome.failure;
  if (typeof failure === "string") return failure;
  if (typeof failure === "object" && failure !== null && !Array.isArray(failure)) {
    const keys = Object.keys(failure);
    if (keys.length === 1) return keys[0]!;
  }
  return JSON.stringify(failure).slice(0, WIDTH);
}

function summaryOf(call: RecordedCall, index: number): CallSummary {
  const failure = failureOf(call);
  return {
    index,
    primitive: call.primitive,
    target: call.capability,
    lane: call.request !== undefined ? `request ${call.request}` : call.capability,
    atMs: call.at_ms ?? 0,
    durationMs: call.duration_ms ?? 0,
    failed: failure !== undefined,
    ...(failure === undefined ? {} : { failure }),
  };
}

function shown(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function manifestOf(recording: Recording, grant: readonly GrantItem[]): ManifestView {
  const fields: [string, string][] = [];
  const skip = new Set(["program", "code", "outcome", "output", "grant", "calls", "requests"]);
  for (const [name, value] of Object.entries(recording))
    if (!skip.has(name) && value !== undefined) fields.push([name, shown(value).slice(0, 4096)]);
  if (recording.output !== undefined) fields.push(["output.bytes", String(recording.output.bytes)]);
  if (recording.requests !== undefined) fields.push(["requests", String(recording.requests.length)]);
  return {
    program: recording.program,
    codeHash: recording.code,
    outcome: recording.outcome,
    ...(recording.output === undefined ? {} : { outputHash: recording.output.stdout }),
    grant: recording.grant.length === 0 ? "(no needs)" : `needs ${recording.grant.join(", ")}`,
    grantWords: grant.length === 0 ? [grantInWords([])] : grant.map((item) => grantInWords([item])),
    fields,
  };
}

/** Each budget of the grant, with the `at_ms` of every call it counts (rtlib/recording/budget-check.ts). */
function budgetsOf(calls: readonly RecordedCall[], grant: readonly GrantItem[]): BudgetView[] {
  const read = new Map<string, Need>();
  const needs = calls.map((c) => {
    let need = read.get(c.capability);
    if (need === undefined) read.set(c.capability, (need = readNeedText(c.capability) as Need));
    return need;
  });
  const out: BudgetView[] = [];
  for (const item of grant) {
    const budget = item.budget;
    if (budget === undefined) continue;
    const counted: number[] = [];
    calls.forEach((call, i) => {
      if (!covers(item, needs[i]!)) return;
      // A windowed budget counts a call by its at_ms; one without is counted by a `per run` budget alone.
      if (call.at_ms !== undefined) counted.push(call.at_ms);
      else if (budget.unit === "run") counted.push(0);
    });
    counted.sort((a, b) => a - b);
    out.push({
      capability: grantText({ path: item.path, ...(item.scope === undefined ? {} : { scope: item.scope }) }),
      limit: budget.count,
      windowMs: budget.unit === "run" ? 0 : WINDOW_MS[budget.unit],
      counted,
    });
  }
  return out;
}

export function recordingView(id: string, recording: Recording, grant: readonly GrantItem[]): RecordingView {
  const least = leastGrant(recording.calls, grant);
  return {
    id,
    manifest: manifestOf(recording, grant),
    calls: recording.calls.map(summaryOf),
    budgets: budgetsOf(recording.calls, grant),
    leastGrant: {
      declared: recording.grant.length === 0 ? "(no needs)" : `needs ${recording.grant.join(", ")}`,
      least: least.items.length === 0 ? "(no needs: the recording holds no call)" : needsLine(least),
      // A call outside the recording's own grant was not made by that run: `renyi grant` refuses such a recording,
      // and the page says which calls, after what is wider.
      wider: [
        ...least.wider.map((w) => `${w.item}: ${w.text}`),
        ...least.uncovered
          .slice(0, 10)
          .map(
            (c) => `call ${c.sequence}: ${c.capability} (${c.primitive}) is not covered by the recording's own grant`,
          ),
        ...(least.uncovered.length > 10
          ? [`and ${(least.uncovered.length - 10).toLocaleString("en")} more calls not covered by it`]
          : []),
      ],
    },
  };
}

/** Pretty JSON text of `value`, cut at MAX_DETAIL_BYTES with the bytes left said. */
function detailText(value: JsonValue | undefined): { text: string; cut: boolean } {
  const text = value === undefined ? "" : JSON.stringify(value, null, 2);
  if (text.length <= MAX_DETAIL_BYTES / 4 || Buffer.byteLength(text) <= MAX_DETAIL_BYTES) return { text, cut: false };
  // A character is at least one byte: the first MAX_DETAIL_BYTES characters hold the bytes shown.
  const last = text.charCodeAt(MAX_DETAIL_BYTES - 1);
  const bytes = Buffer.from(text.slice(0, last >= 0xd800 && last < 0xdc00 ? MAX_DETAIL_BYTES - 1 : MAX_DETAIL_BYTES));
  // Cut at a character's start, so that the text shown is whole UTF-8.
  let end = Math.min(MAX_DETAIL_BYTES, bytes.length);
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  const left = Buffer.byteLength(text) - end;
  return {
    text: `${bytes.subarray(0, end).toString("utf8")}\n… ${left.toLocaleString("en")} more bytes not shown`,
    cut: true,
  };
}

export function callDetail(recording: Recording, index: number): CallDetail {
  const call = recording.calls[index]!;
  const args = detailText(call.arguments);
  const outcome = detailText(call.outcome as unknown as JsonValue);
  return {
    index,
    primitive: call.primitive,
    arguments: args.text,
    outcome: outcome.text,
    cut: args.cut || outcome.cut,
  };
}

function short(value: JsonValue | undefined): string {
  if (value === undefined) return "nothing";
  // A body compared by its meaning (rtlib/recording/key.ts) is shown as the value it holds.
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0]!.startsWith("\u0000")) value = value[keys[0]!]!;
  }
  const text = value === REDACTED ? REDACTED : JSON.stringify(value);
  return text.length > WIDTH ? `${text.slice(0, WIDTH - 1)}…` : text;
}

/** Two recordings call by call, each call's fields as a replay compares them (rtlib/recording/difference.ts). */
export function compareView(
  a: { id: string; recording: Recording },
  b: { id: string; recording: Recording },
): CompareView {
  const differences: CallDifference[] = [];
  const add = (index: number, primitive: string, found: readonly FieldDifference[]) => {
    for (const d of found) {
      if (differences.length >= MAX_DIFFERENCES) return;
      differences.push({ index, primitive, field: d.field, a: short(d.made), b: short(d.recorded) });
    }
  };
  const ca = a.recording.calls;
  const cb = b.recording.calls;
  for (let i = 0; i < Math.max(ca.length, cb.length) && differences.length < MAX_DIFFERENCES; i++) {
    const x = ca[i];
    const y = cb[i];
    if (x === undefined || y === undefined) {
      const one = (x ?? y)!;
      add(i, one.primitive, [
        {
          field: "call",
          made: x === undefined ? undefined : `${x.primitive} ${x.capability}`,
          recorded: y === undefined ? undefined : `${y.primitive} ${y.capability}`,
        },
      ]);
      continue;
    }
    const found: FieldDifference[] = [];
    if (x.primitive !== y.primitive) found.push({ field: "primitive", made: x.primitive, recorded: y.primitive });
    if (x.capability !== y.capability) found.push({ field: "capability", made: x.capability, recorded: y.capability });
    differingFields(x.arguments, y.arguments, "arguments", found, MAX_FIELDS_PER_CALL);
    differingFields(
      x.outcome as unknown as JsonValue,
      y.outcome as unknown as JsonValue,
      "outcome",
      found,
      MAX_FIELDS_PER_CALL * 2,
    );
    add(i, x.primitive, found);
  }
  const outcomes: FieldDifference[] = [];
  if (a.recording.outcome !== b.recording.outcome)
    outcomes.push({ field: "run.outcome", made: a.recording.outcome, recorded: b.recording.outcome });
  if (a.recording.output?.stdout !== b.recording.output?.stdout)
    outcomes.push({ field: "run.output", made: a.recording.output?.stdout, recorded: b.recording.output?.stdout });
  add(-1, "", outcomes);
  return {
    a: { id: a.id, outcome: a.recording.outcome, calls: ca.length },
    b: { id: b.id, outcome: b.recording.outcome, calls: cb.length },
    same: differences.length === 0,
    differences,
  };
}
