// Narrated runs (spec/runtime.md, "Narrated runs"): `renyi run --explain`
// prints a line per call to a named definition (its purpose, or its name, and
// its arguments), a line per effect, the result, and a failure with the
// `otherwise` that caught it, indented by call depth.
//
// Only a program compiled with narration calls `narration.*` (the lowering's
// `narrate` option), and the gateway calls the effect narrator only when one is
// set: a run without --explain runs no narration code at all. The lines go to
// a sink of their own (stderr, or a test's report), not through the program's
// output, so they do not count against its output limits; they have their own
// bound instead.

import { Cancelled, Crash, Failure } from "./errors.js";
import { S } from "./limits.js";
import { quote, toTextUncharged } from "./text.js";
import { CONSOLE_SINK, flow, join, plain, refusal } from "./origins.js";
import type { Primitive } from "./primitive.js";
import type { Need } from "../vocabulary/needs.js";

/** Where narration goes, and how a replay knows a call's recorded duration. */
export interface NarrationConfig {
  readonly write: (text: string) => void;
  /**
   * The duration of the recorded call that answered the call just made (a replay), so that a narrated replay is the
   * same every time.
   */
  readonly recordedDuration?: () => number | undefined;
  /** Lines and bytes before the narration is cut short (default 10,000 and 4 MiB). */
  readonly maxLines?: number;
  readonly maxBytes?: number;
}

/** How much of one value a line shows. */
const VALUE_WIDTH = 80;

const DEFAULT_MAX_LINES = 10_000;
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

/** A value in the to_text rendering, a text quoted, cut at VALUE_WIDTH characters with `...`; never throws. */
function shown(value: unknown): string {
  let text: string;
  try {
    // A narrated run shows guarded values as any value (spec/runtime.md, "Origins: limits").
    const shown = plain(value);
    // Written no further than the line shows: the walk charges nothing, so it stops at the cut.
    text =
      typeof shown === "string" ? quote(shown.slice(0, VALUE_WIDTH)) : toTextUncharged(shown, undefined, VALUE_WIDTH);
  } catch {
    // A value too long to write as text: the narration says so and the program goes on.
    text = "<a value too long to show>";
  }
  return text.length > VALUE_WIDTH ? `${text.slice(0, VALUE_WIDTH - 3)}...` : text;
}

/** A failure's value as the narration shows it. */
function failureText(e: unknown): string | undefined {
  if (e instanceof Failure) return `failed ${shown(e.value)}`;
  if (e instanceof Crash) return `crashed ${e.code}`;
  return undefined;
}

/** What an effect's call gave back, in a few words: an HTTP status, a value, or nothing. */
function resultText(primitive: Primitive, result: unknown): string | undefined {
  if (result === null || result === undefined) return undefined;
  const name = primitive.name;
  if (name.startsWith("std.http.")) return String((result as { status?: unknown }).status);
  // A variable's value may be a secret: the narration says whether it is set and how long it is.
  if (name === "std.environment.get") {
    const value = (result as { value?: unknown }).value;
    return typeof value === "string" ? `set (${value.length} characters)` : "not set";
  }
  if (name === "std.process.run") return `exit ${String((result as { exit_code?: unknown }).exit_code)}`;
  return shown(result);
}

/**
 * The argument an effect's line names: its URL, path, variable, program, SQL or module; the rest (headers, bodies) is
 * not shown.
 */
function targetText(primitive: Primitive, args: Readonly<Record<string, unknown>>): string {
  if (primitive.name.startsWith("std.http."))
    return `${primitive.name.slice("std.http.".length).toUpperCase()} ${shownPlain(args["url"])}`;
  const op = primitive.name.replace(/^std\.[a-z_]+\./, "");
  for (const key of ["url", "path", "name", "program", "sql", "module", "port"]) {
    if (key in args) return `${op} ${shown(args[key])}`;
  }
  return op;
}

/** A URL as it is, cut as any value is. */
function shownPlain(value: unknown): string {
  const text = typeof value === "string" ? value : shown(value);
  return text.length > VALUE_WIDTH ? `${text.slice(0, VALUE_WIDTH - 3)}...` : text;
}

function capabilityText(need: Need): string {
  return need.path.join(".");
}

class Narrator {
  private lines = 0;
  private bytes = 0;
  private truncated = false;
  /**
   * A failure not yet caught: written with the `otherwise` that catches it, or as it is when anything else is written
   * first.
   */
  private pending: { depth: number; text: string; failure: unknown } | undefined;
  /** The crash last narrated: each frame it passes through does not narrate it again. */
  private crash: unknown;
  private readonly maxLines: number;
  private readonly maxBytes: number;

  constructor(private readonly config: NarrationConfig) {
    this.maxLines = config.maxLines ?? DEFAULT_MAX_LINES;
    this.maxBytes = config.maxBytes ?? DEFAULT_MAX_BYTES;
  }

  line(depth: number, text: string): void {
    this.flush();
    this.write(depth, text);
  }

  private write(depth: number, text: string): void {
    if (this.truncated) return;
    const out = `${"  ".repeat(Math.max(0, depth))}${text}\n`;
    const bytes = Buffer.byteLength(out);
    if (this.lines + 1 > this.maxLines || this.bytes + bytes > this.maxBytes) {
      this.truncated = true;
      this.config.write(
        `[narration truncated: more than ${this.maxLines.toLocaleString("en")} lines or ` +
          `${(this.maxBytes / (1024 * 1024)).toLocaleString("en")} MiB]\n`,
      );
      return;
    }
    this.lines++;
    this.bytes += bytes;
    this.config.write(out);
  }

  /** Writes the failure not yet caught, as it is. */
  flush(): void {
    const pending = this.pending;
    if (pending === undefined) return;
    this.pending = undefined;
    this.write(pending.depth, pending.text);
  }

  /**
   * A call that ended in `e`: a failure waits for the `otherwise` that catches it; a crash is written once, where it
   * began.
   */
  failed(depth: number, text: string, e: unknown): void {
    if (e instanceof Failure) {
      this.flush();
      this.pending = { depth, text, failure: e };
    } else if (e instanceof Crash && this.crash !== e) {
      this.crash = e;
      this.line(depth, text);
    }
  }

  caught(e: unknown, where: string): void {
    const pending = this.pending;
    if (pending === undefined || pending.failure !== e) return;
    this.pending = undefined;
    this.write(pending.depth, `${pending.text}, caught by otherwise at ${where}`);
  }

  effect(
    depth: number,
    recordedMs: number | undefined,
    primitive: Primitive,
    args: Readonly<Record<string, unknown>>,
    outcome: { success: unknown } | { failure: unknown },
    ms: number,
  ): void {
    const duration = `${Math.round(recordedMs ?? ms)} ms`;
    if (primitive.name === "std.console.print" || primitive.name === "std.console.error") {
      const text = `console ${primitive.name === "std.console.error" ? "error " : ""}${shown(args["text"])}`;
      if ("success" in outcome) this.line(depth, text);
      else this.failed(depth, `${text} -> ${failureText(outcome.failure) ?? "stopped"}`, outcome.failure);
      return;
    }
    const head = `${capabilityText(primitive.need)} ${targetText(primitive, args)}`;
    if ("failure" in outcome) {
      const failure = failureText(outcome.failure);
      if (failure !== undefined) this.failed(depth, `${head} -> ${failure}, ${duration}`, outcome.failure);
      return;
    }
    const result = resultText(primitive, outcome.success);
    this.line(depth, `${head} -> ${result === undefined ? "" : `${result}, `}${duration}`);
  }

  recordedDuration(): number | undefined {
    return this.config.recordedDuration?.();
  }
}

let narrator: Narrator | undefined;

/** Narrates from now on to `config.write` (undefined: no narration). */
export function configureNarration(config: NarrationConfig | undefined): void {
  narrator = config === undefined ? undefined : new Narrator(config);
}

/** Writes what is still held (a failure nothing caught) at the end of a run. */
export function finishNarration(): void {
  narrator?.flush();
}

/** The gateway's narrator, when the run is narrated. */
export function effectNarrator(): EffectNarration | undefined {
  return narrator === undefined ? undefined : effectNarration;
}

/** What the gateway tells the narrator: where a call began (its depth, its recorded duration), then how it ended. */
export interface EffectNarration {
  begin(replayed: boolean): { depth: number; recordedMs: number | undefined };
  end(
    at: { depth: number; recordedMs: number | undefined },
    primitive: Primitive,
    args: Readonly<Record<string, unknown>>,
    outcome: { success: unknown } | { failure: unknown },
    ms: number,
  ): void;
}

const effectNarration: EffectNarration = {
  begin: (replayed) => ({ depth: S.depth, recordedMs: replayed ? narrator?.recordedDuration() : undefined }),
  end: (at, primitive, args, outcome, ms) => narrator?.effect(at.depth, at.recordedMs, primitive, args, outcome, ms),
};

/**
 * Who else hears of the calls to definitions with a `purpose:` (a traced run, `renyi run --trace`): each such call
 * opens a span, the definition's body runs `within` it (so that what its task does, however interleaved with
 * other tasks, is known to happen inside it), and the span ends with the call. Once the run has read or decided on
 * guarded data its guards keep from the console, it hears of no more: how many calls there were, and when, would
 * tell of that data, as the execution record's steps would (spec/tracing.md).
 */
export interface DefinitionWatcher {
  enter(purpose: string, name: string): unknown;
  within<T>(span: unknown, body: () => T): T;
  leave(span: unknown, failure: unknown): void;
}

let watcher: DefinitionWatcher | undefined;

/** Tells `watch` of every call to a definition with a purpose from now on (undefined: nobody). */
export function watchDefinitions(watch: DefinitionWatcher | undefined): void {
  watcher = watch;
}

/** What `enter` gives back: the depth, or, for a call the watcher heard of, the depth with the watcher's span. */
type Handle = number | { readonly depth: number; readonly span: unknown };

const depthOf = (handle: Handle): number => (typeof handle === "number" ? handle : handle.depth);

/** The run has read or decided on guarded data its guards keep from the console (run-main.ts conceals its steps). */
const concealing = (): boolean => refusal(join(flow.read, flow.decided), CONSOLE_SINK) !== undefined;

/**
 * What a program compiled with narration calls around each named function:
 * `enter` when it is called (gives back the depth it was called at), then
 * `leave` with its result or `fail` with what it threw; `caught` where an
 * `otherwise` catches a failure. Each does nothing when the run is not narrated.
 */
export const narration = {
  enter(purpose: string | null, name: string, names: readonly string[], values: readonly unknown[]): Handle {
    const depth = S.depth;
    const handle: Handle =
      watcher === undefined || purpose === null || concealing() ? depth : { depth, span: watcher.enter(purpose, name) };
    if (narrator === undefined) return handle;
    const args = names.map((n, i) => `${n}: ${shown(values[i])}`).join(", ");
    narrator.line(
      depth,
      purpose === null ? `${name}(${args})` : `${purpose} (${name}${args === "" ? "" : `, ${args}`})`,
    );
    return handle;
  },
  /** The definition's body, run inside its span when there is one. */
  within<T>(handle: Handle, body: () => T): T {
    return typeof handle === "number" || watcher === undefined ? body() : watcher.within(handle.span, body);
  },
  leave(handle: Handle, value: unknown): void {
    if (typeof handle !== "number") watcher?.leave(handle.span, undefined);
    // A function that gives back nothing has no result line.
    if (narrator === undefined || value === null || value === undefined) return;
    narrator.line(depthOf(handle) + 1, `-> ${shown(value)}`);
  },
  fail(handle: Handle, e: unknown): void {
    if (typeof handle !== "number") watcher?.leave(handle.span, e);
    if (narrator === undefined || e instanceof Cancelled) return;
    const text = failureText(e);
    if (text !== undefined) narrator.failed(depthOf(handle) + 1, text, e);
  },
  caught(e: unknown, where: string): void {
    narrator?.caught(e, where);
  },
};
