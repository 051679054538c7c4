// `renyi run --replay REC` and `renyi run --manifest` (spec/recording.md): the
// plan that run.ts adds to a run. A replay's calls are answered in the
// program's worker (rtlib/recording/replayer.ts); here the recording is read
// before the run, and the run's end is compared with the recorded one.

import { EXIT } from "../../vocabulary/outcomes.js";
import type { RecordedCall, Recording } from "../../vocabulary/recording.js";
import { runMessage, runWords } from "../../vocabulary/problems/run.js";
import { heapLimitMib } from "../../vocabulary/limits.js";
import { jsonHeapBound, MOST_PER_CHARACTER } from "../../report/json-heap-bound.js";
import { readRecordingFile, refusalText } from "./reader.js";
import { readSealKey } from "./sealed-calls.js";
import { runManifest } from "./manifest.js";
import { recordAgainCommand } from "./record-again.js";
import type { RunPlan, RunSession } from "../running/plan.js";
import type { CheckedRecording } from "../../rtlib/recording/checked-recording.js";
import type { RunTally, WorkerOutcome } from "../running/worker.cjs";

const plan: RunPlan = (compiled, parsed) => {
  let recording: Recording | undefined;
  const input: RunSession["input"] & { replay?: unknown } = {};
  if (parsed.options.replay !== undefined) {
    const key = parsed.options.sealKey === undefined ? undefined : readSealKey(parsed.options.sealKey);
    if (key !== undefined && !Buffer.isBuffer(key)) return { refused: `error: ${key.problem}\n` };
    const read =
      readBefore?.path === parsed.options.replay ? readBefore.read : readRecordingFile(parsed.options.replay, key);
    readBefore = undefined;
    if (!read.ok) return { refused: refusalText(read) };
    const tooMuch = beyondTheThread(read.bytes, parsed.options.maxMemoryMib, parsed.options.replay);
    if (tooMuch !== undefined) return { refused: tooMuch };
    recording = read.recording;
    Object.assign(input, {
      replay: {
        calls: checkedRecording(read),
        grant: read.grant,
        writeConsole: parsed.options.console,
        consoleDiffers: true,
        ...(read.recording.redacted !== undefined ? { redacted: read.recording.redacted } : {}),
        ...(marksPlaces(read.recording) ? { originMarks: true } : {}),
        ...(read.sealed.size > 0 ? { sealed: [...read.sealed] } : {}),
        ...(read.sealedForResult.size > 0 ? { sealedForResult: [...read.sealedForResult] } : {}),
        ...(read.recording.requests !== undefined ? { requests: read.recording.requests } : {}),
      },
    });
  }
  const calls: RecordedCall[] = [];
  return {
    input: { ...input, ...(parsed.options.manifest ? { record: true } : {}) },
    onRecorded: (call) => void calls.push(call),
    onEnd: (outcome, tally, exitCode) => {
      let code = exitCode;
      // A sealed recording is renyi mcp's, whose run tool records again: the command would name its folder.
      if (recording !== undefined && parsed.options.sealKey === undefined)
        process.stderr.write(recordAgainHint(outcome, recording, parsed.options.replay!, parsed.file));
      if (
        recording !== undefined &&
        compareWithRecording(recording, outcome, tally, { unreachedIsDifference: false }) === "differs"
      )
        code = EXIT.crashed;
      // A replay without --console shows nothing of what the program printed: it says so once, at its
      // end. A narrated one (--explain) has shown each console line in its narration already.
      // How many there were is data of what the run decided, when it decided on data its guards keep from the console.
      const unshown = tally?.unshownConsole ?? 0;
      if (recording !== undefined && unshown > 0 && !parsed.options.explain && !concealed(outcome))
        process.stderr.write(unshownConsoleNote(unshown));
      if (parsed.options.manifest) {
        const header = runManifest({
          program: compiled.program,
          source: parsed.file,
          code: compiled.code(),
          argv: parsed.programArgs,
          grant: tally?.grant ?? [],
          outcome: outcome.outcome,
          ...(tally !== undefined ? { output: tally } : {}),
          calls,
        });
        process.stderr.write(`${JSON.stringify(header, null, 2)}\n`);
      }
      return code;
    },
  };
};

/** What the thread may hold beyond the recording's calls: the runtime, the program, and room to end cleanly. */
const THREAD_KEPT_MIB = 128;

/**
 * The refusal of a recording whose calls could take more than the program's thread may hold once parsed there (its
 * heap limit, from --max-memory): read in the thread, it would take the thread past the engine's limit, where Node
 * ends the whole process with a fatal error. The bound is report/json-heap-bound.ts's, generous by design; this is the
 * one place a recording's bytes are sent to a thread (rtlib/recording/checked-recording.ts reads them there).
 */
function beyondTheThread(bytes: Uint8Array, maxMemoryMib: number, file: string): string | undefined {
  const heapMib = heapLimitMib(maxMemoryMib);
  const roomMib = heapMib - THREAD_KEPT_MIB;
  // A file that fits even were every byte an object's is not counted (most recordings).
  if ((bytes.length * MOST_PER_CHARACTER) / (1024 * 1024) <= roomMib) return undefined;
  const boundMib = Math.ceil(jsonHeapBound(bytes) / (1024 * 1024));
  if (boundMib <= roomMib) return undefined;
  const facts = {
    file,
    problem: "unreadable" as const,
    detail:
      `its calls could take about ${boundMib.toLocaleString("en")} MiB once read, more than the run's thread may ` +
      `hold with --max-memory ${maxMemoryMib} (a heap of ${heapMib.toLocaleString("en")} MiB): a larger --max-memory reads it`,
  };
  return refusalText({ code: "E-RT-RECORDING", problem: runMessage("E-RT-RECORDING", facts) });
}

/**
 * The recording's calls as the program's worker is sent them: the checked bytes, in a buffer of their own that the
 * message moves rather than copies (cli/running/transfers.ts), and the sealed calls as the reader opened them.
 */
function checkedRecording(read: Extract<ReturnType<typeof readRecordingFile>, { ok: true }>): CheckedRecording {
  const opened =
    read.sealed.size === 0
      ? []
      : read.recording.calls.flatMap((call, i) => (read.sealed.has(call.sequence) ? [[i, call] as const] : []));
  return { checked: new Uint8Array(read.bytes), opened };
}

/** The codes of a replay that stopped where the program and the recording part, which said so there. */
const STOPPED = new Set(["E-RT-REPLAY-MISMATCH", "E-RT-REPLAY-SHAPE", "E-RT-REPLAY-RESPONSE"]);

// ---- a recording whose entries mark places that came from a redacted name ----

/** The recording read to decide how the program is compiled, kept for the plan, which reads it next. */
let readBefore: { readonly path: string; readonly read: ReturnType<typeof readRecordingFile> } | undefined;

/** Whether an entry of the recording marks places that came from a redacted name (spec/recording.md, "Redaction"). */
function marksPlaces(recording: Recording): boolean {
  return recording.redacted !== undefined && recording.calls.some((c) => c.redacted_at !== undefined);
}

/**
 * The replay of a recording that marks such places is compiled with the origin operators, so that the replay's values
 * carry the redacted origin where the recorded ones did, and its marked places match them.
 */
export const replayPlan: RunPlan = Object.assign(plan, {
  origins: (parsed: Parameters<RunPlan>[1]): boolean => {
    if (parsed.options.replay === undefined) return false;
    const key = parsed.options.sealKey === undefined ? undefined : readSealKey(parsed.options.sealKey);
    if (key !== undefined && !Buffer.isBuffer(key)) return false;
    const read = readRecordingFile(parsed.options.replay, key);
    readBefore = { path: parsed.options.replay, read };
    return read.ok && marksPlaces(read.recording);
  },
});

/**
 * The hint under a replay refused because the recording's grant is wider than the program's needs (E-RT-REPLAY-GRANT):
 * the command that records the run again under the needs it has now. Nothing for any other end.
 */
export function recordAgainHint(outcome: WorkerOutcome, recording: Recording, rec: string, file: string): string {
  if (outcome.outcome !== "refused" || outcome.code !== "E-RT-REPLAY-GRANT") return "";
  return `  = hint: record the run again under the program's needs to replay it: ${recordAgainCommand(recording, rec, file)}\n`;
}

/** What a replay without --console says at its end of the console lines it answered without showing them. */
function unshownConsoleNote(lines: number): string {
  return lines === 1
    ? "note: 1 console line was answered from the recording and not shown; --console shows it\n"
    : `note: ${lines.toLocaleString("en")} console lines were answered from the recording and not shown; --console shows them\n`;
}

/**
 * The end of a replay against the recorded run's: the outcome, the output's
 * hash and length, and the recorded calls not reached. A difference is an
 * E-RT-REPLAY-DIFFERS error, shown here, unless the replay already stopped at
 * a call that differed, which said so ("stopped"). Calls not reached are a
 * difference for `renyi reproduce` and a note for `renyi run --replay`; when
 * the run read or decided on guarded data its guards keep from the console,
 * which calls it reached is data of those decisions: no note, and one
 * difference that names no call.
 */
export function compareWithRecording(
  recording: Recording,
  outcome: WorkerOutcome,
  tally: RunTally["tally"] | undefined,
  options: { unreachedIsDifference: boolean },
): "same" | "differs" | "stopped" {
  if (outcome.outcome === "refused" || (outcome.outcome === "crashed" && STOPPED.has(outcome.code))) {
    // The console lines that differed before the call the replay stopped at.
    const lines = outcome.outcome === "refused" ? undefined : consoleLinesText(tally, outcome);
    if (lines !== undefined) process.stderr.write(`note: before the replay stopped, ${lines}\n`);
    return "stopped";
  }
  const differences: string[] = [];
  if (outcome.outcome !== recording.outcome)
    differences.push(`the run ${outcome.outcome}; the recorded run ${recording.outcome}`);
  if (
    recording.output !== undefined &&
    tally !== undefined &&
    (tally.stdout !== recording.output.stdout || tally.bytes !== recording.output.bytes)
  ) {
    differences.push(
      `the output is ${tally.bytes.toLocaleString("en")} bytes, ${tally.stdout}; the recorded output ${recording.output.bytes.toLocaleString("en")} bytes, ${recording.output.stdout}`,
    );
  }
  const lines = consoleLinesText(tally, outcome);
  if (lines !== undefined) differences.push(lines);
  const unreached = tally?.unreached ?? [];
  const unreachedText =
    unreached.length === 0
      ? undefined
      : concealed(outcome)
        ? options.unreachedIsDifference
          ? "the recorded calls the run reached are not shown: it decided on guarded data its guards keep from the console"
          : undefined
        : `${unreached.length.toLocaleString("en")} recorded call${unreached.length === 1 ? " was" : "s were"} not reached: ${callList(recording, unreached)}`;
  if (unreachedText !== undefined && options.unreachedIsDifference) differences.push(unreachedText);
  if (differences.length === 0) {
    if (unreachedText !== undefined) process.stderr.write(`note: ${unreachedText}\n`);
    return "same";
  }
  const words = runWords("E-RT-REPLAY-DIFFERS", { differences });
  process.stderr.write(
    `error[E-RT-REPLAY-DIFFERS]: ${words.message}\n${(words.notes ?? []).map((d) => `  = ${d}\n`).join("")}`,
  );
  if (unreachedText !== undefined && !options.unreachedIsDifference) process.stderr.write(`note: ${unreachedText}\n`);
  return "differs";
}

/** The most characters of a console line a difference shows. */
const MAX_LINE_SHOWN = 200;

/**
 * The console lines of the replay that the recording did not hold (spec/recording.md, "When the run ends"): each
 * beside the recorded line it took the place of, the first few of them, then how many more. None of them is shown when
 * the run decided on guarded data its guards keep from the console: which lines matched is data of those decisions.
 */
function consoleLinesText(tally: RunTally["tally"] | undefined, outcome: WorkerOutcome): string | undefined {
  const differed = tally?.consoleDiffered;
  if (differed === undefined || differed.total === 0) return undefined;
  if (concealed(outcome))
    return "console lines differ from the recording; which are not shown: the run decided on guarded data its guards keep from the console";
  const quoted = (text: string) =>
    JSON.stringify(text.length > MAX_LINE_SHOWN ? `${text.slice(0, MAX_LINE_SHOWN)}…` : text);
  const shown = differed.shown.map((d) => {
    const what = d.primitive.replace(/^std\./, "");
    if (d.recorded === undefined) return `${what}: ${quoted(d.now)} now, no line in the recording`;
    const recorded = d.recorded.text === undefined ? "a sealed line" : quoted(d.recorded.text);
    return `${what} (call ${d.recorded.sequence}): ${recorded} in the recording, ${quoted(d.now)} now`;
  });
  const more = differed.total - shown.length;
  return [
    `${differed.total.toLocaleString("en")} console line${differed.total === 1 ? " differs" : "s differ"} from the recording:`,
    ...shown,
    ...(more > 0 ? [`and ${more.toLocaleString("en")} more`] : []),
  ].join("\n      ");
}

/** The run read or decided on guarded data its guards keep from the console (rtlib/run-main.ts). */
function concealed(outcome: WorkerOutcome): boolean {
  return "concealed" in outcome && outcome.concealed === true;
}

function callList(recording: Recording, sequences: readonly number[]): string {
  const bySequence = new Map(recording.calls.map((c) => [c.sequence, c]));
  const shown = sequences.slice(0, 5).map((s) => `${s} (${bySequence.get(s)?.primitive ?? "?"})`);
  return shown.join(", ") + (sequences.length > 5 ? ", …" : "");
}
