// The journal queue (spec/durable.md, "The journal"): what a run asks of the
// endpoint is journaled one step at a time, in order, so that a later
// attempt's read loop can issue the same commands in the same order. A step
// is one `ctx.run`: a batch of every `keep` waiting (each answered `kept` once
// the batch is in the journal, never before), or the marker of a sleep or a
// shared budget followed at once by its Sleep or its call of the budget object.

import "./polyfill.js";
import type * as restate from "@restatedev/restate-sdk";
import { JOURNAL_RUN_NAME, type SharedBudget, type ToDurableRun } from "../../vocabulary/durable.js";
import type { RecordedCall } from "../../vocabulary/recording.js";
import { budgetCall, durableSleep, type PendingSleeps } from "./journal-read.js";

export class JournalQueue {
  private chain: Promise<void> = Promise.resolve();
  private waiting: { id: number; calls: RecordedCall[] }[] = [];
  private batching = false;
  /** The first step that failed (the attempt ended under it): the handler rethrows it. */
  failure: unknown;

  constructor(
    private readonly ctx: restate.Context,
    private readonly answer: (message: ToDurableRun) => void,
    private readonly sleeps: PendingSleeps,
    private readonly shared: readonly SharedBudget[],
  ) {}

  /** Live calls the run completed: journaled in the next batch, then answered. */
  keep(id: number, calls: RecordedCall[]): void {
    this.waiting.push({ id, calls });
    if (this.batching) return;
    this.batching = true;
    this.step(async () => {
      this.batching = false;
      const batch = this.waiting.splice(0);
      const all = batch.flatMap((b) => b.calls);
      await this.ctx.run(JOURNAL_RUN_NAME, () => ({ calls: all }));
      for (const b of batch) this.answer({ kept: b.id });
    });
  }

  /** A durable timer: an earlier attempt's of the same length if one is pending, else a new one journaled. */
  sleep(id: number, ms: number): void {
    const woke = () => this.answer({ woke: id });
    const earlier = this.sleeps.take(ms);
    if (earlier !== undefined) {
      earlier.then(woke, () => undefined);
      return;
    }
    this.step(async () => {
      const entry = await this.ctx.run(JOURNAL_RUN_NAME, () => ({ sleep: { ms, until: Date.now() + ms } }));
      durableSleep(this.ctx, entry.sleep.until).then(woke, () => undefined);
    });
  }

  /** One of each shared budget named, taken from the budget object: ok when every one allowed it. */
  take(id: number, keys: readonly string[]): void {
    const budgets = keys.map((key) => this.shared.find((b) => b.key === key));
    this.step(async () => {
      const answers: Promise<{ ok: boolean }>[] = [];
      for (const budget of budgets) {
        // A key the endpoint never gave the run allows nothing.
        if (budget === undefined) {
          answers.push(Promise.resolve({ ok: false }));
          continue;
        }
        const request = { count: budget.count, unit: budget.unit };
        await this.ctx.run(JOURNAL_RUN_NAME, () => ({ budget: { key: budget.key, request } }));
        answers.push(budgetCall(this.ctx, budget.key, request));
      }
      Promise.all(answers).then(
        (all) => this.answer({ taken: id, ok: all.every((a) => a.ok === true) }),
        () => undefined,
      );
    });
  }

  /** Once every step asked for so far is done. */
  async drained(): Promise<void> {
    for (;;) {
      const chain = this.chain;
      await chain;
      if (chain === this.chain) return;
    }
  }

  private step(work: () => Promise<void>): void {
    this.chain = this.chain.then(async () => {
      if (this.failure !== undefined) return;
      try {
        await work();
      } catch (e) {
        this.failure = e;
      }
    });
  }
}
