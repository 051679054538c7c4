// The reader's thread of `renyi view` (reader-thread.ts starts it, under a heap limit): it says
// it is ready once its code is loaded, then answers one job at a time (heavy.ts) and posts each
// answer back with the job's number. A fault of Renyi's own is answered as E-VIEW-INTERNAL; a
// reading past the thread's heap ends the thread, which the server answers for.

import { parentPort } from "node:worker_threads";
import { type ApiAnswer, viewRefusal } from "./answers.js";
import { answerHeavy, type HeavyJob } from "./heavy.js";

export type ReaderRequest = { readonly seq: number; readonly job: HeavyJob };
export type ReaderReply = { readonly ready: true } | { readonly seq: number; readonly answer: ApiAnswer };

parentPort?.on("message", ({ seq, job }: ReaderRequest) => {
  let answer: ApiAnswer;
  try {
    answer = answerHeavy(job);
  } catch (e) {
    // The message alone: a stack trace says nothing to the page, and much about this machine.
    const detail = e instanceof Error ? e.message.split("\n", 1)[0]!.slice(0, 300) : "unknown";
    answer = viewRefusal(500, "E-VIEW-INTERNAL", { detail });
  }
  parentPort!.postMessage({ seq, answer } satisfies ReaderReply);
});
parentPort?.postMessage({ ready: true } satisfies ReaderReply);
