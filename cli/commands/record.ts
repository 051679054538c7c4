// `renyi record [--to OUT] [--redact NAME]... [run options] FILE.ry [program
// options]` (spec/recording.md): runs the program live, exactly as `renyi run`
// would, and writes the recording: the run manifest, then one entry per call
// in the order the calls completed. The file is written once the run has
// ended, however it ended (finished, failed, crashed, cancelled by Ctrl-C),
// whole or not at all: a temporary file renamed into place.

import { closeOpenTransactions } from "../recordings/open-transactions.js";
import { basename } from "node:path";
import { writeAtomically } from "../cache/cache.cjs";
import { EXIT } from "../../vocabulary/outcomes.js";
import type { RecordedCall, Recording } from "../../vocabulary/recording.js";
import type { RecordedRequest } from "../../vocabulary/recorded-requests.js";
import { readSealKey, sealCall } from "../recordings/sealed-calls.js";
import { Redaction } from "../recordings/redaction.js";
import { runManifest } from "../recordings/manifest.js";
import type { RunPlan } from "../running/plan.js";
import { runCommand } from "./run.js";
import { startWorker } from "../running/spawn.cjs";
import { RUN_COMMAND } from "../running/run-options.js";
import { givenTwiceProblem, splitFlag, unknownFlagProblem, usageText } from "../host/command-declaration.js";
import { RECORD_COMMAND } from "./catalogue.js";

export async function recordCommand(argv: readonly string[]): Promise<number> {
  if (argv[0] === "--help" || argv[0] === "-h") {
    process.stdout.write(usageText(RECORD_COMMAND));
    return EXIT.finished;
  }
  const parsed = parseRecordArguments(argv);
  if ("problem" in parsed) {
    process.stderr.write(`error: ${parsed.problem}\n`);
    return EXIT.refused;
  }
  return runCommand(parsed.run, startWorker(), recordPlan(parsed.to, parsed.redact));
}

/**
 * `renyi record`'s own flags, read from among the run options before the file
 * (wherever they stand there), and the rest of the command line for `renyi run`
 * to read: the run options it takes, the file, and the program's options.
 */
export function parseRecordArguments(
  argv: readonly string[],
): { to?: string; redact: string[]; run: string[] } | { problem: string } {
  let to: string | undefined;
  const redact: string[] = [];
  const run: string[] = [];
  const { except } = RECORD_COMMAND.alsoTakes!;
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith("--")) return { ...(to !== undefined ? { to } : {}), redact, run: [...run, ...argv.slice(i)] };
    const { name, inline } = splitFlag(word);
    const own = RECORD_COMMAND.flags.find((f) => f.name === name);
    if (own !== undefined) {
      const twice = givenTwiceProblem(given, own);
      if (twice !== undefined) return { problem: twice };
      const value = inline ?? argv[++i];
      if (value === undefined || value === "") return { problem: `${name} needs a value` };
      if (name === "--to") to = value;
      else redact.push(value);
      continue;
    }
    if (name === "--replay" || name === "--resume")
      return {
        problem: "`renyi record` runs the program live; --replay and --resume answer calls from a recording instead",
      };
    if (except.includes(name))
      return {
        problem: `\`renyi record\` runs the program live and writes its recording; ${name} is for renyi run alone`,
      };
    const runFlag = RUN_COMMAND.flags.find((f) => f.name === name);
    if (runFlag === undefined) return { problem: unknownFlagProblem(RECORD_COMMAND, name) };
    // A run option and its value go on to renyi run's reader, which checks the value.
    run.push(word);
    if (runFlag.value !== undefined && inline === undefined && i + 1 < argv.length) run.push(argv[++i]!);
  }
  return { problem: "`renyi record` needs a program: `renyi record program.ry [program options]`" };
}

function recordPlan(to: string | undefined, redact: readonly string[]): RunPlan {
  const plan: RunPlan = (compiled, parsed) => {
    const out = to ?? `${basename(compiled.program)}.recording.json`;
    // The key is read before the run: a run whose recording could not be sealed does not start.
    const key = parsed.options.sealKey === undefined ? undefined : readSealKey(parsed.options.sealKey);
    if (key !== undefined && !Buffer.isBuffer(key)) return { refused: `error: ${key.problem}\n` };
    const calls: RecordedCall[] = [];
    const guarded = new Map<number, "arguments" | "result">();
    // The requests a server answered, by number: each is sent when its handler is called, its response when given.
    const requests = new Map<number, RecordedRequest>();
    // The texts of each call's arguments that came from a redacted name, by the call's sequence number.
    const redactedParts = new Map<number, readonly string[]>();
    // The texts the program computed from a redacted value: searched for as the value is.
    const redactedTexts: string[] = [];
    return {
      input: { record: true, ...(redact.length > 0 ? { redact: [...redact] } : {}) },
      onIncoming: (request) => void requests.set(request.sequence, request),
      onAnswered: (sequence, response) => {
        const request = requests.get(sequence);
        if (request !== undefined) request.response = response;
      },
      onRecorded: (call, _replayed, part, parts, texts) => {
        calls.push(call);
        if (part !== undefined) guarded.set(call.sequence, part);
        if (parts !== undefined) redactedParts.set(call.sequence, parts);
        if (texts !== undefined) redactedTexts.push(...texts);
      },
      onEnd: (outcome, tally, exitCode) => {
        const redaction = new Redaction(redact);
        redaction.searchFor(redactedTexts);
        const redacted = closeOpenTransactions(calls).map((c) => redaction.call(c, redactedParts.get(c.sequence)));
        const argv = redaction.words(parsed.programArgs);
        const sealing = key === undefined ? new Map<number, "arguments" | "result">() : guarded;
        const header = runManifest({
          program: compiled.program,
          source: parsed.file,
          code: compiled.code(),
          argv,
          grant: tally?.grant ?? [],
          outcome: outcome.outcome,
          ...(tally !== undefined ? { output: tally } : {}),
          calls: redacted,
          sealed: sealing,
          redacted: [...redaction.names],
        });
        const served = [...requests.values()].sort((a, b) => a.sequence - b.sequence).map((r) => redaction.request(r));
        const scrubbed: Recording = redaction.scrub({
          ...header,
          ...(served.length > 0 ? { requests: served } : {}),
          calls: redacted,
        } as never);
        // Sealed last, so that redaction never reads (nor alters) what is encrypted.
        const recording =
          key === undefined
            ? scrubbed
            : {
                ...scrubbed,
                // A response may carry guarded data the guards let go to the client: a sealed recording does not hold it.
                ...(scrubbed.requests !== undefined
                  ? {
                      requests: scrubbed.requests.map((r) =>
                        r.response === undefined ? r : { ...r, response: "sealed" as const },
                      ),
                    }
                  : {}),
                calls: scrubbed.calls.map((c) =>
                  sealing.has(c.sequence) ? sealCall(c, key, sealing.get(c.sequence)!) : c,
                ),
              };
        try {
          writeAtomically(out, `${JSON.stringify(recording, null, 2)}\n`);
        } catch (e) {
          process.stderr.write(
            `error: I cannot write the recording ${out} (${(e as NodeJS.ErrnoException).code ?? String(e)})\n`,
          );
          return EXIT.refused;
        }
        const answered =
          served.length === 0
            ? ""
            : ` and ${served.length.toLocaleString("en")} request${served.length === 1 ? "" : "s"}`;
        process.stderr.write(
          `recorded ${calls.length.toLocaleString("en")} call${calls.length === 1 ? "" : "s"}${answered} to ${out} (the run ${outcome.outcome})\n`,
        );
        return exitCode;
      },
    };
  };
  // With --redact, the program is compiled with the origin operators, so that what a redacted name gives is followed
  // by its origin (spec/recording.md, "Redaction").
  return Object.assign(plan, { origins: () => redact.length > 0 });
}
