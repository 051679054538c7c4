// The worker thread of `renyi mcp` (mcp-pool.ts starts it): does one job at a
// time (mcp-work.ts) and posts its answer back. An answer too large to copy
// is refused here; a fault of Renyi's own is posted as one.

import { parentPort } from "node:worker_threads";
import { doJob, MAX_ANSWER_CHARS, type Job } from "./work.js";

export type WorkerReply = { readonly answer: unknown } | { readonly fault: string } | { readonly tooLarge: number };

parentPort?.on("message", (job: Job) => {
  let reply: WorkerReply;
  try {
    const answer = doJob(job);
    const size = JSON.stringify(answer)?.length ?? 0;
    reply = size > MAX_ANSWER_CHARS ? { tooLarge: size } : { answer };
  } catch (e) {
    reply = { fault: e instanceof Error ? e.message : String(e) };
  }
  parentPort!.postMessage(reply);
});
