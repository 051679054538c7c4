// `renyi record [--to OUT] [--redact NAME]... [run options] FILE.ry [program
// options]` (spec/recording.md): runs the program live, exactly as `renyi run`
// would, and writes the recording: the run manifest, then one entry per call
// in the order the calls completed. The file is written once the run has
// ended, however it ended (finished, failed, crashed, cancelled by Ctrl-C),
// whole or not at all: a temporary file renamed into place.

import { basename } from "node:path";
import { writeAtomically } from "../cache/cache.cjs";
import { EXIT } from "../../vocabulary/outcomes.js";
import type { RecordedCall, Recording } from "../../vocabulary/recording.js";
import { readSealKey, sealCall } from "../recordings/sealed-calls.js";
import { Redaction } from "../recordings/redaction.js";
import { runManifest } from "../recordings/manifest.js";
import type { RunPlan } from "../running/plan.js";
import { runCommand } from "./run.js";
import { startWorker } from "../running/spawn.cjs";

export const RECORD_USAGE = `Usage: renyi record [--to OUT] [--redact NAME]... [run options] FILE.ry [program options]

Runs the program live, as renyi run does, and writes a recording of every call it made
to the outside world: by default to NAME.recording.json in the working folder.

  --to OUT          where to write the recording
  --redact NAME     write the argument, map entry (a header), program option or
                    environment variable NAME as <redacted>, and keep its value
                    out of the whole file in every form it takes (repeatable)

With the run option --seal-key FILE (renyi mcp gives it), every call that carried
guarded data is sealed: encrypted under the key in FILE, "sealed" in its place.

The run options are renyi run's (renyi run --help). The exit code is the run's.
`;

export async function recordCommand(argv: readonly string[]): Promise<number> {
  if (argv[0] === "--help" || argv[0] === "-h") {
    process.stdout.write(RECORD_USAGE);
    return EXIT.finished;
  }
  let to: string | undefined;
  const redact: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const m = /^(--to|--redact)(?:=(.*))?$/s.exec(argv[i]!);
    if (m === null) break;
    const value = m[2] ?? argv[++i];
    if (value === undefined || value === "") {
      process.stderr.write(`error: ${m[1]} needs a value\n`);
      return EXIT.refused;
    }
    if (m[1] === "--to") to = value;
    else redact.push(value);
  }
  const rest = argv.slice(i);
  if (rest.some((a) => /^--(replay|resume)(=|$)/.test(a))) {
    process.stderr.write(
      "error: `renyi record` runs the program live; --replay and --resume answer calls from a recording instead\n",
    );
    return EXIT.refused;
  }
  return runCommand(rest, startWorker(), recordPlan(to, redact));
}

function recordPlan(to: string | undefined, redact: readonly string[]): RunPlan {
  return (compiled, parsed) => {
    const out = to ?? `${basename(compiled.program)}.recording.json`;
    // The key is read before the run: a run whose recording could not be sealed does not start.
    const key = parsed.options.sealKey === undefined ? undefined : readSealKey(parsed.options.sealKey);
    if (key !== undefined && !Buffer.isBuffer(key)) return { refused: `error: ${key.problem}\n` };
    const calls: RecordedCall[] = [];
    const guarded = new Map<number, "arguments" | "result">();
    return {
      input: { record: true },
      onRecorded: (call, _replayed, part) => {
        calls.push(call);
        if (part !== undefined) guarded.set(call.sequence, part);
      },
      onEnd: (outcome, tally, exitCode) => {
        const redaction = new Redaction(redact);
        const redacted = calls.map((c) => redaction.call(c));
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
        const scrubbed: Recording = redaction.scrub({ ...header, calls: redacted } as never);
        // Sealed last, so that redaction never reads (nor alters) what is encrypted.
        const recording =
          key === undefined
            ? scrubbed
            : {
                ...scrubbed,
                calls: scrubbed.calls.map((c) =>
                  sealing.has(c.sequence) ? sealCall(c, key, sealing.get(c.sequence)!) : c,
                ),
              };
        try {
          writeAtomically(out, JSON.stringify(recording, null, 2) + "\n");
        } catch (e) {
          process.stderr.write(
            `error: I cannot write the recording ${out} (${(e as NodeJS.ErrnoException).code ?? String(e)})\n`,
          );
          return EXIT.refused;
        }
        process.stderr.write(
          `recorded ${calls.length.toLocaleString("en")} call${calls.length === 1 ? "" : "s"} to ${out} (the run ${outcome.outcome})\n`,
        );
        return exitCode;
      },
    };
  };
}
