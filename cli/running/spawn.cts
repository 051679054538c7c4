// Starts the worker a program will run in, before anything else is loaded, so
// that the thread boots (and loads the runtime) while the main thread finds
// and compiles the program. CommonJS, so that the `renyi` command (renyi.cts)
// can start the worker before it loads any ES module.

import { Worker } from "node:worker_threads";
import { PROGRAM_WORKER } from "../host/places.cjs";

export interface EarlyWorker {
  readonly worker: Worker;
  readonly cancel: SharedArrayBuffer;
}

/**
 * `heapMib`: the thread's heap limit, heapLimitMib(DEFAULT_LIMITS.maxMemoryMib) (vocabulary/limits.ts) unless
 * `--max-memory` says otherwise.
 */
export function startWorker(heapMib = 1024): EarlyWorker {
  const cancel = new SharedArrayBuffer(4);
  // The worker's output comes through streams the main thread reads to their end,
  // so that nothing the program printed is lost when its thread stops. Its code is
  // worker.cts and the modules it uses, joined into one file at build time (scripts/bundle.mjs).
  const worker = new Worker(PROGRAM_WORKER, {
    workerData: { cancel },
    stdin: true,
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: heapMib, stackSizeMb: 16 },
  });
  return { worker, cancel };
}
