// One run of the playground, inside its Web Worker (spec/view.md, sections 7 and 8): the
// program compiled by the compiler bundled for the browser, evaluated here (the worker's
// Content-Security-Policy allows eval, and connects nowhere), and run by the runtime under
// the page's limits: fuel, call depth, output bytes and time, each the runtime's own, ending
// with its own code (E-RT-FUEL, E-RT-DEPTH, E-RT-TIMEOUT) as `renyi run` reports it. The
// memory limit does not apply in a browser. `console`, `time` and `random` are live; every
// other capability is answered from the recording the page chose, read and checked as
// `renyi run --replay` reads one, or refused when there is none. The grant is main's.
//
// A narrated run (`narrate`) is compiled with narration and run with a narrator, as
// `renyi run --explain` is: its lines go to the page as `narration` messages, batched as the
// output is, within the narration's own bounds (10,000 lines, 4 MiB, then the line that says it
// was cut). With a recording, time and random are answered from it too and each effect shows its
// recorded duration: a narrated replay reads the same every time, as `renyi run --explain
// --replay` does. console stays live, so the output is shown as well.

import { compile } from "../../compiler/build.js";
import { hasErrors, moduleNameOf } from "../../compiler/index.js";
import { SourceFile } from "../../compiler/source.js";
import { readRecordingBytes } from "../../report/recording-reader.js";
import { decodeMappings, type SourceMapV3 } from "../../report/source-map.js";
import * as runtime from "../../rtlib/index.js";
import { LIVE, type Answerer } from "../../rtlib/gateway.js";
import { writeTo } from "../../rtlib/browser/globals.js";
import { needText } from "../../vocabulary/needs.js";
import { runMessage } from "../../vocabulary/problems/run.js";
import type { FromWorker, ToWorker } from "../api.js";

type Ended = Extract<FromWorker, { kind: "ended" }>;

/** The capabilities a playground run performs itself; every other is answered from a recording. */
const LIVE_CAPABILITIES: ReadonlySet<string> = new Set(["console", "time", "random"]);

/** What a narrated replay performs itself: console alone (time and random as recorded, as the narration shows them). */
const NARRATED_REPLAY_LIVE: ReadonlySet<string> = new Set(["console"]);

/** Output is sent in batches: at this many characters, or this long after the last batch, whichever comes first. */
const BATCH_CHARACTERS = 16 * 1024;
const BATCH_MS = 50;

/** The name the compiled program's frames carry in their stacks. */
const PROGRAM_URL = "renyi-playground-program.js";

/** The names of the runtime the compiled program imports, as `require("renyi/runtime")` gives them. */
const RUNTIME: Readonly<Record<string, unknown>> = runtime;

/**
 * Runs `message` and sends its output as it comes (batched) through `post`; gives back how it ended, which the caller
 * sends last. Never throws.
 */
export async function runPlayground(message: ToWorker, post: (message: FromWorker) => void): Promise<Ended> {
  const output = batched((text) => post({ kind: "output", text }));
  const narration = batched((text) => post({ kind: "narration", text }));
  try {
    return await run(message, output.write, narration.write);
  } catch (e) {
    return { kind: "ended", outcome: "crashed", exit: 4, code: "E-RT-INTERNAL", message: String(e) };
  } finally {
    output.flush();
    narration.flush();
  }
}

async function run(message: ToWorker, write: (text: string) => void, narrate: (text: string) => void): Promise<Ended> {
  const narrated = message.narrate === true;
  const file = safeFile(message.file);
  const source = new SourceFile(file, message.source);
  const entry = moduleNameOf(file);
  const recording = message.recording === undefined ? undefined : readRecordingText(message.recording);
  if (recording !== undefined && !recording.ok)
    return { kind: "ended", outcome: "refused", exit: 3, code: recording.code, message: recording.problem };
  const compiled = compile(
    { entry, read: (name) => (name === entry ? { file, text: message.source } : undefined) },
    {
      runtime: "renyi/runtime",
      file: PROGRAM_URL,
      format: "commonjs",
      ...(narrated ? { narrate: true } : {}),
      ...(recording?.ok === true && marksPlaces(recording.recording) ? { origins: true } : {}),
    },
  );
  if (compiled.bundle === undefined || hasErrors(compiled.diagnostics)) {
    const first = compiled.diagnostics.find((d) => d.severity === "error");
    const at = first === undefined ? undefined : source.position(first.span.start);
    return {
      kind: "ended",
      outcome: "refused",
      exit: 3,
      ...(first !== undefined
        ? { code: first.code, message: first.message }
        : { message: "the program does not compile" }),
      ...(at !== undefined ? { line: at.line, column: at.column } : {}),
    };
  }
  // main's needs, as checked: without a recording, one beyond the live capabilities refuses the run before it starts.
  const main = compiled.program?.modules.find((m) => m.name === entry)?.functions.find((f) => f.name === "main");
  const live = narrated && recording !== undefined ? NARRATED_REPLAY_LIVE : LIVE_CAPABILITIES;
  const replayed = main?.needs.find((item) => !LIVE_CAPABILITIES.has(item.capability.path[0]!));
  if (recording === undefined && replayed !== undefined)
    return {
      kind: "ended",
      outcome: "refused",
      exit: 3,
      message:
        `main needs ${needText(replayed.capability)}, which the playground does not reach: only console, time and ` +
        `random are live in a browser. Choose a recording to answer ${replayed.capability.path.join(".")} from.`,
    };
  const replayer =
    recording === undefined
      ? undefined
      : runtime.replayerOf(recording.recording.calls, recording.grant, {
          ...(recording.recording.redacted !== undefined ? { redacted: recording.recording.redacted } : {}),
          ...(marksPlaces(recording.recording) ? { originMarks: true } : {}),
          ...(recording.recording.requests !== undefined ? { requests: recording.recording.requests } : {}),
        });
  writeTo(write, write);
  const { limits } = message;
  const code = compiled.bundle.code;
  // Evaluated once the limits are set: what the program's top level computes is counted as main's steps are.
  const outcome = await runtime.runMain(async () => evaluate(code), {
    // main is run with the arguments the recorded run had, as `renyi reproduce` runs it; with none without a recording.
    argv: recording?.recording.arguments ?? [],
    limits: {
      fuel: limits.fuel,
      maxDepth: limits.depth,
      maxOutputBytes: limits.outputBytes,
      timeoutMs: limits.timeMs,
      timeoutAt: performance.now() + limits.timeMs,
    },
    ...(replayer !== undefined
      ? {
          replayer: {
            answer: liveOrReplayed(replayer.answer, live),
            checkGrant: (g) => replayer.checkGrant(g),
            offline: true,
          },
        }
      : { replayer: { answer: liveOrRefused, checkGrant: () => undefined, offline: true } }),
    ...(narrated ? { narration: { write: narrate, recordedDuration: () => replayer?.lastAnswered?.duration_ms } } : {}),
  });
  return endedOf(outcome, compiled.bundle.map, source);
}

/** The recording's text read as `renyi run --replay` reads its file (report/recording-reader.ts). */
function readRecordingText(text: string) {
  return readRecordingBytes(new TextEncoder().encode(text), "the recording");
}

function marksPlaces(recording: {
  redacted?: readonly string[];
  calls: readonly { redacted_at?: unknown }[];
}): boolean {
  return recording.redacted !== undefined && recording.calls.some((c) => c.redacted_at !== undefined);
}

/** The `live` capabilities performed; every other call answered by the replayer (its difference when it has none). */
function liveOrReplayed(answer: Answerer, live: ReadonlySet<string>): Answerer {
  return (primitive, args, perform, guarded, redactedParts) =>
    live.has(primitive.need.path[0]!) ? LIVE : answer(primitive, args, perform, guarded, redactedParts);
}

/** Without a recording: console, time and random live, and any other call (which main's grant refused first) refused. */
const liveOrRefused: Answerer = (primitive) => {
  if (LIVE_CAPABILITIES.has(primitive.need.path[0]!)) return LIVE;
  throw new runtime.Crash("E-RT-PERMISSION", {
    call: primitive.name.replace(/^std\./, ""),
    need: primitive.need.path.join("."),
    owner: "the playground without a recording",
  });
};

/** Eval called indirectly: the code it is given sees the worker's global scope, never this module's. */
// biome-ignore lint/security/noGlobalEval: the compiled program runs here, in a worker whose policy allows eval and connects nowhere
const globalEval: (code: string) => unknown = globalThis.eval;

/** The compiled program (CommonJS), evaluated with the runtime as the one module it may require. */
function evaluate(code: string): runtime.Program {
  const exports: Record<string, unknown> = {};
  const require = (specifier: string): unknown => {
    if (specifier !== "renyi/runtime") throw new Error(`the program may require renyi/runtime alone, not ${specifier}`);
    return RUNTIME;
  };
  // Indirect eval: the program's own scope is the function's, and its first line is the bundle's first line, so the
  // frames of its stack count lines as the source map does.
  const made = globalEval(`(function (require, exports) {${code}\n})\n//# sourceURL=${PROGRAM_URL}`) as (
    r: typeof require,
    e: typeof exports,
  ) => void;
  made(require, exports);
  return exports as runtime.Program;
}

/** How the run ended, as the page is told: the code, the message and the .ry place of a crash. */
function endedOf(outcome: runtime.Outcome, map: SourceMapV3, source: SourceFile): Ended {
  const exit = runtime.EXIT[outcome.outcome];
  switch (outcome.outcome) {
    case "finished":
      return { kind: "ended", outcome: "finished", exit };
    case "refused":
      return {
        kind: "ended",
        outcome: "refused",
        exit,
        message: outcome.message,
        ...(outcome.code !== undefined ? { code: outcome.code } : {}),
      };
    case "failed":
      return {
        kind: "ended",
        outcome: "crashed",
        exit,
        code: "E-RT-FAILED",
        message: runMessage("E-RT-FAILED", { value: outcome.value, in: "main" }),
        ...placeOf(outcome.site, undefined, map, source),
      };
    case "crashed":
      return {
        kind: "ended",
        outcome: "crashed",
        exit,
        code: outcome.code,
        message: outcome.message,
        ...placeOf(outcome.site, outcome.stack, map, source),
      };
    case "cancelled":
      return {
        kind: "ended",
        outcome: "crashed",
        exit,
        code: "E-RT-TIMEOUT",
        message: `the run was cancelled (${outcome.reason})`,
        ...placeOf(outcome.site, outcome.stack, map, source),
      };
  }
}

/** The .ry line and column: the compiled code's site, or the first frame of the stack in the program, through its map. */
function placeOf(
  site: string | undefined,
  stack: string | undefined,
  map: SourceMapV3,
  source: SourceFile,
): { line?: number; column?: number } {
  const m = site === undefined ? null : /:(\d+):(\d+)$/.exec(site);
  if (m !== null) return { line: Number(m[1]), column: Number(m[2]) };
  if (stack === undefined) return {};
  for (const line of stack.split("\n")) {
    const at = line.lastIndexOf(PROGRAM_URL);
    if (at < 0) continue;
    const frame = /^:(\d+):(\d+)/.exec(line.slice(at + PROGRAM_URL.length));
    if (frame === null) continue;
    const segments = decodeMappings(map)[Number(frame[1]) - 1];
    if (segments === undefined || segments.length === 0) continue;
    const column = Number(frame[2]) - 1;
    let best = segments[0]!;
    for (const s of segments) if (s[0] <= column) best = s;
    if (map.sources[best[1]] !== source.path) continue;
    return { line: best[2] + 1, column: best[3] + 1 };
  }
  return {};
}

/** A file name for the program: its last part, ending in .ry (the page's name for it is text, never a path). */
function safeFile(name: string): string {
  const base = name.slice(name.lastIndexOf("/") + 1).replace(/[^A-Za-z0-9_.-]/g, "_");
  return /^[a-z_][a-z0-9_]*\.ry$/.test(base) ? base : "main.ry";
}

/**
 * Output gathered and sent in batches, so that a program that prints much sends few messages: a write is sent at once
 * when nothing was sent in the last BATCH_MS, and held otherwise, until BATCH_CHARACTERS are held, the next write past
 * BATCH_MS, a timer (which runs when the program waits: a sleep, a replayed call) or the end of the run. A program that
 * computes without waiting after a held write shows it at its next write or its end.
 */
function batched(send: (text: string) => void): { write: (text: string) => void; flush: () => void } {
  let held: string[] = [];
  let size = 0;
  let sentAt = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (size === 0) return;
    send(held.join(""));
    held = [];
    size = 0;
    sentAt = performance.now();
  };
  return {
    write(text) {
      held.push(text);
      size += text.length;
      if (size >= BATCH_CHARACTERS || performance.now() - sentAt >= BATCH_MS) flush();
      else timer ??= setTimeout(flush, BATCH_MS);
    },
    flush,
  };
}
