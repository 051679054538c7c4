// The journal queue (spec/durable.md, "The journal"): what a run asks of the
// endpoint is journaled one step at a time, in order, so that a later
// attempt's read loop can issue the same commands in the same order. A step
// is one `ctx.run`: a batch of every `keep` waiting (each answered `kept` once
// the batch is in the journal, never before), the marker of a sleep or of a
// shared budget (followed at once by its Sleep or its call of the budget
// object), or the run's end.
//
// The SDK follows one awaited promise at a time (settle.ts), so the queue is
// one loop awaiting one race: the next step's `ctx.run` (whose closure waits
// for the run to ask something), the timers and budget calls not yet answered,
// and the awakeable a cancellation rejects. A race is fixed once awaited, so
// whatever it must hear of is in it from the start, or added right after a
// step (which settles it).

import "./polyfill.js";
import * as restate from "@restatedev/restate-sdk";
import {
  JOURNAL_RUN_NAME,
  type BudgetRequest,
  type JournalEnd,
  type SharedBudget,
  type ToDurableRun,
} from "../../vocabulary/durable.js";
import type { RecordedCall } from "../../vocabulary/recording.js";
import { budgetCall, durableSleep, type PendingSleeps } from "./journal-read.js";
import type { Settler } from "./settle.js";

type Step =
  | { kind: "keep"; id: number; calls: RecordedCall[] }
  | { kind: "sleep"; id: number; ms: number }
  | { kind: "budget"; take: Take; key: string; request: BudgetRequest }
  | { kind: "end"; entry: JournalEnd };

/** A `take` of several budgets: answered once each has answered, ok when every one allowed the call. */
interface Take {
  readonly id: number;
  left: number;
  ok: boolean;
}

type Settled = { readonly tag: string; readonly value?: unknown; readonly failure?: unknown };

export class JournalQueue {
  /** Every call the journal holds so far, in journal order: what a run started again is given. */
  readonly journaled: RecordedCall[];
  /** Told when a timer of `ms` the run waits on is journaled and running (the handler may give up the run's process). */
  onTimer: ((ms: number) => void) | undefined;
  private readonly steps: Step[] = [];
  private wake: (() => void) | undefined;
  /** The steps the `ctx.run` running now is journaling. */
  private current: Step[] = [];
  /** What is awaited beside the next step, by tag, each with what to do when it settles. */
  private readonly others = new Map<string, { promise: restate.RestatePromise<Settled>; then: (s: Settled) => void }>();
  private tags = 0;

  constructor(
    private readonly ctx: restate.Context,
    private readonly settler: Settler,
    private readonly answer: (message: ToDurableRun) => void,
    private readonly sleeps: PendingSleeps,
    private readonly shared: readonly SharedBudget[],
    cancellation: restate.RestatePromise<unknown>,
    journaled: readonly RecordedCall[],
  ) {
    this.journaled = [...journaled];
    this.await(cancellation, () => this.settler.noteCancel());
    // Awaited from the start: what the loop awaits is fixed until something in it settles.
    for (const timer of sleeps.pending)
      this.await(timer.fired, () => {
        timer.done = true;
        if (timer.waiter !== undefined) this.answer({ woke: timer.waiter });
      });
  }

  /** Live calls the run completed: journaled in the next batch, then answered. */
  keep(id: number, calls: RecordedCall[]): void {
    this.push({ kind: "keep", id, calls });
  }

  /** A durable timer: an earlier attempt's of the same length if one is pending, else a new one journaled. */
  sleep(id: number, ms: number): void {
    const earlier = this.sleeps.take(ms);
    if (earlier === undefined) this.push({ kind: "sleep", id, ms });
    else {
      earlier.waiter = id;
      if (earlier.done) this.answer({ woke: id });
      else this.onTimer?.(ms);
    }
  }

  /** One of each shared budget named, taken from the budget object. A key the run was never given allows nothing. */
  take(id: number, keys: readonly string[]): void {
    const budgets = keys.map((key) => this.shared.find((b) => b.key === key));
    if (budgets.length === 0 || budgets.some((b) => b === undefined)) {
      this.answer({ taken: id, ok: false });
      return;
    }
    const take: Take = { id, left: budgets.length, ok: true };
    for (const b of budgets as SharedBudget[])
      this.push({ kind: "budget", take, key: b.key, request: { count: b.count, unit: b.unit } });
  }

  /** A run (started again after its process was given up) begins: timers no run waits on now may be taken by its sleeps. */
  begun(): void {
    for (const timer of this.sleeps.pending) delete timer.waiter;
  }

  /** The run has ended: its end is the last step. */
  end(entry: JournalEnd): void {
    this.push({ kind: "end", entry });
  }

  /** Journals every step until the end's; rethrows what ends the attempt. */
  async serve(): Promise<void> {
    let next = this.nextStep();
    for (;;) {
      const waiting = [next, ...[...this.others.values()].map((o) => o.promise)];
      const settled = await this.settler.settle(restate.RestatePromise.race(waiting));
      if (settled.tag !== "step") {
        const other = this.others.get(settled.tag);
        this.others.delete(settled.tag);
        other?.then(settled);
        continue;
      }
      if (settled.failure !== undefined) throw settled.failure;
      const steps = this.current;
      for (const step of steps) this.done(step, settled.value);
      if (steps.some((s) => s.kind === "end")) return;
      next = this.nextStep();
    }
  }

  /** What follows a step once it is in the journal, at once, before the next step. */
  private done(step: Step, entry: unknown): void {
    switch (step.kind) {
      case "keep":
        this.journaled.push(...step.calls);
        // A sleep call in the journal has spent its timer, as the read loop counts it.
        for (const call of step.calls) if (call.primitive === "std.time.sleep") this.sleeps.spend();
        this.answer({ kept: step.id });
        return;
      case "sleep": {
        const until = (entry as { sleep: { until: number } }).sleep.until;
        const fired = durableSleep(this.ctx, until);
        // Kept among the pending timers, so that a run started again while it runs waits on it rather than a new one.
        const timer = this.sleeps.add(step.ms, fired);
        timer.waiter = step.id;
        this.await(fired, () => {
          timer.done = true;
          if (timer.waiter !== undefined) this.answer({ woke: timer.waiter });
        });
        this.onTimer?.(step.ms);
        return;
      }
      case "budget":
        this.await(budgetCall(this.ctx, step.key, step.request), (s) => {
          const ok = (s.value as { ok?: unknown } | undefined)?.ok === true;
          step.take.ok &&= ok;
          if (--step.take.left === 0) this.answer({ taken: step.take.id, ok: step.take.ok });
        });
        return;
      case "end":
        return;
    }
  }

  /** The next step's `ctx.run`: its closure waits for a step, and journals it (every keep waiting, as one batch). */
  private nextStep(): restate.RestatePromise<Settled> {
    return this.ctx
      .run(JOURNAL_RUN_NAME, async () => {
        while (this.steps.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
        const first = this.steps[0]!;
        if (first.kind === "keep") {
          const keeps = this.steps.filter((s) => s.kind === "keep");
          this.steps.splice(0, this.steps.length, ...this.steps.filter((s) => s.kind !== "keep"));
          this.current = keeps;
          return { calls: keeps.flatMap((k) => k.calls) };
        }
        this.steps.shift();
        this.current = [first];
        switch (first.kind) {
          case "sleep":
            return { sleep: { ms: first.ms, until: Date.now() + first.ms } };
          case "budget":
            return { budget: { key: first.key, request: first.request } };
          case "end":
            return first.entry;
        }
      })
      .map((value, failure) => ({ tag: "step", value, failure }));
  }

  private await(promise: restate.RestatePromise<unknown>, then: (s: Settled) => void): void {
    const tag = `t${++this.tags}`;
    this.others.set(tag, { promise: promise.map((value, failure) => ({ tag, value, failure })), then });
  }

  private push(step: Step): void {
    this.steps.push(step);
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
