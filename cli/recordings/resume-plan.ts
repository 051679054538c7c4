// `renyi run --resume REC [--to OUT] FILE.ry [program options]` (spec/recording.md,
// "Resuming a run"): the calls the recording holds are answered from it, with
// replay's matching and checks, until the first call it does not hold (or
// holds as a failure); from that call on the run is live, and recorded. The new
// recording holds the entries the run was answered with, in matching order,
// then the live calls, under a manifest of its own; it is never written over
// the old one. Refused, as `renyi reproduce` is, when main is not the recorded code.

import { closeOpenTransactions } from "./open-transactions.js";
import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { writeAtomically } from "../cache/cache.cjs";
import { REDACTED, type RecordedCall, type Recording } from "../../vocabulary/recording.js";
import { runMessage } from "../../vocabulary/problems/run.js";
import { redactedNames } from "../../rtlib/recording/key.js";
import { readRecordingFile, refusalText } from "./reader.js";
import { Redaction } from "./redaction.js";
import { runManifest } from "./manifest.js";
import { commandLine } from "./record-again.js";
import type { RunPlan } from "../running/plan.js";
import type { WorkerOutcome } from "../running/worker.cjs";
import { EXIT } from "../../vocabulary/outcomes.js";

export const resumePlan: RunPlan = (compiled, parsed) => {
  const from = parsed.options.resume!;
  const read = readRecordingFile(from);
  if (!read.ok) return { refused: refusalText(read) };
  const { recording, grant } = read;
  const code = compiled.code();
  if (code !== recording.code)
    return {
      refused:
        `error[E-RT-REPLAY-CODE]: ` +
        `${runMessage("E-RT-REPLAY-CODE", { file: parsed.file, code, recorded: recording.code })}\n`,
    };
  const out = parsed.options.to ?? besideTheOld(from);
  if (resolve(out) === resolve(from))
    return {
      refused: `error: --to ${out} is the recording being resumed, which is never written over; name another file\n`,
    };
  // The live calls are made once: a recording that could not be written would lose them.
  if (!existsSync(dirname(resolve(out))))
    return { refused: `error: --to ${out}: there is no folder ${dirname(out)} to write the new recording in\n` };
  const goLiveFrom = parsed.options.from;
  const last = recording.calls.at(-1)?.sequence ?? 0;
  if (goLiveFrom !== undefined && goLiveFrom > last)
    return {
      refused:
        `error: --from ${goLiveFrom}: ${from} holds ${last === 0 ? "no call" : `calls 1 to ${last.toLocaleString("en")}`}; ` +
        `give the sequence of a recorded call, from which the run goes live\n`,
    };
  const answered: RecordedCall[] = [];
  const live: RecordedCall[] = [];
  /** The last call other than the console's to complete, and whether it was answered from the recording. */
  let lastEffect: { call: RecordedCall; replayed: boolean } | undefined;
  return {
    input: {
      record: true,
      replay: {
        calls: recording.calls,
        grant,
        writeConsole: true,
        resume: true,
        ...(goLiveFrom !== undefined ? { resumeFrom: goLiveFrom } : {}),
        ...(recording.redacted !== undefined ? { redacted: recording.redacted } : {}),
      },
    },
    onRecorded: (call, replayed) => {
      (replayed ? answered : live).push(call);
      if (!CONSOLE_OUTPUT.has(call.primitive)) lastEffect = { call, replayed };
    },
    onEnd: (outcome, tally, exitCode) => {
      const redaction = new Redaction(namesRedactedIn(recording));
      const calls = closeOpenTransactions(joined(answered, live)).map((c) => redaction.call(c));
      const argv = redaction.words(parsed.programArgs);
      const header = runManifest({
        program: compiled.program,
        source: parsed.file,
        code,
        argv,
        grant: tally?.grant ?? [],
        outcome: outcome.outcome,
        ...(tally !== undefined ? { output: tally } : {}),
        calls,
        redacted: [...redaction.names],
      });
      const resumed: Recording = redaction.scrub({ ...header, calls } as never);
      try {
        writeAtomically(out, `${JSON.stringify(resumed, null, 2)}\n`);
      } catch (e) {
        process.stderr.write(
          `error: I cannot write the recording ${out} (${(e as NodeJS.ErrnoException).code ?? String(e)})\n`,
        );
        return EXIT.refused;
      }
      const n = (k: number) => k.toLocaleString("en");
      process.stderr.write(
        `resumed ${from}: ${n(answered.length)} call${answered.length === 1 ? "" : "s"} answered from it, ` +
          `${n(live.length)} made live; recorded to ${out} (the run ${outcome.outcome})\n`,
      );
      const again = failedAgain(recording, outcome, live.length, lastEffect);
      if (again !== undefined)
        process.stderr.write(
          failedAgainNote(again, tally?.grant ?? [], [
            "renyi",
            "run",
            "--resume",
            from,
            "--from",
            String(again.sequence),
            parsed.file,
            ...parsed.programArgs,
          ]),
        );
      return exitCode;
    },
  };
};

/** The calls that write to the console: the program reads nothing from them, so a run does not fail on one. */
const CONSOLE_OUTPUT = new Set(["std.console.print", "std.console.error"]);

/**
 * The entry a resumed run failed after, when it failed where the recording did: the same outcome having made no call
 * live, or failing right after the entry the recording itself failed after (its last call other than the console's),
 * answered from the recording. Either way the run was given the answer it failed on again; `--from` makes that call live.
 * Nothing when the run decided on guarded data its guards keep from the console.
 */
function failedAgain(
  recording: Recording,
  outcome: WorkerOutcome,
  liveCalls: number,
  lastEffect: { call: RecordedCall; replayed: boolean } | undefined,
): RecordedCall | undefined {
  if (outcome.outcome !== "failed" && outcome.outcome !== "crashed") return undefined;
  if ("concealed" in outcome && outcome.concealed === true) return undefined;
  if (lastEffect === undefined || !lastEffect.replayed) return undefined;
  if (liveCalls === 0 && outcome.outcome === recording.outcome) return lastEffect.call;
  let recordedLast: RecordedCall | undefined;
  for (const c of recording.calls) if (!CONSOLE_OUTPUT.has(c.primitive)) recordedLast = c;
  return recordedLast?.sequence === lastEffect.call.sequence ? lastEffect.call : undefined;
}

/**
 * The note of a run that failed where the recording did: the call, and the command that makes it again live. The
 * call's target and answer are shown only when the run has no guards: in a recording written without a seal key they
 * may be guarded data, which the guards keep from the console.
 */
function failedAgainNote(entry: RecordedCall, grant: readonly string[], command: readonly string[]): string {
  const guarded = grant.some((item) => item.includes(" only to "));
  return (
    `note: the run failed where the recording did, after call ${entry.sequence} ` +
    `(${guarded ? `${entry.primitive}, answered from the recording` : answeredText(entry)}); ` +
    `to make it again live: ${commandLine(command)}\n`
  );
}

/** `std.http.get http://… answered 503 from the recording`: the call's one text argument and, for HTTP, the status. */
function answeredText(entry: RecordedCall): string {
  const target = Object.values(entry.arguments).find((v): v is string => typeof v === "string");
  const shown = target === undefined ? "" : ` ${target.length > 120 ? `${target.slice(0, 120)}…` : target}`;
  const success = "success" in entry.outcome ? entry.outcome.success : undefined;
  const status =
    typeof success === "object" && success !== null && !Array.isArray(success) && typeof success["status"] === "number"
      ? ` ${success["status"]}`
      : "";
  return `${entry.primitive}${JSON.stringify(shown).slice(1, -1)} answered${status} from the recording`;
}

/**
 * `NAME.resumed.json` beside `NAME.json`, or `NAME.resumed-2.json` and on when that is taken: no file is written over.
 */
function besideTheOld(from: string): string {
  const stem = basename(from).replace(/\.json$/i, "");
  for (let i = 1; ; i++) {
    const candidate = join(dirname(from), `${stem}.resumed${i === 1 ? "" : `-${i}`}.json`);
    if (!existsSync(candidate)) return candidate;
  }
}

/**
 * The entries answered from the recording, numbered again in matching order,
 * then the live calls after them; a live call's `at_ms` counts on from the end
 * of the last answered call, so that the budgets `renyi grant` reads from the
 * times stay on one timeline.
 */
function joined(answered: readonly RecordedCall[], live: readonly RecordedCall[]): RecordedCall[] {
  let offset = 0;
  for (const c of answered) offset = Math.max(offset, (c.at_ms ?? 0) + (c.duration_ms ?? 0));
  return [
    // A server's calls are the run's own in a resumed recording, which holds no requests (spec/recording.md, "Servers").
    ...answered.map(({ request: _request, ...c }, i) => ({ ...c, sequence: i + 1 })),
    ...live.map((c, i) => ({
      ...c,
      sequence: answered.length + i + 1,
      ...(c.at_ms !== undefined ? { at_ms: c.at_ms + offset } : {}),
    })),
  ];
}

/**
 * The names the old recording was redacted under (arguments and headers, variables, program options): the new one keeps
 * them out too.
 */
function namesRedactedIn(recording: Recording): string[] {
  if (recording.redacted !== undefined) return recording.redacted;
  const names = new Set<string>();
  for (const call of recording.calls) redactedNames(call.arguments, names);
  for (const [name, value] of Object.entries(recording.environment ?? {}))
    if (value === REDACTED) names.add(name.toLowerCase());
  const words = recording.arguments ?? [];
  words.forEach((word, i) => {
    const option = /^--([^=]+)(?:=(.*))?$/s.exec(word);
    if (option !== null && (option[2] === REDACTED || (option[2] === undefined && words[i + 1] === REDACTED)))
      names.add(option[1]!.toLowerCase());
  });
  return [...names];
}
