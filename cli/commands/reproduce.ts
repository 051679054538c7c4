// `renyi reproduce REC [FILE.ry]` (spec/recording.md): the recorded run again,
// offline. Refused when main's code hashes differently from the recording's;
// a warning when the toolchain or the extensions differ. The program runs
// under the recorded arguments with every call answered from the recording
// and the console written, and the end is compared: the outcome, the output,
// and every recorded call reached.

import { EXIT } from "../../vocabulary/outcomes.js";
import { runMessage } from "../../vocabulary/problems/run.js";
import { readRecordingFile, refusalText } from "../recordings/reader.js";
import { compareWithRecording, recordAgainHint } from "../recordings/replay-plan.js";
import { extensionsOf, TOOLCHAIN } from "../recordings/manifest.js";
import { runCommand } from "./run.js";
import { startWorker } from "../running/spawn.cjs";
import { splitFlag, unknownFlagProblem, usageText } from "../host/command-declaration.js";
import { REPRODUCE_COMMAND } from "./catalogue.js";

export async function reproduceCommand(argv: readonly string[]): Promise<number> {
  if (argv[0] === "--help" || argv[0] === "-h") {
    process.stdout.write(usageText(REPRODUCE_COMMAND));
    return EXIT.finished;
  }
  // It takes no flag: a word that begins with `--` would otherwise be read as the recording's name.
  const flag = argv.find((a) => a.startsWith("--"));
  if (flag !== undefined) {
    process.stderr.write(`error: ${unknownFlagProblem(REPRODUCE_COMMAND, splitFlag(flag).name)}\n`);
    return EXIT.refused;
  }
  if (argv.length === 0 || argv.length > 2) {
    process.stderr.write(usageText(REPRODUCE_COMMAND));
    return EXIT.refused;
  }
  const read = readRecordingFile(argv[0]!);
  if (!read.ok) {
    process.stderr.write(refusalText(read));
    return EXIT.refused;
  }
  const { recording, grant } = read;
  if (recording.toolchain !== TOOLCHAIN)
    process.stderr.write(`warning: the recording was made with ${recording.toolchain}; this is ${TOOLCHAIN}\n`);
  const now = extensionsOf(recording.grant);
  const then = recording.extensions ?? [];
  if (now.join("\n") !== then.join("\n"))
    process.stderr.write(
      `warning: the extensions differ: the recording has ${then.join(", ") || "none"}; here ${now.join(", ") || "none"}\n`,
    );
  // The recording names its program's file; a name that begins with `-` would be read as one of renyi run's options.
  if (argv[1] === undefined && recording.source.startsWith("-")) {
    process.stderr.write(
      refusalText({
        code: "E-RT-RECORDING",
        problem: runMessage("E-RT-RECORDING", {
          file: argv[0]!,
          problem: "field",
          detail: `\`source\` must name the program's file, and ${JSON.stringify(recording.source)} begins with \`-\``,
        }),
      }),
    );
    return EXIT.refused;
  }
  const file = argv[1] ?? recording.source;
  const words = recording.arguments ?? [];
  return runCommand([file, ...words], startWorker(), (compiled) => {
    const code = compiled.code();
    if (code !== recording.code) {
      return {
        refused: `error[E-RT-REPLAY-CODE]: ${runMessage("E-RT-REPLAY-CODE", { file, code, recorded: recording.code })}\n`,
      };
    }
    return {
      input: {
        replay: {
          calls: recording.calls,
          grant,
          writeConsole: true,
          consoleDiffers: true,
          ...(recording.redacted !== undefined ? { redacted: recording.redacted } : {}),
          ...(recording.requests !== undefined ? { requests: recording.requests } : {}),
        },
      },
      onEnd: (outcome, tally) => {
        process.stderr.write(recordAgainHint(outcome, recording, argv[0]!, file));
        const compared = compareWithRecording(recording, outcome, tally, { unreachedIsDifference: true });
        if (compared === "stopped") return outcome.outcome === "refused" ? EXIT.refused : EXIT.crashed;
        if (compared === "differs") return EXIT.crashed;
        process.stderr.write(
          `reproduced: the run ${outcome.outcome} as recorded, with the recorded output${tally === undefined ? "" : ` (${tally.bytes.toLocaleString("en")} bytes)`}\n`,
        );
        return EXIT.finished;
      },
    };
  });
}
