// The one place where a test that `replays "path"` is joined to the recording
// player (spec/testing.md, "Replays tests"): its recording read by the one
// reader before the test starts, its calls handed to the test's thread, where
// the player answers every effect (rtlib/recording/replayer.ts) and the
// recording is checked against the test's grant and budgets (rtlib/run-main.ts,
// runTest); then --strict's entries left unused, and --refresh's recording
// written again from a live run of the test's body.

import { lstatSync, realpathSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { writeAtomically } from "../cache/cache.cjs";
import { readRecordingFile } from "../recordings/reader.js";
import { Redaction } from "../recordings/redaction.js";
import { runManifest } from "../recordings/manifest.js";
import { redactedNames } from "../../rtlib/recording/key.js";
import { grantText, type GrantItem, type Need } from "../../vocabulary/needs.js";
import type { OutcomeKind } from "../../vocabulary/outcomes.js";
import { REDACTED, type RecordedCall, type Recording } from "../../vocabulary/recording.js";
import type { RecordedRequest } from "../../vocabulary/recorded-requests.js";
import { runMessage, runWords } from "../../vocabulary/problems/run.js";
import { coveredBy } from "../../vocabulary/capabilities.js";
import { readNeedText } from "../../vocabulary/grant-text.js";
import { GRANT_PROBLEMS } from "../../vocabulary/problems/grants.js";
import { replaysPathLeaves } from "../../vocabulary/recording-path.js";
import type { TestResult } from "./run-test.js";

/** A recording's path as a test writes it, resolved against the folder of the test's own file. */
export function recordingPath(testFile: string, written: string): string {
  return resolve(dirname(testFile), written);
}

/**
 * Why the recording `recording` (resolved) of a test in `testFile` may not be
 * opened, or undefined: it must lie beneath the real folder of the test's file
 * once every symbolic link on its way is followed. The part of the path that
 * exists is resolved (realpath), the rest taken as written; a link that leads
 * nowhere, or one that cannot be followed, counts as leading outside. The
 * words name the path as the test wrote it, and nothing of what is outside.
 */
function recordingOutside(testFile: string, recording: string): string | undefined {
  const folder = dirname(testFile);
  const written = relative(folder, recording);
  const leaves = replaysPathLeaves(written);
  let beneath = false;
  try {
    const real = realPathOf(recording);
    const root = realpathSync(folder);
    // Strictly beneath: a recording is a file in the folder, never the folder itself.
    beneath = leaves === undefined && real !== undefined && real.startsWith(root.endsWith(sep) ? root : root + sep);
  } catch {
    // A folder that cannot be resolved, a loop of links: refused as outside.
  }
  return beneath
    ? undefined
    : GRANT_PROBLEMS["E-CAP-REPLAYS-PATH"].render({ path: written, problem: leaves ?? "link" }).message;
}

/**
 * The real path of `path` (absolute): of its longest part that exists, with what follows as written; undefined for a
 * link that leads nowhere.
 */
function realPathOf(path: string): string | undefined {
  const rest: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(realpathSync(at), ...rest);
    } catch (e) {
      if (
        (e as NodeJS.ErrnoException).code !== "ENOENT" ||
        lstatSync(at, { throwIfNoEntry: false }) !== undefined ||
        dirname(at) === at
      )
        return undefined;
      rest.unshift(basename(at));
    }
  }
}

/** A replays test's recording, read: what its thread answers calls from, or why it cannot be read. */
export type ReplayPlan =
  | {
      readonly ok: true;
      readonly recording: Recording;
      readonly replay: {
        readonly calls: readonly RecordedCall[];
        readonly grant: readonly GrantItem[];
        readonly redacted?: readonly string[];
        /** A server's recording: the requests its `serve` is fed (spec/recording.md, "Servers"). */
        readonly requests?: readonly RecordedRequest[];
      };
    }
  | { readonly ok: false; readonly code: "E-RT-RECORDING" | "E-CAP-REPLAYS-PATH"; readonly message: string };

/**
 * The recording of a test in `testFile`, read, when it lies beneath the test's folder; with `calls N to M`
 * (`part`), only those calls are the test's.
 */
export function planReplay(testFile: string, recording: string, part?: CallRange): ReplayPlan {
  const outside = recordingOutside(testFile, recording);
  if (outside !== undefined) return { ok: false, code: "E-CAP-REPLAYS-PATH", message: outside };
  const read = readRecordingFile(recording);
  if (!read.ok) return { ok: false, code: read.code, message: read.problem };
  const calls = part === undefined ? read.recording.calls : callsInPart(read.recording, part);
  if (typeof calls === "string")
    return {
      ok: false,
      code: "E-RT-RECORDING",
      message: runMessage("E-RT-RECORDING", { file: recording, problem: "part", detail: calls }),
    };
  return {
    ok: true,
    recording: read.recording,
    replay: {
      calls,
      grant: read.grant,
      ...(read.recording.redacted !== undefined ? { redacted: read.recording.redacted } : {}),
      ...(read.recording.requests !== undefined ? { requests: read.recording.requests } : {}),
    },
  };
}

/** `calls N to M` of a test's header: the first and the last sequence number of the calls that are the test's. */
export interface CallRange {
  readonly first: number;
  readonly last: number;
}

/**
 * The calls of `recording` numbered `part.first` to `part.last`, both included, or why it holds no such part:
 * each end must be the sequence number of one of its calls.
 */
function callsInPart(recording: Recording, part: CallRange): readonly RecordedCall[] | string {
  const calls = recording.calls;
  const held = (s: number) => calls.some((c) => c.sequence === s);
  if (!held(part.first) || !held(part.last)) {
    const range = `calls ${part.first} to ${part.last}`;
    const holds =
      calls.length === 0
        ? "it holds no calls"
        : `its calls are numbered ${calls[0]!.sequence} to ${calls[calls.length - 1]!.sequence}`;
    const missing = held(part.first) ? part.last : part.first;
    return `the test replays ${range}, and the recording holds no call ${missing}: ${holds}`;
  }
  return calls.filter((c) => c.sequence >= part.first && c.sequence <= part.last);
}

/** The most unused entries a --strict failure lists. */
const LISTED = 10;

/**
 * --strict: a replays test that passed but left recorded entries unused fails,
 * E-RT-REPLAY-UNUSED, listing them; any other result stands. Entries of the
 * capabilities the test's `unused` names (`unused console`) may stay unused:
 * an entry is excused when one of them covers its capability, as a grant would.
 */
export function strictResult(
  result: TestResult,
  recording: Recording,
  unreachedAll: readonly number[] | undefined,
  excused: readonly Need[] = [],
  site?: string,
): TestResult {
  const bySequence = new Map(recording.calls.map((c) => [c.sequence, c]));
  const unreached = unreachedAll?.filter((s) => {
    const call = bySequence.get(s);
    if (call === undefined) return false;
    const need = readNeedText(call.capability);
    return typeof need === "string" || coveredBy(excused, need) === undefined;
  });
  if (result.status !== "passed" || unreached === undefined || unreached.length === 0) return result;
  const calls = unreached.slice(0, LISTED).map((s) => {
    const call = bySequence.get(s)!;
    return `call ${s}: ${call.primitive.replace(/^std\./, "")} ${JSON.stringify(call.arguments)}`;
  });
  if (unreached.length > LISTED) calls.push(`and ${(unreached.length - LISTED).toLocaleString("en")} more`);
  // The capabilities' names, each once: what an `unused` list that excuses these calls would write.
  const capabilities = [...new Set(unreached.map((s) => bySequence.get(s)!.capability.replace(/\(.*$/s, "")))];
  const words = runWords("E-RT-REPLAY-UNUSED", { count: unreached.length, calls, capabilities });
  return {
    ...result,
    status: "failed",
    code: "E-RT-REPLAY-UNUSED",
    message: [words.message, ...(words.notes ?? []).map((n) => `  ${n}`)].join("\n"),
    ...(site === undefined ? {} : { site }),
    ...(words.hint === undefined ? {} : { note: `hint: ${words.hint}` }),
  };
}

/** What a refreshed recording is written from: the test, its program, and what its live run did. */
export interface Refreshed {
  readonly file: string;
  readonly program: string;
  readonly code: string;
  readonly grant: readonly GrantItem[];
  readonly outcome: OutcomeKind;
  readonly calls: readonly RecordedCall[];
  /** The recording written before, if it could be read: the names it redacted are redacted again. */
  readonly previous?: Recording;
}

/**
 * Writes the recording of a live run of the test's body to `path`, whole or
 * not at all (a temporary file renamed into place), as `renyi record` writes
 * one: the run manifest, then the calls. A name the previous recording
 * redacted (a header, an argument, an environment variable) is redacted in the
 * new one too, so that refreshing a fixture never writes a secret into it.
 * Gives back why it could not be written, or undefined.
 */
export function writeRefreshed(
  path: string,
  refreshed: Refreshed,
): { code: "E-RT-RECORDING" | "E-CAP-REPLAYS-PATH"; message: string } | undefined {
  // Asked again as it is written: the body that just ran may have changed the folder.
  const outside = recordingOutside(refreshed.file, path);
  if (outside !== undefined) return { code: "E-CAP-REPLAYS-PATH", message: outside };
  const names = new Set<string>(refreshed.previous?.redacted ?? []);
  for (const call of refreshed.previous?.redacted !== undefined ? [] : (refreshed.previous?.calls ?? [])) {
    redactedNames(call.arguments, names);
    const variable = call.arguments["name"];
    if (
      call.primitive === "std.environment.get" &&
      typeof variable === "string" &&
      "success" in call.outcome &&
      call.outcome.success === REDACTED
    )
      names.add(variable.toLowerCase());
  }
  for (const [name, hash] of Object.entries(refreshed.previous?.environment ?? {}))
    if (hash === REDACTED) names.add(name.toLowerCase());
  const redaction = new Redaction([...names]);
  const calls = refreshed.calls.map((c) => redaction.call(c));
  const source = relative(dirname(path), refreshed.file) || refreshed.file;
  const header = runManifest({
    program: refreshed.program,
    source,
    code: refreshed.code,
    argv: [],
    grant: refreshed.grant.map(grantText),
    outcome: refreshed.outcome,
    calls,
    redacted: [...redaction.names],
  });
  const recording = redaction.scrub({ ...header, calls } as never);
  try {
    writeAtomically(path, `${JSON.stringify(recording, null, 2)}\n`);
    return undefined;
  } catch (e) {
    return {
      code: "E-RT-RECORDING",
      message: `I cannot write the recording ${path} (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
    };
  }
}
