// The capability gateway: the one function through which every effect of a
// compiled program passes (spec/effects.md, section 1). In order:
// cancellation, the running request's time and the host-call limit; the grant, innermost first; the
// guards (what the arguments carry may go where the call goes, origins.ts); the budget; the call itself (live,
// or answered by the run's replayer, which takes no budget: spec/recording.md);
// then the observers (recording), which the run's configuration lists
// (run-main.ts), and the narrator of a narrated run (narration.ts). A durable
// run (durable.ts) takes its shared budgets before a live call, and waits for
// the call's entry to be kept before the program sees how it ended.

import { Cancelled, Crash, Failure, GuardRefusal } from "./errors.js";
import { budgetsOf, carriedBy, needText, refusing, type Grant } from "./grants.js";
import {
  flow,
  guardedPart,
  guarding,
  guardsCovering,
  hostAsWritten,
  hostOfCall,
  hostScoped,
  join,
  mayLookUp,
  pathScoped,
  realScopeOfCall,
  redactedRead,
  refusal,
  takeRedactedTexts,
  tracking,
  type CallOrigins,
  type CallPlace,
} from "./origins.js";
import type { Need } from "../vocabulary/needs.js";
import { cancellableAwait, checkCancelled, checkTask, S } from "./limits.js";
import { conforms } from "./conforms.js";
import { shapeText } from "./json.js";
import { effectNarrator, type EffectNarration } from "./narration.js";
import type { Primitive, TransactionEnd } from "./primitive.js";

export type { Primitive };

export interface CallRecord {
  readonly primitive: string;
  /** The capability the call used, with its scope. */
  readonly need: Need;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly outcome: { success: unknown } | { failure: unknown };
  readonly durationMs: number;
  /** Answered from a recording rather than performed (a replay, or a resumed run before it went live). */
  readonly replayed?: true;
  /**
   * Its arguments carried origins (a run with guards): its scope may be made of guarded data, and the execution record
   * does not show it.
   */
  readonly guarded?: true;
  /** A guard's capability covers the call: what it gave back is guarded data (a recording for `renyi mcp` seals it). */
  readonly guardedResult?: true;
  /** The number of the transaction the call was made in, or of the transaction it is (spec/recording.md, "Transactions"). */
  readonly transaction?: number;
  /** A transaction's call: how it ended. */
  readonly ended?: TransactionEnd;
  /** The texts of its arguments that came from a redacted name (a run that redacts: spec/recording.md, "Redaction"). */
  readonly redactedParts?: ReadonlySet<string>;
  /** The texts the library computed from a redacted value since the call before (origins.ts, noteRedactedText). */
  readonly redactedTexts?: readonly string[];
}

export type Observer = (call: CallRecord) => void;

/** The run's observers as one function: undefined when there are none, so that a call without them measures no time. */
let observer: Observer | undefined;

/** Every call from now on is shown to each of `observers`, in order. */
export function observeWith(observers: readonly Observer[]): void {
  const all = [...observers];
  observer =
    all.length === 0
      ? undefined
      : all.length === 1
        ? all[0]
        : (call) => {
            for (const each of all) each(call);
          };
}

/**
 * Answers a call instead of performing it (a replay): what the call gives back,
 * or a throw; or LIVE, for a call to be made live after all, budget included (a
 * resumed run, once it has gone live). `perform` is the live call, for what a
 * replay still does (the console of `renyi reproduce`).
 */
export type Answerer = (
  primitive: Primitive,
  args: Readonly<Record<string, unknown>>,
  perform: () => unknown,
  /** The call's arguments carry guarded data (origins). */
  guarded: boolean,
  /** The texts of its arguments that came from a redacted name, in a run that redacts. */
  redactedParts?: ReadonlySet<string>,
) => unknown;

/** What an answerer gives back for a call it does not answer: the gateway makes it live. */
export const LIVE: unique symbol = Symbol("live");

let answerer: Answerer | undefined;

/** Every call from now on is answered by `answer` instead of performed (undefined: live again). */
export function answerWith(answer: Answerer | undefined): void {
  answerer = answer;
}

/**
 * A durable run's hooks (spec/durable.md, "The run side"), set before it starts; undefined in any other run, which
 * pays one test of a variable for them, on the watched path alone.
 */
export interface DurableHooks {
  /**
   * Before a live call: the shared budgets that cover it, as the refusal names them, and the endpoint's answer (false:
   * one of them is spent); undefined when none covers it.
   */
  readonly take: (need: Need) => { readonly budget: string; readonly answer: Promise<boolean> } | undefined;
  /** After a live call is observed: what to await before the program sees how it ended (its entry journaled), if anything. */
  readonly kept: (primitive: string) => Promise<void> | undefined;
  /** `time.sleep` of `ms` on the endpoint's durable timer. */
  readonly sleep: (ms: number) => Promise<void>;
  /** Whether a shared budget covers the need (whether it refuses depends on how many calls were made before it). */
  readonly budgeted: (need: Need) => boolean;
}

let durable: DurableHooks | undefined;

/** The run from now on is one attempt of a durable invocation (undefined: it is not). */
export function durableWith(hooks: DurableHooks | undefined): void {
  durable = hooks;
}

/** A durable run's sleep of `ms` (cancellation ends it), or undefined in any other run, which sleeps on its own timer. */
export function durableSleep(ms: number): Promise<void> | undefined {
  return durable === undefined || !(ms > 0) ? undefined : cancellableAwait(durable.sleep(ms));
}

/** The narrator of a narrated run (`--explain`), set before the run starts; undefined otherwise. */
let narrator: EffectNarration | undefined;

/** Takes the run's narrator, if it has one (run-main.ts, after configureNarration). */
export function narrateEffects(): void {
  narrator = effectNarrator();
}

export function call<T>(
  grant: Grant | undefined,
  primitive: Primitive,
  args: Record<string, unknown>,
  perform: () => T | Promise<T>,
): Promise<T> {
  // The common case: a live call that nothing records, replays, narrates or guards. The same
  // checks in the same order, without an async function's frame, which was the largest part of
  // a cheap call (bench/RESULTS.md, the gateway); what throws is the call's rejection, as before.
  if (answerer === undefined && observer === undefined && narrator === undefined && !tracking()) {
    try {
      admit(grant, primitive);
      if (grant !== undefined) takeBudget(grant, primitive);
      const live = perform();
      if (live instanceof Promise) return settled(live, primitive);
      return Promise.resolve(primitive.madeConforming ? live : conforming(live, primitive));
    } catch (e) {
      return Promise.reject(e);
    }
  }
  return callWatched(grant, primitive, args, perform);
}

/**
 * Cancellation, the task's time and memory, the host-call limit and the grant, innermost first: what every call passes
 * first.
 */
function admit(grant: Grant | undefined, primitive: Primitive): void {
  checkCancelled();
  checkTask();
  if (++S.hostCalls > S.maxHostCalls) {
    throw new Crash("E-RT-LIMIT-HOST-CALLS", { limit: S.maxHostCalls });
  }
  const refused = refusing(grant, primitive.need);
  if (refused !== undefined) {
    if (primitive.denied !== undefined) throw new Failure(primitive.denied(refused));
    // A scope made of guarded data is not shown: the capability alone is named.
    const carried = tracking() && grant !== undefined ? carriedBy(grant) : undefined;
    const need = carried?.args !== undefined ? needText({ path: primitive.need.path }) : needText(primitive.need);
    throw new Crash("E-RT-PERMISSION", { call: primitive.name.replace(/^std\./, ""), need, owner: refused.owner });
  }
}

/** The budgets the call counts under (a live call's only: a replayed one takes none). */
function takeBudget(grant: Grant, primitive: Primitive): void {
  const budget = budgetsOf(grant).take(primitive.need);
  if (!budget.ok) {
    if (primitive.overBudget !== undefined) throw new Failure(primitive.overBudget());
    throw new Crash("E-RT-BUDGET", { call: primitive.name.replace(/^std\./, ""), budget: budget.budget });
  }
}

/** What a call gave back, checked against the primitive's declared result type. */
function conforming<T>(result: T, primitive: Primitive): T {
  if (primitive.result !== undefined && !conforms(result, primitive.result)) {
    throw new Crash("E-RT-INTERNAL", { problem: "result", call: primitive.name, shape: shapeText(primitive.result) });
  }
  return result;
}

async function settled<T>(live: Promise<T>, primitive: Primitive): Promise<T> {
  try {
    return conforming(await live, primitive);
  } catch (e) {
    throw placed(e);
  }
}

/**
 * A cancellation that came while the program waited on a call (a sleep, a request in flight):
 * made again here, where its stack goes on through the program's awaiting functions, so
 * that the run ends at the place it had reached, as one seen at a step does. The one the
 * wait threw was made in a timer, which knows nothing of the program.
 */
function placed(e: unknown): unknown {
  return e instanceof Cancelled ? new Cancelled(e.reason) : e;
}

/** A call that is recorded, replayed, narrated or guarded. */
async function callWatched<T>(
  grant: Grant | undefined,
  primitive: Primitive,
  args: Record<string, unknown>,
  perform: () => T | Promise<T>,
): Promise<T> {
  admit(grant, primitive);
  // The guards: what the call's arguments carry must be allowed to go where the call goes
  // (for a path, where it really leads, read before the check and again for the result;
  // for a host, its addresses, resolved once per run, which the connection is then pinned to).
  const place = guarding() ? await placeOf(primitive.need, grant) : undefined;
  const origins = tracking() ? callOrigins(grant!, primitive, place) : undefined;
  // A replay's answer first: the recorded outcome, or LIVE.
  const answered =
    answerer === undefined
      ? LIVE
      : answerFromRecording(primitive, args, perform, guardedPart(origins?.args) !== undefined, origins?.redactedParts);
  if (origins !== undefined && (flow.decided !== undefined || flow.read !== undefined))
    afterDecisions(grant!, primitive, origins);
  if (grant !== undefined && answered === LIVE) takeBudget(grant, primitive); // refusing() has proved it a Grant
  if (durable !== undefined) await durableBudgets(durable, grant, primitive, answered === LIVE);
  const replayed = answered === LIVE ? undefined : true;
  // Narration reads the depth where the call is made, and a replay's recorded duration, before anything else runs.
  const narrating = narrator === undefined ? undefined : narrator.begin(replayed === true);
  const started = observer === undefined && narrating === undefined ? 0 : performance.now();
  // The guards whose capability covers the call: what it gives back (or fails with) carries them.
  const covering = origins !== undefined ? guardsCovering(primitive.need, place) : undefined;
  if (covering !== undefined) flow.read = join(flow.read, covering);
  // A redacted name read: what it gives back carries the redacted origin (never added to what the run has read).
  const fromRedacted = origins !== undefined ? redactedRead(primitive.need) : undefined;
  try {
    // A primitive that answers at once (environment.get, time.now) is not awaited: a promise's turn was a large part of
    // such a call.
    const live = answered === LIVE ? perform() : undefined;
    const result = (
      answered === LIVE
        ? live instanceof Promise
          ? await live
          : live
        : answered === THREW
          ? rethrow()
          : await answered
    ) as T;
    if (origins !== undefined) origins.result = join(join(origins.result, covering), fromRedacted);
    conforming(result, primitive);
    observer?.({
      primitive: primitive.name,
      need: primitive.need,
      arguments: args,
      outcome: { success: result },
      durationMs: performance.now() - started,
      ...marks(replayed, origins, covering),
      ...transactionMarks(primitive),
    });
    if (narrating !== undefined)
      narrator!.end(narrating, primitive, args, { success: result }, performance.now() - started);
    if (durable !== undefined && answered === LIVE) {
      // Returned, not awaited: what the wait throws (a cancellation) is not the call's failure.
      const keeping = durable.kept(primitive.name);
      if (keeping !== undefined) return cancellableAwait(keeping).then(() => result);
    }
    return result;
  } catch (e) {
    // A failure's value (a response's status and body) came through the capability too.
    if (origins !== undefined) origins.result = join(join(origins.result, covering), fromRedacted);
    observer?.({
      primitive: primitive.name,
      need: primitive.need,
      arguments: args,
      outcome: { failure: e },
      durationMs: performance.now() - started,
      ...marks(replayed, origins, covering),
      ...transactionMarks(primitive),
    });
    if (narrating !== undefined) narrator!.end(narrating, primitive, args, { failure: e }, performance.now() - started);
    if (durable !== undefined && answered === LIVE) {
      const keeping = durable.kept(primitive.name);
      if (keeping !== undefined)
        return cancellableAwait(keeping).then(() => {
          throw placed(e);
        });
    }
    throw placed(e);
  }
}

/**
 * A durable run's budgets: a call answered from the journal counts under the run's own budgets, never refused (it was
 * live in an attempt before); a live one takes the shared budgets that cover it, refused as the run's own budget refuses.
 */
async function durableBudgets(
  hooks: DurableHooks,
  grant: Grant | undefined,
  primitive: Primitive,
  live: boolean,
): Promise<void> {
  if (!live) {
    if (grant !== undefined) budgetsOf(grant).count(primitive.need);
    return;
  }
  const asked = hooks.take(primitive.need);
  if (asked === undefined || (await cancellableAwait(asked.answer))) return;
  if (primitive.overBudget !== undefined) throw new Failure(primitive.overBudget());
  throw new Crash("E-RT-BUDGET", { call: primitive.name.replace(/^std\./, ""), budget: asked.budget });
}

/**
 * A call made after a run with guards read or decided on guarded data: the time it reads
 * carries both (a loop's length on a secret, work a secret sized); whether a budget lets
 * it through depends on how many calls they made before it, so its failure carries them
 * and an `otherwise` that goes on after it gathers them (spec/runtime.md, "Decisions on
 * guarded data").
 */
function afterDecisions(grant: Grant, primitive: Primitive, origins: CallOrigins): void {
  // The clock times the work the guarded data it read sized too (a text repeated as many times as a secret says).
  // The redacted origin is no guard's: the clock and a budget's count carry none of it.
  const decided = guardedPart(flow.decided);
  if (primitive.readsClock) origins.result = join(origins.result, guardedPart(join(decided, flow.read)));
  if (
    decided !== undefined &&
    (budgetsOf(grant).budgeted(primitive.need) || durable?.budgeted(primitive.need) === true)
  ) {
    origins.cell?.add(decided);
    origins.failing = join(origins.failing, decided);
  }
}

/** Where a scoped call leads, for the guards: a path's real path, a host's addresses; undefined for any other. */
async function placeOf(need: Need, grant: Grant | undefined): Promise<CallPlace | undefined> {
  if (pathScoped(need)) return { real: await realScopeOfCall(String(need.scope)) };
  if (!hostScoped(need)) return undefined;
  // A name made of guarded data is asked of no resolver unless it is a sink's (origins.ts, mayLookUp).
  const carries = grant !== undefined && guardedPart(carriedBy(grant)?.args) !== undefined;
  return {
    host: mayLookUp(String(need.scope), carries)
      ? await hostOfCall(String(need.scope))
      : hostAsWritten(String(need.scope)),
  };
}

/**
 * What an observer is told of a call beside its values: answered from a recording, its arguments guarded, its result
 * guarded.
 */
function marks(
  replayed: true | undefined,
  origins: CallOrigins | undefined,
  covering: unknown,
): Pick<CallRecord, "replayed" | "guarded" | "guardedResult" | "redactedParts" | "redactedTexts"> {
  const texts = origins !== undefined ? takeRedactedTexts() : undefined;
  return {
    ...(texts !== undefined && { redactedTexts: texts }),
    ...(replayed && { replayed }),
    ...(guardedPart(origins?.args) !== undefined && { guarded: true }),
    ...(covering !== undefined && { guardedResult: true }),
    ...(origins?.redactedParts !== undefined && { redactedParts: origins.redactedParts }),
  };
}

/** What an observer is told of a transaction's call, or of a statement made inside one. */
function transactionMarks(primitive: Primitive): Pick<CallRecord, "transaction" | "ended"> {
  const t = primitive.transaction;
  if (t !== undefined) return t.number === undefined ? {} : { transaction: t.number, ended: t.ended ?? "rolled back" };
  return primitive.inTransaction === undefined ? {} : { transaction: primitive.inTransaction };
}

/**
 * The origins a call of a guarded run carries (its library call's, on the grant
 * it was given), checked against the call's effect before the budget and the call:
 * a guard that does not allow it refuses the call, which fails with
 * its own failure type's `Guarded(origin, sink)` when it can fail (a value of the
 * type the checker knows, which an exhaustive match has an arm for) and ends the
 * run with E-RT-GUARD when it cannot. Every call of compiled code carries them; one that does not was made
 * by the runtime itself, outside the library's entry points, and is refused as a
 * fault of Renyi's rather than let through unchecked.
 */
function callOrigins(grant: Grant, primitive: Primitive, place: CallPlace | undefined): CallOrigins {
  const carried = carriedBy(grant);
  if (carried === undefined)
    throw new Crash("E-RT-INTERNAL", {
      problem: "thrown",
      detail: `${primitive.name} was called without its arguments' origins in a run with guards`,
    });
  const refused = refusal(carried.args, primitive.need, place);
  if (refused !== undefined) {
    if (primitive.refusedByGuard !== undefined)
      throw new GuardRefusal(primitive.refusedByGuard(refused.origin, refused.sink));
    throw new Crash("E-RT-GUARD", { call: primitive.name.replace(/^std\./, ""), ...refused });
  }
  return carried;
}

/** What the answerer threw: read right after it is set, with no await in between, and then forgotten. */
let thrownByAnswerer: unknown;
const THREW: unique symbol = Symbol("threw");

/**
 * The answerer's answer, or LIVE, or THREW for what it threw (reported to the observers as the call's failure); a
 * replay allocates nothing here.
 */
function answerFromRecording(
  primitive: Primitive,
  args: Record<string, unknown>,
  perform: () => unknown,
  guarded: boolean,
  redactedParts: ReadonlySet<string> | undefined,
): unknown {
  try {
    return answerer!(primitive, args, perform, guarded, redactedParts);
  } catch (e) {
    thrownByAnswerer = e;
    return THREW;
  }
}

function rethrow(): never {
  const e = thrownByAnswerer;
  thrownByAnswerer = undefined;
  throw e;
}
