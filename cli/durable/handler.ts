// The handler `run` of a program's service (spec/durable.md, "The journal of
// one invocation"): the input read as main's options (refused before anything
// is journaled when it is not), the header, the awakeable through which a
// cancellation comes, the read loop, then the run's attempt served through the
// journal queue, its end journaled, and the answer.

import "./polyfill.js";
import type * as restate from "@restatedev/restate-sdk";
import {
  DURABLE_FORM,
  JOURNAL_RUN_NAME,
  type FromDurableRun,
  type JournalHeader,
  type SharedBudget,
  type ToDurableRun,
} from "../../vocabulary/durable.js";
import { runMessage } from "../../vocabulary/problems/run.js";
import { startAttempt, turn, type Attempt } from "./attempt-process.js";
import { readJournal, PendingSleeps } from "./journal-read.js";
import { Settler } from "./settle.js";
import { JournalQueue } from "./journal-queue.js";
import { readInput } from "./options-input.js";
import type { Registered } from "./registration.js";
import { endedBefore, outputDigest, refused, responseOf, splitOutput, type DurableResponse } from "./response.js";

/** What every run of the endpoint is given besides its program. */
export interface Serving {
  /** The limit flags, and --trust for bundles, as renyi serve was given them. */
  readonly limits: readonly string[];
  readonly trust: readonly string[];
  readonly shared: readonly SharedBudget[];
  readonly redacted: readonly string[];
}

/** How long a durable timer must be for its run to give up its process while it waits (spec/durable.md). */
const PARK_AFTER_MS = 5000;

/** The header with the options the invocation was given, as the design's first entry holds them. */
type Header = JournalHeader & { readonly options: Record<string, unknown> };

export function runHandler(program: Registered, serving: Serving) {
  return async (ctx: restate.Context, body: Uint8Array): Promise<DurableResponse> => {
    const input = readInput(body ?? new Uint8Array(), program.parameters);
    if (!input.ok) return refused(input.message);
    const settler = new Settler();
    const header = (await settler.settle(
      ctx.run(
        JOURNAL_RUN_NAME,
        (): Header => ({
          renyi: DURABLE_FORM,
          program: program.name,
          code: program.code,
          grant: program.grant,
          arguments: redactedWords(input.argv, serving.redacted),
          options: redactedOptions(input.options, serving.redacted),
          redacted: [...serving.redacted],
          started_ms: Date.now(),
        }),
      ),
    )) as Header;
    // Never resolved: a cancellation rejects it (or whatever is awaited when it comes, settle.ts).
    const cancellation = ctx.awakeable().promise;
    const sleeps = new PendingSleeps();
    const journal = await readJournal(ctx, settler, sleeps);
    if (journal.ended !== undefined) return endedBefore(journal.ended.outcome);
    // Refused once the journal is read back whole: Restate lets an attempt end only past its last entry.
    if (header.code !== program.code)
      return refused(
        runMessage("E-RT-REPLAY-CODE", { file: program.file, code: program.code, recorded: String(header.code) }),
        "E-RT-REPLAY-CODE",
      );

    if (settler.cancelled)
      return { ...refused("the invocation was cancelled before its run began"), outcome: "cancelled" };
    const argv = [
      ...serving.limits,
      ...program.narrowing,
      ...(program.bundle ? serving.trust.flatMap((key) => ["--trust", key]) : []),
      program.file,
      // From the input, which Restate keeps: the header's may be redacted.
      ...input.argv,
    ];
    let release = await turn();
    let response: DurableResponse | undefined;
    let current: Attempt | undefined;
    /** The process given up while the run sleeps (its output so far), or undefined while a process runs. */
    let parked: Attempt | undefined;
    const queue: JournalQueue = new JournalQueue(
      ctx,
      settler,
      (message) => (parked !== undefined ? wakeFromPark(message) : current!.send(message)),
      sleeps,
      serving.shared,
      cancellation,
      journal.calls,
    );
    const begin = () => {
      const attempt = startAttempt(argv, (message: FromDurableRun) => {
        if (attempt === current) heard(queue, message);
      });
      current = attempt;
      queue.begun();
      settler.onCancel = attempt.interrupt;
      attempt.send({
        start: {
          journaled: [...queue.journaled],
          code: program.code,
          shared: [...serving.shared],
          redacted: [...serving.redacted],
        },
      });
      void attempt.ended.then((ended) => {
        // A process given up while its run slept does not end the run.
        if (attempt !== current || parked !== undefined) return;
        endWith(responseOf(ended), splitOutput(ended.stdout).output);
      });
    };
    const endWith = (answer: DurableResponse, output: Buffer) => {
      response = answer;
      queue.end({ ended: { outcome: answer.outcome, ...outputDigest(output) } });
    };
    // A run asleep on a durable timer of PARK_AFTER_MS or more gives up its process and its place among the runs:
    // when the timer fires, a process starts again from the journal (which holds every call it made), and its sleep
    // is answered at once by the timer that fired.
    queue.onTimer = (ms) => {
      if (ms < PARK_AFTER_MS || parked !== undefined || current === undefined) return;
      parked = current;
      current = undefined;
      parked.kill();
      release();
      settler.onCancel = () => {
        const given = parked!;
        void given.ended.then((ended) => {
          const output = splitOutput(ended.stdout).output;
          endWith({ ...responseOf(ended), outcome: "cancelled", message: "the invocation was cancelled" }, output);
        });
      };
    };
    const wakeFromPark = (message: ToDurableRun) => {
      if (!("woke" in message) || settler.cancelled) return;
      parked = undefined;
      void turn().then((given) => {
        release = given;
        if (!settler.cancelled) begin();
      });
    };
    begin();
    // The attempt over (a suspension, the server gone): its run goes no further; the next attempt resumes it.
    const signal = ctx.request().attemptCompletedSignal;
    const stop = () => current?.kill();
    signal.addEventListener("abort", stop, { once: true });
    try {
      await queue.serve();
    } finally {
      signal.removeEventListener("abort", stop);
      current?.kill();
      release();
    }
    return response!;
  };
}

const REDACTED = "<redacted>";
const sameName = (a: string, b: string): boolean => a.replace(/-/g, "_") === b.replace(/-/g, "_");

/** The input as the header journals it: the values of options of redacted names written `<redacted>`. */
function redactedOptions(options: Record<string, unknown>, redacted: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(options).map(([key, value]) => [key, redacted.some((r) => sameName(r, key)) ? REDACTED : value]),
  );
}

/** The run's program options as the header journals them, redacted as the input is. */
function redactedWords(argv: readonly string[], redacted: readonly string[]): string[] {
  const end = argv.indexOf("--");
  // The words after `--` are main's `words` option's, whatever its name: all redacted when any name is.
  const wordsRedacted = redacted.length > 0;
  return argv.map((word, i) => {
    if (end !== -1 && i > end) return wordsRedacted ? REDACTED : word;
    const m = /^--([^=]+)=/.exec(word);
    return m !== null && redacted.some((r) => sameName(r, m[1]!)) ? `--${m[1]}=${REDACTED}` : word;
  });
}

/** A message of the run's, passed to the queue when it is one the run may send. */
function heard(queue: JournalQueue, message: FromDurableRun): void {
  if (typeof message !== "object" || message === null) return;
  if ("keep" in message && Array.isArray(message.keep?.calls)) queue.keep(message.keep.id, message.keep.calls);
  else if ("sleep" in message && Number.isFinite(message.sleep?.ms)) queue.sleep(message.sleep.id, message.sleep.ms);
  else if ("take" in message && Array.isArray(message.take?.keys)) queue.take(message.take.id, message.take.keys);
}
