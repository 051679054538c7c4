// One attempt of a durable run (spec/durable.md, "The run side"), on the
// program's thread: the gateway's hooks (gateway.ts, DurableHooks) made of the
// messages to the endpoint and its answers. A live call's entry is sent to be
// kept as the recorder makes it; the gateway then waits for `kept` before the
// program sees how the call ended (a console line does not wait). `time.sleep`
// waits for `woke`; a live call covered by shared budgets waits for `taken`.

import { covers } from "../vocabulary/capabilities.js";
import { needText, type Need } from "../vocabulary/needs.js";
import type { SharedBudget, ToDurableRun } from "../vocabulary/durable.js";
import type { DurableHooks } from "./gateway.js";

/** What the attempt asks the endpoint (through the main thread), besides the entries it sends to be kept. */
export type DurableAsk =
  | { readonly sleep: { id: number; ms: number } }
  | { readonly take: { id: number; keys: string[] } };

/** The console's calls: kept without waiting, since the program reads nothing back from them. */
const CONSOLE = new Set(["std.console.print", "std.console.error"]);

export class DurableAttempt {
  private nextId = 1;
  /** The answers awaited, by the id of what asked for them. */
  private readonly waiting = new Map<number, (ok: boolean) => void>();
  /** The id of the entry the recorder has just sent to be kept, taken by the gateway's `kept` right after. */
  private sent: number | undefined;

  constructor(
    private readonly shared: readonly SharedBudget[],
    private readonly ask: (message: DurableAsk) => void,
  ) {}

  /** The id a live call's entry is sent to be kept with: the gateway waits for it next. */
  keepId(): number {
    this.sent = this.nextId++;
    return this.sent;
  }

  /** An answer of the endpoint's: what waited on its id goes on. An id nothing waits on is let be. */
  answer(reply: ToDurableRun): void {
    const id = "kept" in reply ? reply.kept : "woke" in reply ? reply.woke : "taken" in reply ? reply.taken : undefined;
    if (typeof id !== "number") return;
    const then = this.waiting.get(id);
    if (then === undefined) return;
    this.waiting.delete(id);
    then(!("ok" in reply) || reply.ok === true);
  }

  private awaited(id: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => void this.waiting.set(id, resolve));
  }

  readonly hooks: DurableHooks = {
    take: (need: Need) => {
      if (this.shared.length === 0) return undefined;
      const covering = this.shared.filter((b) => covers(b.need, need));
      if (covering.length === 0) return undefined;
      const id = this.nextId++;
      const answer = this.awaited(id);
      this.ask({ take: { id, keys: covering.map((b) => b.key) } });
      return {
        budget: covering.map((b) => `${needText(b.need)} at most ${b.count} per ${b.unit}`).join(" and "),
        answer,
      };
    },
    kept: (primitive: string) => {
      const id = this.sent;
      this.sent = undefined;
      if (id === undefined || CONSOLE.has(primitive)) return undefined;
      return this.awaited(id).then(() => undefined);
    },
    budgeted: (need: Need) => this.shared.some((b) => covers(b.need, need)),
    sleep: (ms: number) => {
      const id = this.nextId++;
      const woke = this.awaited(id);
      this.ask({ sleep: { id, ms } });
      return woke.then(() => undefined);
    },
  };
}
