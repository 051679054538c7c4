// What the page uses to run a program in the playground's worker (spec/view.md, section 7):
// one fresh worker a run, its output (and a narrated run's narration) passed on as it comes,
// and its end. The worker keeps the run's time limit itself (E-RT-TIMEOUT at the next step
// past it); a run stuck where no step comes (one library call on a huge list) is ended here,
// the worker terminated, a second past its limit, and so is a run the page cancels through
// `signal`.

import type { FromWorker, PlaygroundLimits, ToWorker } from "../api.js";

export type Ended = Extract<FromWorker, { kind: "ended" }>;

/** The limits a run starts with: seconds of work, not the command line's half hour. */
export const PLAYGROUND_LIMITS: PlaygroundLimits = {
  fuel: 1_000_000_000,
  depth: 256,
  outputBytes: 1024 * 1024,
  timeMs: 10_000,
};

/** How long past its time limit a run is given to end on its own before its worker is terminated. */
export const GRACE_MS = 1000;

export function runInWorker(
  worker: Worker,
  message: ToWorker,
  onOutput: (text: string) => void,
  signal?: AbortSignal,
  onNarration?: (text: string) => void,
): Promise<Ended> {
  return new Promise<Ended>((resolve) => {
    let done = false;
    const end = (ended: Ended) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", aborted);
      worker.onmessage = null;
      worker.onerror = null;
      worker.terminate();
      resolve(ended);
    };
    const stopped = (message: string): Ended => ({
      kind: "ended",
      outcome: "crashed",
      exit: 4,
      code: "E-RT-TIMEOUT",
      message,
    });
    const timer = setTimeout(
      () =>
        end(
          stopped(
            `the run took longer than its ${message.limits.timeMs.toLocaleString("en")} ms and was stopped by force ` +
              `${GRACE_MS.toLocaleString("en")} ms later`,
          ),
        ),
      message.limits.timeMs + GRACE_MS,
    );
    const aborted = () => end(stopped("the run was stopped"));
    if (signal?.aborted === true) return aborted();
    signal?.addEventListener("abort", aborted);
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      const m = event.data;
      if (m.kind === "output") onOutput(m.text);
      else if (m.kind === "narration") onNarration?.(m.text);
      else if (m.kind === "ended") end(m);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      end({
        kind: "ended",
        outcome: "crashed",
        exit: 4,
        code: "E-RT-INTERNAL",
        message: `the playground's worker failed: ${event.message || "it could not be started"}`,
      });
    };
    worker.postMessage(message);
  });
}
