// `renyi run [renyi options] FILE.ry [program options]`: reads the command
// line, chooses the plan a replay, a resume or --manifest adds, and runs the
// program (cli/running/run-program.ts). `renyi record` and `renyi reproduce`
// run their programs through here with plans of their own.

import { EXIT } from "../../vocabulary/outcomes.js";
import type { RunPlan } from "../running/plan.js";
import { HeldWorker, runProgram } from "../running/run-program.js";
import { conflictingOptions, parseRunArguments, runUsage, type RunOptions } from "../running/run-options.js";
import { startWorker, type EarlyWorker } from "../running/spawn.cjs";

export async function runCommand(
  argv: readonly string[],
  early: EarlyWorker = startWorker(),
  given?: RunPlan,
): Promise<number> {
  const held = new HeldWorker(early);
  try {
    if (argv[0] === "--help" || argv[0] === "-h") {
      process.stdout.write(runUsage());
      return EXIT.finished;
    }
    const parsed = parseRunArguments(argv);
    // A command that brings its own plan (record, reproduce) has refused what it does not take.
    const problem =
      "problem" in parsed ? parsed.problem : given === undefined ? conflictingOptions(parsed.options) : undefined;
    if ("problem" in parsed || problem !== undefined) return await refuse(argv, problem!);
    // Under --isolate the whole command runs again in a process of its own, with the operating system's limits.
    if (parsed.options.isolate) return await (await import("../running/isolate.js")).runIsolated(parsed.options);
    const plan = given ?? (await planOf(parsed.options));
    if (plan !== undefined && "problem" in plan) return await refuse(argv, plan.problem);
    return await runProgram(held, parsed, plan);
  } finally {
    held.release();
  }
}

async function refuse(argv: readonly string[], problem: string): Promise<number> {
  process.stderr.write(`error: ${problem}\n`);
  // A --json before the file is honoured even when the rest of the command line is not.
  const asked = argv.findIndex((a) => !a.startsWith("--"));
  if (argv.slice(0, asked === -1 ? argv.length : asked).includes("--json")) {
    const { RecordSubject, writeRecord } = await import("../running/execution-record.js");
    writeRecord(new RecordSubject(argv[asked] ?? "").refusedWith(`error: ${problem}`, EXIT.refused), true);
  }
  return EXIT.refused;
}

/** Replaying, resuming, the manifest and a durable run load their code only when asked for. */
async function planOf(options: RunOptions): Promise<RunPlan | { problem: string } | undefined> {
  if (options.durable) return (await import("../durable/run-plan.js")).durablePlan();
  if (options.resume !== undefined) return (await import("../recordings/resume-plan.js")).resumePlan;
  if (options.replay !== undefined || options.manifest)
    return (await import("../recordings/replay-plan.js")).replayPlan;
  return undefined;
}
