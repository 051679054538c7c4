// Times a program inside its process: `node dist/bench/in-process.js FILE [ARGS...]`
// loads the runtime (for a bundle, whose `renyi/runtime` it warms first), then
// imports FILE and waits for it to end, and writes the milliseconds that took
// to standard error as `in-process-ms N`. Node's start-up, and the runtime's
// loading, are outside the figure: what is left is the program's own work
// (and its module's compile). A bundle runs as `node NAME.mjs` runs it: its
// main is the process's main module (process.argv[1] names it).

import { performance } from "node:perf_hooks";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [file, ...args] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write("usage: node dist/bench/in-process.js FILE [ARGS...]\n");
  process.exit(2);
}
const path = resolve(file);
process.argv = [process.argv[0]!, path, ...args];
// A specifier in a variable: the runtime is the package's own export, which has no type declarations.
const RUNTIME = "renyi/runtime";
if (path.endsWith(".mjs")) await import(RUNTIME);
const started = performance.now();
await import(pathToFileURL(path).href);
// A bundle's main has ended when its module's evaluation has: runIfMain is awaited at its top level.
process.stderr.write(`in-process-ms ${(performance.now() - started).toFixed(3)}\n`);
// The most memory the process held, for the figures of memory: both sides are Node processes.
process.stderr.write(`max-rss-kib ${process.resourceUsage().maxRSS}\n`);
