// What a command that runs a program as `renyi run` does (record, replay,
// resume, reproduce, --manifest) adds to the run: what the worker is told, and
// what happens at the run's end. The plans themselves are the recordings'
// (cli/recordings/); the run takes one as given.

import type { RecordedCall } from "../../vocabulary/recording.js";
import type { RecordedRequest, RecordedResponse } from "../../vocabulary/recorded-requests.js";
import type { RunOptions } from "./run-options.js";
import type { DurableReply, DurableRequest, RecordedMessage, RunTally, WorkerInput, WorkerOutcome } from "./worker.cjs";

/**
 * Given the compiled program, a plan gives what the run adds, or refuses instead. `origins`: whether the program is to
 * be compiled with the origin operators though it declares no guard (a run recorded with --redact, and its replay).
 */
export type RunPlan = ((
  compiled: CompiledProgram,
  parsed: { options: RunOptions; file: string; programArgs: string[] },
) => RunSession | { refused: string }) & {
  readonly origins?: (parsed: { options: RunOptions; file: string; programArgs: string[] }) => boolean;
};

/** What the plan knows of the program: its name, its file and the hash of its code. */
interface CompiledProgram {
  readonly program: string;
  readonly file: string;
  readonly code: () => string;
}

export interface RunSession {
  readonly input: Pick<WorkerInput, "record" | "replay" | "redact" | "durable">;
  /**
   * Each call as recorded when it completes; `replayed` for an entry a resumed run was answered with, as it was
   * recorded; `guarded`, what of it was guarded data.
   */
  readonly onRecorded?: (
    call: RecordedCall,
    replayed: boolean,
    guarded: "arguments" | "result" | undefined,
    /** The texts of its arguments that came from a redacted name (a run recorded with --redact). */
    redactedParts?: readonly string[],
    /** The texts the program computed from a redacted value before the call (a run recorded with --redact). */
    redactedTexts?: readonly string[],
  ) => void;
  /** A request a recorded server's handler is called with, and, later, the response it gave (spec/recording.md, "Servers"). */
  readonly onIncoming?: (request: RecordedRequest) => void;
  readonly onAnswered?: (request: number, response: RecordedResponse) => void;
  /** One attempt of a durable run (renyi run --durable): what relays between the program and its endpoint. */
  readonly durable?: DurableRelay;
  /** Called once the outcome is reported, with the exit code it had; gives back the command's exit code. */
  readonly onEnd: (outcome: WorkerOutcome, tally: RunTally["tally"] | undefined, exitCode: number) => number;
}

/**
 * The main thread's side of a durable run (spec/durable.md, "The run side"): the program's questions go to the endpoint,
 * its answers back to the program; a live call's entry is kept under the id the program waits on.
 */
export interface DurableRelay {
  /**
   * Starts relaying the endpoint's answers to the program; `asleep` is told when a durable sleep begins to be waited on
   * and when none is any longer (the run's time limit does not count that time). Gives back what stops it.
   */
  attach(toWorker: (reply: DurableReply) => void, asleep: (sleeping: boolean) => void): () => void;
  /** A live call completed: its entry is formed (numbered, redacted) and sent to be kept. */
  keep(recorded: RecordedMessage & { readonly keep: number }): void;
  /** A sleep or a take of the program's, for the endpoint. */
  ask(request: DurableRequest): void;
}
