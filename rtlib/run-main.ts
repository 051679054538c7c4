// One way to run main, for `renyi run`'s worker and for `node DIR/NAME.mjs`
// alike: the run's limits, main's arguments from the command line, the root
// grant (narrowed by the command line), the observers of the gateway, then
// main, and what it threw as an outcome.

import { configureOffLimits } from "./lib/off-limits.js";
import { convertArguments, helpText, type MainParameter } from "./arguments.js";
import { Cancelled, Crash, engineLimit, Failure } from "./errors.js";
import { cancellationAsked, configureLimits, runTimeLimitMs, stepsUsed } from "./limits.js";
import type { GrantItem } from "./grants.js";
import { narrowByCommandLine } from "./command-line-grant.js";
import { NONE, some } from "./prelude.js";
import { toTextUncharged } from "./text.js";
import {
  answerWith,
  durableWith,
  narrateEffects,
  observeWith,
  type Answerer,
  type DurableHooks,
  type Observer,
} from "./gateway.js";
import { configureNarration, finishNarration, type NarrationConfig } from "./narration.js";
import { configureInput, configureOutput, writeOut } from "./output.js";
import { configureCollections } from "./limits-collections.js";
import { configureMemory } from "./limits-memory.js";
import { configureChildren } from "./children.js";
import type { OutcomeKind } from "../vocabulary/outcomes.js";
import { runMessage, type RunCode, type RunFacts } from "../vocabulary/problems/run.js";
import { serveWith } from "./serving.js";
import { configureHostLookup } from "./host-addresses.js";
import {
  configureGuards,
  configureRedaction,
  CONSOLE_SINK,
  flow,
  guardsOf,
  join,
  MAX_GUARDS,
  originsOf,
  plain,
  REDACTED_ORIGIN,
  redactedOption,
  refusal,
  tag,
  tracking,
} from "./origins.js";
import { recordedOverBudget } from "./recording/budget-check.js";
import type { RecordedCall } from "../vocabulary/recording.js";

/** What a compiled program gives the driver: main, its parameters and the grant it needs. */
export interface Program {
  readonly main?: (...args: unknown[]) => unknown;
  readonly mainParameters?: readonly MainParameter[];
  readonly mainGrant?: readonly GrantItem[] | null;
  /** main's `purpose:` line, shown by `--help`. */
  readonly mainPurpose?: string;
  /** Compiled with the origin operators, as a program that declares a guard is. */
  readonly origins?: boolean;
}

/**
 * How a run ended: what the worker sends the main thread, and what both ways of running report.
 * `concealed`: the run read or decided on guarded data its guards keep from the console, so its steps (0 here), and
 * where it ended when it decided, are not shown.
 */
export type Outcome =
  | { outcome: "finished"; steps: number; concealed?: true }
  | { outcome: "failed"; value: string; site?: string; steps: number; concealed?: true }
  | {
      outcome: "crashed";
      code: RunCode;
      message: string;
      site?: string;
      stack?: string;
      check?: CheckFacts;
      steps: number;
      concealed?: true;
    }
  | {
      /** Interrupted (Ctrl-C, a client's cancellation): a run past its time limit ends crashed, E-RT-TIMEOUT. */
      outcome: "cancelled";
      reason: string;
      site?: string;
      stack?: string;
      steps: number;
      concealed?: true;
    }
  | { outcome: "refused"; message: string; code?: RunCode };

/** A failed `check`: the check as written, and both sides' values as text (empty when it has no two sides). */
export interface CheckFacts {
  readonly kind: string;
  readonly expression: string;
  readonly left: string;
  readonly right: string;
}

// The outcomes are the vocabulary's kinds, no more and no fewer: a kind added on one side only does not compile.
const sameKinds: [Outcome["outcome"]] extends [OutcomeKind]
  ? [OutcomeKind] extends [Outcome["outcome"]]
    ? true
    : never
  : never = true;
void sameKinds;

/** The run's configuration, as one value: nothing of it is set before runMain is called. */
export interface RunConfig {
  /** The program's words (main's options). */
  readonly argv: readonly string[];
  /**
   * The compile cache's folder the command line uses (absolute): no filesystem call may reach it or its key
   * (off-limits.ts).
   */
  readonly cacheFolder?: string;
  readonly limits?: {
    readonly fuel?: number;
    readonly maxDepth?: number;
    /** Shared with the host: index 0 becomes 1 when interrupted, 2 at the deadline. */
    readonly cancel?: SharedArrayBuffer;
    /** The wall-time limit the host keeps with that deadline, in milliseconds: E-RT-TIMEOUT says it. */
    readonly timeoutMs?: number;
    /** The `performance.now()` past which the run is cancelled at its time limit, when no other thread keeps it. */
    readonly timeoutAt?: number;
    readonly requestFuel?: number;
    readonly requestTimeoutMs?: number;
    readonly maxHostCalls?: number;
    /** Elements in one list, map or set, and characters in one text: at most the defaults. */
    readonly maxCollection?: number;
    readonly maxText?: number;
    /** Lines and bytes on each of stdout and stderr before the output is truncated. */
    readonly maxOutputLines?: number;
    readonly maxOutputBytes?: number;
    /** MiB of live memory the program's thread may hold (rtlib/limits-memory.ts). */
    readonly maxMemoryMib?: number;
  };
  /**
   * The grant main runs with (null: main needs nothing): a bundle's, from its
   * manifest. Absent: the program's own.
   */
  readonly grant?: readonly GrantItem[] | null;
  /** The command line's narrowing: --allow-host and --at-most. */
  readonly allowHosts?: readonly string[];
  readonly atMost?: readonly string[];
  /** Who watches every call through the gateway (recording, narration); none by default. */
  readonly observers?: readonly Observer[];
  /** Answers every call from a recording instead of performing it (rtlib/recording/replayer.ts). */
  readonly replayer?: {
    readonly answer: Answerer;
    /** Why the recording may not be replayed under main's grant, or undefined. */
    checkGrant(items: readonly GrantItem[]): RunFacts<"E-RT-REPLAY-GRANT"> | undefined;
    /** Every call is answered (a replay, not a resumed run): no host name is looked up. */
    readonly offline?: boolean;
  };
  /** Narrate the run (`--explain`, spec/runtime.md, "Narrated runs"): where its lines go; none by default. */
  readonly narration?: NarrationConfig;
  /** One attempt of a durable run (`renyi run --durable`, spec/durable.md): the gateway's hooks to its endpoint. */
  readonly durable?: DurableHooks;
  /**
   * The names a recording is redacted under (`renyi record --redact`, or the replay of such a recording): in a program
   * compiled with the origin operators, what they give is tracked (origins.ts, "redaction").
   */
  readonly redact?: readonly string[];
  /** Told of the grant main runs with, once the command line has narrowed it (the run manifest lists it). */
  readonly onGrant?: (items: readonly GrantItem[]) => void;
  /** Told when the program first reads its input. */
  readonly onInput?: () => void;
  /** Told when a child process starts (running) or is gone. */
  readonly onChild?: (pid: number, running: boolean) => void;
  /** Told when a server starts listening, and of each request whose handler crashed or failed. */
  readonly onListening?: () => void;
  readonly onRequestCrash?: (outcome: Outcome) => void;
}

/**
 * Runs main under `config` and gives back how the run ended; never throws.
 * `program` may be a loader, called once the limits are set: what a program's
 * top level computes is counted as main's steps are.
 */
export async function runMain(program: Program | (() => Promise<Program>), config: RunConfig): Promise<Outcome> {
  timeOwner = undefined;
  try {
    return endOfDecisions(await runConfigured(program, config), "the run");
  } catch (e) {
    return endOfDecisions(runOutcomeOf(e), "the run");
  } finally {
    finishNarration();
  }
}

/**
 * How a run or a test ended, when it read or decided on guarded data that its guards
 * keep from the console (spec/runtime.md, "Decisions on guarded data"): its steps are
 * data of all it read, so none are shown; where and why a run that decided ended are
 * data of its decisions, so one that did not finish ends with E-RT-GUARD at no place;
 * a test ends with E-RT-GUARD whatever it did (its verdict is a decision too). What is
 * left is whether the run finished: the termination channel, a bit or two a run.
 */
function endOfDecisions(o: Outcome, whose: "the run" | "the test"): Outcome {
  if (o.outcome === "refused") return o;
  // The steps, and a test's verdict, tell of all the guarded data it read (a library function's cost on it, a check
  // that crashed on it); where a run ended, of what it decided (a decision, a crash the data caused).
  const read = refusal(join(flow.read, flow.decided), CONSOLE_SINK);
  if (read === undefined) return o;
  const decided = refusal(flow.decided, CONSOLE_SINK);
  // A time limit reached, as a cancellation, is the termination channel alone: it says nothing of where.
  const timedOut = o.outcome === "crashed" && o.code === "E-RT-TIMEOUT";
  if (
    whose === "the test" ||
    (decided !== undefined && o.outcome !== "finished" && o.outcome !== "cancelled" && !timedOut)
  ) {
    return {
      outcome: "crashed",
      code: "E-RT-GUARD",
      message: runMessage("E-RT-GUARD", { call: `how ${whose} ended`, ...(decided ?? read) }),
      steps: 0,
      concealed: true,
    };
  }
  if (o.outcome === "cancelled") return { outcome: "cancelled", reason: o.reason, steps: 0, concealed: true };
  if (timedOut) return { outcome: "crashed", code: o.code, message: o.message, steps: 0, concealed: true };
  return { ...o, steps: 0, concealed: true };
}

/** The limits and observers of a run, set before anything of the program runs. */
function configure(config: Omit<RunConfig, "argv">): void {
  configureGuards([]);
  if (config.cacheFolder !== undefined) configureOffLimits(config.cacheFolder);
  configureLimits(config.limits ?? {});
  configureCollections(config.limits ?? {});
  configureOutput(config.limits ?? {});
  configureMemory(config.limits ?? {});
  observeWith(config.observers ?? []);
  configureNarration(config.narration);
  narrateEffects();
  answerWith(config.replayer?.answer);
  durableWith(config.durable);
  configureHostLookup(config.replayer?.offline === true ? "offline" : "live");
  if (config.onInput !== undefined) configureInput(config.onInput);
  if (config.onChild !== undefined) configureChildren(config.onChild);
  if (config.onListening !== undefined || config.onRequestCrash !== undefined) {
    const { onListening, onRequestCrash } = config;
    serveWith({ listening: () => onListening?.(), crashed: (e) => onRequestCrash?.(outcomeOf(e)) });
  }
}

async function runConfigured(load: Program | (() => Promise<Program>), config: RunConfig): Promise<Outcome> {
  configure(config);
  const program = typeof load === "function" ? await load() : load;
  if (typeof program.main !== "function")
    return { outcome: "refused", message: "the program has no `main` function to run" };
  const args = convertArguments(program.mainParameters ?? [], config.argv, { none: NONE, some });
  if ("help" in args) {
    // `--help` after the program's file: its purpose and options, and main does not run.
    writeOut(helpText(program.mainPurpose, program.mainParameters ?? []));
    return { outcome: "finished", steps: 0 };
  }
  if (!args.ok) return { outcome: "refused", message: args.message };
  const items = config.grant !== undefined ? config.grant : (program.mainGrant ?? null);
  const python = items?.find((item) => item.path[0] === "python");
  if (python !== undefined)
    return { outcome: "refused", message: "main needs python, which this version of Renyi knows but does not run yet" };
  const guarded = startGuards(items ?? [], program.origins === true, "main's needs");
  if (guarded !== undefined) return guarded;
  const redacting = startRedaction(config.redact, program.origins === true);
  if (redacting !== undefined) return redacting;
  const grant = narrowByCommandLine(items ?? [], config.allowHosts ?? [], config.atMost ?? []);
  if (!grant.ok) return { outcome: "refused", message: grant.message };
  config.onGrant?.(grant.grant.items);
  const wider = config.replayer?.checkGrant(grant.grant.items);
  if (wider !== undefined)
    return { outcome: "refused", code: "E-RT-REPLAY-GRANT", message: runMessage("E-RT-REPLAY-GRANT", wider) };
  const values = tracking()
    ? args.values.map((v, i) => (redactedOption(program.mainParameters![i]!.name) ? tag(v, REDACTED_ORIGIN) : v))
    : args.values;
  await program.main(...(items === null ? [] : [grant.grant]), ...values);
  return { outcome: "finished", steps: stepsUsed() };
}

/**
 * The run's guards, from the declared grant (main's needs or the test's, before
 * the command line narrows it; a replay derives them the same way): refused past
 * 64, or when the program was compiled without the origin operators (a bundle
 * built by another compiler), since its values could not carry origins.
 */
function startGuards(items: readonly GrantItem[], compiledWithOrigins: boolean, whose: string): Outcome | undefined {
  const guards = guardsOf(items);
  if (guards === undefined)
    return {
      outcome: "refused",
      message:
        `${whose} declare ${items.filter((i) => i.guard !== undefined).length} guards (\`only to\`); a run may ` +
        `have at most ${MAX_GUARDS}`,
    };
  if (guards.length > 0 && !compiledWithOrigins)
    return {
      outcome: "refused",
      message:
        `${whose} declare guards (\`only to\`), but the program was compiled without the origins they need; ` +
        `compile it again with this version of Renyi`,
    };
  configureGuards(guards);
  return undefined;
}

/**
 * The names the run redacts, when the program was compiled with the origin operators (without them, what they give
 * cannot be followed, and the recording's search for their values is all there is).
 */
function startRedaction(names: readonly string[] | undefined, compiledWithOrigins: boolean): Outcome | undefined {
  if (names === undefined || names.length === 0 || !compiledWithOrigins) return undefined;
  if (configureRedaction(names)) return undefined;
  return {
    outcome: "refused",
    message: `main's needs declare ${MAX_GUARDS} guards (\`only to\`); a run with --redact may have at most ${MAX_GUARDS - 1}`,
  };
}

/** One `test` block of a compiled program, as its module's test table lists it. */
export interface TestCase {
  readonly name: string;
  readonly run: (grant: unknown) => unknown;
  /** The recording the test's effects are answered from (`replays "path"`), as written. */
  readonly replays: string | null;
  readonly grant: readonly GrantItem[];
}

/**
 * Runs one test as main is run (`renyi test`, in a thread of its own): the
 * limits and observers of `config`, and the test's own grant, built from its
 * needs alone, so that it reaches nothing they do not name. `pick` chooses the
 * test from the program's table once the program is loaded; `finished` is a
 * test that passed. Never throws.
 */
export async function runTest(
  load: () => Promise<{ readonly tests?: readonly TestCase[]; readonly origins?: boolean }>,
  pick: (tests: readonly TestCase[]) => TestCase | undefined,
  config: Omit<RunConfig, "argv" | "grant" | "allowHosts" | "atMost"> & {
    /**
     * A replays test's recorded calls: checked against the test's budgets before it runs (budgets are not enforced in a
     * replay).
     */
    readonly recorded?: readonly RecordedCall[];
  },
): Promise<Outcome> {
  timeOwner = "test";
  try {
    configure(config);
    configureMemory({ ...config.limits, memoryOwner: "test" });
    const loaded = await load();
    const test = pick(loaded.tests ?? []);
    if (test === undefined) return { outcome: "refused", message: "the compiled program has no such test" };
    const guarded = startGuards(test.grant, loaded.origins === true, "the test's needs");
    if (guarded !== undefined) return guarded;
    if (test.grant.some((item) => item.path[0] === "python"))
      return {
        outcome: "refused",
        message: "the test needs python, which this version of Renyi knows but does not run yet",
      };
    const grant = narrowByCommandLine(test.grant, [], []);
    if (!grant.ok) return { outcome: "refused", message: grant.message };
    config.onGrant?.(grant.grant.items);
    const wider = config.replayer?.checkGrant(grant.grant.items);
    if (wider !== undefined)
      return { outcome: "refused", code: "E-RT-REPLAY-GRANT", message: runMessage("E-RT-REPLAY-GRANT", wider) };
    const over = config.recorded === undefined ? undefined : recordedOverBudget(config.recorded, test.grant);
    if (over !== undefined)
      return {
        outcome: "crashed",
        code: "E-RT-REPLAY-BUDGET",
        message: runMessage("E-RT-REPLAY-BUDGET", over),
        steps: 0,
      };
    await test.run(grant.grant);
    return endOfDecisions({ outcome: "finished", steps: stepsUsed() }, "the test");
  } catch (e) {
    return endOfDecisions(runOutcomeOf(e), "the test");
  } finally {
    finishNarration();
  }
}

/**
 * What main threw, as the run's outcome: a run that stopped on a failure or a
 * crash after its cancellation was asked for (a request aborted, a child killed)
 * was cancelled, and ends so, at the error's place.
 */
export function runOutcomeOf(e: unknown): Outcome {
  const asked = cancellationAsked();
  if (asked !== undefined && (e instanceof Failure || e instanceof Crash)) {
    const place = {
      ...(e.site ? { site: e.site } : {}),
      ...(e instanceof Crash && e.stack ? { stack: e.stack } : {}),
    };
    if (asked.reason === "timeout") return timedOut(place, stepsUsed());
    return { outcome: "cancelled", reason: asked.reason, ...place, steps: stepsUsed() };
  }
  return outcomeOf(e);
}

/** Whose time limit E-RT-TIMEOUT names: a test's under `renyi test`, the run's otherwise. */
let timeOwner: "test" | undefined;

/**
 * A run (or a test) past its time limit: E-RT-TIMEOUT, a limit as fuel is, at the place it had
 * reached, which `place` holds (the compiled code's site, or a stack through the program).
 */
function timedOut(place: { site?: string; stack?: string }, steps: number): Outcome {
  const milliseconds = runTimeLimitMs();
  const facts = {
    ...(milliseconds === undefined ? {} : { milliseconds }),
    ...(timeOwner === undefined ? {} : { owner: timeOwner }),
  };
  return { outcome: "crashed", code: "E-RT-TIMEOUT", message: runMessage("E-RT-TIMEOUT", facts), ...place, steps };
}

/**
 * What main or a request's handler threw, as an outcome; anything unknown is an
 * internal error. A request's crash is reported as what it was, even when the run's
 * cancellation came while it was being reported.
 */
export function outcomeOf(e: unknown): Outcome {
  const steps = stepsUsed();
  if (e instanceof Cancelled) {
    const place = e.stack ? { stack: e.stack } : {};
    if (e.reason === "timeout") return timedOut(place, steps);
    return { outcome: "cancelled", reason: e.reason, ...place, steps };
  }
  if (e instanceof Failure) {
    // The failure's value leaves through the console: its guards must allow that.
    const refused = refusal(originsOf(e.value), CONSOLE_SINK);
    if (refused !== undefined)
      return {
        outcome: "crashed",
        code: "E-RT-GUARD",
        message: runMessage("E-RT-GUARD", { call: "the failure it ended with", ...refused }),
        ...(e.site ? { site: e.site } : {}),
        steps,
      };
    return { outcome: "failed", value: safeText(plain(e.value)), ...(e.site ? { site: e.site } : {}), steps };
  }
  if (e instanceof Crash) {
    const check = (e as Crash & { check?: CheckFacts }).check;
    return {
      outcome: "crashed",
      code: e.code,
      message: e.message,
      ...(e.site ? { site: e.site } : {}),
      ...(e.stack ? { stack: e.stack } : {}),
      ...(check ? { check } : {}),
      steps,
    };
  }
  const limit = engineLimit(e);
  if (limit !== undefined)
    return {
      outcome: "crashed",
      code: limit.code,
      message: limit.message,
      ...(limit.stack ? { stack: limit.stack } : {}),
      steps,
    };
  const error = e instanceof Error ? e : new Error(String(e));
  return {
    outcome: "crashed",
    code: "E-RT-INTERNAL",
    message: runMessage("E-RT-INTERNAL", { problem: "thrown", detail: error.message }),
    ...(error.stack ? { stack: error.stack } : {}),
    steps,
  };
}

function safeText(value: unknown): string {
  try {
    return toTextUncharged(value);
  } catch {
    return "<a value too long to show>";
  }
}
