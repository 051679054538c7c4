// The playground's Web Worker (spec/view.md, sections 7 and 8): bundled by
// scripts/bundle-view.mjs with the compiler and the runtime inside. It takes one `run`
// message (view/api.ts, ToWorker), sends the program's output as `output` messages (and its
// narration as `narration` messages, when the run is narrated), then one `ended`, and closes:
// a worker runs one program, so nothing of one run is left for the next (a task still
// waiting, the runtime's state). The page ends it at the run's time limit and a
// grace past it, whatever it is doing (run-in-worker.ts).

import type { FromWorker, ToWorker } from "../api.js";
import { runPlayground } from "./worker-run.js";

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<unknown>) => void) | null;
  postMessage(message: FromWorker): void;
  close(): void;
};

scope.onmessage = (event) => {
  scope.onmessage = null;
  const message = event.data as ToWorker;
  if (!isRun(message)) {
    scope.postMessage({ kind: "ended", outcome: "refused", exit: 3, message: "the worker takes one `run` message" });
    scope.close();
    return;
  }
  void runPlayground(message, (m) => scope.postMessage(m)).then((ended) => {
    scope.postMessage(ended);
    scope.close();
  });
};

/** Whether the page's message has the shape of a run (it is the page's own, but it is read as any input is). */
function isRun(m: unknown): m is ToWorker {
  if (typeof m !== "object" || m === null) return false;
  const r = m as Record<string, unknown>;
  const limits = r["limits"] as Record<string, unknown> | undefined;
  const whole = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v > 0;
  return (
    r["kind"] === "run" &&
    typeof r["file"] === "string" &&
    typeof r["source"] === "string" &&
    (r["recording"] === undefined || typeof r["recording"] === "string") &&
    (r["narrate"] === undefined || typeof r["narrate"] === "boolean") &&
    typeof limits === "object" &&
    limits !== null &&
    whole(limits["fuel"]) &&
    whole(limits["depth"]) &&
    whole(limits["outputBytes"]) &&
    whole(limits["timeMs"])
  );
}
