// `renyi run --durable` (spec/durable.md, "The run side"): one attempt of a
// durable invocation of `renyi serve --restate`. The run is `renyi run`'s,
// every limit and flag as there; its plan answers each call from the journal
// while the call's key has an entry left there (the durable rule,
// rtlib/recording/replayer.ts), and sends each call it makes live to the
// endpoint to be kept, formed as `renyi record` writes its entry (numbered on
// from the journal's last, redacted under the endpoint's --redact), before the
// program sees how it ended. Refused, as `renyi reproduce` is, when main is
// not the code the endpoint registered.

import type { DurableStart } from "../../vocabulary/durable.js";
import type { RecordedCall } from "../../vocabulary/recording.js";
import { runMessage } from "../../vocabulary/problems/run.js";
import { Redaction } from "../recordings/redaction.js";
import type { DurableRelay, RunPlan } from "../running/plan.js";
import { channelProblem, replyOf, startMessage, toEndpoint } from "./run-channel.js";

/** The plan of a durable run, once the endpoint's `start` has come; or why the run is refused, before anything runs. */
export async function durablePlan(): Promise<RunPlan | { problem: string }> {
  const problem = channelProblem();
  if (problem !== undefined) return { problem };
  const start = await startMessage();
  if ("problem" in start) return start;
  const plan: RunPlan = (compiled, parsed) => {
    const code = compiled.code();
    if (code !== start.code)
      return {
        refused:
          `error[E-RT-REPLAY-CODE]: ` +
          `${runMessage("E-RT-REPLAY-CODE", { file: parsed.file, code, recorded: start.code })}\n`,
      };
    const redaction = new Redaction(start.redacted);
    // The values of the program's options of redacted names are secrets from the start, and so are those of the
    // redacted variables the journal holds reads of (as the placeholder: the run reads them again).
    redaction.words(parsed.programArgs);
    for (const read of start.journaled)
      if (read.primitive === "std.environment.get" && typeof read.arguments["name"] === "string")
        redaction.call({ ...read, outcome: { success: process.env[read.arguments["name"]] ?? null } });
    const redacting = start.redacted.length > 0;
    return {
      input: {
        record: true,
        replay: {
          calls: start.journaled,
          grant: [],
          writeConsole: true,
          durable: true,
          ...(redacting ? { redacted: [...start.redacted], originMarks: true } : {}),
        },
        durable: { shared: start.shared },
        ...(redacting ? { redact: [...start.redacted] } : {}),
      },
      durable: relay(start, redaction),
      onEnd: (_outcome, _tally, exitCode) => exitCode,
    };
  };
  // With --redact, the program is compiled with the origin operators, as `renyi record --redact` compiles it.
  return Object.assign(plan, { origins: () => start.redacted.length > 0 });
}

/** The main thread's side of the attempt: entries formed and sent to be kept, questions and answers passed on. */
function relay(start: DurableStart["start"], redaction: Redaction): DurableRelay {
  // Live calls are numbered on from the journal's highest, and timed on from its last entry's end, as a resumed run's.
  let last = 0;
  let offset = 0;
  for (const c of start.journaled) {
    last = Math.max(last, c.sequence);
    offset = Math.max(offset, (c.at_ms ?? 0) + (c.duration_ms ?? 0));
  }
  /** The durable sleeps asked for and not yet woken: while there is one, the run's time limit is not counted. */
  const sleeping = new Set<number>();
  let asleep: (sleeping: boolean) => void = () => {};
  return {
    attach: (toWorker, told) => {
      asleep = told;
      const onMessage = (message: unknown) => {
        const reply = replyOf(message);
        if (reply === undefined) return;
        if ("woke" in reply && sleeping.delete(reply.woke) && sleeping.size === 0) asleep(false);
        toWorker({ durable: reply });
      };
      // The endpoint gone, the attempt is over: it ends as at Ctrl-C, and the invocation's next attempt goes on.
      const onGone = () => void process.kill(process.pid, "SIGINT");
      process.on("message", onMessage);
      process.on("disconnect", onGone);
      // Closed while the program was compiled: no event comes for it.
      if (!process.connected) onGone();
      return () => {
        process.off("message", onMessage);
        process.off("disconnect", onGone);
      };
    },
    keep: (message) => {
      const recorded = message.recorded;
      let call: RecordedCall = {
        ...recorded,
        sequence: last + recorded.sequence,
        ...(recorded.at_ms !== undefined ? { at_ms: recorded.at_ms + offset } : {}),
      };
      if (redaction.active) {
        if (message.redactedTexts !== undefined) redaction.searchFor(message.redactedTexts);
        call = redaction.call(call, message.redactedParts);
        call = (redaction.scrub({ calls: [call] } as never) as { calls: RecordedCall[] }).calls[0]!;
      }
      toEndpoint({ keep: { id: message.keep, calls: [call] } });
    },
    ask: ({ durable }) => {
      if ("sleep" in durable) {
        sleeping.add(durable.sleep.id);
        if (sleeping.size === 1) asleep(true);
      }
      toEndpoint(durable);
    },
  };
}
