// Parses the input it is given on a thread with a small stack and reports the
// diagnostic codes, or the exception if the parser threw.
import { parentPort, workerData } from "node:worker_threads";
import { parseSource } from "../compiler/index.js";

const { text } = workerData as { text: string };
try {
  const result = parseSource("deep.ry", text);
  parentPort!.postMessage({ ok: true, codes: result.diagnostics.map((d) => d.code) });
} catch (e) {
  parentPort!.postMessage({ ok: false, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
}
