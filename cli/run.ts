// `renyi run [renyi options] FILE.ry [program options]`: compile (or take the
// compiled program from the cache), run it in a worker thread, and report how
// the run ended with the exit codes of spec/runtime.md, section 5.

import { fileURLToPath } from "node:url";
import { finished } from "node:stream/promises";
import { renderText, type Diagnostic } from "../report/diagnostics.js";
import type { SourceMapV3 } from "../report/source-map.js";
import { SourceFile } from "../report/source.js";
import { cacheDirectory, cachedPath, cacheKey, writeCached } from "./cache.cjs";
import { bundleKey, lookUpByIndex, writeIndex, type IndexedModule } from "./program-index.js";
import { readProgram, readProgramMap } from "./cached-program.js";
import { EXIT } from "../vocabulary/outcomes.js";
import { DEFAULT_LIMITS, heapLimitMib } from "../vocabulary/limits.js";
import { runMessage } from "../vocabulary/problems/run.js";
import { conflictingOptions, parseRunArguments, RUN_USAGE, type RunOptions } from "./run-options.js";
import { exitCodeOf, outcomeText, requestCrashText, servedText } from "../report/outcome-text.js";
import { BUILD_ID, VERSION } from "./version.cjs";
import type { ExecutionLog, RunTally, WorkerInput, WorkerMessage, WorkerOutcome } from "./worker.cjs";
import type { RecordedCall } from "../vocabulary/recording.js";
import { codeHash } from "./code-hash.js";
import type { GrantItem } from "../vocabulary/needs.js";
import { startWorker, type EarlyWorker } from "./spawn.cjs";
import { onCtrlC } from "./interrupts.js";
import { longTimeout } from "../rtlib/waits.js";
import { sha256 } from "../report/sha256.js";
// The execution record's module loads only under --json.
import type { RecordSubject } from "./execution-record.js";

// The runtime as one file (scripts/bundle.mjs): the CommonJS module the
// worker and the programs compiled for it require, and the ES module a bundle
// built by renyic imports (the same module).
const RUNTIME_PATH = fileURLToPath(new URL("../runtime.cjs", import.meta.url));
const RUNTIME_URL = new URL("../runtime.js", import.meta.url).href;

/**
 * What a command that runs a program as `renyi run` does (record, replay,
 * reproduce, --manifest) adds to the run: what the worker is told, and what
 * happens at the run's end. Given the compiled program, it may refuse instead.
 */
export type RunPlan = (compiled: CompiledProgram, parsed: { options: RunOptions; file: string; programArgs: string[] }) => RunSession | { refused: string };

/** What the plan knows of the program: its name, its file and the hash of its code. */
export interface CompiledProgram {
  readonly program: string;
  readonly file: string;
  readonly code: () => string;
}

export interface RunSession {
  readonly input: Pick<WorkerInput, "record" | "replay">;
  /** Each call as recorded when it completes; `replayed` for an entry a resumed run was answered with, as it was recorded; `guarded`, what of it was guarded data. */
  readonly onRecorded?: (call: RecordedCall, replayed: boolean, guarded: "arguments" | "result" | undefined) => void;
  /** Called once the outcome is reported, with the exit code it had; gives back the command's exit code. */
  readonly onEnd: (outcome: WorkerOutcome, tally: RunTally["tally"] | undefined, exitCode: number) => number;
}

export async function runCommand(argv: readonly string[], early: EarlyWorker = startWorker(), given?: RunPlan): Promise<number> {
  if (argv[0] === "--help" || argv[0] === "-h") {
    void early.worker.terminate();
    process.stdout.write(RUN_USAGE);
    return EXIT.finished;
  }
  const parsed = parseRunArguments(argv);
  // A command that brings its own plan (record, reproduce) has refused what it does not take.
  const problem = "problem" in parsed ? parsed.problem : given === undefined ? conflictingOptions(parsed.options) : undefined;
  if ("problem" in parsed || problem !== undefined) {
    void early.worker.terminate();
    process.stderr.write(`error: ${problem}\n`);
    // A --json before the file is honoured even when the rest of the command line is not.
    const asked = argv.findIndex((a) => !a.startsWith("--"));
    if (argv.slice(0, asked === -1 ? argv.length : asked).includes("--json")) {
      const { RecordSubject, writeRecord } = await import("./execution-record.js");
      writeRecord(new RecordSubject(argv[asked] ?? "").refusedWith(`error: ${problem}`, EXIT.refused), true);
    }
    return EXIT.refused;
  }
  // Under --isolate the whole command runs again in a process of its own, with the operating system's limits.
  if (parsed.options.isolate) {
    void early.worker.terminate();
    return (await import("./isolate.js")).runIsolated(parsed.options);
  }
  // The run's time starts before its compile: a program that takes minutes to compile takes minutes to run.
  const startedAt = Date.now();
  const recording = parsed.options.json ? await import("./execution-record.js") : undefined;
  const subject = recording === undefined ? undefined : new recording.RecordSubject(parsed.file);
  // The early thread has the default heap; a run given another memory limit is started again with the heap that goes with it.
  if (parsed.options.maxMemoryMib !== DEFAULT_LIMITS.maxMemoryMib) {
    void early.worker.terminate();
    early = startWorker(heapLimitMib(parsed.options.maxMemoryMib));
  }
  let compiled: Compiled | NotCompiled;
  try {
    compiled = parsed.file.endsWith(".mjs") ? await validatedBundle(parsed.file, parsed.options.trust) : await compileWithCache(parsed.file, parsed.options.explain, deadlineOf(startedAt, parsed.options.timeoutSeconds));
  } catch (e) {
    if (!(e instanceof CompileTimedOut)) throw e;
    void early.worker.terminate();
    return compileTimedOut(parsed.file, parsed.options.timeoutSeconds, subject);
  }
  if ("diagnostics" in compiled) {
    void early.worker.terminate();
    process.stderr.write(renderText(compiled.diagnostics, compiled.sources));
    if (subject !== undefined) recording!.writeRecord(subject.refused(compiled.diagnostics, compiled.sources, EXIT.refused), true);
    return EXIT.refused;
  }
  subject?.compiled(compiled.program, compiled.code, compiled.bundle);
  // Replaying and the manifest load their code only when asked for.
  const plan = given ?? (parsed.options.resume !== undefined ? (await import("./resume.js")).resumePlan : parsed.options.replay !== undefined || parsed.options.manifest ? (await import("./replay.js")).replayPlan : undefined);
  let session: RunSession | undefined;
  if (plan !== undefined) {
    const planned = plan({ program: compiled.program, file: parsed.file, code: compiled.code }, parsed);
    if ("refused" in planned) {
      void early.worker.terminate();
      process.stderr.write(planned.refused);
      if (subject !== undefined) recording!.writeRecord(subject.refusedWith(planned.refused, EXIT.refused), true);
      return EXIT.refused;
    }
    session = planned;
  }
  return runBundle(early, compiled.path, compiled.map, compiled.sources, parsed.programArgs, parsed.options, compiled.grant, session, subject, compiled.source, startedAt);
}

/** Thrown from the compiler's `stop` once the run's time is up while it is still compiling. */
class CompileTimedOut extends Error {}

/** What the compiler calls now and then: it ends the compile once the run's --timeout has passed since `startedAt`. */
function deadlineOf(startedAt: number, timeoutSeconds: number): () => void {
  const deadline = startedAt + timeoutSeconds * 1000;
  return () => {
    if (Date.now() > deadline) throw new CompileTimedOut();
  };
}

/** A run whose time ran out while its program was compiled: it ends as a run at its time limit does (E-RT-TIMEOUT). */
function compileTimedOut(file: string, timeoutSeconds: number, subject: RecordSubject | undefined): number {
  const outcome: WorkerOutcome = { outcome: "cancelled", reason: "timeout", steps: 0, timeoutMs: timeoutSeconds * 1000 };
  const at = { path: file, map: (): SourceMapV3 => ({ version: 3, sources: [], names: [], mappings: "" }), sources: () => new Map<string, SourceFile>() };
  const exit = reportOutcome(outcome, at.path, at.map, at.sources);
  subject?.write(subject.ran(outcome, undefined, undefined, exit, at), true);
  return exit;
}

interface Compiled {
  path: string;
  /** A program compiled by renyi run: its text, checked against its seal in the cache (or just compiled), which is what the worker runs. */
  source?: string;
  /** The bundle's source map, read only when a crash needs a position. */
  map: () => SourceMapV3;
  /** The program's sources, made only when a failure or crash shows its line. */
  sources: () => ReadonlyMap<string, SourceFile>;
  /** A bundle's grant, from its manifest (null: main needs nothing); a .ry program's is its own. */
  grant?: GrantItem[] | null;
  /** main's module name, and the content hash of everything main reaches (code-hash.ts). */
  program: string;
  code: () => string;
  /** The hash of the bundle that runs: the compiled file, or a bundle's as its manifest names it. */
  bundle: () => string;
}

type NotCompiled = { diagnostics: Diagnostic[]; sources: Map<string, SourceFile> };

export const TOOLCHAIN = [VERSION, BUILD_ID, RUNTIME_PATH, "commonjs"];
/** The narrated variant of a program (--explain) is cached under keys of its own. */
export const NARRATED_TOOLCHAIN = [...TOOLCHAIN, "narrated"];

async function compileWithCache(file: string, narrate = false, stop?: () => void): Promise<Compiled | NotCompiled> {
  const toolchain = narrate ? NARRATED_TOOLCHAIN : TOOLCHAIN;
  const indexed = lookUpByIndex(toolchain, file);
  if (indexed !== undefined) {
    const path = cachedPath(indexed.key, ".cjs");
    const source = indexed.source;
    return { path, source, map: () => readProgramMap(path), sources: () => sourcesOf(indexed.modules), program: indexed.entry, code: () => codeHash(indexed.modules), bundle: () => sha256(source) };
  }
  // The parser, the compiler and the validator are loaded only when the index does not know the
  // program: one file, with a code cache (compile-path.ts).
  const { loadCompilePath } = await import("./code-cache.cjs");
  const compilePath = loadCompilePath();
  const { loadProgram, compileIntoCache } = compilePath.exports as typeof import("./compile-path.js");
  const program = loadProgram(file);
  if (program.problems.length > 0) return { diagnostics: program.problems, sources: program.sources };
  const key = bundleKey(toolchain, program.entry, program.modules);
  const path = cachedPath(key, ".cjs");
  // A compiled program whose seal does not match (cache-seal.ts) is compiled again, and written anew.
  let source = readProgram(key);
  if (source === undefined) {
    const result = await compileIntoCache({ modules: program.modules, entry: program.entry, key, runtime: RUNTIME_PATH, toolchain, narrate, ...(stop ? { stop } : {}) });
    // After a compile, when the cache that came with the build did not fit this Node: one of its own.
    compilePath.keep();
    if (!result.compiled) return { diagnostics: result.diagnostics, sources: program.sources };
    if (result.diagnostics.length > 0) process.stderr.write(renderText(result.diagnostics, program.sources));
    source = result.source!;
  }
  writeIndex(toolchain, file, program.entry, program.modules);
  const verified = source;
  return { path, source: verified, map: () => readProgramMap(path), sources: () => program.sources, program: program.entry, code: () => codeHash(program.modules), bundle: () => sha256(verified) };
}

function sourcesOf(modules: readonly IndexedModule[]): Map<string, SourceFile> {
  return new Map(modules.map((m) => [m.file, new SourceFile(m.file, m.text)]));
}

/**
 * A bundle built by `renyic build`, checked before it runs (spec/runtime.md,
 * section 7): under --trust, its manifest's signature; the manifest, read
 * strictly; the bundle's bytes against the manifest's hash; the validator; and
 * the bundle's own grant against the manifest's, which is the grant it runs
 * with. It then runs from a copy in the cache that imports this toolchain's runtime.
 */
async function validatedBundle(file: string, trust: readonly string[]): Promise<Compiled | NotCompiled> {
  // The validator (and acorn) load only for bundles: a .ry program does not need them.
  const { sha256, validateBundle } = await import("./validate.js");
  const { checkManifest, compareGrants, readBundleCode, readBundleMap, readBundleSources } = await import("./bundle-check.js");
  const refuse = (reason: string) => {
    const refused: Diagnostic = { code: "E-RT-REFUSED", severity: "error", message: runMessage("E-RT-REFUSED", { reason }), span: { file, start: 0, end: 0 }, notes: [], facts: { reason } };
    return { diagnostics: [refused], sources: new Map<string, SourceFile>() };
  };
  const checked = await checkManifest(file, trust);
  if (!checked.ok) return refuse(checked.problem);
  const { manifest, grant } = checked;
  const read = readBundleCode(file);
  if (!read.ok) return refuse(read.problem);
  const code = read.code;
  if (manifest.bundle !== sha256(code)) return refuse(`the bundle's hash does not match its manifest: ${file} was changed after it was built`);
  const validation = validateBundle(code);
  if (!validation.ok) return refuse(`the bundle was refused: ${validation.problem}`);
  const own = compareGrants(validation.body, grant);
  if (!own.ok) return refuse(own.problem);
  const map = readBundleMap(file, manifest);
  if (!map.ok) return refuse(map.problem);
  const runnable = code.slice(0, validation.importStart) + JSON.stringify(RUNTIME_URL) + code.slice(validation.importEnd);
  const key = cacheKey([VERSION, BUILD_ID, RUNTIME_URL, "bundle", code]);
  const path = writeCached(key, ".mjs", runnable, JSON.stringify(map.map));
  const loadedMap = map.map;
  let sources: Map<string, SourceFile> | undefined;
  return { path, map: () => loadedMap, sources: () => (sources ??= readBundleSources(file, manifest)), grant, program: manifest.program, code: () => manifest.code, bundle: () => manifest.bundle };
}

/** How long a cancelled program has to stop on its own before its thread is stopped by force. */
const FORCED_AFTER_MS = 2000;

/** Runs a compiled bundle in a worker and reports its outcome; returns the exit code. */
export function runBundle(early: EarlyWorker, path: string, map: () => SourceMapV3, sources: () => ReadonlyMap<string, SourceFile>, programArgs: readonly string[], options: RunOptions, grant?: GrantItem[] | null, session?: RunSession, subject?: RecordSubject, source?: string, startedAt = Date.now()): Promise<number> {
  const { worker } = early;
  const flag = new Int32Array(early.cancel);
  const input: WorkerInput = {
    bundle: path,
    ...(source !== undefined ? { source } : {}),
    cacheFolder: cacheDirectory(),
    argv: programArgs,
    fuel: options.fuel,
    maxDepth: options.maxDepth,
    requestFuel: options.requestFuel,
    requestTimeoutMs: options.requestTimeoutSeconds * 1000,
    limits: { maxCollection: options.maxCollection, maxText: options.maxText, maxOutputLines: options.maxOutputLines, maxOutputBytes: options.maxOutputBytes, maxHostCalls: options.maxHostCalls, maxMemoryMib: options.maxMemoryMib },
    allowHosts: options.allowHosts,
    atMost: options.atMost,
    ...(grant !== undefined ? { grant } : {}),
    ...(options.explain ? { explain: true } : {}),
    ...session?.input,
    ...(subject !== undefined ? { log: true } : {}),
  };
  // A bundle is compiled without narration: only its effects can be narrated (spec/runtime.md, "Narrated runs").
  if (options.explain && path.endsWith(".mjs")) process.stderr.write("(a bundle built by renyic build is compiled without narration: only its effects are narrated)\n");
  worker.postMessage(input);
  // The program reads the terminal's input (console.read_line) through its own stream, which
  // the terminal's input is piped into when the program first reads (InputRequest).
  let reading = false;
  worker.stdout.pipe(process.stdout, { end: false });
  worker.stderr.pipe(process.stderr, { end: false });
  // When the reader goes away (`renyi run x.ry | head`), pipe() lets go of the terminal's
  // stream; what the program prints after that is read and dropped, so that it never waits
  // on a reader that is gone, and the run goes on to its end.
  process.stdout.once("error", () => worker.stdout.resume());
  process.stderr.once("error", () => worker.stderr.resume());
  const drained = Promise.all([finished(worker.stdout), finished(worker.stderr)]);
  // The execution record goes on a line of its own after the program's output.
  let endsLine = true;
  if (subject !== undefined) worker.stdout.on("data", (chunk: Buffer) => void (chunk.length > 0 && (endsLine = chunk[chunk.length - 1] === 10)));
  return new Promise<number>((resolve) => {
    let outcome: WorkerOutcome | undefined;
    let served: { answered: number; crashed: number } | undefined;
    let tally: RunTally["tally"] | undefined;
    let log: ExecutionLog["log"] | undefined;
    let forced: NodeJS.Timeout | undefined;
    // Cancellation is a flag the program reads every 1,024 steps and before every effect;
    // a program stuck where it cannot read it is stopped after a grace period.
    const stopNow = (reason: 1 | 2) => {
      outcome ??= { outcome: "cancelled", reason: reason === 2 ? "timeout" : "interrupt", steps: 0 };
      void worker.terminate();
    };
    const cancelRun = (reason: 1 | 2) => {
      Atomics.store(flag, 0, reason);
      forced ??= setTimeout(() => stopNow(reason), FORCED_AFTER_MS);
    };
    const ctrlC = onCtrlC(() => cancelRun(1), () => stopNow(1));
    // A chain of timers: one timer holds at most about 24.8 days (rtlib/waits.ts).
    // What the compile took of the run's time is not given again.
    const deadline = longTimeout(() => cancelRun(2), options.timeoutSeconds * 1000 - (Date.now() - startedAt));
    // The run is over at its outcome (or, without one, when the thread stops); it is
    // reported once the program's output has come through, without waiting for the
    // thread to tear down: the worker ends its output streams before it sends the outcome.
    let over = false;
    // The process groups of the program's children still running (lib/process.ts): killed when
    // the run ends, however it ends, even when the worker was stopped by force.
    const children = new Set<number>();
    const end = () => {
      if (over) return;
      over = true;
      for (const pid of children) {
        try {
          process.kill(-pid, "SIGKILL");
        } catch {
          // The group is gone already.
        }
      }
      if (reading) {
        process.stdin.unpipe(worker.stdin!);
        process.stdin.destroy();
      }
      ctrlC.off();
      deadline.clear();
      clearTimeout(forced);
      void drained.then(() => {
        // The thread no longer keeps the process alive: it is stopping, or stopped.
        worker.unref();
        const reached = outcome ?? { outcome: "crashed", code: "E-RT-INTERNAL", message: runMessage("E-RT-INTERNAL", { problem: "no-outcome" }), steps: 0 };
        const final = reached.outcome === "cancelled" && reached.reason === "timeout" ? { ...reached, timeoutMs: options.timeoutSeconds * 1000 } : reached;
        if (served !== undefined) process.stderr.write(servedText(served));
        const code = reportOutcome(final, path, map, sources);
        const exit = session === undefined ? code : session.onEnd(final, tally, code);
        if (subject !== undefined) subject.write(subject.ran(final, log, served, exit, { path, map, sources }), endsLine);
        resolve(exit);
      });
    };
    worker.on("message", (message: WorkerMessage) => {
      if ("child" in message) {
        if (message.running) children.add(message.child);
        else children.delete(message.child);
        return;
      }
      if ("input" in message) {
        if (!reading && !over) process.stdin.pipe(worker.stdin!);
        reading = true;
        return;
      }
      // A server runs until it is stopped: only a --timeout given on the command line stops it.
      if ("serving" in message) {
        if (!options.timeoutGiven) deadline.clear();
        return;
      }
      if ("requestCrash" in message) {
        process.stderr.write(requestCrashText(message.requestCrash, { path, map, sources }));
        return;
      }
      if ("served" in message) {
        served = message.served;
        return;
      }
      if ("recorded" in message) {
        session?.onRecorded?.(message.recorded, message.replayed === true, message.guarded);
        return;
      }
      if ("tally" in message) {
        tally = message.tally;
        return;
      }
      if ("log" in message) {
        log = message.log;
        return;
      }
      outcome ??= message;
      end();
    });
    worker.once("error", (e: Error & { code?: string }) => {
      const outOfMemory = e.code === "ERR_WORKER_OUT_OF_MEMORY";
      outcome ??= outOfMemory
        ? { outcome: "crashed", code: "E-RT-LIMIT-MEMORY", message: runMessage("E-RT-LIMIT-MEMORY", {}), steps: 0 }
        : { outcome: "crashed", code: "E-RT-INTERNAL", message: runMessage("E-RT-INTERNAL", { problem: "thrown", detail: e.message }), steps: 0 };
    });
    worker.once("exit", end);
  });
}

function reportOutcome(outcome: WorkerOutcome, path: string, map: () => SourceMapV3, sources: () => ReadonlyMap<string, SourceFile>): number {
  process.stderr.write(outcomeText(outcome, { path, map, sources }));
  return exitCodeOf(outcome);
}

export { readProgramMap as readMap };

export { fileURLToPath };
