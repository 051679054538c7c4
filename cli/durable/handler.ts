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
} from "../../vocabulary/durable.js";
import { runMessage } from "../../vocabulary/problems/run.js";
import { startAttempt, turn } from "./attempt-process.js";
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
    const done = await turn();
    let queue: JournalQueue | undefined;
    const attempt = startAttempt(argv, (message: FromDurableRun) => heard(queue!, message));
    queue = new JournalQueue(ctx, settler, attempt.send, sleeps, serving.shared, cancellation);
    settler.onCancel = attempt.interrupt;
    // The attempt over (a suspension, the server gone): its run goes no further; the next attempt resumes it.
    const signal = ctx.request().attemptCompletedSignal;
    const stop = () => attempt.kill();
    signal.addEventListener("abort", stop, { once: true });
    attempt.send({
      start: {
        journaled: journal.calls,
        code: program.code,
        shared: [...serving.shared],
        redacted: [...serving.redacted],
      },
    });
    let response: DurableResponse | undefined;
    void attempt.ended.then((ended) => {
      response = responseOf(ended);
      const digest = outputDigest(splitOutput(ended.stdout).output);
      queue!.end({ ended: { outcome: response.outcome, ...digest } });
    });
    try {
      await queue.serve();
    } finally {
      signal.removeEventListener("abort", stop);
      attempt.kill();
      done();
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
