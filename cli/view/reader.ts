// The reader of `renyi view`, a process of its own (reader-process.ts starts it, under a heap
// limit): it says it is ready once its code is loaded, then answers one job at a time (heavy.ts)
// and sends each answer back with the job's number. A fault of Renyi's own is answered as
// E-VIEW-INTERNAL; a reading past the heap ends the process, which the server answers for.

import { type ApiAnswer, viewRefusal } from "./answers.js";
import { answerHeavy, type HeavyJob } from "./heavy.js";

export type ReaderRequest = { readonly seq: number; readonly job: HeavyJob };
export type ReaderReply = { readonly ready: true } | { readonly seq: number; readonly answer: ApiAnswer };

process.on("message", ({ seq, job }: ReaderRequest) => {
  let answer: ApiAnswer;
  try {
    answer = answerHeavy(job);
  } catch (e) {
    // The message alone: a stack trace says nothing to the page, and much about this machine.
    const detail = e instanceof Error ? e.message.split("\n", 1)[0]!.slice(0, 300) : "unknown";
    answer = viewRefusal(500, "E-VIEW-INTERNAL", { detail });
  }
  process.send?.({ seq, answer } satisfies ReaderReply);
});
// The server gone, its reader goes too.
process.on("disconnect", () => process.exit(0));
process.send?.({ ready: true } satisfies ReaderReply);
